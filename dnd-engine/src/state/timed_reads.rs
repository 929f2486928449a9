//! What the timed effects on a creature do, read by the rest of the engine: each effect in
//! words for the snapshot, and one reader per sort (AC, dice on rolls, speed, resistance, no
//! healing, weapon dice). The types and how effects start and end are in `timed.rs`.

use super::GameState;
use super::timed::{RollKind, RollOn, TimedEffect, TimedKind};
use crate::rules::{Condition, DamageType, DamageTypes};

impl TimedEffect {
    /// In words, for the snapshot: "Bless: +1d4 to attack rolls and saves (from hedda, 10
    /// rounds left)".
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            TimedKind::ArmorBonus { bonus } => format!("{bonus:+} AC"),
            TimedKind::ArmorBase { armor_class } => format!("base AC {armor_class}"),
            TimedKind::RollDice {
                count,
                sides,
                penalty,
                attacks,
                saves,
                checks,
                next_only,
            } => {
                let once = if *next_only { " (one roll)" } else { "" };
                let on = match (attacks, saves, checks) {
                    (true, true, _) => "attack rolls and saves",
                    (true, false, _) => "attack rolls",
                    (false, true, _) => "saves",
                    _ => "ability checks",
                };
                format!(
                    "{}{count}d{sides} to {on}{once}",
                    if *penalty { "-" } else { "+" }
                )
            }
            TimedKind::Condition {
                condition,
                repeat_save,
            } => match repeat_save {
                Some(s) => format!(
                    "{condition}, {} save DC {} at the end of each of its turns",
                    s.ability, s.dc
                ),
                None => condition.to_string(),
            },
            TimedKind::Advantage {
                on,
                ability,
                disadvantage,
                next_only,
                source_only,
            } => {
                let what = if *disadvantage {
                    "disadvantage"
                } else {
                    "advantage"
                };
                let ability = ability.map(|a| format!("{a} ")).unwrap_or_default();
                let rolls = match on {
                    RollOn::Attacks if *source_only => {
                        "its attack rolls against its source".to_owned()
                    }
                    RollOn::Attacks => "its attack rolls".to_owned(),
                    RollOn::AttacksAgainst if *source_only => {
                        "its source's attack rolls against it".to_owned()
                    }
                    RollOn::AttacksAgainst => "attack rolls against it".to_owned(),
                    RollOn::Saves => format!("its {ability}saves"),
                    RollOn::Checks => format!("its {ability}checks"),
                };
                let next = if *next_only { " (the next one)" } else { "" };
                format!("{what} on {rolls}{next}")
            }
            TimedKind::Speed { change } => {
                let mut parts = Vec::new();
                if change.feet != 0 {
                    parts.push(format!("{:+} ft", change.feet));
                }
                if change.halved {
                    parts.push("halved".to_owned());
                }
                if change.doubled {
                    parts.push("doubled".to_owned());
                }
                if change.stopped {
                    parts.push("0".to_owned());
                }
                format!("speed {}", parts.join(", "))
            }
            TimedKind::NoHealing => "regains no hit points".to_owned(),
            TimedKind::Resistance { damage_types } => {
                let types: Vec<String> = damage_types.iter().map(|t| t.to_string()).collect();
                format!("resistance to {}", types.join(", "))
            }
            TimedKind::WeaponDamage {
                count,
                sides,
                damage_type,
                next_hit_only,
                weapon,
            } => match weapon {
                Some(w) => format!(
                    "+{count}d{sides} {damage_type} on each hit with the coated {w}, which counts as magical"
                ),
                None => format!(
                    "+{count}d{sides} {damage_type} on {}",
                    if *next_hit_only {
                        "its next weapon hit"
                    } else {
                        "each weapon hit"
                    }
                ),
            },
            TimedKind::SpellWeapon { slot, .. } => format!(
                "a spectral weapon (level-{slot} slot): a bonus action attacks with it again"
            ),
            TimedKind::Zone(zone) => {
                let super::ZoneKept { slot, at, on, .. } = &**zone;
                let place = match (at, on.is_empty()) {
                    (Some(at), _) => format!(" at ({}, {})", at.x, at.y),
                    (None, false) => format!(" on {}", on.join(", ")),
                    (None, true) => String::new(),
                };
                format!("a lasting area{place} (level-{slot} slot)")
            }
            TimedKind::ConditionUntil {
                condition,
                escape,
                ends_on_acting,
            } => {
                let mut text = condition.to_string();
                if let Some(e) = escape {
                    text.push_str(&format!(
                        ", an action and a {} check DC {} to break free",
                        e.ability, e.dc
                    ));
                }
                if *ends_on_acting {
                    text.push_str(", until it attacks or casts a spell");
                }
                text
            }
            TimedKind::EmpoweredWeapon {
                weapons,
                sides,
                modifier,
            } => format!(
                "{} magical, d{sides} damage, {modifier:+} to attack and damage",
                weapons.join(" or ")
            ),
            TimedKind::MaxHpRaised { amount } => {
                format!("hit point maximum and current hit points +{amount}")
            }
            TimedKind::Ward { creature_types } => format!(
                "attacks against it by {} have disadvantage",
                creature_types.join(", ")
            ),
            TimedKind::WeaponPlus { bonus } => {
                format!("{bonus:+} to attack and damage with its nonmagical weapons")
            }
            TimedKind::Marked { count, sides } => {
                format!("marked: +{count}d{sides} from its source's weapon hits")
            }
            TimedKind::Summoned => "summoned: gone when the spell ends".to_owned(),
            TimedKind::Flying { feet: 0, .. } => "held in the air".to_owned(),
            TimedKind::CannotAttackOrCast => "cannot attack or cast spells".to_owned(),
            TimedKind::Melded => "inside stone: nothing can target it".to_owned(),
            TimedKind::NonmagicalResistance => {
                "resistance to damage from nonmagical attacks".to_owned()
            }
            TimedKind::Glyph(glyph) => {
                let super::GlyphKept {
                    area,
                    save,
                    count,
                    sides,
                    damage_type,
                    radius_ft,
                    ..
                } = &**glyph;
                format!(
                    "a glyph on {area}: {count}d{sides} {damage_type} in {radius_ft} ft, {} save DC {} for half",
                    save.ability, save.dc
                )
            }
            TimedKind::Flying { feet, only } => {
                let only = if *only { " (its only speed)" } else { "" };
                format!("flying speed {feet} ft{only}")
            }
            TimedKind::Sanctuary { dc } => format!(
                "warded: a creature attacking it or naming it for a harmful spell first makes a DC {dc} Wisdom save, losing the attack or spell on a failure"
            ),
            TimedKind::MirrorImages { left, armor_class } => format!(
                "{left} duplicate{} (AC {armor_class}) an attack against it may strike instead",
                if *left == 1 { "" } else { "s" }
            ),
            TimedKind::SizeChanged { enlarged: true } => {
                "enlarged: +1d4 damage on its weapon hits".to_owned()
            }
            TimedKind::SizeChanged { enlarged: false } => {
                "reduced: 1d4 less damage on its weapon hits (at least 1)".to_owned()
            }
            TimedKind::SkillBonus { skill, bonus } => format!("{bonus:+} to {skill} checks"),
            TimedKind::Blinking { ethereal: true } => {
                "on the Ethereal Plane until its next turn: it can neither be targeted nor target anyone".to_owned()
            }
            TimedKind::Blinking { ethereal: false } => {
                "blinking: a d20 at the end of each of its turns, on 11 or more it vanishes to the Ethereal Plane".to_owned()
            }
            TimedKind::NaturalWeapon {
                name,
                sides,
                bonus,
                damage_type,
            } => format!("{name}: a magical natural weapon, 1d{sides} {damage_type}, {bonus:+} to attack and damage"),
            TimedKind::Silenced => {
                "silenced: immune to thunder damage, and no spells with a verbal component"
                    .to_owned()
            }
            TimedKind::WildShape(kept) => format!(
                "in the shape of a {}: the beast's hit points, AC, speed, Strength, Dexterity, Constitution and attacks, the druid's mind; no spellcasting; at 0 hit points it reverts and the damage left over carries",
                kept.beast
            ),
            TimedKind::Bonded => {
                "warding bond: +1 to saving throws, and its source takes the damage it takes"
                    .to_owned()
            }
            TimedKind::NoReactions => "it can take no reactions".to_owned(),
            TimedKind::Turned | TimedKind::SmiteReady { .. } | TimedKind::BlessedWeapon { .. } => {
                super::timed_divine::describe(&self.kind)
            }
            TimedKind::Raging {
                damage, frenzied, ..
            } => format!(
                "raging: +{damage} damage on melee weapon hits with Strength, no spellcasting{}",
                if *frenzied { ", frenzied (exhaustion when it ends)" } else { "" }
            ),
            TimedKind::UsedThisTurn => "used once this turn".to_owned(),
            TimedKind::Inspired { sides } => format!(
                "a d{sides} of inspiration, added to an attack roll, check or save that fails by {sides} or less"
            ),
            TimedKind::Struck { at, weapon } => format!("attacked {at} with its {weapon}"),
            TimedKind::Reckless => {
                "reckless: advantage on its melee weapon attacks with Strength this turn".to_owned()
            }
        };
        let left = match self.rounds_left {
            Some(1) if self.at_turn_end => ", until the end of its source's turn".to_owned(),
            Some(2) if self.at_turn_end => ", until the end of its source's next turn".to_owned(),
            Some(1) => ", until its source's next turn".to_owned(),
            Some(n) => format!(", {n} rounds left"),
            None => String::new(),
        };
        format!("{}: {what} (from {}{left})", self.spell, self.source)
    }

    /// The condition it imposes, if any.
    pub fn condition(&self) -> Option<Condition> {
        match self.kind {
            TimedKind::Condition { condition, .. }
            | TimedKind::ConditionUntil { condition, .. } => Some(condition),
            _ => None,
        }
    }
}

