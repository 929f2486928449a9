//! One 5e-database spell record's mechanics as effects (`effects::Effect`), and how much of
//! them the record let us build: full, partial (with what was left to the description), or
//! narrative only. Read from the raw record, not from the converted [`Spell`](crate::srd::Spell),
//! so it does not depend on the spell type's older fields.
//!
//! | record | effects |
//! |---|---|
//! | `attack_type` | [`Effect::SpellAttack`], its `on_hit` the damage |
//! | `dc.dc_type`, `dc.dc_success` ("half", "none") | [`Effect::Save`] with the caster's DC, its `on_fail` the damage and the condition below; "other" leaves the success to the description |
//! | `damage.damage_type` + `damage_at_slot_level` | [`Effect::Damage`]: the lowest slot's dice, and how many more each slot adds (even steps) |
//! | `damage.damage_type` + `damage_at_character_level` | [`Effect::Damage`] whose dice grow by the caster's tier (the cantrip steps at 5, 11, 17) |
//! | `heal_at_slot_level` | [`Effect::Heal`], growing by slot as damage does |
//! | "+ MOD" in the dice | the caster's spellcasting modifier added |
//! | a save spell's description: "or be paralyzed", "becomes frightened" | [`Effect::Condition`] for the spell's `duration`, the save repeated at the end of each of the target's turns when the description says so |
//! | `area_of_effect` | kept on the spell as its area (its targets), not an effect |
//!
//! Damage with neither an attack nor a save (Magic Missile) is dealt to each target; the
//! count of darts or rays, two groups of dice of two types (Flame Strike), a pool of hit points
//! (Sleep) and everything else the record holds only in prose make the spell partial.

use serde_json::Value;

use super::fields::{ability, damage_type, on_save};
use super::spells::normalise_dice;
use crate::effects::{Dice, Duration, Effect};
use crate::rules::Condition;
use crate::srd::OnSave;

/// How much of a spell's mechanics became effects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fidelity {
    /// Everything the record states as data.
    Full,
    /// Some effects, and something left to the description.
    Partial,
    /// No effect: the spell is told, not resolved.
    Narrative,
}

/// A spell's effects as far as the record allows, and what was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpellEffects {
    /// The effects.
    pub effects: Vec<Effect>,
    /// What the record has that the effects do not ("two groups of dice: ...").
    pub left_out: Vec<String>,
}

impl SpellEffects {
    /// Full, partial or narrative.
    pub fn fidelity(&self) -> Fidelity {
        match (self.effects.is_empty(), self.left_out.is_empty()) {
            (true, _) => Fidelity::Narrative,
            (false, true) => Fidelity::Full,
            (false, false) => Fidelity::Partial,
        }
    }
}

/// How the spells of one file came out: by name, those with full effects, those partial (with
/// what each left to its description) and those narrative only. Records that did not load
/// at all are not counted (they are the load report's failures).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpellEffectsReport {
    /// Spells whose record's mechanics all became effects.
    pub full: Vec<String>,
    /// Spells with some effects, and what each left to the description.
    pub partial: Vec<(String, Vec<String>)>,
    /// Spells with no effect.
    pub narrative: Vec<String>,
}

impl SpellEffectsReport {
    /// How many spells it counts.
    pub fn total(&self) -> usize {
        self.full.len() + self.partial.len() + self.narrative.len()
    }

    pub(super) fn add(&mut self, name: &str, effects: &SpellEffects) {
        let name = name.to_owned();
        match effects.fidelity() {
            Fidelity::Full => self.full.push(name),
            Fidelity::Partial => self.partial.push((name, effects.left_out.clone())),
            Fidelity::Narrative => self.narrative.push(name),
        }
    }
}

impl std::fmt::Display for SpellEffectsReport {
    /// "319 spells: 84 with full effects, 63 partial, 172 narrative only".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} spells: {} with full effects, {} partial, {} narrative only",
            self.total(),
            self.full.len(),
            self.partial.len(),
            self.narrative.len()
        )
    }
}

