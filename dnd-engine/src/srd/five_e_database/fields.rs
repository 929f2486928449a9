//! Reading fields out of `serde_json::Value`s with errors that name the field, say what was
//! expected and what was found. Nothing here panics: every access is checked.

use std::fmt;

use serde_json::{Map, Value};

use crate::dice::DiceExpr;
use crate::rules::{Ability, DamageDice, DamageType};
use crate::srd::{ActionSave, OnSave};

/// One field of one record that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FieldError {
    /// Where it is, as a path (`actions[2].damage[0].damage_dice`).
    pub field: String,
    /// What was wrong and what is accepted.
    pub problem: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.problem)
    }
}

pub(super) type Res<T> = Result<T, FieldError>;

impl FieldError {
    /// The value at `field` has the wrong shape.
    pub fn expected(field: impl Into<String>, expected: &str, found: &Value) -> FieldError {
        FieldError {
            field: field.into(),
            problem: format!("expected {expected}, found {}", describe(found)),
        }
    }

    /// A free-form problem with the value at `field`.
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// A short description of a value for an error message: its JSON type and, for scalars, the
/// value itself (long strings cut).
pub(super) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            let dots = if cut.len() < s.len() { "..." } else { "" };
            format!("the string {cut:?}{dots}")
        }
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The JSON type of a value, with an article ("an object").
pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON object with the path that leads to it, for error messages.
#[derive(Clone)]
pub(super) struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

/// Joins a path and a key (`actions[0]` and `name` give `actions[0].name`).
pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// The path of an array element.
pub(super) fn at(path: &str, index: usize) -> String {
    format!("{path}[{index}]")
}

impl<'a> Obj<'a> {
    /// `value` as an object, or an error naming `path` (the record itself when empty).
    pub fn new(value: &'a Value, path: impl Into<String>) -> Res<Obj<'a>> {
        let path = path.into();
        match value {
            Value::Object(map) => Ok(Obj { map, path }),
            other => Err(FieldError::expected(
                if path.is_empty() {
                    "(record)".to_owned()
                } else {
                    path
                },
                "an object",
                other,
            )),
        }
    }

    /// The path of one of this object's fields.
    pub fn path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// A field, treating `null` as absent.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Whether a field is present (and not `null`).
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// A required field, or an error saying it is missing and what it should be.
    pub fn required(&self, key: &str, expected: &str) -> Res<&'a Value> {
        self.get(key)
            .ok_or_else(|| FieldError::new(self.path(key), format!("missing; expected {expected}")))
    }

    /// A required string.
    pub fn str(&self, key: &str) -> Res<&'a str> {
        let value = self.required(key, "a string")?;
        value
            .as_str()
            .ok_or_else(|| FieldError::expected(self.path(key), "a string", value))
    }

    /// An optional string.
    pub fn opt_str(&self, key: &str) -> Res<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(FieldError::expected(self.path(key), "a string", other)),
        }
    }

    /// A required whole number.
    pub fn int(&self, key: &str) -> Res<i64> {
        let value = self.required(key, "a whole number")?;
        whole_number(value, &self.path(key))
    }

    /// An optional whole number.
    pub fn opt_int(&self, key: &str) -> Res<Option<i64>> {
        self.get(key)
            .map(|v| whole_number(v, &self.path(key)))
            .transpose()
    }

    /// A required whole number that fits in `T` (an error gives the accepted range).
    pub fn int_in<T: TryFrom<i64>>(&self, key: &str, min: i64, max: i64) -> Res<T> {
        let n = self.int(key)?;
        in_range(n, &self.path(key), min, max)
    }

    /// An optional boolean, `default` when absent.
    pub fn bool_or(&self, key: &str, default: bool) -> Res<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(FieldError::expected(self.path(key), "true or false", other)),
        }
    }

    /// An optional array, empty when absent.
    pub fn array(&self, key: &str) -> Res<&'a [Value]> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => Err(FieldError::expected(self.path(key), "an array", other)),
        }
    }

    /// An optional object.
    pub fn opt_obj(&self, key: &str) -> Res<Option<Obj<'a>>> {
        self.get(key)
            .map(|v| Obj::new(v, self.path(key)))
            .transpose()
    }

    /// The object's fields.
    pub fn entries(&self) -> impl Iterator<Item = (&'a String, &'a Value)> {
        self.map.iter()
    }
}

/// A whole number (an integer, or a float with no fraction such as `15.0`).
pub(super) fn whole_number(value: &Value, path: &str) -> Res<i64> {
    let n = match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        _ => None,
    };
    n.ok_or_else(|| FieldError::expected(path, "a whole number", value))
}

/// `n` checked against `min..=max` and converted to `T` (which must hold that range).
pub(super) fn in_range<T: TryFrom<i64>>(n: i64, path: &str, min: i64, max: i64) -> Res<T> {
    let problem = || {
        FieldError::new(
            path,
            format!("expected a whole number from {min} to {max}, found {n}"),
        )
    };
    if n < min || n > max {
        return Err(problem());
    }
    T::try_from(n).map_err(|_| problem())
}

/// A reference to another 5e-database record: an object with `index` and `name` (either is
/// enough), or a plain string. Gives the `index` if present, else the name.
pub(super) fn reference<'a>(value: &'a Value, path: &str, what: &str) -> Res<&'a str> {
    match value {
        Value::String(s) => Ok(s),
        Value::Object(map) => map
            .get("index")
            .and_then(Value::as_str)
            .or_else(|| map.get("name").and_then(Value::as_str))
            .ok_or_else(|| {
                FieldError::new(
                    path,
                    format!("expected {what} as an object with a string `index` or `name`"),
                )
            }),
        other => Err(FieldError::expected(
            path,
            &format!("{what} (an object with `index` and `name`, or a string)"),
            other,
        )),
    }
}

