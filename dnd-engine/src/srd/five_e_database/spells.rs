//! One 5e-database spell record into a [`Spell`]. The mapping is described in the module docs
//! of `five_e_database`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::fields::{FieldError, Obj, Res, ability, at, damage_type, on_save, reference, text};
use crate::dice::DiceExpr;
use crate::srd::{
    Area, AttackKind, Components, OnSave, ScalesWith, School, Spell, SpellDice, SpellRange,
    SpellSave, slugify,
};

/// Converts one record.
pub(super) fn spell(record: &Value) -> Res<Spell> {
    let s = Obj::new(record, "")?;
    let name = s.str("name")?.to_owned();
    let slug = slugify(s.opt_str("index")?.unwrap_or(&name));
    let level = s.int_in("level", 0, 9)?;
    let school = school(s.required("school", "a school of magic")?)?;
    let mut classes = Vec::new();
    for (i, class) in s.array("classes")?.iter().enumerate() {
        let path = at("classes", i);
        let name = match class.get("name").and_then(Value::as_str) {
            Some(name) => name,
            None => reference(class, &path, "a class")?,
        };
        classes.push(name.to_lowercase());
    }
    classes.sort();
    classes.dedup();
    let attack = match s.opt_str("attack_type")? {
        None => None,
        Some(kind) if kind.eq_ignore_ascii_case("ranged") => Some(AttackKind::RangedSpell),
        Some(kind) if kind.eq_ignore_ascii_case("melee") => Some(AttackKind::MeleeSpell),
        Some(kind) => {
            return Err(FieldError::new(
                "attack_type",
                format!("{kind:?} is not an attack type; expected \"ranged\" or \"melee\""),
            ));
        }
    };
    let save = match s.opt_obj("dc")? {
        None => None,
        Some(dc) => Some(SpellSave {
            ability: ability(dc.required("dc_type", "an ability")?, "dc.dc_type")?,
            on_success: match dc.get("dc_success") {
                Some(v) => on_save(v, "dc.dc_success")?,
                None => OnSave::None,
            },
            // The SRD's words for it: "The target gains no benefit from cover for this
            // saving throw."
            ignores_cover: record["desc"].to_string().contains("no benefit from cover"),
        }),
    };
    let damage = match s.opt_obj("damage")? {
        None => None,
        Some(d) => {
            let kind = d
                .get("damage_type")
                .map(|t| damage_type(t, "damage.damage_type"))
                .transpose()?;
            let (scales_with, key) = if d.has("damage_at_slot_level") {
                (ScalesWith::SlotLevel, "damage_at_slot_level")
            } else if d.has("damage_at_character_level") {
                (ScalesWith::CharacterLevel, "damage_at_character_level")
            } else {
                return Err(FieldError::new(
                    "damage",
                    "has neither damage_at_slot_level nor damage_at_character_level; expected one of them",
                ));
            };
            let (dice, add_modifier) = dice_table(d.required(key, "an object")?, &d.path(key))?;
            Some(SpellDice {
                kind,
                scales_with,
                dice,
                add_modifier,
            })
        }
    };
    let healing = match s.get("heal_at_slot_level") {
        None => None,
        Some(table) => {
            let (dice, add_modifier) = dice_table(table, "heal_at_slot_level")?;
            Some(SpellDice {
                kind: None,
                scales_with: ScalesWith::SlotLevel,
                dice,
                add_modifier,
            })
        }
    };
    let area = match s.opt_obj("area_of_effect")? {
        None => None,
        Some(a) => Some(Area {
            shape: a.str("type")?.to_lowercase(),
            size: a.int_in("size", 0, i64::from(u32::MAX))?,
        }),
    };
    let higher_levels = match s.get("higher_level") {
        None => None,
        Some(value) => Some(text(value, "higher_level")?).filter(|t| !t.trim().is_empty()),
    };
    let spell = Spell {
        name,
        slug,
        level,
        school,
        casting_time: s.str("casting_time")?.to_owned(),
        range: SpellRange::try_from(s.str("range")?.to_owned())
            .map_err(|e| FieldError::new(s.path("range"), e))?,
        components: components(&s)?,
        duration: s.str("duration")?.to_owned(),
        concentration: s.bool_or("concentration", false)?,
        ritual: s.bool_or("ritual", false)?,
        classes,
        attack,
        save,
        damage,
        healing,
        area,
        // The 5e-database has no target counts: one target, or an area's creatures.
        targets: None,
        description: text(s.required("desc", "an array of paragraphs")?, "desc")?,
        higher_levels,
        effects: super::spell_effects::spell_effects(record, level).effects,
        narrative: None,
        unmodelled: None,
    };
    Ok(spell)
}

