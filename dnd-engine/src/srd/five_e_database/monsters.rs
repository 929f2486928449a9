//! One 5e-database monster record into a [`Monster`]. The mapping is described in the module
//! docs of `five_e_database`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::actions::{action, usage_note, usage_of};
use super::fields::{
    FieldError, Obj, Res, at, feet, in_range, join, reference, text, whole_number,
};
use crate::rules::{
    Ability, AbilityScores, ChallengeRating, Condition, DamageType, Defenses, Skill,
};
use crate::srd::{Feature, Monster, Size, Speed, slugify};

/// Converts one record.
pub(super) fn monster(record: &Value) -> Res<Monster> {
    let m = Obj::new(record, "")?;
    let name = m.str("name")?.to_owned();
    let slug = slugify(m.opt_str("index")?.unwrap_or(&name));
    let size = size(m.str("size")?, &m.path("size"))?;
    let kind = match m.opt_str("subtype")? {
        Some(sub) if !sub.is_empty() => format!("{} ({sub})", m.str("type")?),
        _ => m.str("type")?.to_owned(),
    };
    let (armor_class, armor_note) =
        armor_class(m.required("armor_class", "an array")?, "armor_class")?;
    let hit_dice = match m.opt_str("hit_dice")? {
        Some(dice) => dice.to_owned(),
        None => m.opt_str("hit_points_roll")?.unwrap_or_default().to_owned(),
    };
    let abilities = AbilityScores::new(
        m.int_in("strength", 0, 100)?,
        m.int_in("dexterity", 0, 100)?,
        m.int_in("constitution", 0, 100)?,
        m.int_in("intelligence", 0, 100)?,
        m.int_in("wisdom", 0, 100)?,
        m.int_in("charisma", 0, 100)?,
    );
    let (saving_throws, skills) = proficiencies(m.array("proficiencies")?)?;
    let (defenses, conditional_defenses) = defenses(&m)?;
    let mut condition_immunities = Vec::new();
    for (i, c) in m.array("condition_immunities")?.iter().enumerate() {
        let c = condition(c, &at("condition_immunities", i))?;
        if !condition_immunities.contains(&c) {
            condition_immunities.push(c);
        }
    }
    let (senses, passive) = senses(&m)?;
    let passive_perception = passive.unwrap_or_else(|| {
        10 + skills
            .get(&Skill::Perception)
            .copied()
            .unwrap_or_else(|| abilities.modifier(Ability::Wisdom))
    });
    let challenge_rating = challenge_rating(m.required("challenge_rating", "a number")?)?;
    let xp = match m.opt_int("xp")? {
        Some(xp) => in_range(xp, "xp", 0, i64::from(u32::MAX))?,
        None => challenge_rating.xp(),
    };
    let mut actions = Vec::new();
    for (i, a) in m.array("actions")?.iter().enumerate() {
        actions.push(action(a, &at("actions", i), false)?);
    }
    let mut legendary_actions = Vec::new();
    for (i, a) in m.array("legendary_actions")?.iter().enumerate() {
        legendary_actions.push(action(a, &at("legendary_actions", i), true)?);
    }
    let legendary_resistance = legendary_resistance(m.array("special_abilities")?)?;
    Ok(Monster {
        name,
        slug,
        size,
        kind,
        alignment: m.opt_str("alignment")?.unwrap_or_default().to_owned(),
        armor_class,
        armor_note,
        hit_points: m.int_in("hit_points", 0, i64::from(u32::MAX))?,
        hit_dice,
        speed: speed(&m)?,
        abilities,
        saving_throws,
        skills,
        defenses,
        conditional_defenses,
        condition_immunities,
        senses,
        passive_perception,
        languages: match m.opt_str("languages")?.map(str::trim) {
            None | Some("") => "\u{2014}".to_owned(),
            Some(languages) => languages.to_owned(),
        },
        challenge_rating,
        xp,
        traits: features(m.array("special_abilities")?, "special_abilities")?,
        actions,
        reactions: features(m.array("reactions")?, "reactions")?
            .into_iter()
            .map(|f| crate::srd::MonsterReaction {
                rule: crate::srd::ReactionRule::read(&f.description),
                name: f.name,
                description: f.description,
            })
            .collect(),
        legendary_actions,
        legendary_resistance,
        spellcasting: None,
    })
}

