//! The string enums that come off the wire, each with an `Other(String)` case.
//!
//! Servers add values (`"eos"`, `"end_turn"`, `""`, a new role) faster than any client can
//! list them, so every enum read from a response keeps what it does not know instead of
//! failing the response. A value that is not even a string (a number, an object) reads as
//! `Other` with its JSON text.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this crate does not know, exactly as the server sent it.
            Other(String),
        }

        impl $name {
            /// The wire name.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $wire, )+
                    $name::Other(other) => other,
                }
            }

            /// Reads a wire name; unknown names become `Other`.
            pub fn from_wire(name: &str) -> Self {
                match name {
                    $( $wire => $name::$variant, )+
                    other => $name::Other(other.to_owned()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                Ok(match Value::deserialize(deserializer)? {
                    Value::String(name) => match $name::from_wire(&name) {
                        $name::Other(_) => $name::Other(name),
                        known => known,
                    },
                    other => $name::Other(other.to_string()),
                })
            }
        }
    };
}

wire_enum! {
    /// Why the model stopped, as the server said it.
    FinishReason {
        /// A natural end or a stop sequence.
        Stop = "stop",
        /// `max_tokens` or the context window.
        Length = "length",
        /// The model called tools.
        ToolCalls = "tool_calls",
        /// The content filter cut the answer.
        ContentFilter = "content_filter",
        /// The model called a function (the legacy `function_call` form).
        FunctionCall = "function_call",
        /// The generation failed after it began (OpenRouter, with an `error` beside it).
        Error = "error",
    }
}

wire_enum! {
    /// Who wrote a message.
    Role {
        /// Instructions.
        System = "system",
        /// Instructions, as reasoning models name them.
        Developer = "developer",
        /// The user.
        User = "user",
        /// The model.
        Assistant = "assistant",
        /// A tool result.
        Tool = "tool",
        /// A legacy function result.
        Function = "function",
    }
}

wire_enum! {
    /// The kind of a tool or tool call.
    ToolType {
        /// A function with JSON arguments.
        Function = "function",
        /// A custom tool with free-text input.
        Custom = "custom",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unknown_values_read_as_other_and_write_back_unchanged() {
        for (json, expected) in [
            (json!("stop"), FinishReason::Stop),
            (json!("eos"), FinishReason::Other("eos".into())),
            (json!(""), FinishReason::Other(String::new())),
            (json!(7), FinishReason::Other("7".into())),
        ] {
            let read: FinishReason = serde_json::from_value(json).unwrap();
            assert_eq!(read, expected);
        }
        let other: Role = serde_json::from_value(json!("narrator")).unwrap();
        assert_eq!(serde_json::to_value(&other).unwrap(), json!("narrator"));
        assert_eq!(ToolType::from_wire("function").to_string(), "function");
    }
}