fn school(value: &Value) -> Res<School> {
    const SCHOOLS: [(&str, School); 8] = [
        ("abjuration", School::Abjuration),
        ("conjuration", School::Conjuration),
        ("divination", School::Divination),
        ("enchantment", School::Enchantment),
        ("evocation", School::Evocation),
        ("illusion", School::Illusion),
        ("necromancy", School::Necromancy),
        ("transmutation", School::Transmutation),
    ];
    let name = reference(value, "school", "a school of magic")?;
    SCHOOLS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
        .map(|(_, school)| *school)
        .ok_or_else(|| {
            FieldError::new(
                "school",
                format!(
                    "{name:?} is not a school of magic; expected abjuration, conjuration, \
                     divination, enchantment, evocation, illusion, necromancy or transmutation"
                ),
            )
        })
}

/// `components: ["V", "S", "M"]` and `material`. A spell with M but no material text gets an
/// empty material (the type has no other way to say "M").
fn components(s: &Obj<'_>) -> Res<Components> {
    let mut out = Components::default();
    let mut material = false;
    for (i, c) in s.array("components")?.iter().enumerate() {
        match c.as_str().map(str::trim) {
            Some(v) if v.eq_ignore_ascii_case("v") => out.verbal = true,
            Some(v) if v.eq_ignore_ascii_case("s") => out.somatic = true,
            Some(v) if v.eq_ignore_ascii_case("m") => material = true,
            _ => {
                return Err(FieldError::expected(
                    at("components", i),
                    "\"V\", \"S\" or \"M\"",
                    c,
                ));
            }
        }
    }
    let text = s.opt_str("material")?;
    if material || text.is_some() {
        out.material = Some(text.unwrap_or_default().trim().to_owned());
    }
    Ok(out)
}

/// A table of dice by level (`{"3": "8d6", "4": "9d6"}`), each normalised so the dice engine
/// reads it: spaces removed, a `+ MOD` taken out (and reported as the second value).
fn dice_table(value: &Value, path: &str) -> Res<(BTreeMap<u8, String>, bool)> {
    let table = Obj::new(value, path)?;
    let mut dice = BTreeMap::new();
    let mut add_modifier = false;
    for (key, entry) in table.entries() {
        let entry_path = table.path(key);
        let level = key
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|l| (1..=20).contains(l));
        let level = level.ok_or_else(|| {
            FieldError::new(
                &entry_path,
                format!("{key:?} is not a level; expected keys \"1\" to \"20\""),
            )
        })?;
        let text = match entry {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => {
                return Err(FieldError::expected(
                    entry_path,
                    "dice such as \"8d6\"",
                    other,
                ));
            }
        };
        let (normal, modifier) = normalise_dice(&text).map_err(|reason| {
            FieldError::new(
                &entry_path,
                format!(
                    "{text:?} {reason}; expected dice such as \"8d6\", \"1d8 + MOD\" or \"1d4 + 1\""
                ),
            )
        })?;
        add_modifier |= modifier;
        dice.insert(level, normal);
    }
    Ok((dice, add_modifier))
}

/// "3d8 + MOD" gives ("3d8", true); "1d4 + 1" gives ("1d4+1", false). The result is checked
/// with the dice engine.
pub(super) fn normalise_dice(text: &str) -> Result<(String, bool), String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let upper = compact.to_ascii_uppercase();
    let (mut normal, modifier) = match upper.find("MOD") {
        None => (compact, false),
        Some(at) => {
            let before = compact.get(..at).unwrap_or_default();
            let after = compact.get(at + 3..).unwrap_or_default();
            let before = before.strip_suffix('+').unwrap_or(before);
            (format!("{before}{after}"), true)
        }
    };
    if normal.is_empty() {
        normal = "0".to_owned();
    }
    DiceExpr::parse(&normal).map_err(|e| format!("is not dice ({e})"))?;
    Ok((normal, modifier))
}