/// The timed effects on a creature (id, any case): none for an unknown one.
pub fn timed_effects<'a>(state: &'a GameState, id: &str) -> &'a [TimedEffect] {
    // Exact ids first, characters then monsters: every roll asks this, mostly by id, and the
    // case-folding searches (by name too) are the slow way round.
    if let Some(c) = state.characters.iter().find(|c| c.id == id) {
        return &c.timed_effects;
    }
    if let Some(m) = state.monsters.iter().find(|m| m.id == id) {
        return &m.timed_effects;
    }
    if let Some(c) = state.character(id) {
        return &c.timed_effects;
    }
    state.monster(id).map_or(&[], |m| &m.timed_effects)
}

/// AC with its timed effects: the higher of `sheet` and any base AC (Mage Armor), plus the
/// bonuses of each spell once (the highest of that spell's).
pub fn armor_class_with(effects: &[TimedEffect], sheet: i32) -> i32 {
    let mut base = sheet;
    let mut bonuses: Vec<(&str, i32)> = Vec::new();
    for e in effects {
        match e.kind {
            TimedKind::ArmorBase { armor_class } => base = base.max(armor_class),
            TimedKind::ArmorBonus { bonus } => {
                match bonuses
                    .iter_mut()
                    .find(|(s, _)| s.eq_ignore_ascii_case(&e.spell))
                {
                    Some((_, b)) => *b = (*b).max(bonus),
                    None => bonuses.push((&e.spell, bonus)),
                }
            }
            _ => {}
        }
    }
    base + bonuses.iter().map(|(_, b)| b).sum::<i32>()
}