/// The uses a day of the trait "Legendary Resistance", if the monster has it.
fn legendary_resistance(items: &[Value]) -> Res<Option<u8>> {
    for (i, item) in items.iter().enumerate() {
        let path = at("special_abilities", i);
        let f = Obj::new(item, &path)?;
        if !f.str("name")?.starts_with("Legendary Resistance") {
            continue;
        }
        return Ok(match f.opt_obj("usage")?.map(usage_of).transpose()? {
            Some(crate::srd::ActionUsage::PerDay { times }) => Some(times),
            _ => None,
        });
    }
    Ok(None)
}

fn size(text: &str, path: &str) -> Res<Size> {
    const SIZES: [(&str, Size); 6] = [
        ("tiny", Size::Tiny),
        ("small", Size::Small),
        ("medium", Size::Medium),
        ("large", Size::Large),
        ("huge", Size::Huge),
        ("gargantuan", Size::Gargantuan),
    ];
    SIZES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text.trim()))
        .map(|(_, size)| *size)
        .ok_or_else(|| {
            FieldError::new(
                path,
                format!("{text:?} is not a size; expected Tiny, Small, Medium, Large, Huge or Gargantuan"),
            )
        })
}

/// `armor_class`: a number (older files), or an array of `{type, value, armor|spell|condition|desc}`
/// entries. The first entry gives the AC, except that worn armor or a shield listed after
/// natural armor or Dexterity is what the creature always has (5e-database splits "17 (natural
/// armor, shield)" into two entries), so that entry counts. Where the AC comes from, and any
/// other entry ("15 with mage armor", "11 while prone"), go into the note.
fn armor_class(value: &Value, path: &str) -> Res<(i32, Option<String>)> {
    let list = match value {
        Value::Number(_) => {
            let ac = whole_number(value, path)?;
            return Ok((in_range(ac, path, 0, 100)?, None));
        }
        Value::Array(list) if !list.is_empty() => list,
        other => {
            return Err(FieldError::expected(
                path,
                "a non-empty array of {type, value} entries, or a number",
                other,
            ));
        }
    };
    // (value, type, source) of each entry.
    let mut entries = Vec::with_capacity(list.len());
    for (i, entry) in list.iter().enumerate() {
        let e = Obj::new(entry, at(path, i))?;
        let value: i32 = e.int_in("value", 0, 100)?;
        let kind = e.opt_str("type")?.unwrap_or("dex").to_owned();
        entries.push((value, kind, armor_source(&e)?));
    }
    let worn_over_base = entries
        .iter()
        .skip(1)
        .position(|(_, kind, _)| kind == "armor")
        .map(|i| i + 1)
        .filter(|_| {
            entries
                .first()
                .is_some_and(|(_, k, _)| k == "natural" || k == "dex")
        });
    let mut notes = Vec::new();
    let ac = match worn_over_base {
        Some(worn) => {
            if entries.first().is_some_and(|(_, k, _)| k == "natural") {
                notes.push("natural armor".to_owned());
            }
            let (value, _, source) = entries.remove(worn);
            entries.remove(0);
            notes.extend(source);
            value
        }
        None => {
            let (value, _, source) = entries.remove(0);
            notes.extend(source);
            value
        }
    };
    for (value, _, source) in entries {
        match source {
            Some(source) if source.starts_with("while ") => notes.push(format!("{value} {source}")),
            Some(source) => notes.push(format!("{value} with {source}")),
            None => notes.push(value.to_string()),
        }
    }
    Ok((ac, (!notes.is_empty()).then(|| notes.join(", "))))
}

