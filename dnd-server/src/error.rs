//! Errors as the API sends them: `{"error": {"code": "snake_case", "message": "..."}}` with the
//! status that fits, and the JSON body extractor whose refusals take that shape too.

use axum::Json;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// An error answer: a status, a stable code and a message that says what was wrong and what is
/// accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable snake_case code (`missing_token`, `turn_in_progress`, ...).
    pub code: &'static str,
    /// What was wrong and what is accepted.
    pub message: String,
    /// Seconds to wait, for a `429` (sent as `Retry-After`).
    pub retry_after: Option<u64>,
    /// Whose turn it is, for a `409 not_your_turn` (sent as `whose_turn` beside the code).
    pub whose_turn: Option<String>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
            whose_turn: None,
        }
    }

    /// 400 `bad_request`: a request the API cannot use, with why.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 404 `campaign_not_found`.
    pub fn campaign_not_found(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "campaign_not_found",
            format!(
                "no campaign {:?}; GET /api/campaigns with your seat tokens lists yours, POST /api/campaigns starts one",
                crate::short(id)
            ),
        )
    }

    /// 500 `internal`: the store or the server failed; the message says what failed.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({
            "error": {"code": self.code, "message": self.message}
        });
        if let Some(hero) = self.whose_turn {
            body["error"]["whose_turn"] = hero.into();
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after
            && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

/// A request body's bytes, at most [`crate::MAX_BODY_BYTES`]: past that, 413
/// `body_too_large`. Parsed by [`parse_body`] once the caller is known.
#[derive(Debug)]
pub struct RawBody(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        axum::body::Bytes::from_request(req, state)
            .await
            .map(RawBody)
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "body_too_large",
                        format!(
                            "the request body is larger than {} bytes, the most accepted",
                            crate::MAX_BODY_BYTES
                        ),
                    )
                } else {
                    ApiError::bad_request(format!(
                        "the request body could not be read: {rejection}"
                    ))
                }
            })
    }
}

/// The body as `T`, or 400 `bad_json` with serde's message. An empty body is an empty
/// object: the bodies' fields are optional, or a missing one is named.
pub fn parse_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_json",
            format!("the body is not the JSON this endpoint takes: {e} (see /api/openapi.json)"),
        )
    })
}
