//! Every bundled spell is classified: mechanical (its `effects` do what it says, fully or in
//! part), narrative (nothing in it a fight's rules use, with the reason in the data), or not
//! modelled yet (numbers a fight could use that the vocabulary cannot say, named in the
//! data). [`fight_numbers`] is the detector that keeps a spell honest: a spell marked
//! narrative whose description gives one of them is misclassified.

use super::Spell;

/// How far the effects engine models a spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpellClass {
    /// Effects that do all it says.
    Full,
    /// Effects for part of it; `unmodelled` says what is left to the narrator.
    Partial,
    /// No effects, and nothing a fight uses (`narrative` says why).
    Narrative,
    /// No effects yet, though a fight could use it (`unmodelled` says what).
    Unmodelled,
    /// Neither effects nor a note: data to fix.
    Unclassified,
}

impl Spell {
    /// The spell's class, from its `effects`, `narrative` and `unmodelled` fields.
    pub fn classification(&self) -> SpellClass {
        match (
            self.effects.is_empty(),
            self.narrative.is_some(),
            self.unmodelled.is_some(),
        ) {
            (false, _, false) => SpellClass::Full,
            (false, _, true) => SpellClass::Partial,
            (true, true, _) => SpellClass::Narrative,
            (true, false, true) => SpellClass::Unmodelled,
            (true, false, false) => SpellClass::Unclassified,
        }
    }
}

/// Words that make a sentence's soft numbers (a count of creatures, a duration) matter to a
/// fight: a roll, damage, hit points, speed, AC, or a condition.
const FIGHT_WORDS: &[&str] = &[
    "saving throw",
    "attack",
    "damage",
    "hit points",
    "speed",
    " ac ",
    "advantage",
];

/// Conditions' names: a spell that names one imposes or lifts it, a fight's rule.
const CONDITIONS: &[&str] = &[
    "blinded",
    "charmed",
    "deafened",
    "frightened",
    "incapacitated",
    "paralyzed",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
];

const NUMBER_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve",
];

/// The numbers in `text` a fight would use, as found: dice (`2d6`, "a d4"), a DC (`DC 15`), a bonus
/// or penalty (`+2`, `-2`), a condition's name anywhere; and, in a sentence that speaks of a roll, damage, hit
/// points, speed, AC or a condition, a count of two or more creatures or targets ("up to three
/// creatures") or a duration in rounds, of 1 minute, or to a next turn. Numbers elsewhere (the
/// 1 minute a mage hand lasts, the ten creatures Water Breathing lets breathe) are not a
/// fight's.
pub fn fight_numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    for (i, raw) in words.iter().enumerate() {
        let w = raw.trim_matches(|c: char| ",.;:()\"'".contains(c));
        let a_die = i > 0
            && words[i - 1].eq_ignore_ascii_case("a")
            && w.strip_prefix('d')
                .is_some_and(|n| n.parse::<u32>().is_ok());
        let signed = (w.starts_with('+') || w.starts_with('-'))
            && w.len() > 1
            && w[1..].chars().all(|c| c.is_ascii_digit());
        if is_dice(w) || a_die || signed {
            found.push(w.to_owned());
        } else if w == "DC"
            && let Some(next) = words.get(i + 1)
        {
            let n = next.trim_matches(|c: char| ",.;:()".contains(c));
            if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() {
                found.push(format!("DC {n}"));
            }
        }
    }
    // A condition a spell imposes is a fight's rule even without a number (Hold Person's
    // paralysis "for the duration").
    let lower = text.to_lowercase();
    for condition in CONDITIONS {
        if lower.contains(condition) {
            found.push((*condition).to_owned());
        }
    }
    for sentence in text.split('.') {
        let lower = format!(" {} ", sentence.to_lowercase());
        if !FIGHT_WORDS
            .iter()
            .chain(CONDITIONS)
            .any(|f| lower.contains(f))
        {
            continue;
        }
        let words: Vec<&str> = lower
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| ",()\"'".contains(c)))
            .collect();
        for (i, w) in words.iter().enumerate() {
            let counted =
                NUMBER_WORDS.contains(w) || w.parse::<u32>().is_ok_and(|n| (2..=100).contains(&n));
            if counted
                && words[i + 1..]
                    .iter()
                    .take(3)
                    .any(|n| n.starts_with("creature") || n.starts_with("target"))
            {
                found.push(format!("{w} creatures"));
            }
            let unit = words.get(i + 1).copied().unwrap_or_default();
            if (w.parse::<u32>().is_ok() && unit.starts_with("round"))
                || (*w == "1" && unit.starts_with("minute"))
            {
                found.push(format!("{w} {unit}"));
            }
            if *w == "next" && unit.starts_with("turn") {
                found.push("until a next turn".to_owned());
            }
        }
    }
    found
}

/// `NdS`, with an optional `+M`: "2d6", "1d4+4".
fn is_dice(w: &str) -> bool {
    let w = w.split('+').next().unwrap_or_default();
    let Some((n, s)) = w.split_once('d') else {
        return false;
    };
    !n.is_empty()
        && !s.is_empty()
        && n.chars().all(|c| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::fight_numbers;

    #[test]
    fn finds_dice_dcs_bonuses_counts_and_fight_durations() {
        assert_eq!(fight_numbers("a hit deals 2d6 fire damage"), ["2d6"]);
        assert_eq!(fight_numbers("gains 1d4+4 temporary hit points"), ["1d4+4"]);
        assert_eq!(fight_numbers("a DC 15 Strength check frees it"), ["DC 15"]);
        assert_eq!(fight_numbers("a +2 bonus to AC"), ["+2"]);
        assert_eq!(fight_numbers("takes a -2 penalty to AC"), ["-2"]);
        assert_eq!(
            fight_numbers("Up to three creatures add a d4 to each attack roll"),
            ["d4", "three creatures"]
        );
        assert_eq!(
            fight_numbers("It is paralyzed for 1 minute."),
            ["paralyzed", "1 minute"]
        );
        assert_eq!(
            fight_numbers("its speed drops by 10 feet until your next turn starts"),
            ["until a next turn"]
        );
        assert_eq!(
            fight_numbers("the saving throw is made for 3 rounds"),
            ["3 rounds"]
        );
    }

    #[test]
    fn leaves_the_numbers_of_a_narrative_spell_alone() {
        // Mage Hand, Prestidigitation, Water Breathing, Feather Fall and Minor Illusion.
        for text in [
            "A floating spectral hand appears at a point within range and lasts for 1 minute. It cannot attack or use magic items.",
            "a trinket or illusory image that fits in your hand and lasts until your next turn ends.",
            "For 24 hours, as many as ten willing creatures in range gain the ability to breathe underwater.",
            "Choose up to five falling creatures within range; each drops at only 60 feet per round for 1 minute.",
            "A creature discerns the illusion if its Intelligence (Investigation) check meets or exceeds your spell save DC.",
            "Anything flammable in the area that isn't being worn or carried is set alight by the 10-foot flame.",
        ] {
            assert_eq!(fight_numbers(text), Vec::<String>::new(), "{text}");
        }
    }
}
