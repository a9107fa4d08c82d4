//! An account's notices: raised inside the write of the event they tell of, listed, marked read.

use super::super::db::{args, from_row, Commit, Conn, Database, Sql, Value};
use super::super::{NewNotice, Notice, NoticeKind, Notices, StoreError};
use super::SqlStore;
use async_trait::async_trait;
use std::collections::HashMap;

use Sql::{Both, Each};

pub(in crate::store) use super::raising::raise;

from_row! {
    struct NoticeRow {
        id: String,
        kind: String,
        game_id: Option<String>,
        about: Option<String>,
        at: i64,
        read_at: Option<i64>,
    }
}

async fn list(c: &mut dyn Conn, player: &str, limit: u32) -> Result<Vec<Notice>, StoreError> {
    let rows: Vec<NoticeRow> = c
        .rows(
            Both(
                "SELECT id, kind, game_id, about, at, read_at FROM notices
                 WHERE player_id = $1 ORDER BY at DESC, id LIMIT $2",
            ),
            args![player, limit],
        )
        .await?;
    let mut games: Vec<String> = rows.iter().filter_map(|r| r.game_id.clone()).collect();
    games.sort();
    games.dedup();
    let seated = others(c, player, games).await?;
    // A kind this server does not know (written by a newer one) is left out.
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            Some(Notice {
                kind: NoticeKind::parse(&r.kind)?,
                others: r
                    .game_id
                    .as_ref()
                    .and_then(|g| seated.get(g).cloned())
                    .unwrap_or_default(),
                id: r.id,
                game: r.game_id,
                about: r.about,
                at_ms: r.at,
                read: r.read_at.is_some(),
            })
        })
        .collect())
}

from_row! {
    struct SeatedRow {
        game_id: String,
        name: String,
    }
}

/// The names of the people seated at `games` other than `player`, in seat order.
async fn others(
    c: &mut dyn Conn,
    player: &str,
    games: Vec<String>,
) -> Result<HashMap<String, Vec<String>>, StoreError> {
    if games.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<SeatedRow> = c
        .rows(
            Each {
                sqlite: "SELECT game_id, name FROM seats
                         WHERE game_id IN (SELECT value FROM json_each($1)) AND name IS NOT NULL
                             AND kind = 'human' AND (player_id IS NULL OR player_id <> $2)
                         ORDER BY game_id, seat",
                postgres: "SELECT game_id, name FROM seats
                           WHERE game_id = ANY($1) AND name IS NOT NULL
                               AND kind = 'human' AND (player_id IS NULL OR player_id <> $2)
                           ORDER BY game_id, seat",
            },
            args![Value::List(games), player],
        )
        .await?;
    let mut by_game: HashMap<String, Vec<String>> = HashMap::new();
    for r in rows {
        by_game.entry(r.game_id).or_default().push(r.name);
    }
    Ok(by_game)
}

async fn unread(c: &mut dyn Conn, player: &str) -> Result<u64, StoreError> {
    Ok(c.value(
        Both("SELECT COUNT(*) FROM notices WHERE player_id = $1 AND read_at IS NULL"),
        args![player],
    )
    .await?
    .unwrap_or(0))
}

async fn mark_read(
    c: &mut dyn Conn,
    player: &str,
    upto_ms: i64,
    now_ms: i64,
) -> Result<u64, StoreError> {
    Ok(c.execute(
        Both(
            "UPDATE notices SET read_at = $3
             WHERE player_id = $1 AND at <= $2 AND read_at IS NULL",
        ),
        args![player, upto_ms, now_ms],
    )
    .await?)
}

#[async_trait]
impl<D: Database> Notices for SqlStore<D> {
    async fn raise_notice(&self, n: &NewNotice) -> Result<(), StoreError> {
        let n = n.clone();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { raise(c, &n).await })
        })
        .await
    }

    async fn notices(&self, player: &str, limit: u32) -> Result<Vec<Notice>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { list(c, &player, limit).await }))
            .await
    }

    async fn unread_notices(&self, player: &str) -> Result<u64, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { unread(c, &player).await }))
            .await
    }

    async fn read_notices(
        &self,
        player: &str,
        upto_ms: i64,
        now_ms: i64,
    ) -> Result<u64, StoreError> {
        let player = player.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { mark_read(c, &player, upto_ms, now_ms).await })
        })
        .await
    }
}
