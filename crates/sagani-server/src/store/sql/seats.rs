//! A game's seats: their rows, and the writes that change who holds one (a claim, a bot taking
//! a person's seat over, a creator cancelling).

use super::super::db::{args, from_row, Conn, Sql, Value};
use super::super::{
    ClaimWrite, Conflict, Ended, LeaveWrite, Left, LeftReason, SavedSeat, StoreError,
};
use super::guard::{damaged_in, lock_game};
use std::collections::HashMap;

use Sql::{Both, Each};

from_row! {
    /// A seat's row.
    #[derive(Clone, Debug, Default)]
    pub(super) struct SeatRow {
        pub game_id: String,
        pub seat: i64,
        pub kind: String,
        pub bot: Option<String>,
        pub level: Option<u8>,
        /// None once spent.
        pub invite_hash: Option<String>,
        pub token_hash: Option<String>,
        pub name: Option<String>,
        pub player_id: Option<String>,
        pub left_reason: Option<String>,
        pub left_version: Option<i64>,
        pub left_at: Option<i64>,
        pub left_bot: Option<String>,
        pub left_level: Option<u8>,
    }
}

/// The columns of a `SeatRow`.
macro_rules! seat_columns {
    () => {
        "game_id, seat, kind, bot, level, invite_hash, token_hash, name, player_id, left_reason,
         left_version, left_at, left_bot, left_level"
    };
}

impl SeatRow {
    fn of(game: &str, seat: usize, s: &SavedSeat) -> SeatRow {
        let base = SeatRow {
            game_id: game.to_string(),
            seat: seat as i64,
            ..SeatRow::default()
        };
        match s {
            SavedSeat::Human {
                invite_hash,
                token_hash,
                name,
                player,
                left,
            } => SeatRow {
                kind: "human".into(),
                invite_hash: (!invite_hash.is_empty()).then(|| invite_hash.clone()),
                token_hash: token_hash.clone(),
                name: name.clone(),
                player_id: player.clone(),
                left_reason: left.as_ref().map(|l| l.reason.name().to_string()),
                left_version: left.as_ref().map(|l| l.version as i64),
                left_at: left.as_ref().map(|l| l.at_ms),
                left_bot: left.as_ref().map(|l| l.bot.clone()),
                left_level: left.as_ref().map(|l| l.level),
                ..base
            },
            SavedSeat::Bot { bot, level } => SeatRow {
                kind: "bot".into(),
                bot: Some(bot.clone()),
                level: Some(*level),
                ..base
            },
        }
    }

    fn seat(self) -> Result<SavedSeat, StoreError> {
        let game = self.game_id;
        match self.kind.as_str() {
            "human" => Ok(SavedSeat::Human {
                invite_hash: self.invite_hash.unwrap_or_default(),
                token_hash: self.token_hash,
                name: self.name,
                player: self.player_id,
                left: match self.left_reason.as_deref() {
                    None => None,
                    Some(r) => Some(Left {
                        reason: LeftReason::parse(r)
                            .ok_or_else(|| StoreError::damaged(&game, format!("left for {r:?}")))?,
                        version: self.left_version.unwrap_or(0) as u64,
                        at_ms: self.left_at.unwrap_or(0),
                        bot: self.left_bot.unwrap_or_else(|| "greedy".into()),
                        level: self.left_level.unwrap_or(1),
                    }),
                },
            }),
            "bot" => Ok(SavedSeat::Bot {
                bot: self.bot.unwrap_or_default(),
                level: self.level.unwrap_or(1),
            }),
            other => Err(StoreError::damaged(&game, format!("seat kind {other:?}"))),
        }
    }
}

/// Stores the seats of a new game.
pub(super) async fn insert(
    c: &mut dyn Conn,
    game: &str,
    seats: &[SavedSeat],
) -> Result<(), StoreError> {
    for (i, seat) in seats.iter().enumerate() {
        let r = SeatRow::of(game, i, seat);
        c.execute(
            Both(
                "INSERT INTO seats (game_id, seat, kind, bot, level, invite_hash, token_hash, name,
                                    player_id, left_reason, left_version, left_at, left_bot,
                                    left_level)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            ),
            args![
                r.game_id,
                r.seat,
                r.kind,
                r.bot,
                r.level,
                r.invite_hash,
                r.token_hash,
                r.name,
                r.player_id,
                r.left_reason,
                r.left_version,
                r.left_at,
                r.left_bot,
                r.left_level
            ],
        )
        .await?;
    }
    Ok(())
}

/// The seats of one game, in order.
pub(super) async fn of_game(c: &mut dyn Conn, game: &str) -> Result<Vec<SavedSeat>, StoreError> {
    const SQL: &str = concat!(
        "SELECT ",
        seat_columns!(),
        " FROM seats WHERE game_id = $1 ORDER BY seat"
    );
    let rows: Vec<SeatRow> = c
        .rows(Both(SQL), args![game])
        .await
        .map_err(damaged_in(game))?;
    in_order(game, rows)
}

