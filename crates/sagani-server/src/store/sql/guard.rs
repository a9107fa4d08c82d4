//! A game's row as the writes guard it: locked for the transaction, a refusal explained, a
//! damaged row named.

use super::super::db::{args, from_row, Conn, DbError, Sql};
use super::super::{Conflict, StoreError};

use Sql::{Both, Each};

/// Maps a failed read of game `id`: a column that cannot be read means the game is damaged.
pub(super) fn damaged_in(id: &str) -> impl Fn(DbError) -> StoreError + '_ {
    move |e| match e {
        DbError::Column { .. } => StoreError::damaged(id, e),
        e => e.into(),
    }
}

/// Locks the game's row for the rest of the transaction (PostgreSQL; SQLite writes one at a
/// time): its version and status, or `None` if there is no such game.
pub(super) async fn lock_game(
    c: &mut dyn Conn,
    id: &str,
) -> Result<Option<(u64, String)>, StoreError> {
    from_row! {
        struct Locked {
            version: u64,
            status: String,
        }
    }
    let row: Option<Locked> = c
        .row(
            Each {
                sqlite: "SELECT version, status FROM games WHERE id = $1",
                postgres: "SELECT version, status FROM games WHERE id = $1 FOR UPDATE",
            },
            args![id],
        )
        .await?;
    Ok(row.map(|r| (r.version, r.status)))
}

/// Why a write that changed nothing was refused: the game is missing, at another version, or
/// else `otherwise`.
pub(super) async fn refusal(
    c: &mut dyn Conn,
    game: &str,
    n: u64,
    otherwise: Conflict,
) -> Result<StoreError, StoreError> {
    let version: Option<u64> = c
        .value(Both("SELECT version FROM games WHERE id = $1"), args![game])
        .await?;
    Ok(match version {
        None => StoreError::NotFound,
        Some(v) if v != n => StoreError::Conflict(Conflict::StaleVersion { current: v }),
        Some(_) => StoreError::Conflict(otherwise),
    })
}
