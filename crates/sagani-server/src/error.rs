//! `ApiError`: every refusal as a status and a JSON body `{"error", "message"[, "version"]}`.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::ToSchema;

/// Every refusal the server can send, each with its one HTTP status. The OpenAPI document lists
/// exactly these (`ErrorBody::error`), and the tests check every answer against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A malformed request: bad JSON, a wrong field, a value out of range.
    BadRequest,
    /// A body that is not `application/json`.
    BadContentType,
    BodyTooLarge,
    /// No such game, route or asset.
    NotFound,
    MethodNotAllowed,
    /// The route needs a seat's token, or the `Authorization` header is malformed.
    MissingToken,
    /// A token that holds no seat at this game (perhaps revoked by a re-claim).
    WrongToken,
    /// An invite code that claims no seat of this game, or a seat number in a private game.
    WrongInvite,
    SeatTaken,
    /// The game moved on since the version the move was made for.
    StaleVersion,
    NotYourTurn,
    GameOver,
    GameInProgress,
    /// A move the rules refuse; the message is the engine's reason.
    IllegalMove,
    /// A WebSocket route asked for without a WebSocket upgrade.
    NotAWebsocket,
    TooManyGames,
    RateLimited,
    /// The server failed on the request (a bug, or a game damaged in the database).
    Internal,
    /// The database could not be reached; try again.
    Storage,
    /// The request took longer than the server allows.
    Timeout,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 20] = [
        ErrorCode::BadRequest,
        ErrorCode::BadContentType,
        ErrorCode::BodyTooLarge,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::MissingToken,
        ErrorCode::WrongToken,
        ErrorCode::WrongInvite,
        ErrorCode::SeatTaken,
        ErrorCode::StaleVersion,
        ErrorCode::NotYourTurn,
        ErrorCode::GameOver,
        ErrorCode::GameInProgress,
        ErrorCode::IllegalMove,
        ErrorCode::NotAWebsocket,
        ErrorCode::TooManyGames,
        ErrorCode::RateLimited,
        ErrorCode::Internal,
        ErrorCode::Storage,
        ErrorCode::Timeout,
    ];

    pub fn status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            BadRequest => StatusCode::BAD_REQUEST,
            BadContentType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            NotFound => StatusCode::NOT_FOUND,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            MissingToken => StatusCode::UNAUTHORIZED,
            WrongToken | WrongInvite => StatusCode::FORBIDDEN,
            SeatTaken | StaleVersion | NotYourTurn | GameOver | GameInProgress => {
                StatusCode::CONFLICT
            }
            IllegalMove => StatusCode::UNPROCESSABLE_ENTITY,
            NotAWebsocket => StatusCode::UPGRADE_REQUIRED,
            TooManyGames | RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Storage | Timeout => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The name in the JSON body.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    /// A stable machine-readable name.
    pub code: ErrorCode,
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
    /// Machine-readable: what went wrong (the HTTP status follows from it).
    pub error: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status: code.status(),
            code,
            message: message.into(),
            version: None,
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::NotFound, message)
    }

    /// A refusal that names the game's current version, so the client can catch up.
    pub fn conflict(code: ErrorCode, message: impl Into<String>, version: u64) -> ApiError {
        ApiError {
            version: Some(version),
            ..ApiError::new(code, message)
        }
    }

    /// The store failed; its own message goes to the log, not to the client.
    pub fn storage() -> ApiError {
        ApiError::new(
            ErrorCode::Storage,
            "the game could not be saved just now; try again",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.code,
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
            ErrorCode::BadContentType,
            "send the body as JSON, with `Content-Type: application/json`",
        ),
        r if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(ErrorCode::BodyTooLarge, "the request body is too large")
        }
        // Bad syntax and a wrong shape alike: the message says which field and where.
        r => ApiError::bad_request(r.body_text()),
    }
}