/// The effects of one spell record (`level` is the spell's own, read by the loader). Never
/// fails: what cannot be read is listed in `left_out`.
pub fn spell_effects(record: &Value, level: u8) -> SpellEffects {
    let mut left_out = Vec::new();
    let damage = damage(record, level, &mut left_out);
    let heal = record.get("heal_at_slot_level").and_then(|table| {
        match slot_dice(table, level, &mut left_out) {
            Ok(dice) => Some(Effect::Heal { dice }),
            Err(why) => {
                left_out.push(format!("healing: {why}"));
                None
            }
        }
    });
    let mut effects = Vec::new();
    let attack = record.get("attack_type").is_some();
    let save = record
        .get("dc")
        .map(|dc| save_of(record, dc, &mut left_out));
    let has_damage = record.get("damage").is_some();
    if attack {
        if !has_damage {
            left_out.push("what a hit does is in the description".into());
        }
        let melee = record
            .get("attack_type")
            .and_then(|t| t.as_str())
            .is_some_and(|t| t.eq_ignore_ascii_case("melee"));
        effects.push(Effect::SpellAttack {
            melee,
            on_hit: damage.clone().into_iter().collect(),
        });
    }
    if let Some(save) = save {
        let Some((ability, on_success, ignores_cover)) = save else {
            return SpellEffects { effects, left_out };
        };
        // A spell with both an attack and a save puts its damage on the hit.
        let mut on_fail: Vec<Effect> = if attack {
            Vec::new()
        } else {
            damage.clone().into_iter().collect()
        };
        on_fail.extend(condition(record, &mut left_out));
        if on_fail.is_empty() && !has_damage {
            left_out.push("what a failed save does is in the description".into());
        }
        effects.push(Effect::Save {
            ability,
            dc: None,
            on_success,
            ignores_cover,
            on_fail,
        });
    } else if !attack && let Some(damage) = damage {
        left_out.push(
            "damage with neither an attack nor a save: dealt to each target named (darts, rays and their count are in the description)"
                .into(),
        );
        effects.push(damage);
    }
    effects.extend(heal);
    SpellEffects { effects, left_out }
}

/// The save: (ability, what a success does, whether cover helps), or `None` when the record's
/// ability is unreadable (noted in `left_out`).
fn save_of(
    record: &Value,
    dc: &Value,
    left_out: &mut Vec<String>,
) -> Option<(crate::rules::Ability, OnSave, bool)> {
    let Some(ability) = dc
        .get("dc_type")
        .and_then(|t| ability(t, "dc.dc_type").ok())
    else {
        left_out.push("a save of an ability the loader cannot read".into());
        return None;
    };
    let on_success = match dc.get("dc_success").map(|v| on_save(v, "dc.dc_success")) {
        Some(Ok(OnSave::Other)) => {
            left_out.push("what a success does is in the description".into());
            OnSave::None
        }
        Some(Ok(on)) => on,
        _ => OnSave::None,
    };
    let ignores_cover = description(record).contains("no benefit from cover");
    Some((ability, on_success, ignores_cover))
}

/// The damage effect, from `damage_at_slot_level` or `damage_at_character_level`.
fn damage(record: &Value, level: u8, left_out: &mut Vec<String>) -> Option<Effect> {
    let d = record.get("damage")?;
    let Some(kind) = d
        .get("damage_type")
        .and_then(|t| damage_type(t, "damage.damage_type").ok())
    else {
        left_out.push(
            "dice without a damage type (a pool of hit points, or a choice): in the description"
                .into(),
        );
        return None;
    };
    let dice = if let Some(table) = d.get("damage_at_slot_level") {
        slot_dice(table, level, left_out)
    } else if let Some(table) = d.get("damage_at_character_level") {
        tier_dice(table, left_out)
    } else {
        Err("no dice table".into())
    };
    match dice {
        Ok(dice) => Some(Effect::Damage {
            dice,
            damage_type: kind,
        }),
        Err(why) => {
            left_out.push(format!("damage: {why}"));
            None
        }
    }
}

/// The first group of dice and its bonus ("3d8", "1d4+1", "70"; of "4d6+4d6" the first 4d6),
/// whether the text adds the modifier, and whether more groups followed.
type Group = (u16, u16, i32, bool, bool);

