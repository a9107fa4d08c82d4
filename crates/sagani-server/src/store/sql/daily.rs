//! The daily challenge: the server's secrets, and the daily games the leaderboards and streaks
//! are read from.

use super::super::db::{args, from_row, Conn, Sql, Value};
use super::super::{DailyEntry, StoreError};
use super::games::ResultRow;
use sagani_core::Variant;

use Sql::Both;

/// The server's secret `name`: the one stored, or else `fresh`, stored now. Whichever server
/// inserts first wins; the others read its secret.
pub(super) async fn server_secret(
    c: &mut dyn Conn,
    name: &str,
    fresh: &str,
) -> Result<String, StoreError> {
    c.execute(
        Both(
            "INSERT INTO server_secrets (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO NOTHING",
        ),
        args![name, fresh],
    )
    .await?;
    c.value(
        Both("SELECT value FROM server_secrets WHERE name = $1"),
        args![name],
    )
    .await?
    .ok_or_else(|| StoreError::unavailable_because(format!("the secret {name} was not stored")))
}

/// A daily game with its account (`daily_games d` with `players p`).
macro_rules! entries_from {
    () => {
        "SELECT d.game_id, d.day, d.variant, d.player_id,
                CASE WHEN p.deleted_at IS NULL THEN p.name END AS name, d.par, d.tiles, d.score,
                d.reached, d.finished_at
         FROM daily_games d LEFT JOIN players p ON p.id = d.player_id"
    };
}

from_row! {
    struct EntryRow {
        game_id: String,
        day: String,
        variant: String,
        player_id: Option<String>,
        name: Option<String>,
        par: bool,
        tiles: Option<u8>,
        score: Option<i64>,
        reached: Option<bool>,
        finished_at: Option<i64>,
    }
}

/// Daily games; a row whose variant cannot be read is left out.
async fn entries(
    c: &mut dyn Conn,
    sql: Sql,
    args: &[Value],
) -> Result<Vec<DailyEntry>, StoreError> {
    let rows: Vec<EntryRow> = c.rows(sql, args).await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let result = ResultRow {
                tiles: r.tiles,
                score: r.score,
                reached: r.reached,
                finished_at: r.finished_at,
            }
            .result();
            Some(DailyEntry {
                variant: Variant::parse(&r.variant)?,
                game: r.game_id,
                day: r.day,
                player: r.player_id,
                name: r.name,
                par: r.par,
                result,
            })
        })
        .collect())
}

pub(super) async fn of(
    c: &mut dyn Conn,
    player: &str,
    day: &str,
) -> Result<Vec<DailyEntry>, StoreError> {
    const SQL: &str = concat!(
        entries_from!(),
        " WHERE d.player_id = $1 AND d.day = $2 ORDER BY d.variant"
    );
    entries(c, Both(SQL), args![player, day]).await
}

pub(super) async fn board(
    c: &mut dyn Conn,
    day: &str,
    variant: Variant,
) -> Result<Vec<DailyEntry>, StoreError> {
    const SQL: &str = concat!(
        entries_from!(),
        " WHERE d.day = $1 AND d.variant = $2
              AND (d.par OR (d.player_id IS NOT NULL AND d.finished_at IS NOT NULL))"
    );
    entries(c, Both(SQL), args![day, variant.name()]).await
}

pub(super) async fn days(
    c: &mut dyn Conn,
    player: &str,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Both(
            "SELECT DISTINCT day FROM daily_games
                 WHERE player_id = $1 AND finished_at IS NOT NULL
                 ORDER BY day DESC LIMIT $2",
        ),
        args![player, limit],
    )
    .await?)
}
