//! The 15 conditions and exhaustion, as the effects they have on rolls.
//!
//! Effects that need to know who caused the condition (a charmed creature cannot attack its
//! charmer; a frightened one cannot move closer to the source of its fear) are for the caller,
//! which knows the source; everything else is here.
//!
//! The rules spread these effects over prose; here they are gathered into three questions a
//! roll asks: what does an attack get ([`attack_modifiers`]), what does a check get
//! ([`check_modifiers`]), what does a save get ([`save_modifiers`]). Each answer lists its
//! reasons, so a tool can tell the LLM (and the UI the player) why a roll had disadvantage.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::ability::Ability;
use super::check::AdvantageSources;
use super::damage::{DamageType, Defenses};

/// The 15 conditions of the SRD. Exhaustion is a condition with levels, kept as a number on
/// the creature; it is here so that it can be named, applied and looked up like the others.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // the names say it all; the effects are in the functions below
pub enum Condition {
    Blinded,
    Charmed,
    Deafened,
    Exhaustion,
    Frightened,
    Grappled,
    Incapacitated,
    Invisible,
    Paralyzed,
    Petrified,
    Poisoned,
    Prone,
    Restrained,
    Stunned,
    Unconscious,
}

impl Condition {
    /// All 15, alphabetically.
    pub const ALL: [Condition; 15] = [
        Condition::Blinded,
        Condition::Charmed,
        Condition::Deafened,
        Condition::Exhaustion,
        Condition::Frightened,
        Condition::Grappled,
        Condition::Incapacitated,
        Condition::Invisible,
        Condition::Paralyzed,
        Condition::Petrified,
        Condition::Poisoned,
        Condition::Prone,
        Condition::Restrained,
        Condition::Stunned,
        Condition::Unconscious,
    ];

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Blinded => "blinded",
            Condition::Charmed => "charmed",
            Condition::Deafened => "deafened",
            Condition::Exhaustion => "exhaustion",
            Condition::Frightened => "frightened",
            Condition::Grappled => "grappled",
            Condition::Incapacitated => "incapacitated",
            Condition::Invisible => "invisible",
            Condition::Paralyzed => "paralyzed",
            Condition::Petrified => "petrified",
            Condition::Poisoned => "poisoned",
            Condition::Prone => "prone",
            Condition::Restrained => "restrained",
            Condition::Stunned => "stunned",
            Condition::Unconscious => "unconscious",
        }
    }

    /// The sentence saying that `who` has just gained this condition, `exhaustion` being the
    /// exhaustion level after it: "Kraven is poisoned". Exhaustion is a level, not a state, so
    /// it reads "Kraven has 2 levels of exhaustion" (never "Kraven is exhaustion").
    pub fn gained(self, who: &str, exhaustion: u8) -> String {
        match self {
            Condition::Exhaustion => exhaustion_sentence(who, exhaustion.max(1)),
            _ => format!("{who} is {}", self.name()),
        }
    }

    /// The sentence saying that `who` has just lost this condition, `exhaustion` being the
    /// exhaustion level after it: "Kraven is no longer poisoned", "Kraven has 1 level of
    /// exhaustion" (one level less), "Kraven is no longer exhausted" (none left).
    pub fn lost(self, who: &str, exhaustion: u8) -> String {
        match self {
            Condition::Exhaustion if exhaustion > 0 => exhaustion_sentence(who, exhaustion),
            Condition::Exhaustion => format!("{who} is no longer exhausted"),
            _ => format!("{who} is no longer {}", self.name()),
        }
    }

    /// Parses a name in any case.
    pub fn parse(text: &str) -> Option<Condition> {
        let text = text.trim();
        Condition::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text))
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// Whether this condition includes being incapacitated (no actions or reactions).
    pub fn incapacitates(self) -> bool {
        matches!(
            self,
            Condition::Incapacitated
                | Condition::Paralyzed
                | Condition::Petrified
                | Condition::Stunned
                | Condition::Unconscious
        )
    }
}

