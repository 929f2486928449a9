//! Damage types, defenses (resistance, vulnerability, immunity), hit points with temporary hit
//! points, and what damage and healing do to them: dropping to 0, massive damage, damage at 0.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The 13 damage types.
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
#[allow(missing_docs)] // the names say it all
pub enum DamageType {
    Acid,
    Bludgeoning,
    Cold,
    Fire,
    Force,
    Lightning,
    Necrotic,
    Piercing,
    Poison,
    Psychic,
    Radiant,
    Slashing,
    Thunder,
}

impl DamageType {
    /// All 13, alphabetically.
    pub const ALL: [DamageType; 13] = [
        DamageType::Acid,
        DamageType::Bludgeoning,
        DamageType::Cold,
        DamageType::Fire,
        DamageType::Force,
        DamageType::Lightning,
        DamageType::Necrotic,
        DamageType::Piercing,
        DamageType::Poison,
        DamageType::Psychic,
        DamageType::Radiant,
        DamageType::Slashing,
        DamageType::Thunder,
    ];

    /// The lower-case name (`"fire"`), as written in dice labels and data files.
    pub fn name(self) -> &'static str {
        match self {
            DamageType::Acid => "acid",
            DamageType::Bludgeoning => "bludgeoning",
            DamageType::Cold => "cold",
            DamageType::Fire => "fire",
            DamageType::Force => "force",
            DamageType::Lightning => "lightning",
            DamageType::Necrotic => "necrotic",
            DamageType::Piercing => "piercing",
            DamageType::Poison => "poison",
            DamageType::Psychic => "psychic",
            DamageType::Radiant => "radiant",
            DamageType::Slashing => "slashing",
            DamageType::Thunder => "thunder",
        }
    }

    /// Parses a name in any case (`"Fire"`, `" cold "`).
    pub fn parse(text: &str) -> Option<DamageType> {
        let text = text.trim();
        DamageType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(text))
    }

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl fmt::Display for DamageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of damage types, as a bit set: checking a defense costs one AND.
/// Serializes as a list of names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DamageTypes(u16);

impl DamageTypes {
    /// No type.
    pub const EMPTY: DamageTypes = DamageTypes(0);

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: DamageType) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Adds `kind`.
    pub fn insert(&mut self, kind: DamageType) {
        self.0 |= kind.bit();
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The types in either set.
    pub fn union(self, other: DamageTypes) -> DamageTypes {
        DamageTypes(self.0 | other.0)
    }

    /// The types in the set, alphabetically.
    pub fn iter(self) -> impl Iterator<Item = DamageType> {
        DamageType::ALL
            .into_iter()
            .filter(move |t| self.contains(*t))
    }
}

impl FromIterator<DamageType> for DamageTypes {
    fn from_iter<I: IntoIterator<Item = DamageType>>(iter: I) -> Self {
        let mut set = DamageTypes::EMPTY;
        for kind in iter {
            set.insert(kind);
        }
        set
    }
}

impl Serialize for DamageTypes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for DamageTypes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<DamageType>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}

/// What a creature resists, is vulnerable to and is immune to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Defenses {
    /// Damage of these types is halved (rounded down).
    #[serde(default, skip_serializing_if = "DamageTypes::is_empty")]
    pub resistances: DamageTypes,
    /// Damage of these types is doubled.
    #[serde(default, skip_serializing_if = "DamageTypes::is_empty")]
    pub vulnerabilities: DamageTypes,
    /// Damage of these types is ignored.
    #[serde(default, skip_serializing_if = "DamageTypes::is_empty")]
    pub immunities: DamageTypes,
    /// Damage of these types is halved when it comes from a nonmagical attack (the SRD's
    /// "bludgeoning, piercing, and slashing from nonmagical attacks"). Counted only through
    /// [`against_nonmagical_attack`](Defenses::against_nonmagical_attack).
    #[serde(default, skip_serializing_if = "DamageTypes::is_empty")]
    pub nonmagical_resistances: DamageTypes,
    /// Damage of these types is ignored when it comes from a nonmagical attack.
    #[serde(default, skip_serializing_if = "DamageTypes::is_empty")]
    pub nonmagical_immunities: DamageTypes,
}

