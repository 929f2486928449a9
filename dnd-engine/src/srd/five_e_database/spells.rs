//! One 5e-database spell record into a [`Spell`]. The mapping is described in the module docs
//! of `five_e_database`; what the spell does (its attack, save, damage and healing) is read
//! from the raw record into effects by `spell_effects.rs`.

use serde_json::Value;

use super::fields::{FieldError, Obj, Res, at, reference, text};
use crate::dice::DiceExpr;
use crate::srd::{Area, Components, School, Spell, SpellRange, slugify};

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
