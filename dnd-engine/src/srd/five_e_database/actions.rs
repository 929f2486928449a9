//! One action or legendary action of a 5e-database monster into a [`MonsterAction`]: attack,
//! damage, save, sub-effects, multiattack and limited use. The mapping is described in the
//! module docs of `five_e_database`.

use serde_json::Value;

use super::fields::{
    FieldError, Obj, Res, action_save, at, damage_dice, damage_type, dice_average, in_range, text,
    whole_number,
};
use crate::rules::{Ability, DamageDice};
use crate::srd::{
    ActionAttack, ActionSave, ActionUsage, AttackKind, MonsterAction, MultiattackStep, OnSave,
    SaveEffect,
};

/// How a stat block writes a limited use.
pub(super) fn usage_note(usage: ActionUsage) -> String {
    match usage {
        ActionUsage::Recharge { min: 6 } => "Recharge 6".to_owned(),
        ActionUsage::Recharge { min } => format!("Recharge {min}\u{2013}6"),
        ActionUsage::PerDay { times } => format!("{times}/Day"),
        ActionUsage::AfterRest { short: true } => "Recharges after a Short or Long Rest".to_owned(),
        ActionUsage::AfterRest { short: false } => "Recharges after a Long Rest".to_owned(),
    }
}

/// `usage`: `{type: "recharge on roll", dice: "1d6", min_value}`, `{type: "per day", times}` or
/// `{type: "recharge after rest", rest_types: ["short", "long"]}`.
pub(super) fn usage_of(u: Obj<'_>) -> Res<ActionUsage> {
    let kind = u.str("type")?;
    match kind.to_ascii_lowercase().as_str() {
        "recharge on roll" => {
            if let Some(dice) = u.opt_str("dice")?
                && !matches!(dice.trim(), "1d6" | "d6")
            {
                return Err(FieldError::new(
                    u.path("dice"),
                    format!("{dice:?}: only a d6 recharge is understood; expected \"1d6\""),
                ));
            }
            Ok(ActionUsage::Recharge {
                min: u.int_in("min_value", 1, 6)?,
            })
        }
        "per day" => Ok(ActionUsage::PerDay {
            times: u.int_in("times", 1, 255)?,
        }),
        "recharge after rest" => {
            let mut short = false;
            for (i, rest) in u.array("rest_types")?.iter().enumerate() {
                match rest.as_str() {
                    Some(r) if r.eq_ignore_ascii_case("short") => short = true,
                    Some(r) if r.eq_ignore_ascii_case("long") => {}
                    _ => {
                        return Err(FieldError::expected(
                            at(&u.path("rest_types"), i),
                            "\"short\" or \"long\"",
                            rest,
                        ));
                    }
                }
            }
            Ok(ActionUsage::AfterRest { short })
        }
        _ => Err(FieldError::new(
            u.path("type"),
            format!(
                "{kind:?} is not a usage; expected \"recharge on roll\", \"per day\" or \"recharge after rest\""
            ),
        )),
    }
}

/// One action or legendary action.
pub(super) fn action(value: &Value, path: &str, legendary: bool) -> Res<MonsterAction> {
    let a = Obj::new(value, path)?;
    let mut name = a.str("name")?.trim().to_owned();
    let description = match a.get("desc") {
        Some(desc) => text(desc, &a.path("desc"))?,
        None => String::new(),
    };
    let cost = legendary.then(|| match strip_cost(&name) {
        Some((bare, cost)) => {
            name = bare;
            cost
        }
        None => 1,
    });
    let attack = attack(&a, &description)?;
    let mut damage = Vec::new();
    let mut options = Vec::new();
    let mut entry_save = None;
    read_damage(&a, &mut damage, &mut options, &mut entry_save)?;
    let mut save = a.opt_obj("dc")?.map(action_save).transpose()?;
    if let Some(s) = save.as_mut() {
        // Several records say "none" for a save whose description halves the damage.
        if s.on_success == OnSave::None && halves(&description) {
            s.on_success = OnSave::Half;
        }
    }
    // Sub-effects: a choice of breath weapons (`options`) or a sequence (`attacks`).
    let (sub_save, sub_damage) = sub_effects(&a)?;
    options.extend(sub_damage);
    let save = save
        .or(entry_save)
        .or(sub_save)
        .or_else(|| save_in(&description));
    // Damage given only as a choice (a versatile weapon, a choice of breath weapons): the
    // first option is the usual damage, and all of them are the options, as in the bundled data.
    if damage.is_empty() {
        damage = options.first().cloned().unwrap_or_default();
    }
    let damage_options = options.concat();
    let usage = a.opt_obj("usage")?.map(usage_of).transpose()?;
    let on_failed_save = save.and(knocked_prone(&description));
    let mut action = MonsterAction {
        name,
        description,
        attack,
        save,
        damage,
        damage_options,
        multiattack: multiattack(&a)?,
        // The community format says what a failed save does only in words: "knocked prone"
        // is read (the wolf's bite, the dragon's Wing Attack), the rest is narrated.
        on_failed_save,
        usage,
        cost,
        effects: Vec::new(),
    };
    crate::srd::action_effects::fill(&mut action);
    Ok(action)
}

