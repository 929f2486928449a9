//! Attack rolls against Armor Class and the damage that follows: natural 20s hit and are
//! critical, natural 1s miss, a critical hit doubles the damage dice (not the modifiers), and
//! the target's resistances, vulnerabilities and immunities apply per damage type.

use std::fmt;
use std::str::FromStr;

use crate::dice::DieSource;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::check::D20Roll;
use super::damage::{DamageType, DefenseApplied, Defenses};
use crate::dice::{Advantage, DiceExpr};

/// Dice of one damage type: `2d6+3 slashing`. A flat amount has no dice (`count` 0).
///
/// Serializes as `{"dice": "2d6+3", "type": "slashing"}`. The dice are kept as numbers, not an
/// expression, because a critical hit needs to double them and an attack must resolve in well
/// under 100 ns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DamageDice {
    /// Number of dice.
    pub count: u16,
    /// Sides of each die.
    pub sides: u16,
    /// Added once, after the dice (not doubled on a critical hit).
    pub bonus: i32,
    /// The damage type.
    pub kind: DamageType,
}

/// Why a damage expression was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("damage dice {text:?}: {reason}; write them as NdS+M with one kind of die, such as 2d6+3")]
pub struct DamageDiceError {
    /// The text given.
    pub text: String,
    /// What was wrong.
    pub reason: String,
}

impl DamageDice {
    /// Damage dice of a type, from `count`d`sides` + `bonus`.
    pub const fn new(count: u16, sides: u16, bonus: i32, kind: DamageType) -> DamageDice {
        DamageDice {
            count,
            sides,
            bonus,
            kind,
        }
    }

    /// Parses `2d6+3`, `1d8`, `d4-1` or a flat `5` (through the dice engine, so the notation
    /// is the one players use everywhere else).
    pub fn parse(text: &str, kind: DamageType) -> Result<DamageDice, DamageDiceError> {
        let error = |reason: String| DamageDiceError {
            text: text.to_owned(),
            reason,
        };
        let expr = DiceExpr::parse(text).map_err(|e| error(e.to_string()))?;
        let (terms, constant) = expr.simple_terms().ok_or_else(|| {
            error("only dice and a number added or subtracted are allowed".into())
        })?;
        let bonus = i32::try_from(constant).map_err(|_| error("the bonus is too large".into()))?;
        match terms.as_slice() {
            [] => Ok(DamageDice::new(0, 0, bonus, kind)),
            [(1, count, sides)] => {
                let count = u16::try_from(*count).map_err(|_| error("too many dice".into()))?;
                let sides = u16::try_from(*sides).map_err(|_| error("too many sides".into()))?;
                Ok(DamageDice::new(count, sides, bonus, kind))
            }
            [(_, _, _)] => Err(error("dice cannot be subtracted".into())),
            _ => Err(error(
                "more than one group of dice (give each group its own entry)".into(),
            )),
        }
    }

    /// The dice without the type: `2d6+3`.
    pub fn dice_text(&self) -> String {
        match (self.count, self.bonus) {
            (0, b) => b.to_string(),
            (c, 0) => format!("{c}d{}", self.sides),
            (c, b) if b > 0 => format!("{c}d{}+{b}", self.sides),
            (c, b) => format!("{c}d{}{b}", self.sides),
        }
    }

    /// The average damage, rounded down, as stat blocks print it (`2d6+3` averages 10).
    pub fn average(&self) -> i32 {
        (i32::from(self.count) * (i32::from(self.sides) + 1) / 2 + self.bonus).max(0)
    }
}

impl fmt::Display for DamageDice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.dice_text(), self.kind)
    }
}

impl FromStr for DamageDice {
    type Err = DamageDiceError;

    /// Parses `2d6+3 slashing`: dice, then a damage type.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (dice, kind) = text
            .trim()
            .rsplit_once(' ')
            .ok_or_else(|| DamageDiceError {
                text: text.to_owned(),
                reason: "no damage type after the dice".into(),
            })?;
        let kind = DamageType::parse(kind).ok_or_else(|| DamageDiceError {
            text: text.to_owned(),
            reason: format!("{kind:?} is not a damage type (acid, bludgeoning, cold, fire, force, lightning, necrotic, piercing, poison, psychic, radiant, slashing, thunder)"),
        })?;
        DamageDice::parse(dice, kind)
    }
}

#[derive(Serialize, Deserialize)]
struct DamageDiceForm {
    dice: String,
    #[serde(rename = "type")]
    kind: DamageType,
}

impl Serialize for DamageDice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DamageDiceForm {
            dice: self.dice_text(),
            kind: self.kind,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for DamageDice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let form = DamageDiceForm::deserialize(deserializer)?;
        DamageDice::parse(&form.dice, form.kind).map_err(serde::de::Error::custom)
    }
}

