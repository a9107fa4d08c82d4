//! A store that passes everything to a real one, but for moves of one seat, which it can
//! refuse or store-then-deny (a commit whose answer was lost); it counts what it sees.

use async_trait::async_trait;
use sagani_server::store::{
    Accounts, BotTurn, Catchup, Change, ChatLine, ChatWrite, ClaimWrite, Counts, Daily, DailyEntry,
    IdleSweep, LeaveWrite, LoginCount, MoveWrite, NewNotice, NewPlayer, Notice, Notices, Pairing,
    PlayedGame, Player, Progress, Ranked, Rating, RatingPoint, SavedGame, Seek, Seeks, Store,
    StoreError, Summary,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast;

/// Stores the move.
pub const WRITE: u8 = 0;
pub const REFUSE: u8 = 1;
/// Stores it, then says it failed.
pub const LAND_BUT_FAIL: u8 = 2;

pub struct Intercepted {
    inner: Arc<dyn Store>,
    seat: u8,
    mode: Arc<AtomicU8>,
    /// Games created.
    pub created: Arc<AtomicUsize>,
    /// Moves refused or denied.
    pub refused: Arc<AtomicUsize>,
    /// Times every game was counted.
    pub counted: Arc<AtomicUsize>,
}

impl Intercepted {
    pub fn new(inner: Arc<dyn Store>, seat: u8, mode: Arc<AtomicU8>) -> Intercepted {
        Intercepted {
            inner,
            seat,
            mode,
            created: Arc::default(),
            refused: Arc::default(),
            counted: Arc::default(),
        }
    }
}

fn on_fire() -> StoreError {
    StoreError::unavailable_because("disk on fire")
}

#[async_trait]
impl Store for Intercepted {
    async fn create(
        &self,
        game: &SavedGame,
        after: Progress,
        max_open: Option<u64>,
        rematch_of: Option<(&str, u64)>,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let r = self.inner.create(game, after, max_open, rematch_of).await;
        if r.is_ok() {
            self.created.fetch_add(1, Ordering::SeqCst);
        }
        r
    }
    async fn game(&self, id: &str) -> Result<SavedGame, StoreError> {
        self.inner.game(id).await
    }
    async fn rev(&self, id: &str) -> Result<u64, StoreError> {
        self.inner.rev(id).await
    }
    async fn since(&self, id: &str, from: u64) -> Result<Catchup, StoreError> {
        self.inner.since(id, from).await
    }
    async fn append_move(&self, w: &MoveWrite) -> Result<u64, StoreError> {
        let mode = if w.seat == self.seat {
            self.mode.load(Ordering::SeqCst)
        } else {
            WRITE
        };
        match mode {
            REFUSE => {
                self.refused.fetch_add(1, Ordering::SeqCst);
                Err(on_fire())
            }
            LAND_BUT_FAIL => {
                let _ = self.inner.append_move(w).await;
                self.refused.fetch_add(1, Ordering::SeqCst);
                Err(on_fire())
            }
            _ => self.inner.append_move(w).await,
        }
    }
    async fn claim(&self, w: &ClaimWrite) -> Result<Vec<(String, u64)>, StoreError> {
        self.inner.claim(w).await
    }
    async fn leave(&self, w: &LeaveWrite) -> Result<u64, StoreError> {
        self.inner.leave(w).await
    }
    async fn due_clocks(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        self.inner.due_clocks(now_ms, limit).await
    }
    async fn repair(&self, game: &str, n: u64, after: Progress) -> Result<bool, StoreError> {
        self.inner.repair(game, n, after).await
    }
    async fn end_idle(&self, sweep: IdleSweep) -> Result<Vec<(String, u64)>, StoreError> {
        self.inner.end_idle(sweep).await
    }
    async fn cancel(&self, game: &str, token_hash: &str, at_ms: i64) -> Result<u64, StoreError> {
        self.inner.cancel(game, token_hash, at_ms).await
    }
    async fn post_chat(&self, w: &ChatWrite) -> Result<(u64, u64), StoreError> {
        self.inner.post_chat(w).await
    }
    async fn chat(&self, game: &str, from: u64, limit: u32) -> Result<Vec<ChatLine>, StoreError> {
        self.inner.chat(game, from, limit).await
    }
    async fn lobby(&self, limit: u32) -> Result<Vec<Summary>, StoreError> {
        self.inner.lobby(limit).await
    }
    async fn counts(&self) -> Result<Counts, StoreError> {
        self.counted.fetch_add(1, Ordering::SeqCst);
        self.inner.counts().await
    }
    async fn bot_turns(&self, now_ms: i64, limit: u32) -> Result<Vec<BotTurn>, StoreError> {
        self.inner.bot_turns(now_ms, limit).await
    }
    async fn lease(
        &self,
        game: &str,
        version: u64,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        self.inner
            .lease(game, version, holder, now_ms, until_ms)
            .await
    }
    async fn release(&self, game: &str, holder: &str) -> Result<(), StoreError> {
        self.inner.release(game, holder).await
    }
    async fn ping(&self) -> Result<(), StoreError> {
        self.inner.ping().await
    }
    async fn game_ids(&self, after: Option<&str>, limit: u32) -> Result<Vec<String>, StoreError> {
        self.inner.game_ids(after, limit).await
    }
    async fn import(&self, game: &SavedGame, after: Progress) -> Result<(), StoreError> {
        self.inner.import(game, after).await
    }
    async fn move_counts(&self, games: &[String]) -> Result<HashMap<String, u64>, StoreError> {
        self.inner.move_counts(games).await
    }
    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        self.inner.changes()
    }
    fn exclusive(&self) -> bool {
        self.inner.exclusive()
    }
}

