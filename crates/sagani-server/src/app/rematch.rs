//! A rematch: a new game with the same seats as a finished one, the same bots, each person in
//! the same seat with the same token. Its id is derived from the old game's, so asking again
//! (anyone, any server, any time) gives the same game.

use super::create::created;
use super::{detached, store_refusal, wrong_token, App};
use crate::api::Created;
use crate::error::{ApiError, ErrorCode};
use crate::store::{rematch_id, Conflict, SavedGame, SavedSeat, StoreError};
use std::sync::Arc;

impl App {
    /// The rematch of finished game `id`, asked for by the seat `token_hash` holds.
    pub async fn rematch(
        self: &Arc<App>,
        id: &str,
        token_hash: String,
        ip: String,
    ) -> Result<Created, ApiError> {
        let (app, id) = (self.clone(), id.to_string());
        detached(async move { app.rematch_now(id, token_hash, ip).await }).await
    }

    async fn rematch_now(
        self: Arc<App>,
        id: String,
        token_hash: String,
        ip: String,
    ) -> Result<Created, ApiError> {
        let new_id = rematch_id(&id);
        // The old table stays locked until the rematch is stored: one rematch at a time per
        // game on this server (the store keeps it to one across servers).
        let (table, mut st) = self.fresh(&id, None).await?;
        if st.seat_of_hash(&token_hash).is_none() {
            return Err(wrong_token());
        }
        if !st.over() {
            return Err(ApiError::conflict(
                ErrorCode::GameInProgress,
                "a rematch follows a game that is over",
                st.version(),
            ));
        }
        // A seat claimed again meanwhile (on any server) changes the seats to copy: read the
        // game again and try again.
        let mut tries = 0;
        while st.rematch.is_none() {
            // Each seat keeps its invite and its token: whoever played a seat plays it again,
            // and an invite claims its seat in the rematch as it did here.
            let (deck, start_player) = self.deal(st.seats.len());
            let saved = SavedGame {
                id: new_id.clone(),
                created_at: self.now_ms() / 1000,
                variant: table.variant,
                deck,
                start_player,
                public: table.public,
                creator: ip.clone(),
                host: table.host.clone(),
                rated: st.rated,
                practice: st.practice,
                // Whoever left the old game to a bot has the seat back.
                seats: st
                    .seats
                    .iter()
                    .cloned()
                    .map(|mut s| {
                        if let SavedSeat::Human { left, .. } = &mut s {
                            *left = None;
                        }
                        s
                    })
                    .collect(),
                moves: Vec::new(),
                rev: 0,
                rematch: None,
                clock: st.clock,
                started_ms: None,
                ended: None,
                chats: 0,
                daily: None,
                ratings: Vec::new(),
            };
            match self.open_game(&saved, Some((&id, st.rev)), true).await {
                // Asked for on another server at the same moment: that one is the rematch.
                Ok(()) | Err(StoreError::Conflict(Conflict::Exists)) => {}
                Err(StoreError::Conflict(Conflict::Changed)) if tries < 3 => tries += 1,
                Err(e) => return Err(store_refusal(e)),
            }
            self.reload(&table, &mut st).await?;
            if st.seat_of_hash(&token_hash).is_none() {
                return Err(wrong_token());
            }
        }
        Ok(created(new_id, Vec::new()))
    }
}