/// One attack: its bonus to hit, its damage, and the lowest natural roll that is a critical hit
/// (20 for nearly everyone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackProfile<'a> {
    /// Added to the d20.
    pub attack_bonus: i32,
    /// Damage on a hit, one entry per type.
    pub damage: &'a [DamageDice],
    /// A natural roll of at least this is a critical hit (20; 19 for a Champion).
    pub critical_range: u8,
}

/// The target of an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AttackTarget {
    /// Armor Class.
    pub armor_class: i32,
    /// Resistances, vulnerabilities and immunities.
    pub defenses: Defenses,
    /// Every hit is critical (paralyzed or unconscious within 5 feet: see
    /// [`super::conditions::attack_modifiers`]).
    pub hits_are_critical: bool,
}

/// The damage of one type dealt by one hit.
///
/// Serializes flat: `{"dice": "1d6+2", "type": "slashing", "faces": [4, 6], "rolled": 12, ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageDealt {
    /// The dice as written and the damage type (the dice before doubling).
    #[serde(flatten)]
    pub dice: DamageDice,
    /// Every face rolled (twice as many on a critical hit).
    pub faces: SmallVec<[u16; 8]>,
    /// Faces plus bonus, at least 0.
    pub rolled: u32,
    /// What the target takes after its defenses.
    pub taken: u32,
    /// Which defense changed it.
    pub defense: DefenseApplied,
    /// Dice rolled again whose new face stands (a sorcerer's Empowered Spell): `faces` holds
    /// the new faces, this what each was first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolled: Vec<Reroll>,
}

/// One damage die rolled again: its first face and the face that stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reroll {
    /// The face first rolled.
    pub was: u16,
    /// The face rolled again, which counts.
    pub now: u16,
}

/// The outcome of one attack roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackResult {
    /// The d20.
    pub d20: D20Roll,
    /// The attack bonus.
    pub attack_bonus: i32,
    /// d20 plus bonus.
    pub total: i32,
    /// The target's AC.
    pub target_ac: i32,
    /// Whether it hit (a natural 20 always does, a natural 1 never does; otherwise meeting the
    /// AC is enough).
    pub hit: bool,
    /// Whether the hit is critical.
    pub critical: bool,
    /// Damage by type; empty on a miss.
    pub damage: SmallVec<[DamageDealt; 2]>,
    /// The sum of `taken` over every type.
    pub total_damage: u32,
}

/// Decides hit and critical from a d20 already rolled.
pub fn attack_hits(
    d20: D20Roll,
    attack_bonus: i32,
    armor_class: i32,
    critical_range: u8,
    hits_are_critical: bool,
) -> (bool, bool) {
    let natural = d20.natural;
    let hit = match natural {
        20 => true,
        1 => false,
        n if n >= critical_range => true,
        n => i32::from(n) + attack_bonus >= armor_class,
    };
    let critical = hit && (natural >= critical_range.min(20) || hits_are_critical);
    (hit, critical)
}

/// Rolls the damage of one entry: the dice (twice as many on a critical hit) plus the bonus,
/// then the defenses.
pub fn roll_damage<R: DieSource + ?Sized>(
    dice: &DamageDice,
    critical: bool,
    defenses: &Defenses,
    rng: &mut R,
) -> DamageDealt {
    let count = if critical { dice.count * 2 } else { dice.count };
    let faces: SmallVec<[u16; 8]> = (0..count)
        .map(|_| rng.die(u32::from(dice.sides)) as u16)
        .collect();
    damage_from_faces(dice, faces, defenses)
}

/// The damage of one entry from faces already rolled.
pub fn damage_from_faces(
    dice: &DamageDice,
    faces: SmallVec<[u16; 8]>,
    defenses: &Defenses,
) -> DamageDealt {
    let sum: i64 = faces.iter().map(|f| i64::from(*f)).sum::<i64>() + i64::from(dice.bonus);
    let rolled = sum.clamp(0, i64::from(u32::MAX)) as u32;
    let (taken, defense) = defenses.apply(rolled, dice.kind);
    DamageDealt {
        dice: *dice,
        faces,
        rolled,
        taken,
        defense,
        rerolled: Vec::new(),
    }
}

/// Rolls one attack against a target: to hit, critical, damage by type through the defenses.
pub fn roll_attack<R: DieSource + ?Sized>(
    attack: &AttackProfile<'_>,
    target: &AttackTarget,
    advantage: Advantage,
    rng: &mut R,
) -> AttackResult {
    roll_attack_for(attack, target, advantage, false, rng)
}

