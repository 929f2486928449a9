//! Conditional damage defenses, read from the way the SRD writes them.
//!
//! A stat block's defenses that hold only against some damage are free text in the SRD
//! ("bludgeoning, piercing, and slashing from nonmagical attacks"). The ones about nonmagical
//! attacks are common (ghosts, golems, elementals) and change every fight with them, so they
//! are read into [`Defenses::nonmagical_resistances`] and
//! [`Defenses::nonmagical_immunities`], where the rules apply them. Any other condition
//! ("damage from spells") stays text only, for the narration.

use crate::rules::{DamageType, DamageTypes, Defenses};

/// Reads one conditional defense: the damage types it covers, and whether it is an immunity
/// (written "immunity to ...") rather than a resistance. `None` when the condition is not
/// "from nonmagical attacks" (optionally "that aren't silvered" or "adamantine", which are
/// not tracked) or a type is not a damage type.
pub(crate) fn nonmagical_defense(text: &str) -> Option<(DamageTypes, bool)> {
    let text = text.trim().to_ascii_lowercase();
    let (immune, rest) = match text.strip_prefix("immunity to ") {
        Some(rest) => (true, rest),
        None if text.starts_with("vulnerability to ") => return None,
        None => (false, text.as_str()),
    };
    let (types, condition) = rest.split_once(" from ")?;
    let condition = condition.trim_end_matches('.').trim();
    let nonmagical = ["nonmagical attacks", "nonmagical weapons"]
        .iter()
        .any(|c| condition == *c || condition.starts_with(&format!("{c} that aren't ")));
    if !nonmagical {
        return None;
    }
    let mut set = DamageTypes::EMPTY;
    for part in types.split(',').flat_map(|p| p.split(" and ")) {
        let part = part.trim();
        let part = part.strip_prefix("and ").unwrap_or(part).trim();
        if !part.is_empty() {
            set.insert(DamageType::parse(part)?);
        }
    }
    (!set.is_empty()).then_some((set, immune))
}

/// Adds to `defenses` every conditional defense of `texts` that [`nonmagical_defense`] reads.
pub(crate) fn fold_nonmagical_defenses(defenses: &mut Defenses, texts: &[String]) {
    for (types, immune) in texts.iter().filter_map(|t| nonmagical_defense(t)) {
        let layer = if immune {
            &mut defenses.nonmagical_immunities
        } else {
            &mut defenses.nonmagical_resistances
        };
        *layer = layer.union(types);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn physical() -> DamageTypes {
        [
            DamageType::Bludgeoning,
            DamageType::Piercing,
            DamageType::Slashing,
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn the_srd_phrasings_are_read() {
        for (text, immune) in [
            (
                "bludgeoning, piercing, and slashing from nonmagical attacks",
                false,
            ),
            (
                "Bludgeoning, Piercing, and Slashing from nonmagical attacks that aren't silvered",
                false,
            ),
            (
                "immunity to bludgeoning, piercing, and slashing from nonmagical attacks that aren't adamantine",
                true,
            ),
            (
                "bludgeoning, piercing and slashing from nonmagical weapons",
                false,
            ),
        ] {
            assert_eq!(
                nonmagical_defense(text),
                Some((physical(), immune)),
                "{text}"
            );
        }
        assert_eq!(
            nonmagical_defense("piercing from nonmagical attacks"),
            Some(([DamageType::Piercing].into_iter().collect(), false))
        );
    }

    #[test]
    fn other_conditions_stay_text() {
        for text in [
            "damage from spells",
            "vulnerability to bludgeoning from nonmagical attacks",
            "bludgeoning, piercing, and slashing from magical attacks",
            "psychic and sonic from nonmagical attacks",
            "from nonmagical attacks",
            "",
        ] {
            assert_eq!(nonmagical_defense(text), None, "{text}");
        }
    }

    #[test]
    fn folding_adds_to_the_right_layer() {
        let mut defenses = Defenses::default();
        fold_nonmagical_defenses(
            &mut defenses,
            &[
                "damage from spells".into(),
                "immunity to piercing from nonmagical attacks".into(),
                "slashing from nonmagical attacks".into(),
            ],
        );
        assert_eq!(
            defenses.nonmagical_immunities,
            [DamageType::Piercing].into_iter().collect()
        );
        assert_eq!(
            defenses.nonmagical_resistances,
            [DamageType::Slashing].into_iter().collect()
        );
        assert!(defenses.resistances.is_empty());
    }
}