/// A damage type from a reference (`{"index": "fire", ...}` or `"fire"`).
pub(super) fn damage_type(value: &Value, path: &str) -> Res<DamageType> {
    let name = reference(value, path, "a damage type")?;
    DamageType::parse(name).ok_or_else(|| {
        FieldError::new(
            path,
            format!(
                "{name:?} is not a damage type; expected one of {}",
                damage_type_names()
            ),
        )
    })
}

/// The 13 damage type names, comma separated.
pub(super) fn damage_type_names() -> String {
    DamageType::ALL.map(DamageType::name).join(", ")
}

/// An ability from a reference (`{"index": "dex", ...}`, `"DEX"`, `"dexterity"`).
pub(super) fn ability(value: &Value, path: &str) -> Res<Ability> {
    let name = reference(value, path, "an ability")?;
    Ability::parse(name).ok_or_else(|| {
        FieldError::new(
            path,
            format!("{name:?} is not an ability; expected str, dex, con, int, wis or cha"),
        )
    })
}

/// What a success on a save does: `half`, `none` or `other`.
pub(super) fn on_save(value: &Value, path: &str) -> Res<OnSave> {
    match value.as_str().map(str::to_ascii_lowercase).as_deref() {
        Some("half") => Ok(OnSave::Half),
        Some("none") => Ok(OnSave::None),
        Some("other") => Ok(OnSave::Other),
        _ => Err(FieldError::expected(
            path,
            "\"half\", \"none\" or \"other\"",
            value,
        )),
    }
}

/// A monster's `dc` object: `{dc_type, dc_value, success_type}`.
pub(super) fn action_save(dc: Obj<'_>) -> Res<ActionSave> {
    let ability = ability(dc.required("dc_type", "an ability")?, &dc.path("dc_type"))?;
    let value = dc.int_in("dc_value", 0, 100)?;
    let on_success = match dc.get("success_type") {
        Some(v) => on_save(v, &dc.path("success_type"))?,
        None => OnSave::None,
    };
    Ok(ActionSave {
        ability,
        dc: value,
        on_success,
    })
}

/// Damage dice that may combine groups ("2d6 + 1d8", "1d4+1", "1"), one entry per group: a
/// constant goes with the first group. Parsed by the dice engine, so the notation is the one
/// used everywhere else.
pub(super) fn damage_dice(text: &str, kind: DamageType, path: &str) -> Res<Vec<DamageDice>> {
    let problem = |reason: String| {
        FieldError::new(
            path,
            format!(
                "{text:?} {reason}; expected dice such as \"2d6+3\", \"2d6 + 1d8\" or a number"
            ),
        )
    };
    let expr = DiceExpr::parse(text).map_err(|e| problem(format!("is not dice ({e})")))?;
    let (terms, constant) = expr
        .simple_terms()
        .ok_or_else(|| problem("uses more than dice and numbers added together".into()))?;
    let bonus = i32::try_from(constant).map_err(|_| problem("has too large a bonus".into()))?;
    if terms.is_empty() {
        return Ok(vec![DamageDice::new(0, 0, bonus, kind)]);
    }
    let mut out = Vec::with_capacity(terms.len());
    for (i, (sign, count, sides)) in terms.into_iter().enumerate() {
        if sign < 0 {
            return Err(problem("subtracts dice".into()));
        }
        let count = u16::try_from(count).map_err(|_| problem("has too many dice".into()))?;
        let sides =
            u16::try_from(sides).map_err(|_| problem("has dice with too many sides".into()))?;
        out.push(DamageDice::new(
            count,
            sides,
            if i == 0 { bonus } else { 0 },
            kind,
        ));
    }
    Ok(out)
}

/// The average of a dice expression such as "1d4", rounded down, or `None` if `text` is not a
/// plain sum of dice and numbers.
pub(super) fn dice_average(text: &str) -> Option<i64> {
    let (terms, constant) = DiceExpr::parse(text).ok()?.simple_terms()?;
    let mut twice = constant.checked_mul(2)?;
    for (sign, count, sides) in terms {
        let term = i64::from(count).checked_mul(i64::from(sides) + 1)?;
        twice = twice.checked_add(i64::from(sign).checked_mul(term)?)?;
    }
    Some(twice.div_euclid(2))
}

/// A distance such as `"30 ft."`, `"120 ft"` or a number: the leading whole number of feet.
pub(super) fn feet(value: &Value, path: &str) -> Res<u32> {
    let expected = "a distance such as \"30 ft.\"";
    match value {
        Value::String(s) => {
            let digits: String = s.trim().chars().take_while(char::is_ascii_digit).collect();
            digits
                .parse::<u32>()
                .map_err(|_| FieldError::expected(path, expected, value))
        }
        Value::Number(_) => {
            let n = whole_number(value, path)?;
            u32::try_from(n).map_err(|_| FieldError::expected(path, expected, value))
        }
        other => Err(FieldError::expected(path, expected, other)),
    }
}

/// A description that is a string or an array of strings (joined by blank lines).
pub(super) fn text(value: &Value, path: &str) -> Res<String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Array(items) => {
            let mut parts = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => parts.push(s.as_str()),
                    other => {
                        return Err(FieldError::expected(at(path, i), "a string", other));
                    }
                }
            }
            Ok(parts.join("\n\n"))
        }
        other => Err(FieldError::expected(
            path,
            "a string or an array of strings",
            other,
        )),
    }
}