/// Accounts pass through untouched.
#[async_trait]
impl Daily for Intercepted {
    async fn server_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        self.inner.server_secret(name, fresh).await
    }
    async fn daily_of(&self, player: &str, day: &str) -> Result<Vec<DailyEntry>, StoreError> {
        self.inner.daily_of(player, day).await
    }
    async fn daily_board(
        &self,
        day: &str,
        variant: sagani_core::Variant,
    ) -> Result<Vec<DailyEntry>, StoreError> {
        self.inner.daily_board(day, variant).await
    }
    async fn daily_days(&self, player: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        self.inner.daily_days(player, limit).await
    }
}

#[async_trait]
impl Accounts for Intercepted {
    async fn sign_up(&self, p: &NewPlayer) -> Result<(), StoreError> {
        self.inner.sign_up(p).await
    }
    async fn name_like(&self, skeleton: &str) -> Result<bool, StoreError> {
        self.inner.name_like(skeleton).await
    }
    async fn fill_skeletons(&self) -> Result<Vec<String>, StoreError> {
        self.inner.fill_skeletons().await
    }
    async fn player_named(&self, key: &str) -> Result<Option<Player>, StoreError> {
        self.inner.player_named(key).await
    }
    async fn open_session(&self, token: &str, player: &str, now: i64) -> Result<(), StoreError> {
        self.inner.open_session(token, player, now).await
    }
    async fn session(&self, token: &str, since: i64) -> Result<Option<Player>, StoreError> {
        self.inner.session(token, since).await
    }
    async fn close_session(&self, token: &str) -> Result<(), StoreError> {
        self.inner.close_session(token).await
    }
    async fn close_sessions(&self, player: &str) -> Result<Vec<(String, u64)>, StoreError> {
        self.inner.close_sessions(player).await
    }
    async fn set_password(&self, player: &str, password: &str) -> Result<(), StoreError> {
        self.inner.set_password(player, password).await
    }
    async fn delete_player(&self, p: &str, now: i64) -> Result<Vec<(String, u64)>, StoreError> {
        self.inner.delete_player(p, now).await
    }
    async fn count_login(
        &self,
        s: &[String],
        now: i64,
        window_ms: i64,
    ) -> Result<Vec<LoginCount>, StoreError> {
        self.inner.count_login(s, now, window_ms).await
    }
    async fn uncount_login(&self, s: &[String]) -> Result<(), StoreError> {
        self.inner.uncount_login(s).await
    }
    async fn rating(&self, player: &str) -> Result<Option<Rating>, StoreError> {
        self.inner.rating(player).await
    }
    async fn rating_history(&self, p: &str, limit: u32) -> Result<Vec<RatingPoint>, StoreError> {
        self.inner.rating_history(p, limit).await
    }
    async fn games_of(&self, p: &str, limit: u32) -> Result<Vec<PlayedGame>, StoreError> {
        self.inner.games_of(p, limit).await
    }
    async fn results_of(&self, p: &str) -> Result<Vec<PlayedGame>, StoreError> {
        self.inner.results_of(p).await
    }
    async fn leaderboard(&self, limit: u32, min: u32) -> Result<Vec<Ranked>, StoreError> {
        self.inner.leaderboard(limit, min).await
    }
}