/// The dice a creature's timed effects add to (or take from) a roll of `kind`, one entry per
/// spell: `(spell, count, sides, penalty)`.
pub fn roll_dice_on(effects: &[TimedEffect], kind: RollKind) -> Vec<(&str, u16, u16, bool)> {
    let mut out: Vec<(&str, u16, u16, bool)> = Vec::new();
    for e in effects {
        if let TimedKind::RollDice {
            count,
            sides,
            penalty,
            attacks,
            saves,
            checks,
            ..
        } = e.kind
        {
            let applies = match kind {
                RollKind::Attack => attacks,
                RollKind::Save => saves,
                RollKind::Check => checks,
            };
            if applies && !out.iter().any(|(s, ..)| s.eq_ignore_ascii_case(&e.spell)) {
                out.push((&e.spell, count, sides, penalty));
            }
        }
    }
    out
}

/// A creature's speed after its timed effects: `base` (or a flying speed that beats or
/// replaces it, `timed_aloft.rs`) plus the feet they add (not below 0),
/// halved, doubled, or 0 (each counted once, whatever the number of spells). Conditions apply
/// after (`state::speed_now`).
pub fn speed_with(effects: &[TimedEffect], base: u32) -> u32 {
    let base = super::timed_aloft::flying_speed(effects, base);
    let (mut feet, mut halved, mut doubled) = (0i64, false, false);
    for e in effects {
        if let TimedKind::Speed { change } = e.kind {
            if change.stopped {
                return 0;
            }
            feet += i64::from(change.feet);
            halved |= change.halved;
            doubled |= change.doubled;
        }
    }
    let mut speed = (i64::from(base) + feet).max(0);
    if halved {
        speed /= 2;
    }
    if doubled {
        speed *= 2;
    }
    u32::try_from(speed).unwrap_or(u32::MAX)
}

