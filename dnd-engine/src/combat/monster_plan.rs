//! A monster's turn, decided by code from its stat block and the state: the same rules and the
//! same gate (`may_act`) as a hero's turn, so a monster never does what a hero could not.
//!
//! The rules, in the order a turn applies them (the tools play them: `tools::monster_turn`):
//!
//! 1. **Recharge.** At the start of its turn each spent action with "Recharge N–6" rolls a d6
//!    ([`recharge_rolls`]); on N or more it is usable again ([`Change::ActionRecharged`]).
//! 2. **Morale** ([`morale`]; the rule over numbers is [`breaks`], which the encounter
//!    simulator calls too). A monster breaks when it is below a quarter of its hit point
//!    maximum and no other monster of the fight still stands with it (dead, fled and
//!    surrendered allies do not count). It flees if it can move (it can act and its speed is
//!    above 0), else surrenders if it has the wits to (Intelligence 6 or more), else fights on.
//!    Undead, constructs, oozes and plants never break: they are driven, not afraid
//!    ([`Nerve`]).
//! 3. **Keeping a hold.** A monster whose action holds creatures until they save (a harpy's
//!    song) spends its bonus action to keep it going; when it cannot, the hold ends.
//! 4. **Its action** ([`plan`]): first an action that holds creatures (the harpy's Luring Song)
//!    when it holds no one and it was not used up; then an action that helps its allies (the
//!    knight's Leadership, [`is_support`]) when it is not spent and an ally fights within 30 ft
//!    of it; then a spell from its list when `combat::monster_spells`' rule says so (a hold
//!    while it concentrates on nothing, or more expected damage than its attack); then whichever does more damage on average
//!    against the party: a save-based damage action that is not spent (a breath: every standing
//!    hero where it is, half on a success when the data says so), or its attack (its
//!    Multiattack when it has one, else its attack action with the most average damage against
//!    the target). An attack's average is its dice's average times the chance to hit the
//!    target's AC.
//! 5. **The target** ([`pick_target`]): a standing hero (or a creature summoned on the party's
//!    side, `summon_plan::foes_of`) it can reach, the one its attack would
//!    drop in the fewest turns (hit points over the attack's average damage), then the lowest
//!    AC, then the fewest hit points, then the first in the list. The encounter simulator uses
//!    the same rule for its monsters.
//!
//! The target is picked among the heroes its attack reaches from where it stands, or among all
//! when it reaches none; it then moves toward the one picked (positions' `approach`, through
//! the tools' `move_into_reach`) before it attacks. A hero on the Ethereal Plane (Blink) is never
//! among them, and one Sanctuary wards only when no unwarded hero is (its spells aim the same
//! way).

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};

use crate::effects::Effect;
pub use crate::rules::RechargeRoll;
use crate::rules::{Ability, roll_recharge};
use crate::srd::{ActionUsage, Monster, MonsterAction, OnSave, Srd};
use crate::state::{Change, GameState, MonsterInstance, Morale};

/// The target rule (see the module docs): among `(index, hit points, AC)` of the standing
/// enemies it can reach, the one `damage` (the attack's average damage a turn, at least 1)
/// drops in the fewest turns, then the lowest AC, then the fewest hit points, then the first.
pub fn pick_target(
    candidates: impl IntoIterator<Item = (usize, u32, i32)>,
    damage: u32,
) -> Option<usize> {
    let damage = damage.max(1);
    candidates
        .into_iter()
        .min_by_key(|&(i, hp, ac)| (hp.div_ceil(damage), ac, hp, i))
        .map(|(i, _, _)| i)
}

/// What a monster does with its action this turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Plan {
    /// An attack (its Multiattack or one attack action, by name) at one target.
    Attack {
        /// The action ("Multiattack", "Claws").
        action: String,
        /// The character attacked, by id.
        target: String,
    },
    /// An action that helps its allies (the knight's Leadership) on these allies.
    Support {
        /// The action.
        action: String,
        /// The allies it helps, by id.
        allies: Vec<String>,
    },
    /// A spell from its list (`combat::monster_spells`) on these creatures.
    Cast {
        /// The spell.
        spell: String,
        /// The slot level, for a spell cast with a slot (`None`: at will or innately).
        slot_level: Option<u8>,
        /// The creatures it names, by id.
        targets: Vec<String>,
    },
    /// A save-based action on these targets (a song, a breath).
    Save {
        /// The action.
        action: String,
        /// Who must save, by id.
        targets: Vec<String>,
    },
}

