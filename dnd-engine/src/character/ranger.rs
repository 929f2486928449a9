//! The ranger's features in play, as pure rules over a sheet, its choices and the class data:
//! Favored Enemy (advantage on Survival checks to track the chosen type and Intelligence checks
//! to recall lore about it), Natural Explorer (proficiency doubled on Intelligence and Wisdom
//! checks about the favored terrain), Hunter's Prey: Colossus Slayer (1d8 more, once a turn,
//! on a weapon hit on a creature below its hit point maximum) and Primeval Awareness (which of
//! its creature types are about). A check says what it is about through its `subject` (a
//! creature, a creature type or a terrain: `tools::checks`); the rest of Natural Explorer
//! (travel, foraging) is narrative: the engine has no overland travel. The other two
//! techniques of Hunter's Prey are read here and played by `tools::feature_hunter`: Horde
//! Breaker (once a turn, one more attack with the weapon just used at another creature within
//! 5 feet of its target) and Giant Killer (the reaction's attack at a Large or larger creature
//! within 5 feet that attacks the ranger).

use crate::rules::{Ability, Proficiency, Skill};
use crate::srd::{Size, Srd};
use crate::state::{Character, GameState, TimedKind};

/// The name of the timed marker that says Colossus Slayer was used this turn.
pub const COLOSSUS_SLAYER: &str = "Colossus Slayer";

/// The creature types Primeval Awareness senses.
pub const PRIMEVAL_TYPES: [&str; 7] = [
    "aberration",
    "celestial",
    "dragon",
    "elemental",
    "fey",
    "fiend",
    "undead",
];

/// A creature type as a monster's stat block names it ("undead", "humanoid"), from a favored
/// enemy's option ("undead", "humanoids", "monstrosities") or a stat block's type with its
/// tag ("humanoid (goblinoid)").
pub fn creature_type(text: &str) -> String {
    let base = text
        .split('(')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if let Some(stem) = base.strip_suffix("ies") {
        format!("{stem}y")
    } else if base.ends_with('s') && base != "undead" {
        base.trim_end_matches('s').to_owned()
    } else {
        base
    }
}

/// The creature types `c` chose as favored enemies, at a level that has the feature.
pub fn favored_enemies(srd: &Srd, c: &Character) -> Vec<String> {
    chosen_under(srd, c, "favored-enemy")
        .iter()
        .map(|o| creature_type(o))
        .collect()
}

/// The terrains `c` chose for Natural Explorer ("arctic"), at a level that has the feature.
pub fn favored_terrains(srd: &Srd, c: &Character) -> Vec<String> {
    chosen_under(srd, c, "natural-explorer")
}

/// The picks of `c`'s features whose slug starts with `prefix`, when the feature is its.
fn chosen_under(srd: &Srd, c: &Character, prefix: &str) -> Vec<String> {
    c.choices
        .iter()
        .filter(|(feature, _)| feature.starts_with(prefix))
        .filter(|(feature, _)| super::uses::feature_of(srd, c, feature).is_ok())
        .flat_map(|(_, picks)| picks.iter().cloned())
        .collect()
}

/// The type of the creature or creature type a check is about: a monster of the game (id or
/// name), a stat block's name, or a type named outright.
pub fn subject_type(srd: &Srd, state: &GameState, subject: &str) -> String {
    let wanted = subject.trim();
    let monster = state
        .monsters
        .iter()
        .find(|m| m.id.eq_ignore_ascii_case(wanted) || m.name.eq_ignore_ascii_case(wanted))
        .and_then(|m| srd.monster(&m.template).ok())
        .or_else(|| srd.monster(wanted).ok());
    creature_type(monster.map_or(wanted, |m| m.kind.as_str()))
}

/// Favored Enemy: advantage on a Survival check (to track) or an Intelligence check (to recall
/// lore) about a creature of a favored type.
pub fn favored_enemy_check(
    srd: &Srd,
    state: &GameState,
    c: &Character,
    skill: Skill,
    subject: &str,
) -> bool {
    let fits = skill == Skill::Survival || skill.ability() == Ability::Intelligence;
    fits && favored_enemies(srd, c).contains(&subject_type(srd, state, subject))
}