/// Where one AC entry comes from, in words: `None` for Dexterity alone and for natural armor
/// (as in the bundled data, where the note is only for worn armor, spells and the like).
fn armor_source(e: &Obj<'_>) -> Res<Option<String>> {
    if let Some(desc) = e.opt_str("desc")? {
        return Ok(Some(desc.to_owned()));
    }
    let kind = e.opt_str("type")?.unwrap_or("dex");
    Ok(match kind {
        "dex" | "natural" => None,
        "armor" => {
            let mut names = Vec::new();
            for (i, item) in e.array("armor")?.iter().enumerate() {
                let path = at(&e.path("armor"), i);
                names.push(display_name(item, &path, "a piece of armor")?);
            }
            // "hide armor, shield", as a stat block writes it.
            names.sort_by_key(|name| name == "shield");
            Some(if names.is_empty() {
                "armor".to_owned()
            } else {
                names.join(", ")
            })
        }
        "spell" => match e.get("spell") {
            Some(spell) => Some(display_name(spell, &e.path("spell"), "a spell")?),
            None => Some("a spell".to_owned()),
        },
        "condition" => match e.get("condition") {
            Some(c) => Some(format!(
                "while {}",
                display_name(c, &e.path("condition"), "a condition")?
            )),
            None => Some("under a condition".to_owned()),
        },
        other => Some(other.to_owned()),
    })
}

/// The lower-case `name` of a reference (`{"name": "Leather Armor"}` gives "leather armor").
fn display_name(value: &Value, path: &str, what: &str) -> Res<String> {
    let name = match value.get("name").and_then(Value::as_str) {
        Some(name) => name,
        None => reference(value, path, what)?,
    };
    Ok(name.to_lowercase())
}

fn speed(m: &Obj<'_>) -> Res<Speed> {
    let Some(s) = m.opt_obj("speed")? else {
        return Ok(Speed::default());
    };
    let read = |key: &str| s.get(key).map(|v| feet(v, &s.path(key))).transpose();
    Ok(Speed {
        walk: read("walk")?.unwrap_or(0),
        fly: read("fly")?.unwrap_or(0),
        swim: read("swim")?.unwrap_or(0),
        climb: read("climb")?.unwrap_or(0),
        burrow: read("burrow")?.unwrap_or(0),
        hover: s.bool_or("hover", false)?,
    })
}

type Proficiencies = (BTreeMap<Ability, i32>, BTreeMap<Skill, i32>);

/// `proficiencies`: `{value, proficiency: {index, name}}` where the name is
/// `"Saving Throw: DEX"` or `"Skill: Stealth"`. Other kinds are ignored.
fn proficiencies(items: &[Value]) -> Res<Proficiencies> {
    let mut saves = BTreeMap::new();
    let mut skills = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let path = at("proficiencies", i);
        let p = Obj::new(item, &path)?;
        let which_path = p.path("proficiency");
        let which = p.required("proficiency", "an object with `name`")?;
        let name = match which.get("name").and_then(Value::as_str) {
            Some(name) => name.to_owned(),
            // "saving-throw-dex" and "skill-sleight-of-hand" read like the names.
            None => reference(which, &which_path, "a proficiency")?
                .replacen("saving-throw-", "Saving Throw: ", 1)
                .replacen("skill-", "Skill: ", 1),
        };
        let Some((kind, what)) = name.split_once(':') else {
            continue;
        };
        let value: i32 = p.int_in("value", -100, 100)?;
        match kind.trim().to_ascii_lowercase().as_str() {
            "saving throw" => {
                let ability = Ability::parse(what).ok_or_else(|| {
                    FieldError::new(
                        join(&which_path, "name"),
                        format!(
                            "{name:?} names no ability; expected \"Saving Throw: DEX\" and the like"
                        ),
                    )
                })?;
                saves.insert(ability, value);
            }
            "skill" => {
                let skill = Skill::parse(what).ok_or_else(|| {
                    FieldError::new(
                        join(&which_path, "name"),
                        format!(
                            "{name:?} names no skill; expected \"Skill: Stealth\" and the like"
                        ),
                    )
                })?;
                skills.insert(skill, value);
            }
            _ => {}
        }
    }
    Ok((saves, skills))
}