/// Rolls a d6 for each of the monster's spent recharge actions.
pub fn recharge_rolls(
    state: &GameState,
    srd: &Srd,
    monster: &str,
    rng: &mut (impl DieSource + ?Sized),
) -> Vec<RechargeRoll> {
    let Some(m) = state.monster(monster) else {
        return Vec::new();
    };
    let Ok(template) = srd.monster(&m.template) else {
        return Vec::new();
    };
    m.spent_actions
        .iter()
        .filter_map(|name| {
            let action = find_action(template, name)?;
            let Some(ActionUsage::Recharge { min }) = action.usage else {
                return None;
            };
            Some(roll_recharge(&action.name, min, rng))
        })
        .collect()
}

/// What in a stat block decides how a monster's morale breaks (see [`breaks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Nerve {
    /// It never breaks: undead, constructs, oozes and plants are driven, not afraid.
    pub fearless: bool,
    /// It has the wits to surrender when it cannot flee (Intelligence 6 or more).
    pub may_surrender: bool,
}

impl Default for Nerve {
    /// An ordinary creature: it may break, and surrenders when it cannot flee.
    fn default() -> Self {
        Nerve {
            fearless: false,
            may_surrender: true,
        }
    }
}

impl Nerve {
    /// A monster's nerve, from its creature type and Intelligence.
    pub fn of(template: &Monster) -> Nerve {
        let kind = template.kind.to_ascii_lowercase();
        Nerve {
            fearless: ["undead", "construct", "ooze", "plant"]
                .iter()
                .any(|k| kind.starts_with(k)),
            may_surrender: template.abilities.score(Ability::Intelligence) >= 6,
        }
    }
}

/// The morale rule over plain numbers (see the module docs), for a monster that still fights:
/// with `hp` of `max_hp` hit points, its [`Nerve`], whether another monster of the fight still
/// stands with it (fighting and able to act), whether it can act itself, and its speed now.
/// `Some(Fled)` or `Some(Surrendered)` when it breaks now, `None` while it fights on. The game
/// ([`morale`]) and the encounter simulator both decide by it.
pub fn breaks(
    hp: u32,
    max_hp: u32,
    nerve: Nerve,
    allies_standing: bool,
    can_act: bool,
    speed_ft: u32,
) -> Option<Morale> {
    if hp == 0 || hp.saturating_mul(4) >= max_hp || nerve.fearless {
        return None;
    }
    if allies_standing || !can_act {
        return None;
    }
    if speed_ft > 0 {
        Some(Morale::Fled)
    } else if nerve.may_surrender {
        Some(Morale::Surrendered)
    } else {
        None
    }
}

/// The morale rule (see the module docs) read from the state: `Some(Fled)` or
/// `Some(Surrendered)` when the monster breaks now, `None` while it fights on. The rule itself
/// is [`breaks`].
pub fn morale(state: &GameState, srd: &Srd, monster: &str) -> Option<Morale> {
    let m = state.monster(monster)?;
    let encounter = state.encounter.as_ref()?;
    // A summon fights while its spell lasts: it obeys its caster, it does not break.
    if !m.is_fighting() || m.is_summon() {
        return None;
    }
    let template = srd.monster(&m.template).ok()?;
    let allies_standing = encounter.order.iter().any(|slot| {
        !slot.id.eq_ignore_ascii_case(&m.id)
            && state.monster(&slot.id).is_some_and(|a| {
                a.is_fighting() && a.conditions.can_act() && a.is_summon() == m.is_summon()
            })
    });
    let speed = encounter
        .slot(&m.id)
        .map_or(0, |s| crate::state::speed_now(state, &m.id, s.speed));
    breaks(
        m.hp.current,
        m.hp.max,
        Nerve::of(template),
        allies_standing,
        m.conditions.can_act(),
        speed,
    )
}