/// Natural Explorer: the proficiency bonus once more on an Intelligence or Wisdom check with a
/// skill `c` is proficient in (not already doubled) about its favored terrain; 0 otherwise.
pub fn natural_explorer_bonus(srd: &Srd, c: &Character, skill: Skill, subject: &str) -> i32 {
    let ability_fits = matches!(skill.ability(), Ability::Intelligence | Ability::Wisdom);
    let proficient = c.skills.get(&skill) == Some(&Proficiency::Proficient);
    let terrain = favored_terrains(srd, c)
        .iter()
        .any(|t| t.eq_ignore_ascii_case(subject.trim()));
    if ability_fits && proficient && terrain {
        c.proficiency_bonus()
    } else {
        0
    }
}

/// Whether Colossus Slayer adds its 1d8 to `c`'s weapon hit on a creature at `hp` (current,
/// maximum): chosen, the Hunter's feature at its level, the target hurt, and not used this
/// turn.
pub fn colossus_slayer(srd: &Srd, c: &Character, hp: (u32, u32)) -> bool {
    super::features::chose(c, "hunters-prey-colossus-slayer")
        && super::uses::feature_of(srd, c, "hunters-prey").is_ok()
        && hp.0 < hp.1
        && !c.timed_effects.iter().any(|e| e.spell == COLOSSUS_SLAYER)
}

/// The name of the timed marker that says Horde Breaker was used this turn.
pub const HORDE_BREAKER: &str = "Horde Breaker";

/// The name of the record of a weapon attack this turn (`TimedKind::Struck`).
pub const STRUCK: &str = "Hunter's Prey: struck";

/// How near the original target Horde Breaker's second creature, and a Giant Killer's
/// attacker, must be (the SRD: "within 5 feet").
pub const HUNTER_REACH_FT: u32 = 5;

/// Whether `c` took the Hunter's Prey `option` ("hunters-prey-horde-breaker") and has the
/// feature at its level and subclass.
pub fn hunts_with(srd: &Srd, c: &Character, option: &str) -> bool {
    super::features::chose(c, option) && super::uses::feature_of(srd, c, "hunters-prey").is_ok()
}

/// Whether `c` has used Horde Breaker this turn.
pub fn horde_breaker_used(c: &Character) -> bool {
    c.timed_effects.iter().any(|e| e.spell == HORDE_BREAKER)
}

/// The weapon attacks `c` made this turn, recorded for Horde Breaker: (whom, weapon).
pub fn struck_this_turn(c: &Character) -> Vec<(&str, &str)> {
    c.timed_effects
        .iter()
        .filter_map(|e| match &e.kind {
            TimedKind::Struck { at, weapon } => Some((at.as_str(), weapon.as_str())),
            _ => None,
        })
        .collect()
}

/// Giant Killer's size test: a Large or larger creature.
pub fn giant(size: Size) -> bool {
    size >= Size::Large
}

/// Which of Primeval Awareness's creature types are among the living monsters of the game
/// (the adventure's places lie within a few miles of each other), sorted.
pub fn primeval_awareness(srd: &Srd, state: &GameState) -> Vec<&'static str> {
    PRIMEVAL_TYPES
        .into_iter()
        .filter(|kind| {
            state.monsters.iter().any(|m| {
                m.is_alive()
                    && srd
                        .monster(&m.template)
                        .is_ok_and(|t| creature_type(&t.kind) == *kind)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::creature_type;

    #[test]
    fn favored_enemy_options_name_stat_block_types() {
        assert_eq!(creature_type("undead"), "undead");
        assert_eq!(creature_type("humanoids"), "humanoid");
        assert_eq!(creature_type("monstrosities"), "monstrosity");
        assert_eq!(creature_type("fey"), "fey");
        assert_eq!(creature_type("humanoid (goblinoid)"), "humanoid");
        assert_eq!(creature_type("Beasts"), "beast");
    }
}