/// A failed save's "knocked prone", from the description.
fn knocked_prone(description: &str) -> Option<SaveEffect> {
    description
        .to_ascii_lowercase()
        .contains("knocked prone")
        .then(|| SaveEffect::Conditions {
            conditions: vec![crate::rules::Condition::Prone],
            repeat: false,
        })
}

/// Whether a description halves the damage on a successful save.
fn halves(description: &str) -> bool {
    let lower = description.to_ascii_lowercase();
    lower.contains("half as much damage") || lower.contains("half the damage")
}

/// The first "DC 11 Strength saving throw" of a description, for actions whose record has no
/// `dc` although the description calls for a save (a wolf's bite knocking prone).
fn save_in(description: &str) -> Option<ActionSave> {
    let mut rest = description;
    while let Some(at) = rest.find("DC ") {
        rest = rest.get(at + 3..)?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let Ok(dc) = digits.parse::<i32>() else {
            continue;
        };
        let mut words = rest.get(digits.len()..)?.split_whitespace();
        let (Some(ability), Some("saving"), Some(throw)) =
            (words.next(), words.next(), words.next())
        else {
            continue;
        };
        let Some(ability) = Ability::parse(ability).filter(|_| throw.starts_with("throw")) else {
            continue;
        };
        let on_success = if halves(description) {
            OnSave::Half
        } else {
            OnSave::None
        };
        return Some(ActionSave {
            ability,
            dc,
            on_success,
        });
    }
    None
}

/// "Wing Attack (Costs 2 Actions)" gives "Wing Attack" and 2.
fn strip_cost(name: &str) -> Option<(String, u8)> {
    let open = name.rfind("(Cost")?;
    let inner = name.get(open + 1..)?.strip_suffix(')')?;
    let digits: String = inner.chars().filter(char::is_ascii_digit).collect();
    let cost = digits.parse().ok()?;
    Some((name.get(..open)?.trim_end().to_owned(), cost))
}

/// The attack roll: only when the description names the kind of attack ("Melee Weapon
/// Attack: +4 to hit, reach 5 ft."), which is also where reach and range are read. The bonus is
/// `attack_bonus`, or the "+N to hit" of the description.
fn attack(a: &Obj<'_>, description: &str) -> Res<Option<ActionAttack>> {
    let lower = description.to_ascii_lowercase();
    const KINDS: [(&str, AttackKind); 5] = [
        (
            "melee or ranged weapon attack",
            AttackKind::MeleeOrRangedWeapon,
        ),
        ("melee weapon attack", AttackKind::MeleeWeapon),
        ("ranged weapon attack", AttackKind::RangedWeapon),
        ("melee spell attack", AttackKind::MeleeSpell),
        ("ranged spell attack", AttackKind::RangedSpell),
    ];
    let bonus = a
        .opt_int("attack_bonus")?
        .map(|n| in_range::<i32>(n, &a.path("attack_bonus"), -100, 100))
        .transpose()?;
    let Some((start, kind)) = KINDS
        .iter()
        .find_map(|(phrase, kind)| lower.find(phrase).map(|at| (at, *kind)))
    else {
        return Ok(None);
    };
    let rest = lower.get(start..).unwrap_or_default();
    let head = rest.split("hit:").next().unwrap_or(rest);
    let Some(to_hit) = bonus.or_else(|| number_before(head, " to hit")) else {
        return Ok(None);
    };
    let reach = number_after(head, "reach ");
    let range = number_after(head, "range ").map(|normal| {
        let long = head
            .find("range ")
            .and_then(|at| head.get(at + 6..))
            .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit()))
            .and_then(|r| r.strip_prefix('/'))
            .and_then(|r| number_after(r, ""))
            .unwrap_or(normal);
        (normal, long)
    });
    Ok(Some(ActionAttack {
        kind,
        to_hit,
        reach: if matches!(kind, AttackKind::RangedWeapon | AttackKind::RangedSpell) {
            None
        } else {
            reach
        },
        range: if matches!(kind, AttackKind::MeleeWeapon | AttackKind::MeleeSpell) {
            None
        } else {
            range
        },
    }))
}