/// The changes that end the holds no one keeps any more: their monster is dead, no longer
/// fighting or cannot act (a harpy's song ends when it is incapacitated). Each ends with
/// `HoldEnded` and the conditions it imposed lifted.
pub fn stale_holds(state: &GameState) -> Vec<Change> {
    let mut changes = Vec::new();
    for m in state.monsters.iter().filter(|m| !m.holds.is_empty()) {
        if m.is_fighting() && m.conditions.can_act() {
            continue;
        }
        for hold in &m.holds {
            changes.extend(end_hold(state, &m.id, hold));
        }
    }
    changes
}

/// The changes that end one hold: `HoldEnded`, then the conditions it imposed lifted (those
/// the target still has).
pub fn end_hold(state: &GameState, monster: &str, hold: &crate::state::Hold) -> Vec<Change> {
    let target = target_of(state, &hold.target);
    let has = |c| match state.character(&hold.target) {
        Some(ch) => ch.conditions.has(c),
        None => state
            .monster(&hold.target)
            .is_some_and(|m| m.conditions.has(c)),
    };
    let mut changes = vec![Change::HoldEnded {
        monster: monster.to_owned(),
        target: hold.target.clone(),
    }];
    changes.extend(
        hold.conditions
            .iter()
            .filter(|c| has(**c))
            .map(|c| Change::ConditionRemoved {
                target: target.clone(),
                condition: *c,
            }),
    );
    changes
}

/// A creature id as a change target.
pub fn target_of(state: &GameState, id: &str) -> crate::state::Target {
    if state.character(id).is_some() {
        crate::state::Target::Character(id.to_owned())
    } else {
        crate::state::Target::Monster(id.to_owned())
    }
}

/// The monster's plan for its action (see the module docs), or `None` when no hero stands
/// where it can reach or it has nothing to do.
///
/// `in_reach` says whether its attack reaches a hero from where it stands; the target is
/// picked among those it reaches, or among all when it reaches none (it moves toward the one
/// picked).
pub fn plan(
    state: &GameState,
    srd: &Srd,
    monster: &str,
    in_reach: &dyn Fn(&str) -> bool,
) -> Option<Plan> {
    let m = state.monster(monster)?;
    let template = srd.monster(&m.template).ok()?;
    let heroes: Vec<&crate::state::Character> = state
        .characters
        .iter()
        .filter(|c| !c.dead && c.hp.current > 0 && c.location == m.location)
        // A hero on the Ethereal Plane (Blink) cannot be targeted.
        .filter(|c| !crate::effects::ethereal(state, &c.id))
        .collect();
    if heroes.is_empty() {
        return None;
    }
    let usable = |a: &&MonsterAction| usable(m, a);
    // 1. An action that holds creatures, when it holds no one yet.
    if m.holds.is_empty()
        && let Some(song) = template
            .actions
            .iter()
            .filter(usable)
            .find(|a| a.attack.is_none() && is_hold(a))
    {
        let targets: Vec<String> = heroes
            .iter()
            .filter(|c| !held_by_anyone(state, &c.id))
            .map(|c| c.id.clone())
            .collect();
        if !targets.is_empty() {
            return Some(Plan::Save {
                action: song.name.clone(),
                targets,
            });
        }
    }
    // 2. An action that helps its allies, when one stands with it.
    if let Some(help) = template
        .actions
        .iter()
        .filter(usable)
        .find(|a| is_support(a))
    {
        let allies = allies_within(state, m, SUPPORT_FT);
        if !allies.is_empty() {
            return Some(Plan::Support {
                action: help.name.clone(),
                allies,
            });
        }
    }
    // 3. The attack, at the target the rule picks.
    let attack = attack_choice(template);
    let per_turn = attack.as_ref().map_or(0, |(_, steps)| {
        steps.iter().map(|(a, n)| n * damage_average(a)).sum()
    });
    // Its foes: the standing heroes, and the creatures summoned on their side.
    let foes = crate::combat::summon_plan::foes_of(state, m, &heroes);
    let reached: Vec<bool> = foes.iter().map(|f| in_reach(&f.id)).collect();
    let any_reached = reached.iter().any(|r| *r);
    let open = |i: usize| reached[i] || !any_reached;
    // A hero warded by Sanctuary is attacked only when no unwarded one is open to it.
    let warded: Vec<bool> = foes
        .iter()
        .map(|f| crate::effects::sanctuary_on(state, &m.id, &f.id).is_some())
        .collect();
    let any_unwarded = (0..foes.len()).any(|i| open(i) && !warded[i]);
    let target = pick_target(
        foes.iter()
            .enumerate()
            .filter(|(i, _)| open(*i) && (!warded[*i] || !any_unwarded))
            .map(|(i, f)| (i, f.hp, f.armor_class)),
        per_turn,
    )
    .map(|i| &foes[i]);
    let attack_value = match (&attack, target) {
        (Some((_, steps)), Some(t)) => steps
            .iter()
            .map(|(a, n)| {
                let to_hit = a.attack.as_ref().map_or(0, |x| x.to_hit);
                f64::from(*n) * f64::from(damage_average(a)) * hit_chance(to_hit, t.armor_class)
            })
            .sum(),
        _ => 0.0,
    };
    // 4. A spell, by the rule of `monster_spells`, when it does better than the attack; aimed
    // past the heroes Sanctuary wards while any other stands.
    let hero = target.and_then(|t| heroes.iter().copied().find(|c| c.id == t.id));
    let unwarded: Vec<&crate::state::Character> = heroes
        .iter()
        .copied()
        .filter(|c| crate::effects::sanctuary_on(state, &m.id, &c.id).is_none())
        .collect();
    let aimed = if unwarded.is_empty() {
        &heroes
    } else {
        &unwarded
    };
    if let Some(cast) =
        crate::combat::monster_spells::plan_cast_for(state, srd, m, aimed, hero, attack_value)
    {
        return Some(cast);
    }
    // 5. A save-based damage action that is not spent, when it does more.
    let breath = template
        .actions
        .iter()
        .filter(usable)
        .filter(|a| a.attack.is_none() && a.save.is_some() && !a.damage.is_empty())
        .map(|a| {
            let value: f64 = heroes.iter().map(|c| save_value(a, c)).sum();
            (a, value)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1));
    if let Some((action, value)) = breath
        && value > attack_value
    {
        return Some(Plan::Save {
            action: action.name.clone(),
            targets: heroes.iter().map(|c| c.id.clone()).collect(),
        });
    }
    let ((name, _), target) = (attack?, target?);
    Some(Plan::Attack {
        action: name,
        target: target.id.clone(),
    })
}