/// "Kraven has 1 level of exhaustion", "Kraven has 3 levels of exhaustion".
fn exhaustion_sentence(who: &str, level: u8) -> String {
    let levels = if level == 1 { "level" } else { "levels" };
    format!("{who} has {level} {levels} of exhaustion")
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The conditions a creature has, as a bit set, plus its exhaustion level (0 to 6).
/// Serializes as `{"conditions": [...], "exhaustion": n}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConditionSet {
    #[serde(rename = "conditions", with = "condition_list", default)]
    bits: u16,
    /// Exhaustion level, 0 (none) to 6 (death).
    #[serde(default)]
    pub exhaustion: u8,
}

mod condition_list {
    use super::Condition;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(bits: &u16, s: S) -> Result<S::Ok, S::Error> {
        let list: Vec<Condition> = Condition::ALL
            .into_iter()
            .filter(|c| bits & c.bit() != 0)
            .collect();
        list.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
        Ok(Vec::<Condition>::deserialize(d)?
            .into_iter()
            .fold(0, |bits, c| bits | c.bit()))
    }
}

impl ConditionSet {
    /// No condition, no exhaustion.
    pub const NONE: ConditionSet = ConditionSet {
        bits: 0,
        exhaustion: 0,
    };

    /// Whether the creature has `condition` (exhaustion: a level above 0).
    pub fn has(&self, condition: Condition) -> bool {
        if condition == Condition::Exhaustion {
            return self.exhaustion > 0;
        }
        self.bits & condition.bit() != 0
    }

    /// Adds a condition (for exhaustion: one more level, at most 6).
    pub fn add(&mut self, condition: Condition) {
        if condition == Condition::Exhaustion {
            self.exhaustion = (self.exhaustion + 1).min(6);
        } else {
            self.bits |= condition.bit();
        }
    }

    /// Removes a condition (for exhaustion: one level).
    pub fn remove(&mut self, condition: Condition) {
        if condition == Condition::Exhaustion {
            self.exhaustion = self.exhaustion.saturating_sub(1);
        } else {
            self.bits &= !condition.bit();
        }
    }

    /// The conditions present (exhaustion included when its level is above 0).
    pub fn iter(&self) -> impl Iterator<Item = Condition> + '_ {
        Condition::ALL.into_iter().filter(|c| self.has(*c))
    }

    /// Whether no condition is present.
    pub fn is_empty(&self) -> bool {
        self.bits == 0 && self.exhaustion == 0
    }

    /// Whether the creature can take actions and reactions.
    pub fn can_act(&self) -> bool {
        !self.iter().any(Condition::incapacitates) && self.exhaustion < 6
    }

    /// Speed after conditions and exhaustion: 0 when grappled, restrained, paralyzed,
    /// petrified, stunned, unconscious or at exhaustion 5; halved at exhaustion 2.
    pub fn speed(&self, base: u32) -> u32 {
        let stopped = [
            Condition::Grappled,
            Condition::Restrained,
            Condition::Paralyzed,
            Condition::Petrified,
            Condition::Stunned,
            Condition::Unconscious,
        ];
        if self.exhaustion >= 5 || stopped.iter().any(|c| self.has(*c)) {
            0
        } else if self.exhaustion >= 2 {
            base / 2
        } else {
            base
        }
    }

    /// Hit point maximum after exhaustion (halved from level 4).
    pub fn hit_point_max(&self, base: u32) -> u32 {
        if self.exhaustion >= 4 { base / 2 } else { base }
    }
}

/// Defenses after conditions: a petrified creature resists every damage type (and keeps its
/// immunities and vulnerabilities).
pub fn effective_defenses(base: &Defenses, conditions: &ConditionSet) -> Defenses {
    let mut defenses = *base;
    if conditions.has(Condition::Petrified) {
        defenses.resistances = DamageType::ALL.into_iter().collect();
    }
    defenses
}

/// What conditions do to one attack roll.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackModifiers {
    /// Sources of advantage and disadvantage, with their reasons.
    pub sources: AdvantageSources,
    /// A hit is a critical hit (target paralyzed or unconscious, attacker within 5 feet).
    pub hit_is_critical: bool,
}

