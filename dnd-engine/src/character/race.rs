//! What the races' traits do to a roll, read from the sheet's race (`Character::racial_traits`)
//! and its choices: advantage on saves against what a race shrugs off (Dwarven Resilience,
//! Brave, Fey Ancestry, Gnome Cunning), Lucky's reroll of a natural 1, seeing in the dark
//! (Darkvision against a room's light), a Small creature's heavy weapons, Savage Attacks'
//! extra die and the dragonborn's breath. `combat::effects` (the one place an attack, a check
//! or a save asks for its situation) and the tools call in here; resistances and Relentless
//! Endurance live on the sheet (`state::racial`) so that every damage path meets them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::effects::Effect;
use crate::rules::{Ability, AdvantageSources, Condition, DamageType};
use crate::srd::{Size, Srd};
use crate::state::{Character, GameState, Light};

/// What a saving throw is against, where a race's trait cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SaveAgainst {
    /// Poison: its damage or the poisoned condition (Dwarven Resilience).
    Poison,
    /// Being charmed (Fey Ancestry).
    Charm,
    /// Being frightened (Brave).
    Fear,
    /// A spell or other magic (Gnome Cunning, on Intelligence, Wisdom and Charisma saves).
    Magic,
}

/// The advantage `creature`'s race gives a save of `ability` against `against`, with the
/// trait's name as the reason; nothing for a monster or a race without such a trait.
///
/// A hill dwarf saving against a poison gets advantage from Dwarven Resilience; a rock gnome
/// saving with Wisdom against a spell gets it from Gnome Cunning, but not with Dexterity.
pub fn save_sources(
    state: &GameState,
    creature: &str,
    ability: Ability,
    against: &[SaveAgainst],
) -> AdvantageSources {
    let mut sources = AdvantageSources::default();
    let Some(c) = state.character(creature) else {
        return sources;
    };
    let mental = matches!(
        ability,
        Ability::Intelligence | Ability::Wisdom | Ability::Charisma
    );
    for t in c.racial_traits(state.srd()) {
        let reason = match t.slug.as_str() {
            "dwarven-resilience" if against.contains(&SaveAgainst::Poison) => {
                "Dwarven Resilience (against poison)"
            }
            "brave" if against.contains(&SaveAgainst::Fear) => "Brave (against being frightened)",
            "fey-ancestry" if against.contains(&SaveAgainst::Charm) => {
                "Fey Ancestry (against being charmed)"
            }
            "gnome-cunning" if mental && against.contains(&SaveAgainst::Magic) => {
                "Gnome Cunning (against magic)"
            }
            _ => continue,
        };
        sources.advantage(reason);
    }
    sources
}

/// What a save against `source`'s effects `on_fail` is against: magic when `source` is a spell,
/// poison for poison damage or the poisoned condition, charm and fear for those conditions.
pub fn threats_of(srd: &Srd, source: &str, on_fail: &[Effect]) -> Vec<SaveAgainst> {
    let mut out = Vec::new();
    if srd.spell_named(source).is_some() {
        out.push(SaveAgainst::Magic);
    }
    for effect in on_fail {
        let threat = match effect {
            Effect::Damage {
                damage_type: DamageType::Poison,
                ..
            } => Some(SaveAgainst::Poison),
            Effect::Condition { condition, .. }
            | Effect::ConditionUntil { condition, .. }
            | Effect::AddCondition { condition } => condition_threat(*condition),
            _ => None,
        };
        out.extend(threat.filter(|t| !out.contains(t)));
    }
    out
}

/// What a save against a monster's `action` is against: its effects' threats
/// ([`threats_of`]), the conditions its failed save imposes, poison damage.
pub fn action_threats(srd: &Srd, action: Option<&crate::srd::MonsterAction>) -> Vec<SaveAgainst> {
    let Some(action) = action else {
        return Vec::new();
    };
    let mut out = threats_of(srd, &action.name, &action.effects);
    if let Some(crate::srd::SaveEffect::Conditions { conditions, .. }) = &action.on_failed_save {
        out.extend(conditions.iter().filter_map(|c| condition_threat(*c)));
    }
    if action.damage.iter().any(|d| d.kind == DamageType::Poison) {
        out.push(SaveAgainst::Poison);
    }
    out.dedup();
    out
}

/// What a condition imposed on a failed save makes the save against.
pub fn condition_threat(condition: Condition) -> Option<SaveAgainst> {
    match condition {
        Condition::Poisoned => Some(SaveAgainst::Poison),
        Condition::Charmed => Some(SaveAgainst::Charm),
        Condition::Frightened => Some(SaveAgainst::Fear),
        _ => None,
    }
}

