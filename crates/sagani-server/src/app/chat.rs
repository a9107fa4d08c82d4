//! Chat at the table: players write, players and spectators read. Lines are stored with the
//! game (part of its history), at most `MAX_LINE` characters of visible text (`names`),
//! rate-limited per seat in the database (every server counts the same lines), and given out
//! as text: the page shows them as text, never as HTML.

use super::{detached, store_refusal, wrong_token, App};
use crate::error::{ApiError, ErrorCode, RefusalDetail};
use crate::limits::Limits;
use crate::store::{ChatLine, ChatRate, ChatText, ChatWrite, Conflict, SavedSeat, StoreError};
use std::sync::Arc;

/// The longest line, in characters.
pub const MAX_LINE: usize = sagani_protocol::error::CHAT_MAX as usize;

/// The most lines one game keeps.
pub const MAX_LINES: u64 = 2000;

/// Lines one seat may write at once (within `BURST_MS`), below the per-minute limit.
const BURST: u64 = 5;
const BURST_MS: i64 = 10_000;

/// How fast a seat may write: `chat_per_minute` lines a minute, at most `BURST` of them within
/// a few seconds. None with the limit off.
pub fn rates(limits: &Limits) -> Vec<ChatRate> {
    let per_minute = u64::from(limits.chat_per_minute);
    if per_minute == 0 {
        return Vec::new();
    }
    vec![
        ChatRate {
            lines: BURST.min(per_minute),
            window_ms: BURST_MS,
        },
        ChatRate {
            lines: per_minute,
            window_ms: 60_000,
        },
    ]
}

/// The quick phrases: each reader sees them in their own language.
pub const PHRASES: [&str; 5] = ["hello", "good_luck", "good_game", "thanks", "well_played"];

/// What someone asks to write.
pub enum Say {
    Text(String),
    Phrase(String),
}

impl Say {
    /// The line as it is stored, or what is wrong with it.
    fn checked(self) -> Result<ChatText, ApiError> {
        match self {
            Say::Phrase(p) if PHRASES.contains(&p.as_str()) => Ok(ChatText::Phrase(p)),
            Say::Phrase(p) => Err(ApiError::bad_request(format!(
                "unknown phrase {p:?}; the phrases are {}",
                PHRASES.join(", ")
            ))),
            Say::Text(t) => {
                let t = crate::names::check_chat_text(&t).map_err(ApiError::refused)?;
                let count = t.chars().count();
                if count == 0 {
                    return Err(ApiError::refused(RefusalDetail::ChatEmpty));
                }
                if count > MAX_LINE {
                    return Err(ApiError::refused(RefusalDetail::ChatTooLong {
                        max: MAX_LINE as u32,
                        len: count as u32,
                    }));
                }
                Ok(ChatText::Text(t))
            }
        }
    }
}

impl App {
    /// Writes a line for the seat `token_hash` (or the account `player`) holds.
    pub async fn say(
        self: &Arc<App>,
        id: &str,
        token_hash: Option<String>,
        player: Option<String>,
        say: Say,
    ) -> Result<ChatLine, ApiError> {
        let line = say.checked()?;
        let (app, id) = (self.clone(), id.to_string());
        detached(async move {
            let (table, mut st) = app.fresh(&id, None).await?;
            let seat = token_hash
                .as_deref()
                .and_then(|h| st.seat_of_hash(h))
                .or_else(|| {
                    let p = player.as_deref()?;
                    st.seats
                        .iter()
                        .position(|s| s.player() == Some(p))
                        .map(|i| i as u8)
                })
                .ok_or_else(wrong_token)?;
            app.limiters.check_chat(&format!("{id} {seat}"))?;
            let write = ChatWrite {
                game: id.clone(),
                seat,
                at_ms: app.now_ms(),
                name: crate::table::record_names(&st.seats)[seat as usize].clone(),
                line: line.clone(),
                max_lines: MAX_LINES,
                rates: rates(&app.config.limits),
            };
            match app.store.post_chat(&write).await {
                Ok((n, rev)) => {
                    if rev == st.rev + 1 {
                        st.chats = n + 1;
                        st.rev = rev;
                    } else {
                        app.reload(&table, &mut st).await?;
                    }
                    drop(st);
                    app.keep(&table).await;
                    app.announce(&[(id.clone(), rev)], &id).await;
                    Ok(ChatLine {
                        n,
                        at_ms: write.at_ms,
                        seat,
                        name: write.name,
                        line,
                    })
                }
                Err(StoreError::Conflict(Conflict::Changed)) => Err(ApiError::new(
                    ErrorCode::RateLimited,
                    format!("this game's chat is full ({MAX_LINES} lines)"),
                )),
                Err(StoreError::Conflict(Conflict::TooFast { wait_ms })) => Err(ApiError {
                    retry_after: Some(wait_ms.div_ceil(1000)),
                    ..ApiError::new(
                        ErrorCode::RateLimited,
                        "too many chat lines from this seat; wait a few seconds",
                    )
                }),
                Err(e) => Err(store_refusal(e)),
            }
        })
        .await
    }

    /// Up to `limit` lines of a game's chat from number `from` on.
    pub async fn chat_lines(
        self: &Arc<App>,
        id: &str,
        from: u64,
        limit: u32,
    ) -> Result<Vec<ChatLine>, ApiError> {
        // The game must exist: an empty chat and a missing game are told apart.
        let (_, st) = self.fresh(id, None).await?;
        let deleted: Vec<bool> = st
            .seats
            .iter()
            .map(|s| {
                matches!(
                    s,
                    SavedSeat::Human {
                        player: Some(_),
                        name: None,
                        ..
                    }
                )
            })
            .collect();
        drop(st);
        let mut lines = self
            .store
            .chat(id, from, limit)
            .await
            .map_err(store_refusal)?;
        // A deleted account's name goes from its lines too.
        for l in &mut lines {
            if deleted.get(l.seat as usize) == Some(&true) {
                l.name = None;
            }
        }
        Ok(lines)
    }
}

impl From<ChatLine> for crate::api::ChatLineInfo {
    fn from(l: ChatLine) -> crate::api::ChatLineInfo {
        let (text, phrase) = match l.line {
            ChatText::Text(t) => (Some(t), None),
            ChatText::Phrase(p) => (None, Some(p)),
        };
        crate::api::ChatLineInfo {
            n: l.n,
            at_ms: l.at_ms,
            seat: l.seat,
            name: l.name,
            text,
            phrase,
        }
    }
}
