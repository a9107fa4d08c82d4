//! Claiming a seat: by its invite (again, from a second device: the old token is revoked), or
//! a free seat of a public game by number. The store takes the claim only if the seat is still
//! as this server saw it.

use super::{detached, store_refusal, App};
use crate::api::{JoinRequest, Joined};
use crate::error::{ApiError, ErrorCode};
use crate::secret;
use crate::store::{ClaimWrite, Conflict, SavedSeat, StoreError};
use std::sync::Arc;

fn wrong_invite(message: &str) -> ApiError {
    ApiError::new(ErrorCode::WrongInvite, message)
}

/// Who claims a seat: a guest (with a display name, or none), or an account.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Claimer {
    /// The name the table shows.
    pub name: Option<String>,
    /// The account's id.
    pub player: Option<String>,
}

impl App {
    pub async fn join(
        self: &Arc<App>,
        id: &str,
        req: JoinRequest,
        who: Claimer,
    ) -> Result<Joined, ApiError> {
        let (app, id) = (self.clone(), id.to_string());
        detached(async move { app.join_now(id, req, who).await }).await
    }

    async fn join_now(
        self: Arc<App>,
        id: String,
        req: JoinRequest,
        who: Claimer,
    ) -> Result<Joined, ApiError> {
        let (table, mut st) = self.fresh(&id, None).await?;
        if st.rated && who.player.is_none() {
            return Err(ApiError::new(
                ErrorCode::AccountNeeded,
                "the seats of a rated game are for accounts: sign up or log in first",
            ));
        }
        let by_invite = req.invite.is_some();
        // An account takes its own seat again on another device.
        let own_seat = req.seat.is_some_and(|seat| {
            who.player.is_some()
                && st
                    .seats
                    .get(seat as usize)
                    .is_some_and(|s| s.player() == who.player.as_deref())
        });
        let seat = match (&req.invite, req.seat) {
            (Some(code), _) => {
                let h = secret::hash(code);
                st.seats
                    .iter()
                    .position(
                        |s| matches!(s, SavedSeat::Human { invite_hash, .. } if *invite_hash == h),
                    )
                    .ok_or_else(|| wrong_invite("no seat of this game has that invite code"))?
            }
            (None, Some(seat)) if table.public || own_seat => seat as usize,
            (None, Some(_)) => {
                return Err(wrong_invite(
                    "this game is not public: claim a seat with its invite code",
                ))
            }
            (None, None) => {
                return Err(ApiError::bad_request(
                    "give an invite code, or a seat number of a public game",
                ))
            }
        };
        let seen = match st.seats.get(seat) {
            None => {
                return Err(ApiError::bad_request(format!(
                    "this game has seats 0 to {}, not {seat}",
                    st.seats.len() - 1
                )))
            }
            Some(SavedSeat::Bot { .. }) => {
                return Err(ApiError::conflict(
                    ErrorCode::SeatTaken,
                    format!("seat {seat} is played by a bot"),
                    st.version(),
                ))
            }
            // The invite claims its seat again (a lost answer, a second device): a new token,
            // and the old one stops working. A public seat taken by number has no such proof.
            Some(SavedSeat::Human {
                token_hash: Some(_),
                ..
            }) if !by_invite && !own_seat => {
                return Err(ApiError::conflict(
                    ErrorCode::SeatTaken,
                    format!("seat {seat} is already claimed"),
                    st.version(),
                ))
            }
            Some(SavedSeat::Human { token_hash, .. }) => token_hash.clone(),
        };
        if seen.is_none() && st.ended.is_some() {
            return Err(ApiError::conflict(
                ErrorCode::GameOver,
                "this game was closed before it started",
                st.version(),
            ));
        }
        // One account plays one seat of a rated game.
        if st.rated
            && st
                .seats
                .iter()
                .enumerate()
                .any(|(i, s)| i != seat && s.player() == who.player.as_deref())
        {
            return Err(ApiError::conflict(
                ErrorCode::SeatTaken,
                "your account plays another seat of this rated game",
                st.version(),
            ));
        }
        let token = secret::random_hex(32);
        let now = self.now_ms();
        let write = ClaimWrite {
            at_ms: now,
            deadline_if_started: st.deadline_if_started(now),
            game: id.clone(),
            seat: seat as u8,
            seen,
            token_hash: secret::hash(&token),
            // Taking one's own seat again spends no invite.
            by_number: !by_invite && !own_seat,
            name: who.name,
            player: who.player,
        };
        match self.store.claim(&write).await {
            Ok(changed) => {
                // The claim is stored: whatever else fails now, its token is the answer.
                let kept = match self.reload(&table, &mut st).await {
                    Ok(()) => id.as_str(),
                    Err(_) => "",
                };
                drop(st);
                if !kept.is_empty() {
                    self.keep(&table).await;
                }
                self.announce(&changed, kept).await;
                tracing::info!("game {id} seat {seat} claimed");
                Ok(Joined {
                    game: id,
                    seat: seat as u8,
                    token,
                })
            }
            Err(e) => {
                // Someone else's claim (or a store that may or may not have taken it): the
                // table as the store has it now.
                let _ = self.reload(&table, &mut st).await;
                Err(match e {
                    StoreError::Conflict(Conflict::SeatTaken) => ApiError::conflict(
                        ErrorCode::SeatTaken,
                        format!("seat {seat} was claimed by someone else just now"),
                        st.version(),
                    ),
                    e => store_refusal(e),
                })
            }
        }
    }
}