/// [`roll_attack`] by a `lucky` attacker (a halfling): a natural 1 is rolled again
/// ([`D20Roll::roll_for`]).
pub fn roll_attack_for<R: DieSource + ?Sized>(
    attack: &AttackProfile<'_>,
    target: &AttackTarget,
    advantage: Advantage,
    lucky: bool,
    rng: &mut R,
) -> AttackResult {
    let d20 = D20Roll::roll_for(advantage, lucky, rng);
    let (hit, critical) = attack_hits(
        d20,
        attack.attack_bonus,
        target.armor_class,
        attack.critical_range,
        target.hits_are_critical,
    );
    let mut damage = SmallVec::new();
    let mut total_damage = 0u32;
    if hit {
        for dice in attack.damage {
            let dealt = roll_damage(dice, critical, &target.defenses, rng);
            total_damage = total_damage.saturating_add(dealt.taken);
            damage.push(dealt);
        }
    }
    AttackResult {
        d20,
        attack_bonus: attack.attack_bonus,
        total: i32::from(d20.natural) + attack.attack_bonus,
        target_ac: target.armor_class,
        hit,
        critical,
        damage,
        total_damage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::seeded_rng;
    use smallvec::smallvec;

    fn d20(n: u8) -> D20Roll {
        D20Roll::from_faces(n, None, Advantage::Normal)
    }

    #[test]
    fn meeting_ac_hits_and_naturals_decide() {
        assert_eq!(attack_hits(d20(10), 5, 15, 20, false), (true, false));
        assert_eq!(attack_hits(d20(9), 5, 15, 20, false), (false, false));
        // A natural 20 hits and is critical even against an impossible AC.
        assert_eq!(attack_hits(d20(20), 0, 30, 20, false), (true, true));
        // A natural 1 misses whatever the bonus.
        assert_eq!(attack_hits(d20(1), 40, 10, 20, false), (false, false));
        // Champion's 19, and automatic critical hits on a paralyzed target.
        assert_eq!(attack_hits(d20(19), 0, 30, 19, false), (true, true));
        assert_eq!(attack_hits(d20(12), 5, 15, 20, true), (true, true));
    }

    #[test]
    fn a_critical_doubles_dice_not_modifiers() {
        let mut rng = seeded_rng(4);
        let dice = DamageDice::parse("2d6+3", DamageType::Slashing).unwrap();
        for _ in 0..200 {
            let dealt = roll_damage(&dice, true, &Defenses::default(), &mut rng);
            assert_eq!(dealt.faces.len(), 4);
            let sum: u32 = dealt.faces.iter().map(|f| u32::from(*f)).sum();
            assert_eq!(dealt.rolled, sum + 3);
            assert!((7..=27).contains(&dealt.rolled));
        }
    }

    #[test]
    fn resistance_applies_per_type_and_rounds_down() {
        let defenses = Defenses {
            resistances: [DamageType::Fire].into_iter().collect(),
            ..Defenses::default()
        };
        let fire = DamageDice::new(1, 6, 0, DamageType::Fire);
        let dealt = damage_from_faces(&fire, smallvec![5], &defenses);
        assert_eq!((dealt.rolled, dealt.taken), (5, 2));
    }

    #[test]
    fn seeded_attacks_are_consistent() {
        let damage = [
            DamageDice::new(1, 8, 3, DamageType::Slashing),
            DamageDice::new(1, 6, 0, DamageType::Fire),
        ];
        let attack = AttackProfile {
            attack_bonus: 5,
            damage: &damage,
            critical_range: 20,
        };
        let target = AttackTarget {
            armor_class: 15,
            ..Default::default()
        };
        let mut rng = seeded_rng(11);
        let mut hits = 0;
        for _ in 0..2000 {
            let r = roll_attack(&attack, &target, Advantage::Normal, &mut rng);
            assert_eq!(
                r.hit,
                r.d20.natural == 20 || (r.d20.natural != 1 && r.total >= 15)
            );
            assert_eq!(r.critical, r.d20.natural == 20);
            assert_eq!(r.damage.len(), if r.hit { 2 } else { 0 });
            assert_eq!(
                r.total_damage,
                r.damage.iter().map(|d| d.taken).sum::<u32>()
            );
            hits += usize::from(r.hit);
        }
        // Needs 10+ on the d20: 55% of 2000, give or take.
        assert!((1000..1200).contains(&hits), "{hits}");
    }

    #[test]
    fn damage_dice_forms() {
        let d: DamageDice = "2d6+3 slashing".parse().unwrap();
        assert_eq!(d, DamageDice::new(2, 6, 3, DamageType::Slashing));
        assert_eq!(d.average(), 10);
        assert_eq!(
            DamageDice::parse("d4-1", DamageType::Fire)
                .unwrap()
                .dice_text(),
            "1d4-1"
        );
        assert_eq!(
            DamageDice::parse("5", DamageType::Fire).unwrap().average(),
            5
        );
        let err = DamageDice::parse("1d8+1d6", DamageType::Fire).unwrap_err();
        assert!(err.to_string().contains("more than one group"), "{err}");
        assert!(
            "2d6 sharp"
                .parse::<DamageDice>()
                .unwrap_err()
                .to_string()
                .contains("not a damage type")
        );
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, r#"{"dice":"2d6+3","type":"slashing"}"#);
        assert_eq!(serde_json::from_str::<DamageDice>(&json).unwrap(), d);
    }
}