/// The whole number right after the first `marker` in `text`.
fn number_after(text: &str, marker: &str) -> Option<u32> {
    let at = text.find(marker)?;
    let digits: String = text
        .get(at + marker.len()..)?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The signed whole number right before the first `marker` ("+4 to hit" gives 4).
fn number_before(text: &str, marker: &str) -> Option<i32> {
    let before = text.get(..text.find(marker)?)?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_digit() || c == '+' || c == '-'))
        .map_or(0, |i| i + 1);
    before.get(start..)?.trim_start_matches('+').parse().ok()
}

/// `damage`: a list of `{damage_type, damage_dice}` (each may carry its own `dc`) and
/// `{choose, type, from: {options}}` choices, or one such choice alone.
fn read_damage(
    a: &Obj<'_>,
    damage: &mut Vec<DamageDice>,
    options: &mut Vec<Vec<DamageDice>>,
    entry_save: &mut Option<ActionSave>,
) -> Res<()> {
    let path = a.path("damage");
    let single;
    let entries: &[Value] = match a.get("damage") {
        None => return Ok(()),
        Some(Value::Array(entries)) => entries,
        Some(choice @ Value::Object(_)) => {
            single = [choice.clone()];
            &single
        }
        Some(other) => {
            return Err(FieldError::expected(
                path,
                "an array of damage entries",
                other,
            ));
        }
    };
    for (i, entry) in entries.iter().enumerate() {
        let entry_path = at(&path, i);
        let e = Obj::new(entry, &entry_path)?;
        if e.has("choose") || e.has("from") {
            options.extend(choice(&e)?);
            continue;
        }
        damage.extend(damage_entry(&e)?);
        if let (None, Some(dc)) = (entry_save.as_ref(), e.opt_obj("dc")?) {
            *entry_save = Some(action_save(dc)?);
        }
    }
    Ok(())
}

/// One `{damage_type, damage_dice}`, split into one entry per group of dice.
fn damage_entry(e: &Obj<'_>) -> Res<Vec<DamageDice>> {
    let kind = damage_type(
        e.required("damage_type", "a damage type")?,
        &e.path("damage_type"),
    )?;
    let dice_path = e.path("damage_dice");
    let dice = match e.required("damage_dice", "dice such as \"2d6+3\"")? {
        Value::String(s) => s.clone(),
        n @ Value::Number(_) => whole_number(n, &dice_path)?.to_string(),
        other => {
            return Err(FieldError::expected(
                dice_path,
                "dice such as \"2d6+3\"",
                other,
            ));
        }
    };
    damage_dice(&dice, kind, &dice_path)
}

/// `{choose, type, from: {options: [...]}}`: every option's damage (one entry per option, each
/// with one [`DamageDice`] per group of dice).
fn choice(e: &Obj<'_>) -> Res<Vec<Vec<DamageDice>>> {
    let from_path = e.path("from");
    let Some(from) = e.opt_obj("from")? else {
        return Err(FieldError::new(
            from_path,
            "missing; expected {options: [...]}",
        ));
    };
    let mut out = Vec::new();
    for (i, option) in from.array("options")?.iter().enumerate() {
        let path = at(&from.path("options"), i);
        let o = Obj::new(option, &path)?;
        if o.has("choose") || o.has("from") {
            out.extend(choice(&o)?);
        } else {
            out.push(damage_entry(&o)?);
        }
    }
    Ok(out)
}

