//! The games to watch: games in progress between people, strongest first, with the spectators
//! every server counted; and each server's own count, written and stamped.

use super::super::db::{args, from_row, Commit, Conn, Database, Sql, Value};
use super::super::{Live, LiveGame, Rating, StoreError};
use super::{seats, SqlStore};
use crate::time_control::TimeControl;
use async_trait::async_trait;
use sagani_core::Variant;
use std::collections::HashMap;

use Sql::{Both, Each};

from_row! {
    struct LiveRow {
        id: String,
        variant: String,
        version: u64,
        rated: bool,
        clock: Option<String>,
        started_at: Option<i64>,
        created_at: i64,
    }
}

async fn live_games(
    c: &mut dyn Conn,
    limit: u32,
    fresh_since_ms: i64,
) -> Result<Vec<LiveGame>, StoreError> {
    // A guest, and an account before its first rated game, count as a new account does.
    let newcomer = crate::rating::initial();
    let newcomer = newcomer.mu - 3.0 * newcomer.sigma;
    // The seats joined are people's seats, claimed and not left; a game needs two of them.
    let rows: Vec<LiveRow> = c
        .rows(
            Both(
                "SELECT g.id, g.variant, g.version, g.rated, g.clock, g.started_at, g.created_at,
                        AVG(COALESCE(r.mu - 3 * r.sigma, $2)) AS strength
                 FROM games g
                 JOIN seats s ON s.game_id = g.id AND s.kind = 'human'
                      AND s.token_hash IS NOT NULL AND s.left_reason IS NULL
                 LEFT JOIN ratings r ON r.player_id = s.player_id AND r.games > 0
                 WHERE g.status = 'playing' AND (g.public OR g.rated) AND NOT g.practice
                   AND NOT EXISTS (SELECT 1 FROM daily_games d WHERE d.game_id = g.id)
                 GROUP BY g.id
                 HAVING COUNT(*) >= 2
                 ORDER BY strength DESC, COALESCE(g.started_at, g.created_at * 1000) DESC, g.id
                 LIMIT $1",
            ),
            args![limit, newcomer],
        )
        .await?;
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut seats = seats::of_games(c, &ids).await?;
    let players: Vec<String> = seats
        .values()
        .flatten()
        .flatten()
        .filter_map(|s| match s {
            super::super::SavedSeat::Human { player, .. } => player.clone(),
            super::super::SavedSeat::Bot { .. } => None,
        })
        .collect();
    let ratings = ratings_of(c, players).await?;
    let mut watching = spectators_of(c, ids, fresh_since_ms).await?;
    let mut games = Vec::new();
    for r in rows {
        // A damaged game stays out of the list rather than emptying it.
        let (Some(variant), Some(Ok(seats)), Ok(clock)) = (
            Variant::parse(&r.variant),
            seats.remove(&r.id),
            TimeControl::from_stored(r.clock.as_deref()),
        ) else {
            tracing::warn!("game {} is damaged; left out of the games to watch", r.id);
            continue;
        };
        let ratings = seats
            .iter()
            .filter_map(|s| match s {
                super::super::SavedSeat::Human {
                    player: Some(p), ..
                } => Some((p.clone(), *ratings.get(p)?)),
                _ => None,
            })
            .collect();
        games.push(LiveGame {
            spectators: watching.remove(&r.id).unwrap_or(0),
            id: r.id,
            variant,
            version: r.version,
            rated: r.rated,
            clock,
            started_ms: r.started_at,
            created_at: r.created_at,
            seats,
            ratings,
        });
    }
    Ok(games)
}

/// The ratings of those of `players` who played a rated game.
async fn ratings_of(
    c: &mut dyn Conn,
    players: Vec<String>,
) -> Result<HashMap<String, Rating>, StoreError> {
    from_row! {
        struct RatingRow {
            player_id: String,
            mu: f64,
            sigma: f64,
            games: u32,
        }
    }
    if players.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<RatingRow> = c
        .rows(
            Each {
                sqlite: "SELECT player_id, mu, sigma, games FROM ratings
                         WHERE player_id IN (SELECT value FROM json_each($1)) AND games > 0",
                postgres: "SELECT player_id, mu, sigma, games FROM ratings
                           WHERE player_id = ANY($1) AND games > 0",
            },
            &[Value::List(players)],
        )
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let rating = Rating {
                mu: r.mu,
                sigma: r.sigma,
                games: r.games,
            };
            (r.player_id, rating)
        })
        .collect())
}