fn one_group(text: &str) -> Result<Group, String> {
    let (normal, modifier) = normalise_dice(text)?;
    let (dice, rest) = match normal.find(['+', '-']) {
        Some(at) => (&normal[..at], &normal[at..]),
        None => (normal.as_str(), ""),
    };
    // What follows the first group: a flat bonus, or (Flame Strike) another group, left out.
    let (bonus, more) = match rest.trim_start_matches('+').parse::<i32>() {
        Ok(b) => (b, false),
        Err(_) if rest.is_empty() => (0, false),
        Err(_) => (0, true),
    };
    if let Some((count, sides)) = dice.split_once('d') {
        let count = count.parse().map_err(|_| format!("{text:?} is not NdS"))?;
        let sides = sides.parse().map_err(|_| format!("{text:?} is not NdS"))?;
        return Ok((count, sides, bonus, modifier, more));
    }
    let flat: i32 = dice.parse().map_err(|_| format!("{text:?} is not dice"))?;
    Ok((0, 0, flat + bonus, modifier, more))
}

/// A table by level (`{"3": "8d6", "4": "9d6"}`) in order of level.
fn table_rows(table: &Value) -> Result<Vec<(u8, Group)>, String> {
    let map = table.as_object().ok_or("not a table by level")?;
    let mut rows = Vec::new();
    for (key, entry) in map {
        let level: u8 = key
            .trim()
            .parse()
            .map_err(|_| format!("{key:?} is no level"))?;
        let text = match entry {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => return Err(format!("{key}: not dice")),
        };
        rows.push((level, one_group(&text)?));
    }
    rows.sort_by_key(|(l, _)| *l);
    if rows.is_empty() {
        return Err("an empty table".into());
    }
    Ok(rows)
}

/// Dice by slot level: the lowest slot's, and the even step each slot above adds. What the
/// dice cannot hold (a second group, an uneven step: the base dice are kept) goes to `notes`.
fn slot_dice(table: &Value, level: u8, notes: &mut Vec<String>) -> Result<Dice, String> {
    let rows = table_rows(table)?;
    let (first, (count, sides, bonus, add_modifier, _)) = rows[0];
    if first != level.max(1) {
        return Err(format!(
            "the table starts at level {first}, not the spell's {level}"
        ));
    }
    second_groups(&rows, notes);
    // The step from the next row listed (tables may skip levels), checked on every row.
    let (mut per_slot, mut bonus_per_slot) = (0u16, 0i32);
    if let Some((l2, (c2, s2, b2, ..))) = rows.get(1) {
        if *s2 != sides && count > 0 {
            return Err("the dice change size by slot".into());
        }
        let gap = u16::from(l2 - first);
        per_slot = c2.saturating_sub(count) / gap;
        bonus_per_slot = (b2 - bonus) / i32::from(gap);
    }
    let even = rows.iter().all(|(l, (c, _, b, ..))| {
        let above = i32::from(l - first);
        i32::from(*c) == i32::from(count) + above * i32::from(per_slot)
            && *b == bonus + above * bonus_per_slot
    });
    if !even {
        notes.push("the dice grow unevenly by slot: the lowest slot's are kept".into());
        (per_slot, bonus_per_slot) = (0, 0);
    }
    Ok(Dice {
        count,
        sides,
        bonus,
        add_modifier,
        per_slot_level: per_slot,
        slot_levels_per_step: 1,
        bonus_per_slot_level: bonus_per_slot,
        by_tier: false,
    })
}

/// Notes a table whose dice have a second group (two damage types), kept out of the effect.
fn second_groups(rows: &[(u8, Group)], notes: &mut Vec<String>) {
    if rows.iter().any(|(_, (.., more))| *more) {
        notes.push("a second group of dice (another damage type) is in the description".into());
    }
}

