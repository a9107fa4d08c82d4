//! The store's logic, written once over `db::Conn`: every method of the store contract as the
//! statements it runs, on SQLite and PostgreSQL alike.

mod accounts;
mod challenges;
mod daily;
mod end;
mod games;
mod guard;
mod live;
mod mail;
pub(in crate::store) mod notices;
mod raising;
mod rows;
mod seats;
mod seeks;
mod turns;

use super::db::{Commit, Conn, Database};
use super::{
    Accounts, BotTurn, Catchup, Change, ChatLine, ChatWrite, ClaimWrite, Counts, Daily, DailyEntry,
    IdleSweep, LeaveWrite, LoginCount, MoveWrite, NewPlayer, PlayedGame, Player, Progress, Ranked,
    Rating, RatingPoint, SavedGame, Store, StoreError, Summary, Value,
};
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use sagani_core::Variant;
use std::collections::HashMap;
use tokio::sync::broadcast;

pub(super) use games::load;

/// The store on a database `D` (`SqliteStore`, `PostgresStore`).
pub struct SqlStore<D: Database> {
    pub(super) db: D,
}

impl<D: Database> SqlStore<D> {
    async fn read<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static,
    {
        self.db.read(Box::new(work)).await
    }

    async fn write<T, F>(&self, commit: Commit, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static,
    {
        self.db.write(commit, Box::new(work)).await
    }
}

#[async_trait]
impl<D: Database> Store for SqlStore<D> {
    async fn create(
        &self,
        game: &SavedGame,
        after: Progress,
        max_open: Option<u64>,
        rematch_of: Option<(&str, u64)>,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let game = game.clone();
        let rematch_of = rematch_of.map(|(g, rev)| (g.to_string(), rev));
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { games::create(c, &game, after, max_open, rematch_of).await })
        })
        .await
    }

    async fn game(&self, id: &str) -> Result<SavedGame, StoreError> {
        let id = id.to_string();
        self.read(move |c| Box::pin(async move { games::load(c, &id).await }))
            .await
    }

    async fn rev(&self, id: &str) -> Result<u64, StoreError> {
        let id = id.to_string();
        self.read(move |c| Box::pin(async move { games::rev(c, &id).await }))
            .await
    }

    async fn since(&self, id: &str, from: u64) -> Result<Catchup, StoreError> {
        let id = id.to_string();
        self.read(move |c| Box::pin(async move { games::since(c, &id, from).await }))
            .await
    }

    async fn append_move(&self, w: &MoveWrite) -> Result<u64, StoreError> {
        let w = w.clone();
        // The last move stores the game's end (and ratings) with it: a transaction. Any other
        // move is one statement on PostgreSQL, unless it raises notices (a turn-based game's
        // turn passed to an account): they are stored with it.
        let commit = if w.end.is_some() || !w.notices.is_empty() {
            Commit::Atomic
        } else {
            Commit::Single
        };
        self.write(commit, move |c| {
            Box::pin(async move { turns::append_move(c, &w).await })
        })
        .await
    }

    async fn claim(&self, w: &ClaimWrite) -> Result<Vec<(String, u64)>, StoreError> {
        let w = w.clone();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { seats::claim(c, &w).await })
        })
        .await
    }

    async fn lobby(&self, limit: u32) -> Result<Vec<Summary>, StoreError> {
        self.read(move |c| Box::pin(async move { games::lobby(c, limit).await }))
            .await
    }

    async fn counts(&self) -> Result<Counts, StoreError> {
        self.read(|c| Box::pin(async move { games::counts(c).await }))
            .await
    }

    async fn bot_turns(&self, now_ms: i64, limit: u32) -> Result<Vec<BotTurn>, StoreError> {
        self.read(move |c| Box::pin(async move { turns::bot_turns(c, now_ms, limit).await }))
            .await
    }

    async fn lease(
        &self,
        game: &str,
        version: u64,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let (game, holder) = (game.to_string(), holder.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(
                async move { turns::lease(c, &game, version, &holder, now_ms, until_ms).await },
            )
        })
        .await
    }

    async fn release(&self, game: &str, holder: &str) -> Result<(), StoreError> {
        let (game, holder) = (game.to_string(), holder.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(async move { turns::release(c, &game, &holder).await })
        })
        .await
    }

    async fn leave(&self, w: &LeaveWrite) -> Result<u64, StoreError> {
        let w = w.clone();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { seats::leave(c, &w).await })
        })
        .await
    }

    async fn due_clocks(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        self.read(move |c| Box::pin(async move { turns::due_clocks(c, now_ms, limit).await }))
            .await
    }

    async fn repair(&self, game: &str, n: u64, after: Progress) -> Result<bool, StoreError> {
        let game = game.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { turns::repair(c, &game, n, after).await })
        })
        .await
    }

    async fn end_idle(&self, sweep: IdleSweep) -> Result<Vec<(String, u64)>, StoreError> {
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { turns::end_idle(c, sweep).await })
        })
        .await
    }

    async fn cancel(&self, game: &str, token_hash: &str, at_ms: i64) -> Result<u64, StoreError> {
        let (game, token_hash) = (game.to_string(), token_hash.to_string());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { seats::cancel(c, &game, &token_hash, at_ms).await })
        })
        .await
    }

    async fn post_chat(&self, w: &ChatWrite) -> Result<(u64, u64), StoreError> {
        let w = w.clone();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { games::post_chat(c, &w).await })
        })
        .await
    }

    async fn chat(&self, game: &str, from: u64, limit: u32) -> Result<Vec<ChatLine>, StoreError> {
        let game = game.to_string();
        self.read(move |c| Box::pin(async move { games::chat(c, &game, from, limit).await }))
            .await
    }

    async fn ping(&self) -> Result<(), StoreError> {
        self.read(|c| Box::pin(async move { games::ping(c).await }))
            .await
    }

    async fn game_ids(&self, after: Option<&str>, limit: u32) -> Result<Vec<String>, StoreError> {
        let after = after.unwrap_or("").to_string();
        self.read(move |c| Box::pin(async move { games::ids(c, &after, limit).await }))
            .await
    }

    async fn import(&self, game: &SavedGame, after: Progress) -> Result<(), StoreError> {
        let game = game.clone();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { games::insert(c, &game, after, &game.moves).await })
        })
        .await
    }

    async fn move_counts(&self, games: &[String]) -> Result<HashMap<String, u64>, StoreError> {
        let games = games.to_vec();
        self.read(move |c| Box::pin(async move { games::move_counts(c, games).await }))
            .await
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        self.db.changes()
    }

    fn exclusive(&self) -> bool {
        self.db.exclusive()
    }

    async fn tables(&self) -> Result<Vec<String>, StoreError> {
        self.read(|c| Box::pin(async move { rows::tables(c).await }))
            .await
    }

    async fn columns(&self, table: &str) -> Result<Vec<String>, StoreError> {
        let table = table.to_string();
        self.read(move |c| Box::pin(async move { rows::columns(c, &table).await }))
            .await
    }

    async fn row_count(&self, table: &str) -> Result<u64, StoreError> {
        let table = table.to_string();
        self.read(move |c| Box::pin(async move { rows::count(c, &table).await }))
            .await
    }

    async fn rows(
        &self,
        table: &str,
        columns: &[String],
        key: &[&str],
        after: Option<&[Value]>,
        limit: u32,
    ) -> Result<Vec<Vec<Value>>, StoreError> {
        let (table, columns) = (table.to_string(), columns.to_vec());
        let key: Vec<String> = key.iter().map(|k| k.to_string()).collect();
        let after = after.map(<[Value]>::to_vec);
        self.read(move |c| {
            Box::pin(async move {
                let key: Vec<&str> = key.iter().map(String::as_str).collect();
                rows::page(c, &table, &columns, &key, after.as_deref(), limit).await
            })
        })
        .await
    }

    async fn put_rows(
        &self,
        table: &str,
        columns: &[String],
        rows: &[Vec<Value>],
    ) -> Result<(), StoreError> {
        let (table, columns, page) = (table.to_string(), columns.to_vec(), rows.to_vec());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { rows::put(c, &table, &columns, &page).await })
        })
        .await
    }
}