/// Seats of `games`, in seat order per game; a game whose seats cannot be read has its own
/// error (the others are fine).
pub(super) async fn of_games(
    c: &mut dyn Conn,
    games: &[String],
) -> Result<HashMap<String, Result<Vec<SavedSeat>, StoreError>>, StoreError> {
    const SQLITE: &str = concat!(
        "SELECT ",
        seat_columns!(),
        " FROM seats WHERE game_id IN (SELECT value FROM json_each($1)) ORDER BY game_id, seat"
    );
    const POSTGRES: &str = concat!(
        "SELECT ",
        seat_columns!(),
        " FROM seats WHERE game_id = ANY($1) ORDER BY game_id, seat"
    );
    let sql = Each {
        sqlite: SQLITE,
        postgres: POSTGRES,
    };
    let rows: Vec<SeatRow> = c.rows(sql, &[Value::List(games.to_vec())]).await?;
    let mut by_game: HashMap<String, Vec<SeatRow>> = HashMap::new();
    for r in rows {
        by_game.entry(r.game_id.clone()).or_default().push(r);
    }
    Ok(by_game
        .into_iter()
        .map(|(game, rows)| {
            let seats = in_order(&game, rows);
            (game, seats)
        })
        .collect())
}

fn in_order(game: &str, rows: Vec<SeatRow>) -> Result<Vec<SavedSeat>, StoreError> {
    let mut seats = Vec::with_capacity(rows.len());
    for r in rows {
        if r.seat as usize != seats.len() {
            return Err(StoreError::damaged(
                game,
                format!("seat {} out of order", r.seat),
            ));
        }
        seats.push(r.seat()?);
    }
    Ok(seats)
}

/// Claims a seat (`Store::claim`). The games' rows are locked first, in id order (the game and
/// those its old token was copied to: its rematches), so claims see each other's seats and two
/// re-claims cannot each wait for the other.
pub(super) async fn claim(
    c: &mut dyn Conn,
    w: &ClaimWrite,
) -> Result<Vec<(String, u64)>, StoreError> {
    let mut locked = vec![w.game.clone()];
    if let Some(old) = &w.seen {
        locked.extend(
            c.column::<String>(
                Both("SELECT DISTINCT game_id FROM seats WHERE token_hash = $1"),
                args![old],
            )
            .await?,
        );
    }
    let found: Vec<String> = c
        .column(
            Each {
                sqlite: "SELECT id FROM games WHERE id IN (SELECT value FROM json_each($1))",
                postgres: "SELECT id FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE",
            },
            &[Value::List(locked)],
        )
        .await?;
    if !found.contains(&w.game) {
        return Err(StoreError::NotFound);
    }
    let n = c
        .execute(
            Both(
                "UPDATE seats SET token_hash = $3,
                     invite_hash = CASE WHEN $5 THEN NULL ELSE invite_hash END,
                     name = $6, player_id = $7
                 WHERE game_id = $1 AND seat = $2 AND kind = 'human'
                     AND token_hash IS NOT DISTINCT FROM CAST($4 AS TEXT)",
            ),
            args![
                &w.game,
                w.seat,
                &w.token_hash,
                &w.seen,
                w.by_number,
                &w.name,
                &w.player
            ],
        )
        .await?;
    if n != 1 {
        return Err(StoreError::Conflict(Conflict::SeatTaken));
    }
    let mut games = vec![w.game.clone()];
    if let Some(old) = &w.seen {
        // The replaced token is revoked wherever it was copied (the game's rematches).
        games.extend(
            c.column::<String>(
                Both(
                    "UPDATE seats SET token_hash = $2, name = $3, player_id = $4
                     WHERE token_hash = $1 RETURNING game_id",
                ),
                args![old, &w.token_hash, &w.name, &w.player],
            )
            .await?,
        );
    }
    let mut changed = Vec::new();
    for g in games {
        let rev: u64 = c
            .value(
                Both(
                    "UPDATE games SET rev = rev + 1, status = CASE
                         WHEN status = 'over' THEN 'over'
                         WHEN EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND kind = 'human'
                                      AND token_hash IS NULL) THEN 'waiting'
                         ELSE 'playing' END
                     WHERE id = $1 RETURNING rev",
                ),
                args![&g],
            )
            .await?
            .ok_or(StoreError::NotFound)?;
        c.changed(&g, rev).await?;
        changed.push((g, rev));
    }
    // The last seat claimed starts the clocks (once).
    c.execute(
        Both(
            "UPDATE games SET started_at = $2, active_at = $2, deadline = $3
             WHERE id = $1 AND status = 'playing' AND started_at IS NULL",
        ),
        args![&w.game, w.at_ms, w.deadline_if_started],
    )
    .await?;
    Ok(changed)
}

