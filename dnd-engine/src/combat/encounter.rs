//! Starting and ending a fight by the rules: who fights, initiative, and whether it may end.

use crate::dice::DieSource;

use super::CombatError;
use super::surprise::Surprise;
use crate::dice::Advantage;
use crate::rules::initiative::{InitiativeEntry, InitiativeRoll, roll_initiative};
use crate::rules::{Ability, ability_modifier};
use crate::srd::Srd;
use crate::state::{
    Change, Effect, EffectKind, GameState, InitiativeSlot, MonsterInstance, Target,
};

/// A fight about to start: the initiative rolls, who is surprised, and the changes that start
/// it (the monsters revealed, the order with each combatant's speed, where each stands, the
/// surprised).
#[derive(Debug, Clone)]
pub struct Start {
    /// The rolls, first to act first.
    pub rolls: Vec<InitiativeRoll>,
    /// The Stealth rolls of those who hid, and who is surprised.
    pub surprise: Surprise,
    /// `MonsterRevealed` for each monster, then `EncounterStarted`, the placements, and a
    /// `Surprised` effect on each surprised creature.
    pub changes: Vec<Change>,
}

/// Decides surprise (`surprise::decide`: unseen monsters hide; the heroes named in
/// `sneaking` hide when all of them crept up), rolls initiative for these monsters and every
/// living character, and builds the changes that start the fight. The one place a fight
/// begins, whether `start_encounter` or an attack outside a fight starts it.
pub fn begin(
    state: &GameState,
    srd: &Srd,
    monsters: &[&MonsterInstance],
    sneaking: &[String],
    rng: &mut (impl DieSource + ?Sized),
) -> Start {
    let surprise = super::surprise::decide(state, srd, monsters, sneaking, rng);
    let mut entries = Vec::new();
    let mut speeds = Vec::new();
    // The party's summons where it is fight on its side; each spell's creatures roll once, as
    // a group (the first of them rolls, the others follow it).
    let allies = super::summon_plan::summons_joining(state, monsters);
    let followers = super::summon_plan::followers(&allies);
    for m in monsters.iter().chain(&allies) {
        let template = srd.monster(&m.template).ok();
        let dex = template.map_or(10, |t| t.abilities.dexterity);
        entries.push(InitiativeEntry {
            id: m.id.clone(),
            bonus: ability_modifier(dex),
            dexterity: dex,
            advantage: Advantage::Normal,
        });
        // A flier moves at its flying speed (and may go up: `positions::flies`).
        let speed = template.map_or(30, |t| super::geometry::fighting_speed(&t.speed));
        speeds.push((m.id.clone(), speed));
        if followers.iter().any(|(f, _)| *f == m.id) {
            entries.pop();
        }
    }
    for c in state.characters.iter().filter(|c| !c.dead) {
        entries.push(InitiativeEntry {
            id: c.id.clone(),
            // Initiative is a Dexterity check: Jack of All Trades counts.
            bonus: c.abilities.modifier(Ability::Dexterity)
                + crate::character::bard::jack_of_all_trades(c),
            dexterity: c.abilities.dexterity,
            advantage: Advantage::Normal,
        });
        speeds.push((c.id.clone(), crate::character::monk::speed(srd, c)));
    }
    let mut rolls = roll_initiative(&entries, rng);
    super::summon_plan::follow(&mut rolls, &followers);
    let mut changes: Vec<Change> = monsters
        .iter()
        .map(|m| Change::MonsterRevealed {
            monster: m.id.clone(),
        })
        .collect();
    changes.push(Change::EncounterStarted {
        order: rolls
            .iter()
            .map(|r| InitiativeSlot {
                id: r.id.clone(),
                initiative: r.total,
                speed: speeds
                    .iter()
                    .find(|(id, _)| *id == r.id)
                    .map_or(30, |(_, s)| *s),
            })
            .collect(),
    });
    changes.extend(placements(state, monsters, &rolls));
    changes.extend(surprise.surprised.iter().map(|id| Change::EffectStarted {
        effect: Effect {
            creature: id.clone(),
            round: 1,
            kind: EffectKind::Surprised,
        },
    }));
    Start {
        rolls,
        surprise,
        changes,
    }
}

/// Where each combatant stands as the fight starts, in a room with areas: a monster in its
/// area (the room's first when it names none or one that is gone), the party in the room's
/// first area (where an adventure puts the way in).
fn placements(
    state: &GameState,
    monsters: &[&MonsterInstance],
    rolls: &[InitiativeRoll],
) -> Vec<Change> {
    let Some(room) = state.party_location() else {
        return Vec::new();
    };
    let Some(first) = room.areas.first() else {
        return Vec::new();
    };
    rolls
        .iter()
        .map(|r| {
            let area = monsters
                .iter()
                .find(|m| m.id == r.id)
                .and_then(|m| m.area.as_deref())
                .and_then(|a| room.areas.iter().find(|x| x.id == a))
                .unwrap_or(first);
            Change::Moved {
                creature: r.id.clone(),
                to: area.position(),
            }
        })
        .collect()
}

/// The monsters a fight starts with when `attacker` attacks `target` outside a fight: every
/// hostile monster alive where the party is, and the monster attacked (or attacking) even if
/// it was not hostile. Empty when a fight runs already, or when no monster is involved.
pub fn fight_on_attack<'s>(
    state: &'s GameState,
    attacker: &Target,
    target: &Target,
) -> Vec<&'s MonsterInstance> {
    if state.encounter.is_some() {
        return Vec::new();
    }
    let involved: Vec<&str> = [attacker, target]
        .into_iter()
        .filter_map(|t| match t {
            Target::Monster(id) => Some(id.as_str()),
            Target::Character(_) => None,
        })
        .collect();
    if involved.is_empty() {
        return Vec::new();
    }
    let here = party_location(state);
    state
        .monsters
        .iter()
        .filter(|m| m.location == here && m.is_alive())
        .filter(|m| m.hostile || involved.iter().any(|i| m.id.eq_ignore_ascii_case(i)))
        .collect()
}

/// The hostile monsters of the fight still standing where the party is and still fighting
/// (not fled, not surrendered), by name.
pub fn foes_standing(state: &GameState) -> Vec<String> {
    let Some(encounter) = &state.encounter else {
        return Vec::new();
    };
    let here = party_location(state);
    state
        .monsters
        .iter()
        .filter(|m| encounter.slot(&m.id).is_some())
        .filter(|m| m.hostile && m.is_fighting() && m.location == here)
        .map(|m| m.name.clone())
        .collect()
}

/// Whether the fight may end: no hostile monster of it stands and fights where the party is
/// (they are dead, fled or surrendered, or the party escaped to another place), or no
/// character is left alive.
pub fn may_end(state: &GameState) -> Result<(), CombatError> {
    let standing = foes_standing(state);
    let party_alive = state.characters.iter().any(|c| !c.dead);
    if standing.is_empty() || !party_alive {
        return Ok(());
    }
    Err(CombatError::FoesStanding { names: standing })
}

fn party_location(state: &GameState) -> String {
    state
        .party_location()
        .map(|l| l.id.clone())
        .unwrap_or_default()
}