/// A cantrip's dice by character level: the level-1 dice times the tier (at 5, 11 and 17).
/// Other growth (more beams) keeps the level-1 dice, noted.
fn tier_dice(table: &Value, notes: &mut Vec<String>) -> Result<Dice, String> {
    let rows = table_rows(table)?;
    let (_, (count, sides, bonus, add_modifier, _)) = rows[0];
    second_groups(&rows, notes);
    let tiers = rows.iter().all(|(l, (c, s, b, ..))| {
        let tier = match l {
            17.. => 4,
            11.. => 3,
            5.. => 2,
            _ => 1,
        };
        *c == count * tier && *s == sides && *b == bonus
    });
    if !tiers {
        notes.push(
            "the dice grow by character level unlike the cantrip tiers: the level-1 dice are kept"
                .into(),
        );
    }
    Ok(Dice {
        count,
        sides,
        bonus,
        add_modifier,
        per_slot_level: 0,
        slot_levels_per_step: 1,
        bonus_per_slot_level: 0,
        by_tier: tiers,
    })
}

fn description(record: &Value) -> String {
    match record.get("desc") {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("\n")
            .to_lowercase(),
        Some(Value::String(s)) => s.to_lowercase(),
        _ => String::new(),
    }
}

/// The conditions a failed save may impose for a while (prone and exhaustion have no
/// duration of their own, so they are left to the description).
const TIMED_CONDITIONS: [Condition; 11] = [
    Condition::Blinded,
    Condition::Charmed,
    Condition::Deafened,
    Condition::Frightened,
    Condition::Incapacitated,
    Condition::Invisible,
    Condition::Paralyzed,
    Condition::Petrified,
    Condition::Poisoned,
    Condition::Restrained,
    Condition::Stunned,
];

/// The condition a save spell's description imposes on a failure ("or be paralyzed", "is
/// frightened", "becomes restrained"), the first the text names, for the spell's duration.
fn condition(record: &Value, left_out: &mut Vec<String>) -> Option<Effect> {
    let text = description(record);
    let found = TIMED_CONDITIONS
        .iter()
        .filter_map(|c| {
            ["be ", "is ", "becomes ", "become "]
                .iter()
                .filter_map(|verb| text.find(&format!("{verb}{}", c.name())))
                .min()
                .map(|at| (at, *c))
        })
        .min_by_key(|(at, _)| *at)?;
    let Some(duration) = record
        .get("duration")
        .and_then(Value::as_str)
        .and_then(duration)
    else {
        left_out.push(format!(
            "being {} for no set time: in the description",
            found.1
        ));
        return None;
    };
    Some(Effect::Condition {
        condition: found.1,
        duration,
        repeat_save: text.contains("end of each of its turns"),
        ends_on_damage: false,
    })
}

