//! Creatures summoned on the party's side (`state::summons`) in a fight: who they fight, who
//! fights them, and how they join a fight.
//!
//! - **Their turn** ([`plan`]): code decides, as for a hostile monster. The summon attacks
//!   (its Multiattack or best attack, `monster_plan::attack_choice`) the foe its caster
//!   commanded when that foe still fights here; else, when a word commands it (Conjure
//!   Animals), the foe the target rule picks ([`monster_plan::pick_target`]) among the hostile
//!   monsters of the fight it reaches, or among all when it reaches none (it moves toward the
//!   one picked); when a command costs its caster a bonus action (Animate Dead) and none was
//!   given, it only defends itself: it attacks a foe already in its reach and does not move.
//! - **Their foes' targets** ([`foes_of`]): a hostile monster picks among the standing heroes
//!   and the summons where it is, by the same rule.
//! - **Joining a fight** ([`summons_joining`]): the party's summons where it is roll initiative
//!   with everyone as a fight starts; one summoned during a fight joins the order at the
//!   initiative its group rolled then (`tools/spell_summons.rs`).

use super::monster_plan::{self, Plan};
use crate::rules::initiative::InitiativeRoll;
use crate::srd::Srd;
use crate::state::{GameState, MonsterInstance};

/// One creature a monster may attack: its id, hit points and AC now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foe {
    /// Its id.
    pub id: String,
    /// Its hit points.
    pub hp: u32,
    /// Its Armor Class now.
    pub armor_class: i32,
}

/// What a hostile monster `m` may attack: the standing heroes where it is (`heroes`), then the
/// creatures summoned on the party's side there.
pub fn foes_of(
    state: &GameState,
    m: &MonsterInstance,
    heroes: &[&crate::state::Character],
) -> Vec<Foe> {
    let mut foes: Vec<Foe> = heroes
        .iter()
        .map(|c| Foe {
            id: c.id.clone(),
            hp: c.hp.current,
            armor_class: c.armor_class,
        })
        .collect();
    foes.extend(
        state
            .monsters
            .iter()
            .filter(|s| s.is_summon() && s.is_fighting() && s.location == m.location)
            .map(|s| Foe {
                id: s.id.clone(),
                hp: s.hp.current,
                armor_class: s.armor_class_now(),
            }),
    );
    foes
}

/// The hostile monsters a summon fights: those of the running fight that still fight where it
/// stands.
fn hostile_foes(state: &GameState, m: &MonsterInstance) -> Vec<Foe> {
    let Some(encounter) = state.encounter.as_ref() else {
        return Vec::new();
    };
    encounter
        .order
        .iter()
        .filter_map(|slot| state.monster(&slot.id))
        .filter(|f| f.hostile && f.is_fighting() && f.location == m.location)
        .map(|f| Foe {
            id: f.id.clone(),
            hp: f.hp.current,
            armor_class: f.armor_class_now(),
        })
        .collect()
}

/// A summon's plan for its turn (see the module docs), or `None` when it has no foe to attack
/// (or, uncommanded under a bonus-action command, none in its reach).
pub fn plan(
    state: &GameState,
    srd: &Srd,
    monster: &str,
    in_reach: &dyn Fn(&str) -> bool,
) -> Option<Plan> {
    let m = state.monster(monster)?;
    // A creature that cannot attack (a familiar) takes no attack.
    let summoned = m
        .summoned
        .as_ref()
        .filter(|s| m.is_summon() && !s.no_attacks)?;
    let template = srd.monster(&m.template).ok()?;
    let (action, steps) = monster_plan::attack_choice(template)?;
    let foes = hostile_foes(state, m);
    if let Some(ordered) = &summoned.command
        && let Some(foe) = foes.iter().find(|f| f.id.eq_ignore_ascii_case(ordered))
    {
        return Some(Plan::Attack {
            action,
            target: foe.id.clone(),
        });
    }
    let reached: Vec<bool> = foes.iter().map(|f| in_reach(&f.id)).collect();
    let any_reached = reached.iter().any(|r| *r);
    // Uncommanded, a creature whose command costs a bonus action only defends itself.
    if summoned.bonus_action_command && !any_reached {
        return None;
    }
    let per_turn = steps
        .iter()
        .map(|(a, n)| n * monster_plan::damage_average(a))
        .sum();
    let picked = monster_plan::pick_target(
        foes.iter()
            .enumerate()
            .filter(|(i, _)| reached[*i] || !any_reached)
            .map(|(i, f)| (i, f.hp, f.armor_class)),
        per_turn,
    )?;
    Some(Plan::Attack {
        action,
        target: foes[picked].id.clone(),
    })
}

/// The summons among `allies` that roll no initiative of their own, each with the one it follows
/// (the first creature of the same caster's same spell): `(follower, leader)` ids.
pub fn followers(allies: &[&MonsterInstance]) -> Vec<(String, String)> {
    let group = |m: &MonsterInstance| m.summoned.as_ref().map(|s| (s.by.clone(), s.spell.clone()));
    allies
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let leader = allies[..i].iter().find(|l| group(l) == group(m))?;
            Some((m.id.clone(), leader.id.clone()))
        })
        .collect()
}

/// Puts each follower right after its leader in the order, with the leader's roll.
pub fn follow(rolls: &mut Vec<InitiativeRoll>, followers: &[(String, String)]) {
    for (follower, leader) in followers.iter().rev() {
        if let Some(i) = rolls.iter().position(|r| r.id == *leader) {
            let roll = InitiativeRoll {
                id: follower.clone(),
                ..rolls[i].clone()
            };
            rolls.insert(i + 1, roll);
        }
    }
}

/// The party's summons where it is that are not among `monsters`: they join a fight as it
/// starts.
pub fn summons_joining<'s>(
    state: &'s GameState,
    monsters: &[&MonsterInstance],
) -> Vec<&'s MonsterInstance> {
    let here = state.party_location().map(|l| l.id.as_str());
    state
        .monsters
        .iter()
        .filter(|m| m.is_summon() && m.is_fighting() && Some(m.location.as_str()) == here)
        .filter(|m| !monsters.iter().any(|x| x.id == m.id))
        .collect()
}
