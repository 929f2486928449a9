//! A spell's range, parsed once where the spell data is read: "120 feet", "Touch", "Self",
//! "Self (15-foot cone)", "1 mile", "Sight", "Unlimited", "Special". It is kept as the SRD's
//! text in the data files (serde goes through that text both ways), and as a [`SpellRange`]
//! everywhere else, so no rule reads the words.
//!
//! What a range means for the creatures a casting may name is [`Spell::reach`]: the range in
//! feet, 5 ft for Touch, only the caster for Self unless the data gives the spell a reach from
//! the caster (an area that starts at the caster, a strike or a hurled flame).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{AttackKind, Spell};

/// How far a spell reaches from its caster, as the SRD states it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SpellRange {
    /// "Self", or "Self (15-foot cone)": the spell starts at the caster. `shape` is the words
    /// in brackets, when the text gives them.
    Caster {
        /// "15-foot cone", "30-foot radius".
        shape: Option<String>,
    },
    /// "Touch": a creature within 5 ft.
    Touch,
    /// "120 feet".
    Feet(u32),
    /// "1 mile", "500 miles".
    Miles(u32),
    /// "Sight": any creature the caster can see.
    Sight,
    /// "Unlimited".
    Unlimited,
    /// "Special": the description says.
    Special,
}

impl SpellRange {
    /// Reads the SRD's text; `None` for text that is not a range.
    pub fn parse(text: &str) -> Option<SpellRange> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        match lower.as_str() {
            "touch" => return Some(SpellRange::Touch),
            "sight" => return Some(SpellRange::Sight),
            "unlimited" => return Some(SpellRange::Unlimited),
            "special" => return Some(SpellRange::Special),
            "self" => return Some(SpellRange::Caster { shape: None }),
            _ => {}
        }
        if lower.starts_with("self") {
            // The first four bytes are ASCII ("self"), so the data's own spelling follows.
            let inner = t[4..].trim().strip_prefix('(')?.strip_suffix(')')?.trim();
            return Some(SpellRange::Caster {
                shape: Some(inner.to_owned()),
            });
        }
        let (number, unit) = lower.split_once(' ')?;
        let n: u32 = number.replace(',', "").parse().ok()?;
        match unit.trim() {
            "foot" | "feet" => Some(SpellRange::Feet(n)),
            "mile" | "miles" => Some(SpellRange::Miles(n)),
            _ => None,
        }
    }

    /// The range in feet for a range given in a distance (Touch: 5 ft); `None` for Self,
    /// Sight, Unlimited and Special.
    pub fn feet(&self) -> Option<u32> {
        match self {
            SpellRange::Touch => Some(5),
            SpellRange::Feet(n) => Some(*n),
            SpellRange::Miles(n) => Some(n.saturating_mul(5280)),
            _ => None,
        }
    }

    /// The feet a "Self (15-foot cone)" shape reaches from the caster, if its words say.
    fn shape_feet(&self) -> Option<u32> {
        let SpellRange::Caster { shape: Some(shape) } = self else {
            return None;
        };
        shape.split(['-', ' ']).next()?.parse().ok()
    }
}

impl fmt::Display for SpellRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpellRange::Caster { shape: None } => f.write_str("Self"),
            SpellRange::Caster { shape: Some(s) } => write!(f, "Self ({s})"),
            SpellRange::Touch => f.write_str("Touch"),
            SpellRange::Feet(n) => write!(f, "{n} feet"),
            SpellRange::Miles(1) => f.write_str("1 mile"),
            SpellRange::Miles(n) => write!(f, "{n} miles"),
            SpellRange::Sight => f.write_str("Sight"),
            SpellRange::Unlimited => f.write_str("Unlimited"),
            SpellRange::Special => f.write_str("Special"),
        }
    }
}

impl TryFrom<String> for SpellRange {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        SpellRange::parse(&text).ok_or_else(|| {
            format!(
                "{text:?} is not a spell range: expected \"N feet\", \"N miles\", \"Touch\", \"Self\", \"Self (shape)\", \"Sight\", \"Unlimited\" or \"Special\""
            )
        })
    }
}

impl From<SpellRange> for String {
    fn from(range: SpellRange) -> String {
        range.to_string()
    }
}