/// What the attacker's and the target's conditions do to an attack. `within_5_feet` is the
/// distance between them; `target_sees_attacker` is false when the attacker is unseen for other
/// reasons (darkness, hiding) and gives advantage like invisibility.
pub fn attack_modifiers(
    attacker: &ConditionSet,
    target: &ConditionSet,
    within_5_feet: bool,
) -> AttackModifiers {
    let mut m = AttackModifiers::default();
    let s = &mut m.sources;
    use Condition::*;
    for (condition, reason) in [
        (Blinded, "attacker is blinded"),
        (Frightened, "attacker is frightened"),
        (Poisoned, "attacker is poisoned"),
        (Prone, "attacker is prone"),
        (Restrained, "attacker is restrained"),
    ] {
        if attacker.has(condition) {
            s.disadvantage(reason);
        }
    }
    if attacker.exhaustion >= 3 {
        s.disadvantage("attacker has exhaustion 3 or more");
    }
    if attacker.has(Invisible) {
        s.advantage("attacker is invisible");
    }
    if target.has(Invisible) {
        s.disadvantage("target is invisible");
    }
    for (condition, reason) in [
        (Blinded, "target is blinded"),
        (Paralyzed, "target is paralyzed"),
        (Petrified, "target is petrified"),
        (Restrained, "target is restrained"),
        (Stunned, "target is stunned"),
        (Unconscious, "target is unconscious"),
    ] {
        if target.has(condition) {
            s.advantage(reason);
        }
    }
    if target.has(Prone) {
        if within_5_feet {
            s.advantage("target is prone, attacker within 5 feet");
        } else {
            s.disadvantage("target is prone, attacker farther than 5 feet");
        }
    }
    m.hit_is_critical = within_5_feet && (target.has(Paralyzed) || target.has(Unconscious));
    m
}

/// What conditions do to an ability check. `needs_sight` / `needs_hearing` mark checks that
/// rely on that sense: a blinded or deafened creature fails them outright.
pub fn check_modifiers(
    creature: &ConditionSet,
    needs_sight: bool,
    needs_hearing: bool,
) -> (AdvantageSources, Option<&'static str>) {
    let mut s = AdvantageSources::default();
    if creature.has(Condition::Poisoned) {
        s.disadvantage("poisoned");
    }
    if creature.has(Condition::Frightened) {
        s.disadvantage("frightened");
    }
    if creature.exhaustion >= 1 {
        s.disadvantage("exhaustion 1 or more");
    }
    let auto_fail = if needs_sight && creature.has(Condition::Blinded) {
        Some("blinded: fails any check that needs sight")
    } else if needs_hearing && creature.has(Condition::Deafened) {
        Some("deafened: fails any check that needs hearing")
    } else {
        None
    };
    (s, auto_fail)
}

