//! Limits on what one client may ask: body size, moves per second per seat token and per
//! address, seat claims per second per address, open games per address. 0 turns a limit off.
//! The per-second limits are counted by each server on its own (with several servers behind a
//! balancer a client may get up to that many times as much); the open games and the chat lines
//! are counted in the database, across servers.

use crate::error::{ApiError, ErrorCode};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body, in bytes.
    pub body_bytes: usize,
    /// Moves per second one seat token may send (bursts of twice that).
    pub moves_per_token: u32,
    /// Moves per second one address may send (bursts of twice that).
    pub moves_per_ip: u32,
    /// Seat claims per second one address may send (bursts of twice that): each is a durable
    /// write and a message to every watcher.
    pub claims_per_ip: u32,
    /// Games an address may have created that are not over yet.
    pub open_games_per_ip: usize,
    /// Chat lines per minute one seat may write (at most 5 in 10 seconds), counted in the
    /// database (`app::chat`).
    pub chat_per_minute: u32,
    /// Analyses per minute one address may ask for (bursts of up to 10): each is a search.
    pub analyses_per_minute: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: 64 * 1024,
            moves_per_token: 5,
            moves_per_ip: 50,
            claims_per_ip: 5,
            open_games_per_ip: 20,
            chat_per_minute: 12,
            analyses_per_minute: 30,
        }
    }
}

pub struct Limiters {
    per_token: Option<DefaultKeyedRateLimiter<String>>,
    per_ip: Option<DefaultKeyedRateLimiter<String>>,
    claims_per_ip: Option<DefaultKeyedRateLimiter<String>>,
    chat: Option<DefaultKeyedRateLimiter<String>>,
    analyses: Option<DefaultKeyedRateLimiter<String>>,
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
            ErrorCode::RateLimited,
            format!("too many {what} per second; wait a moment"),
        )
    }
}

impl Limiters {
    pub fn new(limits: &Limits) -> Limiters {
        Limiters {
            per_token: limiter(limits.moves_per_token),
            per_ip: limiter(limits.moves_per_ip),
            claims_per_ip: limiter(limits.claims_per_ip),
            // Only a first filter that spares the database a flood: four times as lenient as
            // the limit the database counts, so a client that waits when told is never
            // refused by it.
            chat: NonZeroU32::new(limits.chat_per_minute.saturating_mul(4)).map(|rate| {
                RateLimiter::keyed(
                    Quota::per_minute(rate).allow_burst(NonZeroU32::MIN.saturating_add(19)),
                )
            }),
            analyses: NonZeroU32::new(limits.analyses_per_minute).map(|rate| {
                let burst = NonZeroU32::new(rate.get().min(10)).unwrap_or(rate);
                RateLimiter::keyed(Quota::per_minute(rate).allow_burst(burst))
            }),
        }
    }

    /// Counts one analysis asked for by `ip`, or refuses it.
    pub fn check_analysis(&self, ip: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.analyses {
            l.check_key(&ip.to_string()).map_err(|_| ApiError {
                retry_after: Some(5),
                ..ApiError::new(
                    ErrorCode::RateLimited,
                    "too many analyses from this address; wait a few seconds",
                )
            })?;
        }
        Ok(())
    }

    /// Counts one chat line by `seat` (a game and seat) at this server, or refuses a flood of
    /// them (the limit itself is counted in the database).
    pub fn check_chat(&self, seat: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.chat {
            l.check_key(&seat.to_string()).map_err(|_| ApiError {
                retry_after: Some(5),
                ..ApiError::new(
                    ErrorCode::RateLimited,
                    "too many chat lines from this seat; wait a few seconds",
                )
            })?;
        }
        Ok(())
    }

    /// Counts one seat claim from `ip`, or refuses it.
    pub fn check_claim(&self, ip: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.claims_per_ip {
            l.check_key(&ip.to_string())
                .map_err(|_| refuse("seat claims from this address"))?;
        }
        Ok(())
    }

    /// Counts one look-up of players (a profile, the leaderboard, my games) from `ip`, or
    /// refuses it: each is a few database queries.
    pub fn check_lookup(&self, ip: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.per_ip {
            l.check_key(&format!("lookup {ip}"))
                .map_err(|_| refuse("look-ups of players from this address"))?;
        }
        Ok(())
    }

    /// Counts one account request (sign-up, log-in, a new password) from `ip`, or refuses it;
    /// counted with the seat claims' rate, apart from them. Failed log-ins have their own
    /// limit, in the database (`accounts`).
    pub fn check_account(&self, ip: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.claims_per_ip {
            l.check_key(&format!("account {ip}"))
                .map_err(|_| refuse("account requests from this address"))?;
        }
        Ok(())
    }

    /// Counts one move by `token_hash` from `ip`, or refuses it.
    pub fn check_move(&self, token_hash: &str, ip: &str) -> Result<(), ApiError> {
        if let Some(l) = &self.per_ip {
            l.check_key(&ip.to_string())
                .map_err(|_| refuse("moves from this address"))?;
        }
        if let Some(l) = &self.per_token {
            l.check_key(&token_hash.to_string())
                .map_err(|_| refuse("moves from this seat"))?;
        }
        Ok(())
    }

    /// Forgets keys that have been quiet long enough to be full again.
    pub fn tidy(&self) {
        for l in [
            &self.per_token,
            &self.per_ip,
            &self.claims_per_ip,
            &self.chat,
            &self.analyses,
        ]
        .into_iter()
        .flatten()
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// Limits on connections. A zero duration turns that timeout off; 0 turns a cap off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpLimits {
    /// From a connection's start, or from the first byte of a later request, to the end of the
    /// request's head. A client that sends half a head and waits (slowloris) is cut off.
    pub header_timeout: Duration,
    /// Quiet time after which a keep-alive connection with no request in progress is closed.
    pub idle_timeout: Duration,
    /// Time a handler has to answer (a WebSocket only until its upgrade); past it, 503.
    pub request_timeout: Duration,
    /// TCP connections open at once, WebSockets included. A connection beyond it is accepted
    /// and closed at once, unanswered.
    pub max_connections: usize,
    /// After shutdown begins: how long requests in flight and closing WebSockets have before
    /// their connections are dropped.
    pub drain_deadline: Duration,
    /// WebSockets open at once per client address (see `ClientAddr`); beyond it, 429.
    pub max_sockets_per_ip: usize,
    /// TCP connections open at once per client address, WebSockets included; beyond it a new
    /// one is answered 429 (`too_many_connections`) and closed. Connections from a trusted
    /// proxy are not counted: there, each forwarded address may have this many requests in
    /// progress at once instead.
    pub max_connections_per_ip: usize,
    /// Peers whose `X-Forwarded-For` is believed (reverse proxies). Empty: none.
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

impl Default for HttpLimits {
    fn default() -> HttpLimits {
        HttpLimits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(30),
            max_connections: 4096,
            drain_deadline: Duration::from_secs(10),
            max_sockets_per_ip: 20,
            // Room for a household behind one address: each browser holds up to six
            // connections and a WebSocket a table.
            max_connections_per_ip: 64,
            trusted_proxies: Vec::new(),
        }
    }
}