#[async_trait]
impl<D: Database> Daily for SqlStore<D> {
    async fn server_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        let (name, fresh) = (name.to_string(), fresh.to_string());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { daily::server_secret(c, &name, &fresh).await })
        })
        .await
    }

    async fn daily_of(&self, player: &str, day: &str) -> Result<Vec<DailyEntry>, StoreError> {
        let (player, day) = (player.to_string(), day.to_string());
        self.read(move |c| Box::pin(async move { daily::of(c, &player, &day).await }))
            .await
    }

    async fn daily_board(
        &self,
        day: &str,
        variant: Variant,
    ) -> Result<Vec<DailyEntry>, StoreError> {
        let day = day.to_string();
        self.read(move |c| Box::pin(async move { daily::board(c, &day, variant).await }))
            .await
    }

    async fn daily_days(&self, player: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { daily::days(c, &player, limit).await }))
            .await
    }
}

#[async_trait]
impl<D: Database> Accounts for SqlStore<D> {
    async fn sign_up(&self, p: &NewPlayer) -> Result<(), StoreError> {
        let p = p.clone();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { accounts::sign_up(c, &p).await })
        })
        .await
    }

    async fn name_like(&self, skeleton: &str) -> Result<bool, StoreError> {
        let skeleton = skeleton.to_string();
        self.read(move |c| Box::pin(async move { accounts::name_like(c, &skeleton).await }))
            .await
    }

    async fn fill_skeletons(&self) -> Result<Vec<String>, StoreError> {
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { accounts::fill_skeletons(c).await })
        })
        .await
    }

    async fn player_named(&self, key: &str) -> Result<Option<Player>, StoreError> {
        let key = key.to_string();
        self.read(move |c| Box::pin(async move { accounts::named(c, &key).await }))
            .await
    }

    async fn open_session(
        &self,
        token_hash: &str,
        player: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let (token_hash, player) = (token_hash.to_string(), player.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(async move { accounts::open_session(c, &token_hash, &player, now).await })
        })
        .await
    }

    async fn session(&self, token_hash: &str, since: i64) -> Result<Option<Player>, StoreError> {
        let token_hash = token_hash.to_string();
        self.read(move |c| Box::pin(async move { accounts::session(c, &token_hash, since).await }))
            .await
    }

    async fn close_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let token_hash = token_hash.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { accounts::close_session(c, &token_hash).await })
        })
        .await
    }

    async fn close_sessions(&self, player: &str) -> Result<Vec<(String, u64)>, StoreError> {
        let player = player.to_string();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { accounts::close_sessions(c, &player).await })
        })
        .await
    }

    async fn set_password(&self, player: &str, password: &str) -> Result<(), StoreError> {
        let (player, password) = (player.to_string(), password.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(async move { accounts::set_password(c, &player, &password).await })
        })
        .await
    }

    async fn delete_player(
        &self,
        player: &str,
        now: i64,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let player = player.to_string();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { accounts::delete(c, &player, now).await })
        })
        .await
    }

    async fn count_login(
        &self,
        subjects: &[String],
        now: i64,
        window_ms: i64,
    ) -> Result<Vec<LoginCount>, StoreError> {
        let subjects = subjects.to_vec();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { accounts::count_login(c, &subjects, now, window_ms).await })
        })
        .await
    }

    async fn uncount_login(&self, subjects: &[String]) -> Result<(), StoreError> {
        let subjects = subjects.to_vec();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { accounts::uncount_login(c, &subjects).await })
        })
        .await
    }

    async fn rating(&self, player: &str) -> Result<Option<Rating>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { accounts::rating(c, &player).await }))
            .await
    }

    async fn rating_history(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            Box::pin(async move { accounts::rating_history(c, &player, limit).await })
        })
        .await
    }

    async fn games_of(&self, player: &str, limit: u32) -> Result<Vec<PlayedGame>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { accounts::games_of(c, &player, limit).await }))
            .await
    }

    async fn results_of(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { accounts::results_of(c, &player).await }))
            .await
    }

    async fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Ranked>, StoreError> {
        self.read(move |c| {
            Box::pin(async move { accounts::leaderboard(c, limit, min_games).await })
        })
        .await
    }
}