/// A bot takes over a person's seat (`Store::leave`). The game's row is locked first, so every
/// check after it sees what the writes before it committed (two servers cannot both take the
/// seat over).
pub(super) async fn leave(c: &mut dyn Conn, w: &LeaveWrite) -> Result<u64, StoreError> {
    let (version, status) = lock_game(c, &w.game).await?.ok_or(StoreError::NotFound)?;
    if version != w.n {
        return Err(StoreError::Conflict(Conflict::StaleVersion {
            current: version,
        }));
    }
    if status == "over" {
        return Err(StoreError::Conflict(Conflict::Changed));
    }
    let taken = c
        .execute(
            Both(
                "UPDATE seats SET left_reason = $3, left_version = $4, left_at = $5,
                     left_bot = $6, left_level = $7
                 WHERE game_id = $1 AND seat = $2 AND kind = 'human' AND left_reason IS NULL",
            ),
            args![
                &w.game,
                w.seat,
                w.left.reason.name(),
                w.n,
                w.left.at_ms,
                &w.left.bot,
                w.left.level
            ],
        )
        .await?;
    if taken != 1 {
        return Err(StoreError::Conflict(Conflict::Changed));
    }
    let rev: u64 = c
        .value(
            Both(
                "UPDATE games SET rev = rev + 1, bot_to_act = $2, deadline = $3,
                     status = CASE WHEN CAST($4 AS TEXT) IS NOT NULL THEN 'over' ELSE status END,
                     ended = $4,
                     ended_at = CASE WHEN CAST($4 AS TEXT) IS NOT NULL
                                THEN CAST($5 AS BIGINT) / 1000 END
                 WHERE id = $1 RETURNING rev",
            ),
            args![
                &w.game,
                w.after.bot_to_act,
                w.after.deadline_ms,
                w.ended.map(Ended::name),
                w.left.at_ms
            ],
        )
        .await?
        .ok_or(StoreError::NotFound)?;
    c.changed(&w.game, rev).await?;
    Ok(rev)
}

/// Cancels a game by its creator (`Store::cancel`). Locked first, so a claim committed
/// meanwhile is seen (claims lock it too).
pub(super) async fn cancel(
    c: &mut dyn Conn,
    game: &str,
    token_hash: &str,
    at_ms: i64,
) -> Result<u64, StoreError> {
    let (_, status) = lock_game(c, game).await?.ok_or(StoreError::NotFound)?;
    let claimed: Vec<String> = c
        .column(
            Both(
                "SELECT token_hash FROM seats WHERE game_id = $1 AND kind = 'human'
                     AND token_hash IS NOT NULL",
            ),
            args![game],
        )
        .await?;
    if !claimed.iter().any(|t| t == token_hash) {
        return Err(StoreError::Conflict(Conflict::NotYourSeat));
    }
    if status == "over" || claimed.iter().any(|t| t != token_hash) {
        return Err(StoreError::Conflict(Conflict::Changed));
    }
    let rev: u64 = c
        .value(
            Both(
                "UPDATE games SET rev = rev + 1, status = 'over', bot_to_act = FALSE,
                     deadline = NULL, ended = 'cancelled', ended_at = CAST($2 AS BIGINT) / 1000
                 WHERE id = $1 RETURNING rev",
            ),
            args![game, at_ms],
        )
        .await?
        .ok_or(StoreError::NotFound)?;
    c.changed(game, rev).await?;
    Ok(rev)
}

/// Revokes the tokens of every seat an account holds (its sessions end): each token becomes a
/// value no token hashes to, so no device plays on with it, while the seat stays the account's
/// for a new session to claim again. The stand-in keeps the old token's start behind a random
/// prefix, so copies of one token (in rematches) stay copies of one another. The account's
/// games are locked first, in the order claims lock them, and their `rev` moves on so that
/// other servers and open sockets see the change; they are returned at their new `rev`.
pub(super) async fn revoke_tokens(
    c: &mut dyn Conn,
    player: &str,
) -> Result<Vec<(String, u64)>, StoreError> {
    c.column::<String>(
        Each {
            sqlite: "SELECT id FROM games WHERE id IN
                         (SELECT game_id FROM seats WHERE player_id = $1)",
            postgres: "SELECT id FROM games WHERE id IN
                           (SELECT game_id FROM seats WHERE player_id = $1)
                       ORDER BY id FOR UPDATE",
        },
        args![player],
    )
    .await?;
    c.execute(
        Both(
            "UPDATE seats SET token_hash = CAST($2 AS TEXT) || substr(token_hash, 1, 64)
             WHERE player_id = $1 AND token_hash IS NOT NULL",
        ),
        args![player, crate::secret::random_hex(16)],
    )
    .await?;
    from_row! {
        struct Bumped {
            id: String,
            rev: u64,
        }
    }
    let bumped: Vec<Bumped> = c
        .rows(
            Both(
                "UPDATE games SET rev = rev + 1 WHERE id IN
                     (SELECT game_id FROM seats WHERE player_id = $1)
                 RETURNING id, rev",
            ),
            args![player],
        )
        .await?;
    let mut changed = Vec::with_capacity(bumped.len());
    for b in bumped {
        c.changed(&b.id, b.rev).await?;
        changed.push((b.id, b.rev));
    }
    Ok(changed)
}
