//! Provider routing preferences: the body's `provider` object.
//!
//! OpenRouter serves most models through several upstream providers and picks one per request.
//! These preferences steer that choice. The one that matters most for a game master is
//! [`require_parameters`](ProviderPreferences::require_parameters): without it, a provider that
//! does not support tools or JSON-Schema output may be chosen anyway and silently ignore them,
//! so the model answers in prose where the engine expected a tool call. The adapter sets it
//! whenever a request carries tools or a JSON Schema (see
//! [`ProviderPreferences::for_request`]).

use serde::Serialize;
use serde_json::{Map, Value};

/// Whether providers that may store or train on prompts are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DataCollection {
    /// Any provider (OpenRouter's default).
    Allow,
    /// Only providers that do not collect user data.
    Deny,
}

/// How providers are ranked when no explicit order decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderSort {
    /// Cheapest first.
    Price,
    /// Highest tokens per second first.
    Throughput,
    /// Lowest time to first token first.
    Latency,
}

/// The highest price accepted, in US dollars per million tokens (or per request / image).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MaxPrice {
    /// Per million prompt tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<f64>,
    /// Per million completion tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion: Option<f64>,
    /// Per request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<f64>,
    /// Per image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<f64>,
}

/// The `provider` object of a request. Every field is optional; unset ones are left out and
/// OpenRouter's defaults apply.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ProviderPreferences {
    /// Provider slugs to try first, in order (`["anthropic", "amazon-bedrock"]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<String>,
    /// Whether other providers may serve when those in `order` cannot (default true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_fallbacks: Option<bool>,
    /// Only providers that support every parameter of the request. `None` lets the adapter
    /// decide: true when the request has tools or a JSON Schema, unset otherwise. `Some(_)`
    /// is sent as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_parameters: Option<bool>,
    /// Whether providers that collect data are allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_collection: Option<DataCollection>,
    /// Only zero-data-retention endpoints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zdr: Option<bool>,
    /// Only these providers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only: Vec<String>,
    /// Never these providers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
    /// Only these quantizations (`fp8`, `bf16`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quantizations: Vec<String>,
    /// How to rank providers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<ProviderSort>,
    /// The highest prices accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_price: Option<MaxPrice>,
    /// Any other routing field, merged in last (it wins over the typed ones).
    #[serde(skip_serializing_if = "Map::is_empty", flatten)]
    pub extra: Map<String, Value>,
}

impl ProviderPreferences {
    /// Tries these providers first, in order.
    pub fn with_order<I, S>(mut self, order: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.order = order.into_iter().map(Into::into).collect();
        self
    }

    /// Allows or forbids providers outside [`order`](ProviderPreferences::order).
    pub fn with_allow_fallbacks(mut self, allow: bool) -> Self {
        self.allow_fallbacks = Some(allow);
        self
    }

    /// Sets `require_parameters` for every request, overriding the adapter's choice.
    pub fn with_require_parameters(mut self, require: bool) -> Self {
        self.require_parameters = Some(require);
        self
    }

    /// Sets the data-collection policy.
    pub fn with_data_collection(mut self, policy: DataCollection) -> Self {
        self.data_collection = Some(policy);
        self
    }

    /// Sets how providers are ranked.
    pub fn with_sort(mut self, sort: ProviderSort) -> Self {
        self.sort = Some(sort);
        self
    }

    /// The `provider` object for one request, or `None` when there is nothing to send.
    /// `needs_parameters` is whether the request carries tools or a JSON Schema; then
    /// `require_parameters` is true unless set explicitly.
    pub fn for_request(&self, needs_parameters: bool) -> Option<Value> {
        let mut preferences = self.clone();
        if preferences.require_parameters.is_none() && needs_parameters {
            preferences.require_parameters = Some(true);
        }
        match serde_json::to_value(&preferences) {
            Ok(Value::Object(map)) if map.is_empty() => None,
            Ok(value) => Some(value),
            // Only a non-finite price fails; leaving the preferences out is the safe reading.
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unset_preferences_are_left_out_and_parameters_required_for_tools() {
        let none = ProviderPreferences::default();
        assert_eq!(none.for_request(false), None);
        assert_eq!(
            none.for_request(true),
            Some(json!({"require_parameters": true}))
        );
        let explicit = ProviderPreferences::default().with_require_parameters(false);
        assert_eq!(
            explicit.for_request(true),
            Some(json!({"require_parameters": false}))
        );
    }

    #[test]
    fn every_field_in_its_wire_form() {
        let mut preferences = ProviderPreferences::default()
            .with_order(["anthropic", "amazon-bedrock"])
            .with_allow_fallbacks(false)
            .with_data_collection(DataCollection::Deny)
            .with_sort(ProviderSort::Throughput);
        preferences.zdr = Some(true);
        preferences.ignore = vec!["deepinfra".into()];
        preferences.max_price = Some(MaxPrice {
            prompt: Some(1.0),
            completion: Some(2.0),
            ..MaxPrice::default()
        });
        preferences
            .extra
            .insert("allow_fallbacks".into(), json!(true));
        assert_eq!(
            preferences.for_request(false).unwrap(),
            json!({
                "order": ["anthropic", "amazon-bedrock"],
                "allow_fallbacks": true,
                "data_collection": "deny",
                "zdr": true,
                "ignore": ["deepinfra"],
                "sort": "throughput",
                "max_price": {"prompt": 1.0, "completion": 2.0}
            })
        );
    }
}