/// Whether `creature` rolls with Lucky (a halfling character).
pub fn lucky(state: &GameState, creature: &str) -> bool {
    state
        .character(creature)
        .is_some_and(|c| c.has_racial_trait(state.srd(), "lucky"))
}

/// Why magic cannot put `creature` to sleep, for an elf or half-elf (Fey Ancestry); `None`
/// for anyone else.
pub fn magic_sleep_refused(state: &GameState, creature: &str) -> Option<&'static str> {
    state
        .character(creature)
        .filter(|c| c.has_racial_trait(state.srd(), "fey-ancestry"))
        .map(|_| "Fey Ancestry: magic cannot put it to sleep")
}

/// How far `creature` sees in the dark, in feet: a character's Darkvision, a monster's
/// stat block's ("darkvision 60 ft." in its senses); 0 without.
pub fn darkvision_range(state: &GameState, creature: &str) -> u32 {
    if let Some(c) = state.character(creature) {
        return c.darkvision_feet(state.srd());
    }
    let Some(m) = state.monster(creature) else {
        return 0;
    };
    let Ok(template) = state.srd().monster(&m.template) else {
        return 0;
    };
    let senses = template.senses.to_lowercase();
    let Some(after) = senses.split("darkvision").nth(1) else {
        return 0;
    };
    let digits: String = after
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(60)
}

/// How far a warlock's Devil's Sight sees normally in darkness, magical or not.
pub const DEVILS_SIGHT_FT: u32 = 120;

/// How lit a thing `feet` away looks to `creature`: the room's light, one step brighter within
/// its darkvision (darkness as dim light, dim light as bright); darkness within a warlock's
/// Devil's Sight is seen normally.
pub fn light_seen_at(state: &GameState, creature: &str, feet: u32) -> Light {
    let light = state.party_location().map_or(Light::Bright, |l| l.light);
    let devils_sight = state
        .character(creature)
        .is_some_and(|c| super::warlock::invoked(c, "devils-sight"));
    if light == Light::Dark && devils_sight && feet <= DEVILS_SIGHT_FT {
        return Light::Bright;
    }
    if darkvision_range(state, creature) < feet.max(1) {
        return light;
    }
    match light {
        Light::Dark => Light::Dim,
        Light::Dim | Light::Bright => Light::Bright,
    }
}

/// How lit `creature`'s surroundings look to it ([`light_seen_at`] close by).
pub fn seen_light(state: &GameState, creature: &str) -> Light {
    light_seen_at(state, creature, 5)
}

/// What darkness does to an attack by `attacker` on `target`: an attacker that sees only
/// darkness where its target stands is effectively blinded (disadvantage), and a target that
/// cannot see its attacker is attacked with advantage. Dim light changes no attack.
pub fn attack_in_the_dark(state: &GameState, attacker: &str, target: &str) -> AdvantageSources {
    let mut sources = AdvantageSources::default();
    let feet = crate::combat::positions::distance(state, attacker, target);
    if light_seen_at(state, attacker, feet) == Light::Dark {
        sources.disadvantage("the attacker cannot see in the darkness");
    }
    if light_seen_at(state, target, feet) == Light::Dark {
        sources.advantage("the target cannot see its attacker in the darkness");
    }
    sources
}

/// What the light does to a Perception check by `creature`: dim light (lightly obscured)
/// gives disadvantage; darkness (heavily obscured) fails a check that needs sight, as blinded
/// does. `(sources, automatic failure)`.
pub fn perception_in_the_light(
    state: &GameState,
    creature: &str,
) -> (AdvantageSources, Option<&'static str>) {
    let mut sources = AdvantageSources::default();
    match seen_light(state, creature) {
        Light::Bright => (sources, None),
        Light::Dim => {
            sources.disadvantage("dim light: lightly obscured");
            (sources, None)
        }
        Light::Dark => (sources, Some("darkness: it cannot see (no darkvision)")),
    }
}

/// A Small attacker's disadvantage with a heavy weapon.
pub fn heavy_weapon_sources(srd: &Srd, c: &Character, weapon_is_heavy: bool) -> AdvantageSources {
    let mut sources = AdvantageSources::default();
    if weapon_is_heavy && race_size(srd, c) == Some(Size::Small) {
        sources.disadvantage("a Small creature with a heavy weapon");
    }
    sources
}

/// The size of `c`'s race, when `srd`'s race table knows it.
pub fn race_size(srd: &Srd, c: &Character) -> Option<Size> {
    srd.race(&c.race).ok().map(|r| r.size())
}