/// "Up to 1 minute", "10 minutes", "1 round", "8 hours", "10 days", "Until dispelled";
/// `None` for "Instantaneous" and "Special".
fn duration(text: &str) -> Option<Duration> {
    let lower = text.trim().to_lowercase();
    if lower.starts_with("until dispelled") {
        return Some(Duration::UntilDispelled);
    }
    let rest = lower.strip_prefix("up to ").unwrap_or(&lower);
    let (n, unit) = rest.split_once(' ')?;
    let n: u32 = n.parse().ok()?;
    match unit.trim_end_matches('s') {
        "round" => Some(Duration::Rounds(n)),
        "minute" => Some(Duration::Minutes(n)),
        "hour" => Some(Duration::Hours(n)),
        "day" => Some(Duration::Hours(n.saturating_mul(24))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Ability, DamageType};
    use serde_json::json;

    #[test]
    fn fireball_is_a_dexterity_save_for_half_of_8d6_plus_1d6_a_slot() {
        let record = json!({
            "name": "Fireball", "level": 3, "duration": "Instantaneous",
            "desc": ["A bright streak..."],
            "dc": {"dc_type": {"index": "dex"}, "dc_success": "half"},
            "damage": {"damage_type": {"index": "fire"}, "damage_at_slot_level": {
                "3": "8d6", "4": "9d6", "5": "10d6", "9": "14d6"}}
        });
        let got = spell_effects(&record, 3);
        assert_eq!(got.fidelity(), Fidelity::Full, "{:?}", got.left_out);
        let dice = Dice {
            count: 8,
            sides: 6,
            bonus: 0,
            add_modifier: false,
            per_slot_level: 1,
            slot_levels_per_step: 1,
            bonus_per_slot_level: 0,
            by_tier: false,
        };
        assert_eq!(
            got.effects,
            vec![Effect::Save {
                ability: Ability::Dexterity,
                dc: None,
                on_success: OnSave::Half,
                ignores_cover: false,
                on_fail: vec![Effect::Damage {
                    dice,
                    damage_type: DamageType::Fire
                }],
            }]
        );
    }

    #[test]
    fn fire_bolt_grows_by_tier_and_cure_wounds_adds_the_modifier() {
        let bolt = json!({"attack_type": "ranged", "damage": {"damage_type": {"index": "fire"},
            "damage_at_character_level": {"1": "1d10", "5": "2d10", "11": "3d10", "17": "4d10"}}});
        let got = spell_effects(&bolt, 0);
        assert_eq!(got.fidelity(), Fidelity::Full);
        let Effect::SpellAttack { on_hit, .. } = &got.effects[0] else {
            panic!("{got:?}")
        };
        assert!(
            matches!(on_hit[0], Effect::Damage { dice, .. } if dice.by_tier && dice.count == 1)
        );
        let cure =
            json!({"heal_at_slot_level": {"1": "1d8 + MOD", "2": "2d8 + MOD", "3": "3d8 + MOD"}});
        let got = spell_effects(&cure, 1);
        assert_eq!(got.fidelity(), Fidelity::Full);
        assert!(matches!(got.effects[0], Effect::Heal { dice }
            if dice.count == 1 && dice.sides == 8 && dice.add_modifier && dice.per_slot_level == 1));
    }

    #[test]
    fn hold_persons_paralysis_is_read_from_the_description_with_its_repeated_save() {
        let record = json!({"duration": "Up to 1 minute",
            "desc": ["The target must succeed on a Wisdom saving throw or be paralyzed for the duration. At the end of each of its turns, the target can make another Wisdom saving throw."],
            "dc": {"dc_type": {"index": "wis"}, "dc_success": "none"}});
        let got = spell_effects(&record, 2);
        assert_eq!(got.fidelity(), Fidelity::Full, "{:?}", got.left_out);
        let Effect::Save { on_fail, .. } = &got.effects[0] else {
            panic!("{got:?}")
        };
        assert_eq!(
            on_fail,
            &vec![Effect::Condition {
                condition: Condition::Paralyzed,
                duration: Duration::Minutes(1),
                repeat_save: true,
                ends_on_damage: false
            }]
        );
    }

    #[test]
    fn what_the_record_leaves_to_prose_makes_a_spell_partial_or_narrative() {
        let flame_strike = json!({"dc": {"dc_type": {"index": "dex"}, "dc_success": "half"},
            "damage": {"damage_type": {"index": "fire"}, "damage_at_slot_level": {"5": "4d6 + 4d6"}}});
        let got = spell_effects(&flame_strike, 5);
        assert_eq!(got.fidelity(), Fidelity::Partial);
        assert!(
            got.left_out.iter().any(|w| w.contains("second group")),
            "{got:?}"
        );
        assert!(
            matches!(&got.effects[0], Effect::Save { on_fail, .. } if matches!(on_fail[0],
                Effect::Damage { dice, .. } if dice.count == 4 && dice.sides == 6)),
            "the first group is kept: {got:?}"
        );
        let missile = json!({"damage": {"damage_type": {"index": "force"},
            "damage_at_slot_level": {"1": "1d4 + 1", "2": "1d4 + 1"}}});
        let got = spell_effects(&missile, 1);
        assert_eq!(got.fidelity(), Fidelity::Partial);
        assert_eq!(got.effects.len(), 1);
        let light = json!({"duration": "1 hour", "desc": ["You touch one object..."]});
        assert_eq!(spell_effects(&light, 0).fidelity(), Fidelity::Narrative);
        let sleep = json!({"damage": {"damage_at_slot_level": {"1": "5d8"}}});
        assert_eq!(spell_effects(&sleep, 1).fidelity(), Fidelity::Narrative);
    }
}