/// Notices pass through untouched.
#[async_trait]
impl Notices for Intercepted {
    async fn raise_notice(&self, n: &NewNotice) -> Result<(), StoreError> {
        self.inner.raise_notice(n).await
    }
    async fn notices(&self, player: &str, limit: u32) -> Result<Vec<Notice>, StoreError> {
        self.inner.notices(player, limit).await
    }
    async fn unread_notices(&self, player: &str) -> Result<u64, StoreError> {
        self.inner.unread_notices(player).await
    }
    async fn read_notices(
        &self,
        player: &str,
        upto_ms: i64,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        self.inner.read_notices(player, upto_ms, now_ms).await
    }
}

/// Seeks pass through untouched.
#[async_trait]
impl Seeks for Intercepted {
    async fn add_seek(&self, seek: &Seek) -> Result<(), StoreError> {
        self.inner.add_seek(seek).await
    }
    async fn seek(&self, id: &str) -> Result<Option<Seek>, StoreError> {
        self.inner.seek(id).await
    }
    async fn waiting_seeks(&self, limit: u32) -> Result<Vec<Seek>, StoreError> {
        self.inner.waiting_seeks(limit).await
    }
    async fn waiting_counts(&self) -> Result<Vec<(sagani_server::store::Pool, u32)>, StoreError> {
        self.inner.waiting_counts().await
    }
    async fn touch_seek(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        self.inner.touch_seek(id, now_ms).await
    }
    async fn cancel_seek(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        self.inner.cancel_seek(id, now_ms).await
    }
    async fn drop_unseen_seeks(
        &self,
        seen_before_ms: i64,
        now_ms: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.inner.drop_unseen_seeks(seen_before_ms, now_ms).await
    }
    async fn pair(&self, pairing: &Pairing) -> Result<Vec<(String, u64)>, StoreError> {
        self.inner.pair(pairing).await
    }
}

/// The games to watch and the spectator counts pass through untouched.
#[async_trait]
impl sagani_server::store::Live for Intercepted {
    async fn live_games(
        &self,
        limit: u32,
        fresh_since_ms: i64,
    ) -> Result<Vec<sagani_server::store::LiveGame>, StoreError> {
        self.inner.live_games(limit, fresh_since_ms).await
    }
    async fn put_spectators(
        &self,
        server: &str,
        counts: &[(String, u64)],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner.put_spectators(server, counts, now_ms).await
    }
    async fn refresh_spectators(
        &self,
        server: &str,
        counts: &[(String, u64)],
        now_ms: i64,
        forget_before_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner
            .refresh_spectators(server, counts, now_ms, forget_before_ms)
            .await
    }
    async fn spectators(&self, game: &str, fresh_since_ms: i64) -> Result<u64, StoreError> {
        self.inner.spectators(game, fresh_since_ms).await
    }
    async fn drop_spectators(&self, server: &str) -> Result<(), StoreError> {
        self.inner.drop_spectators(server).await
    }
}