/// The three damage lists: a plain damage type goes into [`Defenses`], anything else ("damage
/// from spells", "... from nonmagical weapons") is kept as written, after "immunity to " or
/// "vulnerability to " when it is not a resistance (as the bundled data writes them).
fn defenses(m: &Obj<'_>) -> Res<(Defenses, Vec<String>)> {
    let mut defenses = Defenses::default();
    let mut conditional = Vec::new();
    for key in [
        "damage_vulnerabilities",
        "damage_resistances",
        "damage_immunities",
    ] {
        for (i, item) in m.array(key)?.iter().enumerate() {
            let path = at(key, i);
            let text = match item {
                Value::String(s) => s.as_str(),
                other => reference(other, &path, "a damage type or a description")?,
            };
            match DamageType::parse(text) {
                Some(kind) => match key {
                    "damage_vulnerabilities" => defenses.vulnerabilities.insert(kind),
                    "damage_resistances" => defenses.resistances.insert(kind),
                    _ => defenses.immunities.insert(kind),
                },
                None if text.trim().is_empty() => {}
                None => conditional.push(match key {
                    "damage_vulnerabilities" => format!("vulnerability to {}", text.trim()),
                    "damage_resistances" => text.trim().to_owned(),
                    _ => format!("immunity to {}", text.trim()),
                }),
            }
        }
    }
    crate::srd::conditional::fold_nonmagical_defenses(&mut defenses, &conditional);
    Ok((defenses, conditional))
}

fn condition(value: &Value, path: &str) -> Res<Condition> {
    let name = reference(value, path, "a condition")?;
    Condition::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Condition::ALL.iter().map(|c| c.name()).collect();
        FieldError::new(
            path,
            format!(
                "{name:?} is not a condition; expected one of {}",
                names.join(", ")
            ),
        )
    })
}

/// `senses`: an object of `"darkvision": "60 ft."` entries plus `passive_perception`; the
/// entries become "darkvision 60 ft., blindsight 10 ft.". A plain string is taken as is.
fn senses(m: &Obj<'_>) -> Res<(String, Option<i32>)> {
    let path = m.path("senses");
    let s = match m.get("senses") {
        None => return Ok((String::new(), None)),
        Some(Value::String(text)) => return Ok((text.clone(), None)),
        Some(value) => Obj::new(value, &path)?,
    };
    let passive = s
        .opt_int("passive_perception")?
        .map(|n| in_range(n, &s.path("passive_perception"), -100, 100))
        .transpose()?;
    let mut parts = Vec::new();
    for (key, value) in s.entries() {
        if key == "passive_perception" || value.is_null() {
            continue;
        }
        let what = match value {
            Value::String(text) => text.clone(),
            Value::Number(n) => format!("{n} ft."),
            other => {
                return Err(FieldError::expected(
                    s.path(key),
                    "a distance such as \"60 ft.\"",
                    other,
                ));
            }
        };
        parts.push(format!("{} {what}", key.replace('_', " ")));
    }
    Ok((parts.join(", "), passive))
}

fn challenge_rating(value: &Value) -> Res<ChallengeRating> {
    let cr = match value {
        Value::Number(n) => n.as_f64().and_then(ChallengeRating::from_f64),
        Value::String(s) => ChallengeRating::parse(s),
        _ => None,
    };
    cr.ok_or_else(|| {
        FieldError::expected(
            "challenge_rating",
            "0, 0.125, 0.25, 0.5 or a whole number from 1 to 30",
            value,
        )
    })
}

/// Special abilities and reactions: name and description; a limited use is written after the
/// name as a stat block does ("Legendary Resistance (3/Day)").
fn features(items: &[Value], key: &str) -> Res<Vec<Feature>> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = at(key, i);
        let f = Obj::new(item, &path)?;
        let mut name = f.str("name")?.to_owned();
        if let Some(usage) = f.opt_obj("usage")? {
            name = format!("{name} ({})", usage_note(usage_of(usage)?));
        }
        let description = match f.get("desc") {
            Some(desc) => text(desc, &f.path("desc"))?,
            None => String::new(),
        };
        out.push(Feature { name, description });
    }
    Ok(out)
}