/// How a defense changed one amount of damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefenseApplied {
    /// Taken in full.
    None,
    /// Halved, rounded down.
    Resisted,
    /// Doubled.
    Vulnerable,
    /// Resisted, then doubled: the rules apply resistance before vulnerability.
    ResistedAndVulnerable,
    /// Ignored.
    Immune,
}

impl Defenses {
    /// The defenses that count against a nonmagical attack (a mundane weapon, a claw, a bite):
    /// these plus the ones that only such attacks meet.
    ///
    /// The SRD also writes "that aren't silvered" or "that aren't adamantine"; weapons of those
    /// materials are not tracked, so every nonmagical attack meets those defenses too.
    pub fn against_nonmagical_attack(self) -> Defenses {
        Defenses {
            resistances: self.resistances.union(self.nonmagical_resistances),
            immunities: self.immunities.union(self.nonmagical_immunities),
            ..self
        }
    }

    /// The defenses that count against an attack: all of them for a nonmagical one (see
    /// [`against_nonmagical_attack`](Defenses::against_nonmagical_attack)), only those that
    /// always apply for a magical one.
    pub fn against_attack(self, magical: bool) -> Defenses {
        if magical {
            self
        } else {
            self.against_nonmagical_attack()
        }
    }

    /// The damage actually taken from `amount` of `kind`, and which defense applied.
    ///
    /// Only the defenses that always apply count here: for a nonmagical attack, call
    /// [`against_nonmagical_attack`](Defenses::against_nonmagical_attack) first (spells,
    /// magic weapons and damage that is not an attack, such as a fall, meet none of the
    /// conditional ones).
    ///
    /// Immunity wins; otherwise resistance halves (rounding down) and then vulnerability
    /// doubles, the order the rules give. Several sources of one defense count once, which a
    /// set expresses by construction.
    pub fn apply(&self, amount: u32, kind: DamageType) -> (u32, DefenseApplied) {
        if self.immunities.contains(kind) {
            return (0, DefenseApplied::Immune);
        }
        match (
            self.resistances.contains(kind),
            self.vulnerabilities.contains(kind),
        ) {
            (false, false) => (amount, DefenseApplied::None),
            (true, false) => (amount / 2, DefenseApplied::Resisted),
            (false, true) => (amount * 2, DefenseApplied::Vulnerable),
            (true, true) => ((amount / 2) * 2, DefenseApplied::ResistedAndVulnerable),
        }
    }
}

/// Hit points, with temporary hit points kept apart (they are lost first and do not heal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HitPoints {
    /// Current hit points, 0 to `max`.
    pub current: u32,
    /// Hit point maximum.
    pub max: u32,
    /// Temporary hit points.
    #[serde(default)]
    pub temporary: u32,
}

impl HitPoints {
    /// Full hit points and no temporary ones.
    pub fn full(max: u32) -> HitPoints {
        HitPoints {
            current: max,
            max,
            temporary: 0,
        }
    }

    /// Grants temporary hit points: they do not stack, so the larger of the old and new stays.
    pub fn grant_temporary(&mut self, amount: u32) {
        self.temporary = self.temporary.max(amount);
    }
}

/// What happens to a creature at 0 hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtZero {
    /// Falls unconscious and makes death saving throws (player characters, important NPCs).
    DeathSaves,
    /// Dies outright (most monsters).
    Dies,
}