/// What conditions do to a saving throw of `ability`: paralyzed, petrified, stunned and
/// unconscious creatures fail Strength and Dexterity saves; restrained ones have disadvantage on
/// Dexterity saves; exhaustion 3 or more gives disadvantage on every save.
pub fn save_modifiers(
    creature: &ConditionSet,
    ability: Ability,
) -> (AdvantageSources, Option<&'static str>) {
    let mut s = AdvantageSources::default();
    let physical = matches!(ability, Ability::Strength | Ability::Dexterity);
    let mut auto_fail = None;
    if physical {
        for (condition, reason) in [
            (
                Condition::Paralyzed,
                "paralyzed: fails Strength and Dexterity saves",
            ),
            (
                Condition::Petrified,
                "petrified: fails Strength and Dexterity saves",
            ),
            (
                Condition::Stunned,
                "stunned: fails Strength and Dexterity saves",
            ),
            (
                Condition::Unconscious,
                "unconscious: fails Strength and Dexterity saves",
            ),
        ] {
            if creature.has(condition) {
                auto_fail = Some(reason);
                break;
            }
        }
    }
    if ability == Ability::Dexterity && creature.has(Condition::Restrained) {
        s.disadvantage("restrained");
    }
    if creature.exhaustion >= 3 {
        s.disadvantage("exhaustion 3 or more");
    }
    (s, auto_fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condition_sentences_read_as_english() {
        assert_eq!(
            Condition::Poisoned.gained("Kraven", 0),
            "Kraven is poisoned"
        );
        assert_eq!(
            Condition::Poisoned.lost("Kraven", 0),
            "Kraven is no longer poisoned"
        );
        // Exhaustion is a level: never "Kraven is exhaustion".
        assert_eq!(
            Condition::Exhaustion.gained("Kraven", 1),
            "Kraven has 1 level of exhaustion"
        );
        assert_eq!(
            Condition::Exhaustion.gained("Kraven", 3),
            "Kraven has 3 levels of exhaustion"
        );
        assert_eq!(
            Condition::Exhaustion.lost("Kraven", 2),
            "Kraven has 2 levels of exhaustion"
        );
        assert_eq!(
            Condition::Exhaustion.lost("Kraven", 0),
            "Kraven is no longer exhausted"
        );
    }
    use crate::dice::Advantage;

    fn with(conditions: &[Condition]) -> ConditionSet {
        let mut set = ConditionSet::NONE;
        for c in conditions {
            set.add(*c);
        }
        set
    }

    #[test]
    fn paralyzed_target_within_5_feet_is_auto_crit_with_advantage() {
        let m = attack_modifiers(&ConditionSet::NONE, &with(&[Condition::Paralyzed]), true);
        assert!(m.hit_is_critical);
        assert_eq!(m.sources.resolve(), Advantage::Advantage);
        let far = attack_modifiers(&ConditionSet::NONE, &with(&[Condition::Paralyzed]), false);
        assert!(!far.hit_is_critical);
    }

    #[test]
    fn prone_depends_on_distance() {
        let prone = with(&[Condition::Prone]);
        let near = attack_modifiers(&ConditionSet::NONE, &prone, true);
        let far = attack_modifiers(&ConditionSet::NONE, &prone, false);
        assert_eq!(near.sources.resolve(), Advantage::Advantage);
        assert_eq!(far.sources.resolve(), Advantage::Disadvantage);
    }

    #[test]
    fn advantage_and_disadvantage_cancel_however_many() {
        // Poisoned and blinded attacker (two disadvantages) against a restrained target (one
        // advantage): they cancel to a normal roll.
        let attacker = with(&[Condition::Poisoned, Condition::Blinded]);
        let m = attack_modifiers(&attacker, &with(&[Condition::Restrained]), true);
        assert_eq!(m.sources.resolve(), Advantage::Normal);
        assert_eq!(m.sources.reasons().len(), 3);
    }

    #[test]
    fn saves_and_checks() {
        let stunned = with(&[Condition::Stunned]);
        assert!(save_modifiers(&stunned, Ability::Dexterity).1.is_some());
        assert!(save_modifiers(&stunned, Ability::Wisdom).1.is_none());
        let (s, _) = save_modifiers(&with(&[Condition::Restrained]), Ability::Dexterity);
        assert_eq!(s.resolve(), Advantage::Disadvantage);
        let (s, fail) = check_modifiers(&with(&[Condition::Blinded]), true, false);
        assert!(fail.is_some());
        assert_eq!(s.resolve(), Advantage::Normal);
    }

    #[test]
    fn petrified_resists_everything() {
        let d = effective_defenses(&Defenses::default(), &with(&[Condition::Petrified]));
        assert_eq!(d.apply(9, DamageType::Force).0, 4);
        let d = effective_defenses(&Defenses::default(), &ConditionSet::NONE);
        assert_eq!(d.apply(9, DamageType::Force).0, 9);
    }

    #[test]
    fn exhaustion_levels() {
        let mut set = ConditionSet::NONE;
        for _ in 0..2 {
            set.add(Condition::Exhaustion);
        }
        assert_eq!(set.speed(30), 15);
        assert!(check_modifiers(&set, false, false).0.resolve() == Advantage::Disadvantage);
        set.add(Condition::Exhaustion);
        set.add(Condition::Exhaustion);
        assert_eq!(set.hit_point_max(30), 15);
        set.add(Condition::Exhaustion);
        assert_eq!(set.speed(30), 0);
        set.add(Condition::Exhaustion);
        set.add(Condition::Exhaustion);
        assert_eq!(set.exhaustion, 6);
        assert!(!set.can_act());
        let json = serde_json::to_string(&with(&[Condition::Prone])).unwrap();
        assert_eq!(json, r#"{"conditions":["prone"],"exhaustion":0}"#);
    }
}