/// Which creatures a casting may name, by where they stand (see [`Spell::reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpellReach {
    /// Only the caster (Shield, Expeditious Retreat).
    CasterOnly,
    /// Creatures within this many feet of the caster.
    Within(u32),
    /// No distance the engine checks (Sight, Unlimited, Special).
    Unchecked,
}

impl Spell {
    /// Which creatures this spell may name, from its range and its data:
    ///
    /// - a range in feet or miles: creatures within it, and as far again as its area reaches
    ///   (Fireball's 20-ft sphere may be centred 150 ft away: 170 ft); Touch: within 5 ft;
    /// - Self with an area (Burning Hands' 15-ft cone, Thunderwave's 15-ft cube), or a shape in
    ///   its range text: within the area's size;
    /// - Self with a ranged spell attack: as far as the description's "within N feet" hurls it
    ///   (Produce Flame: 30 ft), else 5 ft; Self with a melee spell attack or damage or healing
    ///   of its own (Vampiric Touch): within 5 ft;
    /// - any other Self spell: only the caster;
    /// - Sight, Unlimited, Special: not checked.
    pub fn reach(&self) -> SpellReach {
        let area = self.area.as_ref().map_or(0, |a| a.size);
        if let Some(feet) = self.range.feet() {
            let extra = if self.range == SpellRange::Touch {
                0
            } else {
                area
            };
            return SpellReach::Within(feet.saturating_add(extra));
        }
        if !matches!(self.range, SpellRange::Caster { .. }) {
            return SpellReach::Unchecked;
        }
        if let Some(feet) = self.range.shape_feet() {
            return SpellReach::Within(feet);
        }
        if area > 0 {
            return SpellReach::Within(area);
        }
        match self.attack_kind() {
            Some(AttackKind::RangedSpell) => {
                SpellReach::Within(within_feet(&self.description).unwrap_or(5))
            }
            Some(_) => SpellReach::Within(5),
            None if self.deals_or_heals() => SpellReach::Within(5),
            // A Self spell that picks creatures (Pass without Trace: "each creature you pick
            // within 30 feet of you") reaches them as far as its text says.
            None if self.targets.is_some() => {
                SpellReach::Within(within_feet(&self.description).unwrap_or(5))
            }
            None => SpellReach::CasterOnly,
        }
    }
}

/// The N of the first "within N feet" in a description.
fn within_feet(description: &str) -> Option<u32> {
    let lower = description.to_ascii_lowercase();
    let at = lower.find("within ")? + "within ".len();
    let (number, rest) = lower[at..].split_once(' ')?;
    rest.starts_with("feet")
        .then(|| number.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_srd_texts_parse_and_print_back() {
        for (text, range) in [
            ("120 feet", SpellRange::Feet(120)),
            ("Touch", SpellRange::Touch),
            ("Self", SpellRange::Caster { shape: None }),
            (
                "Self (15-foot cone)",
                SpellRange::Caster {
                    shape: Some("15-foot cone".into()),
                },
            ),
            ("1 mile", SpellRange::Miles(1)),
            ("500 miles", SpellRange::Miles(500)),
            ("Sight", SpellRange::Sight),
            ("Unlimited", SpellRange::Unlimited),
            ("Special", SpellRange::Special),
        ] {
            assert_eq!(SpellRange::parse(text), Some(range.clone()), "{text}");
            assert_eq!(range.to_string(), text);
        }
        assert_eq!(SpellRange::parse("far away"), None);
        assert_eq!(SpellRange::parse("Self (cone"), None);
        assert_eq!(SpellRange::Touch.feet(), Some(5));
        assert_eq!(SpellRange::Miles(1).feet(), Some(5280));
    }

    #[test]
    fn a_shape_in_the_text_gives_the_reach_from_the_caster() {
        let cone = SpellRange::parse("Self (15-foot cone)").unwrap();
        assert_eq!(cone.shape_feet(), Some(15));
        assert_eq!(SpellRange::parse("Self").unwrap().shape_feet(), None);
    }

    #[test]
    fn within_feet_reads_the_description() {
        assert_eq!(
            within_feet("You can hurl the flame at a creature within 30 feet of you."),
            Some(30)
        );
        assert_eq!(within_feet("within reach"), None);
    }
}
