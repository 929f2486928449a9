//! What class features write on the sheet by themselves once chosen or reached, for the builder
//! and for a level gained alike: the College of Lore's Bonus Proficiencies (three skills of the
//! player's choice at 3rd level) and the Beguiling Influence invocation (Deception and
//! Persuasion) add skill proficiencies; Draconic Resilience adds a hit point a sorcerer level;
//! Druidic adds the druids' secret language to those the character speaks.

use crate::rules::Skill;
use crate::srd::{Class, Srd};
use crate::state::Character;

/// The College of Lore's feature whose picks are three skills.
pub const BONUS_PROFICIENCIES: &str = "bonus-proficiencies";

/// The invocation that makes a warlock proficient in Deception and Persuasion.
pub const BEGUILING_INFLUENCE: &str = "eldritch-invocation-beguiling-influence";

/// The skills Beguiling Influence gives.
pub const BEGUILING_SKILLS: [Skill; 2] = [Skill::Deception, Skill::Persuasion];

/// The druid's feature that teaches Druidic.
pub const DRUIDIC: &str = "druidic";

/// The Draconic Bloodline's feature that adds a hit point a level.
pub const DRACONIC_RESILIENCE: &str = "draconic-resilience";

/// Whether `feature`'s picks are skills the character becomes proficient in (and so must not
/// be proficient in already).
pub(crate) fn picks_skills(feature: &str) -> bool {
    feature == BONUS_PROFICIENCIES
}

/// The skills `picked` (option slugs or skill names, as checked) of `feature` make the
/// character proficient in: the picks themselves for Bonus Proficiencies, Deception and
/// Persuasion when the invocations picked include Beguiling Influence.
pub(crate) fn skills_from(feature: &str, picked: &[String]) -> Vec<Skill> {
    if picks_skills(feature) {
        picked
            .iter()
            .filter_map(|p| super::choices::skill_named(p))
            .collect()
    } else if picked.iter().any(|p| p == BEGUILING_INFLUENCE) {
        BEGUILING_SKILLS.to_vec()
    } else {
        Vec::new()
    }
}

/// Whether a `class` character of `subclass` has Draconic Resilience at `level` (it comes
/// with the Draconic Bloodline at 1st level, so from then on every level adds its point).
pub fn draconic_resilience(class: &Class, subclass: Option<&str>, level: u8) -> bool {
    subclass.is_some()
        && (1..=level).any(|l| {
            class
                .features_at(l, subclass)
                .iter()
                .any(|f| f.slug == DRACONIC_RESILIENCE)
        })
}

/// The languages `c` speaks: its race's (the SRD's fixed ones; a language the race or
/// background lets a player choose is not recorded), and Druidic for a druid. Druidic's
/// hidden messages are the story's: the rules give them no roll a player makes.
pub fn languages(srd: &Srd, c: &Character) -> Vec<String> {
    let mut known: Vec<String> = srd
        .race(&c.race)
        .map(|r| r.race.languages.clone())
        .unwrap_or_default();
    let druidic = srd.class(&c.class).is_ok_and(|class| {
        (1..=c.level).any(|l| {
            class
                .features_at(l, c.subclass.as_deref())
                .iter()
                .any(|f| f.slug == DRUIDIC)
        })
    });
    if druidic {
        known.push("Druidic".to_owned());
    }
    known
}
