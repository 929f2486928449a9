//! Field deserializers that never fail a whole response over one odd field.
//!
//! OpenAI-compatible servers disagree on details: `null` where a string belongs, numbers as
//! strings, `content` as an array of parts, a field of the wrong type entirely. Each helper here
//! reads what it can and falls back to "absent" for the rest, so a response with one surprising
//! field still parses. Use them with `#[serde(default, deserialize_with = "...")]`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A string; `null` or a missing field is `None`; numbers and booleans are written as text; an
/// array of content parts (`[{"type":"text","text":"..."}]` or plain strings) is joined; any
/// other shape is `None`.
pub fn string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    deserializer.deserialize_any(StringVisitor)
}

struct StringVisitor;

impl<'de> Visitor<'de> for StringVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, or something that reads as one")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(v))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(StringVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Content parts: keep the text of each, in order.
        let mut text: Option<String> = None;
        while let Some(part) = seq.next_element::<Value>()? {
            let piece = match &part {
                Value::String(s) => Some(s.as_str()),
                Value::Object(map) => map.get("text").and_then(Value::as_str),
                _ => None,
            };
            if let Some(piece) = piece {
                text.get_or_insert_with(String::new).push_str(piece);
            }
        }
        Ok(text)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// A count: a non-negative number (fractions truncated, larger than `u32::MAX` saturated) or a
/// string holding one; anything else is 0.
pub fn count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    Ok(opt_count(deserializer)?.unwrap_or(0))
}

/// An optional count, as [`count`] but `None` when absent or unreadable.
pub fn opt_count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    Ok(deserializer.deserialize_any(NumberVisitor)?.map(|n| {
        if n.is_nan() || n <= 0.0 {
            0
        } else if n >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            // Truncation is the intent: token counts are whole numbers.
            n as u32
        }
    }))
}

/// A number (or a string holding one); `None` for anything else.
pub fn number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    deserializer.deserialize_any(NumberVisitor)
}

/// A whole number (or a string holding one); `None` for anything else.
pub fn integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    Ok(deserializer
        .deserialize_any(NumberVisitor)?
        .filter(|n| n.is_finite())
        .map(|n| n as i64))
}

struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = Option<f64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v as f64))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v as f64))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.trim().parse().ok())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(NumberVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// A boolean; `None` for anything else.
pub fn boolean<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Bool(b) => Some(b),
        _ => None,
    })
}

/// A list whose elements that do not read as `T` are dropped; `null` or a non-list is empty.
pub fn list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    deserializer.deserialize_any(ListVisitor(PhantomData))
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: DeserializeOwned> Visitor<'de> for ListVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(value) = seq.next_element::<Value>()? {
            if let Ok(item) = T::deserialize(value) {
                items.push(item);
            }
        }
        Ok(items)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Vec::new())
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
}

/// An object read as `T`; `None` when it is absent, `null` or not an object.
///
/// The object is read straight into `T`, without an intermediate [`Value`], so `T` must be
/// lenient itself (every field defaulted and read with these helpers): an object that fails to
/// read as `T` fails the whole value. Every wire response type is.
pub fn object<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_any(ObjectVisitor(PhantomData))
}

/// A list of objects read as `T` (see [`object`]); elements that are not objects are dropped,
/// and `null` or a non-list is empty.
pub fn objects<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_any(ObjectsVisitor(PhantomData))
}

/// An element that is an object read as `T`, or `None`.
struct MaybeObject<T>(Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for MaybeObject<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(ObjectVisitor(PhantomData))
            .map(MaybeObject)
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Some)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
}

struct ObjectsVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectsVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(MaybeObject(item)) = seq.next_element::<MaybeObject<T>>()? {
            items.extend(item);
        }
        Ok(items)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Vec::new())
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
}

/// Any JSON but `null`, kept as it is.
pub fn value<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Null => None,
        other => Some(other),
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Probe {
        #[serde(deserialize_with = "super::string")]
        s: Option<String>,
        #[serde(deserialize_with = "super::count")]
        n: u32,
        #[serde(deserialize_with = "super::list")]
        l: Vec<u8>,
        #[serde(deserialize_with = "super::number")]
        f: Option<f64>,
    }

    fn probe(value: serde_json::Value) -> Probe {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn odd_shapes_read_as_absent_or_converted() {
        let p = probe(json!({"s": null, "n": null, "l": null, "f": null}));
        assert_eq!((p.s, p.n, p.l.len(), p.f), (None, 0, 0, None));
        let p = probe(json!({"s": 12, "n": "34", "l": [1, "x", 300, 2], "f": "0.5"}));
        assert_eq!(p.s.as_deref(), Some("12"));
        assert_eq!(p.n, 34);
        assert_eq!(p.l, vec![1, 2]);
        assert_eq!(p.f, Some(0.5));
        let p = probe(json!({"s": [{"type": "text", "text": "a"}, "b", {"type": "image"}]}));
        assert_eq!(p.s.as_deref(), Some("ab"));
        let p = probe(json!({"s": {"x": 1}, "n": -5, "l": {"a": 1}, "f": [1]}));
        assert_eq!((p.s, p.n, p.l.len(), p.f), (None, 0, 0, None));
        let p = probe(json!({"n": 1e12}));
        assert_eq!(p.n, u32::MAX);
        let p: Probe = serde_json::from_str(r#"{"s": "x", "n": 3.9}"#).unwrap();
        assert_eq!((p.s.as_deref(), p.n), (Some("x"), 3));
    }
}