/// Challenges and follows pass through untouched.
#[async_trait]
impl sagani_server::store::Challenges for Intercepted {
    async fn challenge(
        &self,
        c: &sagani_server::store::NewChallenge,
        notice: &NewNotice,
        max_open: u64,
    ) -> Result<(), StoreError> {
        self.inner.challenge(c, notice, max_open).await
    }
    async fn challenge_by_id(
        &self,
        id: &str,
    ) -> Result<sagani_server::store::Challenge, StoreError> {
        self.inner.challenge_by_id(id).await
    }
    async fn challenges_of(
        &self,
        player: &str,
        now_ms: i64,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<sagani_server::store::Challenge>, StoreError> {
        self.inner
            .challenges_of(player, now_ms, since_ms, limit)
            .await
    }
    async fn accept_challenge(
        &self,
        id: &str,
        player: &str,
        game: &SavedGame,
        after: Progress,
        now_ms: i64,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        self.inner
            .accept_challenge(id, player, game, after, now_ms)
            .await
    }
    async fn close_challenge(
        &self,
        id: &str,
        player: &str,
        how: sagani_server::store::Closing,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.inner.close_challenge(id, player, how, now_ms).await
    }
    async fn follow(&self, follower: &str, followed: &str, at_ms: i64) -> Result<(), StoreError> {
        self.inner.follow(follower, followed, at_ms).await
    }
    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        self.inner.unfollow(follower, followed).await
    }
    async fn follows(
        &self,
        follower: &str,
    ) -> Result<Vec<sagani_server::store::Followed>, StoreError> {
        self.inner.follows(follower).await
    }
    async fn is_following(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        self.inner.is_following(follower, followed).await
    }
    async fn followed_only(&self, player: &str) -> Result<bool, StoreError> {
        self.inner.followed_only(player).await
    }
    async fn set_followed_only(&self, player: &str, only: bool) -> Result<(), StoreError> {
        self.inner.set_followed_only(player, only).await
    }
    async fn seen(&self, player: &str, now_ms: i64, every_ms: i64) -> Result<bool, StoreError> {
        self.inner.seen(player, now_ms, every_ms).await
    }
}

/// Mail passes through untouched.
#[async_trait]
impl sagani_server::store::Mail for Intercepted {
    async fn mail_address(
        &self,
        player: &str,
    ) -> Result<Option<sagani_server::store::MailAddress>, StoreError> {
        self.inner.mail_address(player).await
    }
    async fn set_mail_address(
        &self,
        a: &sagani_server::store::NewAddress,
    ) -> Result<(), StoreError> {
        self.inner.set_mail_address(a).await
    }
    async fn remove_mail_address(&self, player: &str) -> Result<(), StoreError> {
        self.inner.remove_mail_address(player).await
    }
    async fn set_mail_choices(
        &self,
        player: &str,
        your_turn: bool,
        challenges: bool,
    ) -> Result<bool, StoreError> {
        self.inner
            .set_mail_choices(player, your_turn, challenges)
            .await
    }
    async fn verify_mail(&self, hash: &str, now_ms: i64) -> Result<Option<String>, StoreError> {
        self.inner.verify_mail(hash, now_ms).await
    }
    async fn due_mails(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        self.inner.due_mails(now_ms, limit).await
    }
    async fn claim_mail(
        &self,
        id: &str,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
        stop_hash: &str,
    ) -> Result<Option<sagani_server::store::DueMail>, StoreError> {
        self.inner
            .claim_mail(id, holder, now_ms, until_ms, stop_hash)
            .await
    }
    async fn mail_done(&self, id: &str, holder: &str, now_ms: i64) -> Result<(), StoreError> {
        self.inner.mail_done(id, holder, now_ms).await
    }
    async fn stop_mail(&self, hash: &str) -> Result<Option<String>, StoreError> {
        self.inner.stop_mail(hash).await
    }
}