/// The save and damage of an action's sub-effects: `options` (a choice, as of breath weapons)
/// and `attacks` (one after another, as of a roar). The action's save becomes the first save of
/// a sub-effect that deals damage (or of the first sub-effect); every sub-effect's damage is an
/// option.
fn sub_effects(a: &Obj<'_>) -> Res<(Option<ActionSave>, Vec<Vec<DamageDice>>)> {
    let mut items: Vec<(String, &Value)> = Vec::new();
    if let Some(options) = a.opt_obj("options")?
        && let Some(from) = options.opt_obj("from")?
    {
        let list = from.path("options");
        items.extend(
            from.array("options")?
                .iter()
                .enumerate()
                .map(|(i, v)| (at(&list, i), v)),
        );
    }
    let attacks = a.path("attacks");
    items.extend(
        a.array("attacks")?
            .iter()
            .enumerate()
            .map(|(i, v)| (at(&attacks, i), v)),
    );
    let (mut first_save, mut damaging_save, mut all_damage) = (None, None, Vec::new());
    for (path, item) in &items {
        let o = Obj::new(item, path)?;
        let mut damage = Vec::new();
        let mut options = Vec::new();
        let mut entry_save = None;
        read_damage(&o, &mut damage, &mut options, &mut entry_save)?;
        let save = o
            .opt_obj("dc")?
            .map(action_save)
            .transpose()?
            .or(entry_save);
        first_save = first_save.or(save);
        if !damage.is_empty() || !options.is_empty() {
            damaging_save = damaging_save.or(save);
        }
        if !damage.is_empty() {
            all_damage.push(damage);
        }
        all_damage.extend(options);
    }
    Ok((damaging_save.or(first_save), all_damage))
}

/// `actions: [{action_name, count}]` (one way), and `action_options: {choose, from: {options}}`
/// (several ways, each one action or `items` of several).
fn multiattack(a: &Obj<'_>) -> Res<Vec<Vec<MultiattackStep>>> {
    let mut ways = Vec::new();
    let steps_path = a.path("actions");
    let mut usual = Vec::new();
    for (i, step) in a.array("actions")?.iter().enumerate() {
        usual.push(multiattack_step(step, &at(&steps_path, i))?);
    }
    if !usual.is_empty() {
        ways.push(usual);
    }
    if let Some(options) = a.opt_obj("action_options")? {
        let from_path = options.path("from");
        let Some(from) = options.opt_obj("from")? else {
            return Err(FieldError::new(
                from_path,
                "missing; expected {options: [...]}",
            ));
        };
        let list = from.path("options");
        for (i, option) in from.array("options")?.iter().enumerate() {
            let path = at(&list, i);
            let o = Obj::new(option, &path)?;
            if o.has("items") {
                let items_path = o.path("items");
                let mut way = Vec::new();
                for (j, item) in o.array("items")?.iter().enumerate() {
                    way.push(multiattack_step(item, &at(&items_path, j))?);
                }
                ways.push(way);
            } else {
                ways.push(vec![multiattack_step(option, &path)?]);
            }
        }
    }
    Ok(ways)
}

/// One `{action_name, count}`. A count may be a number, a numeric string, dice ("1d4": their
/// average, rounded down, at least 1) or words ("Number of Heads": 1, the description tells
/// the rest).
fn multiattack_step(value: &Value, path: &str) -> Res<MultiattackStep> {
    let s = Obj::new(value, path)?;
    let action = s.str("action_name")?.to_owned();
    let count = match s.get("count") {
        None => 1,
        Some(n @ Value::Number(_)) => {
            in_range(whole_number(n, &s.path("count"))?, &s.path("count"), 0, 100)?
        }
        Some(Value::String(text)) => match text.trim().parse::<u32>() {
            Ok(n) if n <= 100 => n,
            _ => dice_average(text)
                .and_then(|avg| u32::try_from(avg.clamp(1, 100)).ok())
                .unwrap_or(1),
        },
        Some(other) => {
            return Err(FieldError::expected(
                s.path("count"),
                "a number of times",
                other,
            ));
        }
    };
    Ok(MultiattackStep { action, count })
}