from_row! {
    struct Watching {
        game_id: String,
        watching: u64,
    }
}

/// The spectators of `games`, added up over the fresh counts; a game nobody watches is left out.
async fn spectators_of(
    c: &mut dyn Conn,
    games: Vec<String>,
    fresh_since_ms: i64,
) -> Result<HashMap<String, u64>, StoreError> {
    if games.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<Watching> = c
        .rows(
            Each {
                sqlite: "SELECT game_id, CAST(SUM(watching) AS BIGINT) AS watching FROM spectators
                         WHERE game_id IN (SELECT value FROM json_each($1)) AND updated_at >= $2
                         GROUP BY game_id",
                postgres: "SELECT game_id, CAST(SUM(watching) AS BIGINT) AS watching
                           FROM spectators WHERE game_id = ANY($1) AND updated_at >= $2
                           GROUP BY game_id",
            },
            &[Value::List(games), Value::from(fresh_since_ms)],
        )
        .await?;
    Ok(rows.into_iter().map(|r| (r.game_id, r.watching)).collect())
}

/// Writes `server`'s counts for these games, in the caller's transaction.
async fn put(
    c: &mut dyn Conn,
    server: &str,
    counts: &[(String, u64)],
    now_ms: i64,
) -> Result<(), StoreError> {
    for (game, n) in counts {
        if *n == 0 {
            c.execute(
                Both("DELETE FROM spectators WHERE server = $1 AND game_id = $2"),
                args![server, game],
            )
            .await?;
        } else {
            c.execute(
                Both(
                    "INSERT INTO spectators (server, game_id, watching, updated_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (server, game_id)
                     DO UPDATE SET watching = excluded.watching, updated_at = excluded.updated_at",
                ),
                args![server, game, *n, now_ms],
            )
            .await?;
        }
    }
    Ok(())
}

#[async_trait]
impl<D: Database> Live for SqlStore<D> {
    async fn live_games(
        &self,
        limit: u32,
        fresh_since_ms: i64,
    ) -> Result<Vec<LiveGame>, StoreError> {
        self.read(move |c| Box::pin(async move { live_games(c, limit, fresh_since_ms).await }))
            .await
    }

    async fn put_spectators(
        &self,
        server: &str,
        counts: &[(String, u64)],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (server, counts) = (server.to_string(), counts.to_vec());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { put(c, &server, &counts, now_ms).await })
        })
        .await
    }

    async fn refresh_spectators(
        &self,
        server: &str,
        counts: &[(String, u64)],
        now_ms: i64,
        forget_before_ms: i64,
    ) -> Result<(), StoreError> {
        let (server, counts) = (server.to_string(), counts.to_vec());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move {
                c.execute(
                    Both("DELETE FROM spectators WHERE server = $1 OR updated_at < $2"),
                    args![&server, forget_before_ms],
                )
                .await?;
                put(c, &server, &counts, now_ms).await
            })
        })
        .await
    }

    async fn spectators(&self, game: &str, fresh_since_ms: i64) -> Result<u64, StoreError> {
        let game = game.to_string();
        self.read(move |c| {
            Box::pin(async move {
                let counts = spectators_of(c, vec![game.clone()], fresh_since_ms).await?;
                Ok(counts.get(&game).copied().unwrap_or(0))
            })
        })
        .await
    }

    async fn drop_spectators(&self, server: &str) -> Result<(), StoreError> {
        let server = server.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move {
                c.execute(
                    Both("DELETE FROM spectators WHERE server = $1"),
                    args![&server],
                )
                .await?;
                Ok(())
            })
        })
        .await
    }
}
