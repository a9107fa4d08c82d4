//! `ApiError`: every refusal as a status and a JSON body `{"error", "message"[, "version",
//! "reason", "detail"]}`.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
pub use sagani_protocol::error::{CellXY, ErrorBody, ErrorCode, IllegalReason, RefusalDetail};
use serde::de::DeserializeOwned;

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
    /// Why the engine refused a move (`illegal_move` only).
    pub reason: Option<IllegalReason>,
    /// What a person got wrong (`bad_request` only).
    pub detail: Option<RefusalDetail>,
}

/// The HTTP status every refusal with `code` has.
pub fn status(code: ErrorCode) -> StatusCode {
    use ErrorCode::*;
    match code {
        BadRequest => StatusCode::BAD_REQUEST,
        BadContentType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        NotFound => StatusCode::NOT_FOUND,
        MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        MissingToken | WrongLogin | NotLoggedIn => StatusCode::UNAUTHORIZED,
        WrongToken | WrongInvite | WrongOrigin | AccountNeeded | HistoryHidden
        | ChallengeRefused => StatusCode::FORBIDDEN,
        NameTaken | SeatTaken | StaleVersion | NotYourTurn | GameOver | GameInProgress | TimeUp
        | SeatLeft | GameStarted | ChallengeClosed => StatusCode::CONFLICT,
        IllegalMove => StatusCode::UNPROCESSABLE_ENTITY,
        NotAWebsocket => StatusCode::UPGRADE_REQUIRED,
        TooManyGames | RateLimited | TooManyConnections | TooManyChallenges => {
            StatusCode::TOO_MANY_REQUESTS
        }
        Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Storage | Timeout | Busy => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status: status(code),
            code,
            message: message.into(),
            version: None,
            retry_after: None,
            reason: None,
            detail: None,
        }
    }

    /// The engine refused a move: its English reason as the message, and the reason's kind and
    /// fields for clients that word it themselves.
    pub fn illegal(e: &sagani_core::IllegalMove) -> ApiError {
        ApiError {
            reason: Some(e.into()),
            ..ApiError::new(ErrorCode::IllegalMove, e.to_string())
        }
    }

    /// A request a person got wrong: the server's English as the message, and what is wrong
    /// for clients that word it themselves.
    pub fn refused(detail: RefusalDetail) -> ApiError {
        ApiError {
            detail: Some(detail.clone()),
            ..ApiError::new(ErrorCode::BadRequest, detail.to_string())
        }
    }

    /// A refusal with its detail, whose English message says more than the detail's own
    /// (a record's fault: the engine's reason).
    pub fn refused_as(detail: RefusalDetail, message: impl Into<String>) -> ApiError {
        ApiError {
            detail: Some(detail),
            ..ApiError::new(ErrorCode::BadRequest, message)
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    /// The server failed (its reason is logged, not told).
    pub fn internal() -> ApiError {
        ApiError::new(ErrorCode::Internal, "the server failed on this request")
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

impl ApiError {
    /// The JSON body the refusal is answered with.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.code,
            message: self.message.clone(),
            version: self.version,
            reason: self.reason,
            detail: self.detail.clone(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
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

/// `axum::extract::Query` with its refusal (a parameter of the wrong type or out of range) as
/// an `ApiError`, in JSON like every other refusal.
pub struct Params<T>(pub T);

impl<S, T> axum::extract::FromRequestParts<S> for Params<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Params(v)),
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
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