/// The result of applying damage to hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageOutcome {
    /// The damage dealt (after defenses, before temporary hit points).
    pub damage: u32,
    /// How much of it the temporary hit points absorbed.
    pub absorbed_by_temporary: u32,
    /// Hit points before and after.
    pub hp_before: u32,
    /// Hit points after.
    pub hp_after: u32,
    /// The creature went from above 0 to 0 with this damage.
    pub dropped_to_zero: bool,
    /// The creature died: massive damage (what is left after reaching 0 is at least the
    /// maximum), damage at 0 that equals the maximum, or a creature that dies at 0.
    pub killed: bool,
    /// Death saving throw failures this damage adds (damage at 0: one, two for a critical hit).
    pub death_save_failures: u8,
}

/// Applies `damage` (already through defenses) to `hp`, by the rules for dropping to 0 hit
/// points, massive damage and damage at 0. `critical` matters only for damage at 0.
pub fn apply_damage(
    hp: &mut HitPoints,
    damage: u32,
    at_zero: AtZero,
    critical: bool,
) -> DamageOutcome {
    let hp_before = hp.current;
    let absorbed_by_temporary = damage.min(hp.temporary);
    hp.temporary -= absorbed_by_temporary;
    let rest = damage - absorbed_by_temporary;
    let mut outcome = DamageOutcome {
        damage,
        absorbed_by_temporary,
        hp_before,
        hp_after: hp_before,
        dropped_to_zero: false,
        killed: false,
        death_save_failures: 0,
    };
    if rest == 0 {
        return outcome;
    }
    if hp_before == 0 {
        // Already down: damage is a failed death save, or death if it is massive.
        outcome.killed = rest >= hp.max || at_zero == AtZero::Dies;
        outcome.death_save_failures = if critical { 2 } else { 1 };
        return outcome;
    }
    let overflow = rest.saturating_sub(hp_before);
    hp.current = hp_before.saturating_sub(rest);
    outcome.hp_after = hp.current;
    if hp.current == 0 {
        outcome.dropped_to_zero = true;
        outcome.killed = overflow >= hp.max || at_zero == AtZero::Dies;
    }
    outcome
}

/// The result of healing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealOutcome {
    /// Hit points before.
    pub hp_before: u32,
    /// Hit points after (never above the maximum).
    pub hp_after: u32,
    /// The creature was at 0 and is conscious again (its death saves reset).
    pub revived: bool,
}