/// The damage types a creature's timed effects make it resist.
pub fn resistances_with(effects: &[TimedEffect]) -> DamageTypes {
    effects
        .iter()
        .filter_map(|e| match e.kind {
            TimedKind::Resistance { damage_types } => Some(damage_types),
            _ => None,
        })
        .fold(DamageTypes::EMPTY, DamageTypes::union)
}

/// Whether a timed effect stops the creature regaining hit points (Chill Touch).
pub fn blocks_healing(effects: &[TimedEffect]) -> bool {
    effects.iter().any(|e| e.kind == TimedKind::NoHealing)
}

/// The extra dice a creature's timed effects add to its hits with `weapon` (as named on its
/// sheet), one entry per effect: `(effect, count, sides, damage type)`. A coating counts only
/// on its own weapon; those on the next hit only end with it.
pub fn weapon_damage<'e>(
    effects: &'e [TimedEffect],
    weapon: &str,
) -> Vec<(&'e TimedEffect, u16, u16, DamageType)> {
    effects
        .iter()
        .filter_map(|e| match &e.kind {
            TimedKind::WeaponDamage {
                count,
                sides,
                damage_type,
                weapon: on,
                ..
            } if on.as_deref().is_none_or(|w| w.eq_ignore_ascii_case(weapon)) => {
                Some((e, *count, *sides, *damage_type))
            }
            _ => None,
        })
        .collect()
}

/// Whether a timed effect coats `weapon` (as named on the sheet), which makes it count as
/// magical (the Hearthfire Oil).
pub fn is_coated(effects: &[TimedEffect], weapon: &str) -> bool {
    effects.iter().any(|e| {
        matches!(&e.kind, TimedKind::WeaponDamage { weapon: Some(w), .. } if w.eq_ignore_ascii_case(weapon))
    })
}

/// The effect that bars the creature's attacks and spells (Gaseous Form), if any: the one read
/// of `TimedKind::CannotAttackOrCast`, asked by the turn's gate.
pub fn bars_attacks(effects: &[TimedEffect]) -> Option<&TimedEffect> {
    effects
        .iter()
        .find(|e| e.kind == TimedKind::CannotAttackOrCast)
}

/// The effect that holds the creature inside stone (Meld into Stone), if any: the one read of
/// `TimedKind::Melded`, asked by the cover rule and by a move.
pub fn melded(effects: &[TimedEffect]) -> Option<&TimedEffect> {
    effects.iter().find(|e| e.kind == TimedKind::Melded)
}

/// The damage types a creature's timed effects make it resist from nonmagical attacks: every
/// type under Gaseous Form, none otherwise; the one read of `TimedKind::NonmagicalResistance`,
/// counted through `Defenses::against_attack`.
pub fn nonmagical_resistances_with(effects: &[TimedEffect]) -> DamageTypes {
    if effects
        .iter()
        .any(|e| e.kind == TimedKind::NonmagicalResistance)
    {
        DamageType::ALL.into_iter().collect()
    } else {
        DamageTypes::EMPTY
    }
}
