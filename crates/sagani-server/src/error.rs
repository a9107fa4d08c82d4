//! `ApiError`: every refusal as a status and a JSON body `{"error", "message"[, "version"]}`.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// A stable machine-readable name (`stale_version`, `illegal_move`, …).
    pub code: &'static str,
    /// A sentence a player understands.
    pub message: String,
    /// The game's current version, where it helps the client catch up.
    pub version: Option<u64>,
    /// Seconds to wait before trying again (rate limits).
    pub retry_after: Option<u64>,
}

/// The JSON body of every error.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// Machine-readable: `bad_request`, `body_too_large`, `not_found`, `missing_token`,
    /// `wrong_token`, `not_your_seat`, `seat_taken`, `stale_version`, `not_your_turn`,
    /// `game_over`, `game_in_progress`, `illegal_move`, `too_many_games`, `rate_limited`,
    /// `storage`, `timeout`, `internal`.
    pub error: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            version: None,
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn conflict(code: &'static str, message: impl Into<String>, version: u64) -> ApiError {
        ApiError {
            version: Some(version),
            ..ApiError::new(StatusCode::CONFLICT, code, message)
        }
    }

    /// The store failed; its own message goes to the log, not to the client.
    pub fn storage() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage",
            "the game could not be saved just now; try again",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.code.to_string(),
            message: self.message,
            version: self.version,
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// `axum::Json` with its refusals (bad JSON, wrong fields, too large) as `ApiError`s.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(r: JsonRejection) -> ApiError {
    match r {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "bad_content_type",
            "send the body as JSON, with `Content-Type: application/json`",
        ),
        r if r.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            "the request body is too large",
        ),
        // Bad syntax and a wrong shape alike: the message says which field and where.
        r => ApiError::bad_request(r.body_text()),
    }
}