/// How far an action that helps allies reaches (Leadership: "within 30 feet").
pub const SUPPORT_FT: u32 = 30;

/// Whether an action helps allies rather than harms foes: effects with neither an attack nor
/// a save (the knight's Leadership).
pub fn is_support(action: &MonsterAction) -> bool {
    action.attack.is_none() && action.save.is_none() && !action.effects.is_empty()
}

/// The other monsters of the fight that still fight beside `m`, within `feet` of it, by id.
pub fn allies_within(state: &GameState, m: &MonsterInstance, feet: u32) -> Vec<String> {
    let Some(encounter) = state.encounter.as_ref() else {
        return Vec::new();
    };
    encounter
        .order
        .iter()
        .filter_map(|slot| state.monster(&slot.id))
        .filter(|a| {
            !a.id.eq_ignore_ascii_case(&m.id)
                && a.is_fighting()
                && a.is_summon() == m.is_summon()
                && a.location == m.location
                && crate::combat::positions::distance(state, &m.id, &a.id) <= feet
        })
        .map(|a| a.id.clone())
        .collect()
}

/// Whether `m` may use `action` now: not spent (a recharge, a use per rest, a hold) and, for
/// an action of uses a day, one left.
pub fn usable(m: &MonsterInstance, action: &MonsterAction) -> bool {
    let spent = m
        .spent_actions
        .iter()
        .any(|s| s.eq_ignore_ascii_case(&action.name));
    let day_left = match action.usage {
        Some(ActionUsage::PerDay { times }) => {
            m.uses_spent
                .get(&action.name.to_ascii_lowercase())
                .copied()
                .unwrap_or(0)
                < times
        }
        _ => true,
    };
    !spent && day_left
}