/// Heals `amount`, up to the maximum. Healing a creature at 0 brings it back to consciousness.
/// (The dead are not healed: that is for the caller, which knows whether the creature died.)
pub fn heal(hp: &mut HitPoints, amount: u32) -> HealOutcome {
    let hp_before = hp.current;
    hp.current = hp.current.saturating_add(amount).min(hp.max);
    HealOutcome {
        hp_before,
        hp_after: hp.current,
        revived: hp_before == 0 && hp.current > 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defenses() -> Defenses {
        Defenses {
            resistances: [DamageType::Fire, DamageType::Cold].into_iter().collect(),
            vulnerabilities: [DamageType::Cold, DamageType::Radiant]
                .into_iter()
                .collect(),
            immunities: [DamageType::Poison].into_iter().collect(),
            ..Defenses::default()
        }
    }

    #[test]
    fn conditional_defenses_count_only_against_nonmagical_attacks() {
        // A specter: resistant to B/P/S from nonmagical attacks, immune to poison.
        let physical = [
            DamageType::Bludgeoning,
            DamageType::Piercing,
            DamageType::Slashing,
        ];
        let specter = Defenses {
            immunities: [DamageType::Poison].into_iter().collect(),
            nonmagical_resistances: physical.into_iter().collect(),
            ..Defenses::default()
        };
        // A +1 sword or a spell: full damage.
        assert_eq!(
            specter.apply(9, DamageType::Slashing),
            (9, DefenseApplied::None)
        );
        // A mundane sword: halved.
        let mundane = specter.against_nonmagical_attack();
        assert_eq!(
            mundane.apply(9, DamageType::Slashing),
            (4, DefenseApplied::Resisted)
        );
        assert_eq!(
            mundane.apply(9, DamageType::Fire),
            (9, DefenseApplied::None)
        );
        assert_eq!(
            mundane.apply(9, DamageType::Poison),
            (0, DefenseApplied::Immune)
        );
        // A flesh golem is immune to them instead.
        let golem = Defenses {
            nonmagical_immunities: physical.into_iter().collect(),
            ..Defenses::default()
        };
        assert_eq!(
            golem
                .against_nonmagical_attack()
                .apply(9, DamageType::Piercing),
            (0, DefenseApplied::Immune)
        );
        assert_eq!(
            golem.apply(9, DamageType::Piercing),
            (9, DefenseApplied::None)
        );
    }

    #[test]
    fn resistance_halves_rounding_down_and_vulnerability_doubles() {
        let d = defenses();
        assert_eq!(d.apply(7, DamageType::Fire), (3, DefenseApplied::Resisted));
        assert_eq!(
            d.apply(7, DamageType::Radiant),
            (14, DefenseApplied::Vulnerable)
        );
        assert_eq!(d.apply(7, DamageType::Poison), (0, DefenseApplied::Immune));
        assert_eq!(d.apply(7, DamageType::Slashing), (7, DefenseApplied::None));
        // Resistance first, then vulnerability: 7 -> 3 -> 6.
        assert_eq!(
            d.apply(7, DamageType::Cold),
            (6, DefenseApplied::ResistedAndVulnerable)
        );
    }

    #[test]
    fn damage_types_serialize_as_names() {
        let json = serde_json::to_string(&defenses()).unwrap();
        assert_eq!(
            json,
            r#"{"resistances":["cold","fire"],"vulnerabilities":["cold","radiant"],"immunities":["poison"]}"#
        );
        let back: Defenses = serde_json::from_str(&json).unwrap();
        assert_eq!(back, defenses());
        assert_eq!(DamageType::parse(" Fire "), Some(DamageType::Fire));
    }

    #[test]
    fn temporary_hit_points_go_first_and_do_not_stack() {
        let mut hp = HitPoints::full(20);
        hp.grant_temporary(5);
        hp.grant_temporary(3);
        assert_eq!(hp.temporary, 5);
        let out = apply_damage(&mut hp, 8, AtZero::DeathSaves, false);
        assert_eq!(out.absorbed_by_temporary, 5);
        assert_eq!((hp.current, hp.temporary), (17, 0));
    }

    #[test]
    fn massive_damage_kills_outright() {
        // The SRD's example: 12 max HP, 6 left, 18 damage: 12 left over after 0, so dead.
        let mut hp = HitPoints {
            current: 6,
            max: 12,
            temporary: 0,
        };
        let out = apply_damage(&mut hp, 18, AtZero::DeathSaves, false);
        assert!(out.dropped_to_zero && out.killed);
        let mut hp = HitPoints {
            current: 6,
            max: 12,
            temporary: 0,
        };
        let out = apply_damage(&mut hp, 17, AtZero::DeathSaves, false);
        assert!(out.dropped_to_zero && !out.killed);
    }

    #[test]
    fn damage_at_zero_fails_death_saves() {
        let mut hp = HitPoints {
            current: 0,
            max: 12,
            temporary: 0,
        };
        assert_eq!(
            apply_damage(&mut hp, 3, AtZero::DeathSaves, false).death_save_failures,
            1
        );
        assert_eq!(
            apply_damage(&mut hp, 3, AtZero::DeathSaves, true).death_save_failures,
            2
        );
        assert!(apply_damage(&mut hp, 12, AtZero::DeathSaves, false).killed);
        let mut goblin = HitPoints::full(7);
        assert!(apply_damage(&mut goblin, 7, AtZero::Dies, false).killed);
    }

    #[test]
    fn healing_caps_at_max_and_revives() {
        let mut hp = HitPoints {
            current: 0,
            max: 10,
            temporary: 0,
        };
        let out = heal(&mut hp, 25);
        assert!(out.revived);
        assert_eq!(hp.current, 10);
    }
}
