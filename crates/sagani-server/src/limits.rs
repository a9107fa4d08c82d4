//! Limits on what one client may ask: body size, moves per second per seat token and per
//! address, open games per address. 0 turns a limit off.

use crate::error::ApiError;
use axum::http::StatusCode;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body, in bytes.
    pub body_bytes: usize,
    /// Moves per second one seat token may send (bursts of twice that).
    pub moves_per_token: u32,
    /// Moves per second one address may send (bursts of twice that).
    pub moves_per_ip: u32,
    /// Games an address may have created that are not over yet.
    pub open_games_per_ip: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: 64 * 1024,
            moves_per_token: 5,
            moves_per_ip: 50,
            open_games_per_ip: 20,
        }
    }
}

pub struct Limiters {
    per_token: Option<DefaultKeyedRateLimiter<String>>,
    per_ip: Option<DefaultKeyedRateLimiter<String>>,
}

fn limiter(per_second: u32) -> Option<DefaultKeyedRateLimiter<String>> {
    let rate = NonZeroU32::new(per_second)?;
    let burst = NonZeroU32::new(per_second.saturating_mul(2)).unwrap_or(rate);
    Some(RateLimiter::keyed(
        Quota::per_second(rate).allow_burst(burst),
    ))
}

fn refuse(what: &str) -> ApiError {
    ApiError {
        retry_after: Some(1),
        ..ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many moves per second from this {what}; wait a moment"),
        )
    }
}

impl Limiters {
    pub fn new(limits: &Limits) -> Limiters {
        Limiters {
            per_token: limiter(limits.moves_per_token),
            per_ip: limiter(limits.moves_per_ip),
        }
    }

    /// Counts one move by `token_hash` from `ip`, or refuses it.
    pub fn check_move(&self, token_hash: &str, ip: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.per_ip {
            l.check_key(&ip.to_string())
                .map_err(|_| refuse("address"))?;
        }
        if let Some(l) = &self.per_token {
            l.check_key(&token_hash.to_string())
                .map_err(|_| refuse("seat"))?;
        }
        Ok(())
    }

    /// Forgets keys that have been quiet long enough to be full again.
    pub fn tidy(&self) {
        for l in [&self.per_token, &self.per_ip].into_iter().flatten() {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}