/// The changes that spend `action` of `monster` as it is used: a recharge, a use per rest or a
/// hold is spent (`ActionSpent`) until it comes back; an action of uses a day spends one
/// (`UseSpent`); anything else costs only the action.
pub fn spend(monster: &str, action: &MonsterAction) -> Vec<Change> {
    match action.usage {
        Some(ActionUsage::PerDay { times }) => vec![Change::UseSpent {
            monster: monster.to_owned(),
            pool: action.name.clone(),
            of: times,
        }],
        Some(_) => vec![Change::ActionSpent {
            monster: monster.to_owned(),
            action: action.name.clone(),
        }],
        None if is_hold(action) => vec![Change::ActionSpent {
            monster: monster.to_owned(),
            action: action.name.clone(),
        }],
        None => Vec::new(),
    }
}

/// Whether an action holds its targets until they save (conditions with a repeated save).
pub fn is_hold(action: &MonsterAction) -> bool {
    fn holds(effects: &[Effect]) -> bool {
        effects.iter().any(|e| match e {
            Effect::Hold { .. } => true,
            Effect::Save { on_fail, .. } => holds(on_fail),
            _ => false,
        })
    }
    holds(&action.effects)
}

/// Whether some monster's action holds this creature now.
fn held_by_anyone(state: &GameState, id: &str) -> bool {
    state
        .monsters
        .iter()
        .any(|m| m.holds.iter().any(|h| h.target.eq_ignore_ascii_case(id)))
}

/// The monster's attack: its Multiattack (the usual way, expanded into its steps) when it has
/// one, else its attack action with the most average damage. The name to attack with, and the
/// attack actions it makes with how many times each.
/// The attack a monster makes: its Multiattack's first option, expanded into its steps (each
/// with its count), or else its single attack with the most average damage, a melee one when
/// a melee and a ranged attack deal the same (a goblin draws its scimitar rather than shoot
/// point-blank). Used by the game's planner and by the simulator's conversion alike.
pub fn attack_choice(template: &Monster) -> Option<(String, Vec<(&MonsterAction, u32)>)> {
    if let Some(multi) = template.actions.iter().find(|a| !a.multiattack.is_empty()) {
        let steps: Vec<(&MonsterAction, u32)> = multi.multiattack[0]
            .iter()
            .filter_map(|s| {
                find_action(template, &s.action)
                    .filter(|a| a.attack.is_some())
                    .map(|a| (a, s.count))
            })
            .collect();
        if !steps.is_empty() {
            return Some((multi.name.clone(), steps));
        }
    }
    template
        .actions
        .iter()
        .filter(|a| a.attack.is_some() && a.usage.is_none())
        .max_by_key(|a| {
            let melee = a.attack.as_ref().is_some_and(|x| {
                crate::combat::positions::Reach::of_monster_attack(x)
                    .melee_ft
                    .is_some()
            });
            (damage_average(a), melee)
        })
        .map(|a| (a.name.clone(), vec![(a, 1)]))
}

fn find_action<'t>(template: &'t Monster, name: &str) -> Option<&'t MonsterAction> {
    template
        .actions
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
}

/// The average damage of one use of an action (its dice's averages; the first option when it
/// offers a choice).
pub fn damage_average(action: &MonsterAction) -> u32 {
    let dice = if action.damage.is_empty() {
        action
            .damage_options
            .first()
            .into_iter()
            .collect::<Vec<_>>()
    } else {
        action.damage.iter().collect()
    };
    dice.iter().map(|d| d.average().max(0) as u32).sum()
}

/// The chance a d20 + `to_hit` meets `armor_class`: a natural 1 misses, a natural 20 hits.
pub fn hit_chance(to_hit: i32, armor_class: i32) -> f64 {
    let needed = (armor_class - to_hit).clamp(2, 20);
    f64::from(21 - needed) / 20.0
}

/// The average damage a save-based action does to one character.
fn save_value(action: &MonsterAction, c: &crate::state::Character) -> f64 {
    let Some(save) = action.save else {
        return 0.0;
    };
    let succeeds =
        1.0 - crate::combat::monster_spells::save_fails(save.dc, c.save_modifier(save.ability));
    let on_success = if save.on_success == OnSave::Half {
        0.5
    } else {
        0.0
    };
    f64::from(damage_average(action)) * ((1.0 - succeeds) + succeeds * on_success)
}
