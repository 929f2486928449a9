//! [`Headers`]: a read-only view of a request's or response's headers that never shows a
//! sensitive value, so the HTTP library's header type stays out of the public API.

use std::fmt;

use reqwest::header::HeaderMap;

/// Headers, read by name. A value marked sensitive (the `Authorization` header, extra headers
/// that may carry credentials) reads as absent and prints as `Sensitive`.
#[derive(Clone, Copy)]
pub struct Headers<'a>(&'a HeaderMap);

impl<'a> Headers<'a> {
    pub(crate) fn new(map: &'a HeaderMap) -> Self {
        Headers(map)
    }

    /// The first value of the header `name` (any case) as text; `None` when absent, not
    /// text, or sensitive.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.0
            .get(name)
            .filter(|value| !value.is_sensitive())
            .and_then(|value| value.to_str().ok())
    }

    /// Whether the header `name` (any case) is present, sensitive or not.
    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Whether the header `name` is present and marked sensitive.
    pub fn is_sensitive(&self, name: &str) -> bool {
        self.0.get(name).is_some_and(|value| value.is_sensitive())
    }

    /// The headers' names, lower-case, in order.
    pub fn names(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.0.keys().map(|name| name.as_str())
    }
}

impl fmt::Debug for Headers<'_> {
    /// The header map's own `Debug`, which prints a sensitive value as `Sensitive`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    #[test]
    fn sensitive_values_are_neither_read_nor_printed() {
        let mut map = HeaderMap::new();
        let mut secret = HeaderValue::from_static("Bearer sk-secret");
        secret.set_sensitive(true);
        map.insert("authorization", secret);
        map.insert("x-title", HeaderValue::from_static("dnd-gm"));
        let headers = Headers::new(&map);
        assert_eq!(headers.get("X-Title"), Some("dnd-gm"));
        assert_eq!(headers.get("authorization"), None);
        assert!(headers.contains("Authorization") && headers.is_sensitive("authorization"));
        assert!(!format!("{headers:?}").contains("sk-secret"));
        assert_eq!(
            headers.names().collect::<Vec<_>>(),
            ["authorization", "x-title"]
        );
    }
}
