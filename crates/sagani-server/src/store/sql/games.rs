//! A game's rows: written whole, read back, listed; and its chat.

use super::super::db::{args, from_row, Conn, DbError, Sql, Value};
use super::super::replay;
use super::super::{
    Catchup, ChatLine, ChatText, ChatWrite, Conflict, Counts, DailyTag, Ended, Progress,
    RatingStep, SavedGame, SavedMove, SavedSeat, SoloResult, Status, StoreError, Summary,
};
use super::guard::damaged_in;
use super::seats;
use crate::time_control::TimeControl;
use sagani_core::Variant;
use std::collections::HashMap;

use Sql::{Both, Each};

/// When a person last acted in a stored game, in milliseconds: its last move, else when its
/// clocks started, else its creation.
fn active_at(game: &SavedGame, moves: &[SavedMove]) -> i64 {
    moves
        .iter()
        .map(|m| m.at_ms)
        .chain(game.started_ms)
        .max()
        .filter(|&at| at > 0)
        .unwrap_or(game.created_at * 1000)
}

/// Stores a game with `moves` (none for a new game, all of them for an import).
pub(in super::super) async fn insert(
    c: &mut dyn Conn,
    g: &SavedGame,
    after: Progress,
    moves: &[SavedMove],
) -> Result<(), StoreError> {
    let deck = serde_json::to_string(&g.deck).map_err(StoreError::unavailable)?;
    c.execute(
        Both(
            "INSERT INTO games (id, created_at, variant, deck, start_player, public, creator,
                                version, status, bot_to_act, rev, rematch, host, rated, clock,
                                started_at, deadline, active_at, ended, chats, practice)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                     $18, $19, $20, $21)",
        ),
        args![
            &g.id,
            g.created_at,
            g.variant.name(),
            deck,
            g.start_player,
            g.public,
            &g.creator,
            moves.len() as u64,
            replay::status(after.over, &g.seats).name(),
            after.bot_to_act,
            g.rev,
            &g.rematch,
            &g.host,
            g.rated,
            g.clock.stored(),
            g.started_ms,
            after.deadline_ms,
            active_at(g, moves),
            g.ended.map(Ended::name),
            g.chats,
            g.practice,
        ],
    )
    .await?;
    seats::insert(c, &g.id, &g.seats).await?;
    if let Some(d) = &g.daily {
        let r = d.result;
        let inserted = c
            .execute(
                Both(
                    "INSERT INTO daily_games (game_id, day, variant, player_id, par, tiles, score,
                                              reached, finished_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                ),
                args![
                    &g.id,
                    &d.day,
                    g.variant.name(),
                    g.seats.first().and_then(SavedSeat::player),
                    d.par,
                    r.map(|r| r.tiles),
                    r.map(|r| r.score),
                    r.map(|r| r.reached),
                    r.map(|r| r.at_ms)
                ],
            )
            .await;
        match inserted {
            Ok(_) => {}
            // One attempt per account, day and variant (and one par game).
            Err(DbError::Constraint(_)) => return Err(StoreError::Conflict(Conflict::Played)),
            Err(e) => return Err(e.into()),
        }
    }
    if !moves.is_empty() {
        // All moves in one statement: a JSON array of [n, seat, move, at].
        let rows: Vec<serde_json::Value> = moves
            .iter()
            .enumerate()
            .map(|(n, m)| {
                let at = (m.at_ms != 0).then_some(m.at_ms);
                serde_json::to_string(&m.mv).map(|mv| serde_json::json!([n, m.seat, mv, at]))
            })
            .collect::<Result<_, _>>()
            .map_err(StoreError::unavailable)?;
        let rows = serde_json::Value::Array(rows).to_string();
        c.execute(
            Each {
                sqlite: "INSERT INTO moves (game_id, n, seat, move, at)
                         SELECT $1, value ->> 0, value ->> 1, value ->> 2, value ->> 3
                         FROM json_each($2)",
                postgres: "INSERT INTO moves (game_id, n, seat, move, at)
                           SELECT $1, (m ->> 0)::bigint, (m ->> 1)::smallint, m ->> 2,
                                  (m ->> 3)::bigint
                           FROM json_array_elements($2::text::json) AS m",
            },
            args![&g.id, rows],
        )
        .await?;
    }
    Ok(())
}

from_row! {
    struct GameRow {
        created_at: i64,
        variant: String,
        deck: String,
        start_player: u8,
        public: bool,
        creator: String,
        rev: u64,
        rematch: Option<String>,
        host: Option<String>,
        rated: bool,
        practice: bool,
        clock: Option<String>,
        started_at: Option<i64>,
        ended: Option<String>,
        chats: i64,
    }
}

/// A game's time control and why it ended, read back.
fn timing(
    game: &str,
    clock: Option<&str>,
    ended: Option<&str>,
) -> Result<(TimeControl, Option<Ended>), StoreError> {
    let clock = TimeControl::from_stored(clock).map_err(|e| StoreError::damaged(game, e))?;
    let ended = match ended {
        None => None,
        Some(e) => {
            Some(Ended::parse(e).ok_or_else(|| StoreError::damaged(game, format!("ended {e:?}")))?)
        }
    };
    Ok((clock, ended))
}

/// One game with its seats and moves.
pub(in super::super) async fn load(c: &mut dyn Conn, id: &str) -> Result<SavedGame, StoreError> {
    let row: GameRow = c
        .row(
            Both(
                "SELECT created_at, variant, deck, start_player, public, creator, rev, rematch,
                        host, rated, practice, clock, started_at, ended, chats
                 FROM games WHERE id = $1",
            ),
            args![id],
        )
        .await
        .map_err(damaged_in(id))?
        .ok_or(StoreError::NotFound)?;
    let deck = serde_json::from_str(&row.deck)
        .map_err(|e| StoreError::damaged(id, format!("deck: {e}")))?;
    let variant = Variant::parse(&row.variant)
        .ok_or_else(|| StoreError::damaged(id, format!("unknown variant {:?}", row.variant)))?;
    let moves = moves_from(c, id, 0).await?;
    let (clock, ended) = timing(id, row.clock.as_deref(), row.ended.as_deref())?;
    let daily = daily_tag(c, id).await?;
    Ok(SavedGame {
        id: id.to_string(),
        created_at: row.created_at,
        variant,
        deck,
        start_player: row.start_player,
        public: row.public,
        creator: row.creator,
        host: row.host,
        rated: row.rated,
        practice: row.practice,
        seats: seats::of_game(c, id).await?,
        moves,
        rev: row.rev,
        rematch: row.rematch,
        clock,
        started_ms: row.started_at,
        ended,
        chats: row.chats.max(0) as u64,
        daily,
        ratings: if row.rated {
            rating_steps(c, id).await?
        } else {
            Vec::new()
        },
    })
}

/// Each seat's rating before and after rated game `id`: its entry in the rating history for
/// this game, and the player's entry before it (a newcomer's rating when there is none).
async fn rating_steps(c: &mut dyn Conn, id: &str) -> Result<Vec<RatingStep>, StoreError> {
    from_row! {
        struct StepRow {
            seat: u8,
            mu: f64,
            sigma: f64,
            before_mu: Option<f64>,
            before_sigma: Option<f64>,
        }
    }
    let rows: Vec<StepRow> = c
        .rows(
            Both(
                "SELECT s.seat, h.mu, h.sigma,
                        (SELECT p.mu FROM rating_history p
                         WHERE p.player_id = h.player_id
                           AND (p.at < h.at OR (p.at = h.at AND p.game_id < h.game_id))
                         ORDER BY p.at DESC, p.game_id DESC LIMIT 1) AS before_mu,
                        (SELECT p.sigma FROM rating_history p
                         WHERE p.player_id = h.player_id
                           AND (p.at < h.at OR (p.at = h.at AND p.game_id < h.game_id))
                         ORDER BY p.at DESC, p.game_id DESC LIMIT 1) AS before_sigma
                 FROM seats s JOIN rating_history h
                   ON h.game_id = s.game_id AND h.player_id = s.player_id
                 WHERE s.game_id = $1 ORDER BY s.seat",
            ),
            args![id],
        )
        .await
        .map_err(damaged_in(id))?;
    let first = crate::rating::initial();
    Ok(rows
        .into_iter()
        .map(|r| RatingStep {
            seat: r.seat,
            before: match (r.before_mu, r.before_sigma) {
                (Some(mu), Some(sigma)) => (mu, sigma),
                _ => (first.mu, first.sigma),
            },
            after: (r.mu, r.sigma),
        })
        .collect())
}

from_row! {
    struct MoveRow {
        n: i64,
        seat: u8,
        text: String,
        at: Option<i64>,
    }
}

/// The moves of a game from number `from` on, which must be numbered `from`, `from + 1`, ….
async fn moves_from(c: &mut dyn Conn, id: &str, from: u64) -> Result<Vec<SavedMove>, StoreError> {
    let rows: Vec<MoveRow> = c
        .rows(
            Both(
                "SELECT n, seat, move AS text, at FROM moves WHERE game_id = $1 AND n >= $2
                 ORDER BY n",
            ),
            args![id, from],
        )
        .await
        .map_err(damaged_in(id))?;
    let mut moves = Vec::with_capacity(rows.len());
    for r in rows {
        if r.n as u64 != from + moves.len() as u64 {
            return Err(StoreError::damaged(
                id,
                format!("move {} out of order", r.n),
            ));
        }
        let mv = serde_json::from_str(&r.text)
            .map_err(|e| StoreError::damaged(id, format!("move {}: {e}", r.n)))?;
        moves.push(SavedMove {
            seat: r.seat,
            mv,
            at_ms: r.at.unwrap_or(0),
        });
    }
    Ok(moves)
}

from_row! {
    /// A daily game's result columns: all set once it is over by its rules.
    pub(super) struct ResultRow {
        pub(super) tiles: Option<u8>,
        pub(super) score: Option<i64>,
        pub(super) reached: Option<bool>,
        pub(super) finished_at: Option<i64>,
    }
}

impl ResultRow {
    pub(super) fn result(&self) -> Option<SoloResult> {
        Some(SoloResult {
            tiles: self.tiles?,
            score: self.score?,
            reached: self.reached?,
            at_ms: self.finished_at?,
        })
    }
}

from_row! {
    struct TagRow {
        day: String,
        par: bool,
        tiles: Option<u8>,
        score: Option<i64>,
        reached: Option<bool>,
        finished_at: Option<i64>,
    }
}

/// The game's place in the daily challenge, if it has one.
async fn daily_tag(c: &mut dyn Conn, id: &str) -> Result<Option<DailyTag>, StoreError> {
    let row: Option<TagRow> = c
        .row(
            Both(
                "SELECT day, par, tiles, score, reached, finished_at FROM daily_games
                 WHERE game_id = $1",
            ),
            args![id],
        )
        .await
        .map_err(damaged_in(id))?;
    Ok(row.map(|r| DailyTag {
        result: ResultRow {
            tiles: r.tiles,
            score: r.score,
            reached: r.reached,
            finished_at: r.finished_at,
        }
        .result(),
        day: r.day,
        par: r.par,
    }))
}

pub(super) async fn rev(c: &mut dyn Conn, id: &str) -> Result<u64, StoreError> {
    c.value(Both("SELECT rev FROM games WHERE id = $1"), args![id])
        .await?
        .ok_or(StoreError::NotFound)
}

pub(super) async fn since(c: &mut dyn Conn, id: &str, from: u64) -> Result<Catchup, StoreError> {
    from_row! {
        struct SinceRow {
            rev: u64,
            rematch: Option<String>,
            clock: Option<String>,
            started_at: Option<i64>,
            ended: Option<String>,
            chats: i64,
        }
    }
    let row: SinceRow = c
        .row(
            Both("SELECT rev, rematch, clock, started_at, ended, chats FROM games WHERE id = $1"),
            args![id],
        )
        .await
        .map_err(damaged_in(id))?
        .ok_or(StoreError::NotFound)?;
    let moves = moves_from(c, id, from).await?;
    let (_, ended) = timing(id, row.clock.as_deref(), row.ended.as_deref())?;
    Ok(Catchup {
        rev: row.rev,
        seats: seats::of_game(c, id).await?,
        rematch: row.rematch,
        started_ms: row.started_at,
        ended,
        chats: row.chats.max(0) as u64,
        moves,
    })
}

/// Stores a new game (`Store::create`).
pub(super) async fn create(
    c: &mut dyn Conn,
    game: &SavedGame,
    after: Progress,
    max_open: Option<u64>,
    rematch_of: Option<(String, u64)>,
) -> Result<Vec<(String, u64)>, StoreError> {
    if let Some(max) = max_open {
        // One creation at a time per creator, across servers, so the count holds (SQLite
        // writes one at a time anyway).
        if c.dialect() == super::super::db::Dialect::Postgres {
            c.execute(
                Both("SELECT pg_advisory_xact_lock(hashtext($1))"),
                args![&game.creator],
            )
            .await?;
        }
        let open: u64 = c
            .value(
                Both("SELECT COUNT(*) AS open FROM games WHERE creator = $1 AND status <> 'over'"),
                args![&game.creator],
            )
            .await?
            .unwrap_or(0);
        if open >= max {
            return Err(StoreError::Conflict(Conflict::TooManyGames { open }));
        }
    }
    let mut changed = vec![(game.id.clone(), game.rev)];
    if let Some((old, seen)) = rematch_of {
        // The old game first, as it was read: its seats are the ones to copy (a re-claim waits
        // for this, or this sees it and refuses).
        let rev: Option<u64> = c
            .value(
                Both(
                    "UPDATE games SET rematch = $2, rev = rev + 1 WHERE id = $1 AND rev = $3
                     RETURNING rev",
                ),
                args![&old, &game.id, seen],
            )
            .await?;
        let Some(rev) = rev else {
            return Err(missing_or(c, &old, Conflict::Changed).await);
        };
        changed.push((old, rev));
    }
    insert(c, game, after, &[]).await?;
    for (g, rev) in &changed {
        c.changed(g, *rev).await?;
    }
    Ok(changed)
}

/// Why a conditional write changed nothing: the game is missing, else `otherwise`.
pub(super) async fn missing_or(c: &mut dyn Conn, game: &str, otherwise: Conflict) -> StoreError {
    match c
        .value::<i64>(
            Both("SELECT 1 AS one FROM games WHERE id = $1"),
            args![game],
        )
        .await
    {
        Ok(Some(_)) => StoreError::Conflict(otherwise),
        Ok(None) => StoreError::NotFound,
        Err(e) => e.into(),
    }
}

pub(super) async fn lobby(c: &mut dyn Conn, limit: u32) -> Result<Vec<Summary>, StoreError> {
    from_row! {
        struct LobbyRow {
            id: String,
            created_at: i64,
            variant: String,
            version: u64,
            status: String,
            host: Option<String>,
            rated: bool,
            clock: Option<String>,
        }
    }
    let rows: Vec<LobbyRow> = c
        .rows(
            Both(
                "SELECT id, created_at, variant, version, status, host, rated, clock FROM games
                 WHERE public AND status <> 'over'
                 ORDER BY created_at DESC, id DESC LIMIT $1",
            ),
            args![limit],
        )
        .await?;
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut seats = seats::of_games(c, &ids).await?;
    let mut games = Vec::new();
    for r in rows {
        // A damaged game stays out of the lobby rather than emptying it.
        let (Some(variant), Some(status), Some(Ok(seats)), Ok(clock)) = (
            Variant::parse(&r.variant),
            Status::parse(&r.status),
            seats.remove(&r.id),
            TimeControl::from_stored(r.clock.as_deref()),
        ) else {
            tracing::warn!("game {} is damaged; left out of the lobby", r.id);
            continue;
        };
        games.push(Summary {
            id: r.id,
            created_at: r.created_at,
            host: r.host,
            rated: r.rated,
            variant,
            version: r.version,
            status,
            seats,
            clock,
        });
    }
    Ok(games)
}

pub(super) async fn counts(c: &mut dyn Conn) -> Result<Counts, StoreError> {
    from_row! {
        struct CountRow {
            games: u64,
            open: u64,
        }
    }
    let row: CountRow = c
        .row(
            Both(
                "SELECT COUNT(*) AS games, COUNT(*) FILTER (WHERE status <> 'over') AS open
                 FROM games",
            ),
            args![],
        )
        .await?
        .unwrap_or(CountRow { games: 0, open: 0 });
    Ok(Counts {
        games: row.games,
        open: row.open,
    })
}

/// Stores a chat line (`Store::post_chat`).
pub(super) async fn post_chat(c: &mut dyn Conn, w: &ChatWrite) -> Result<(u64, u64), StoreError> {
    from_row! {
        struct Counted {
            n: u64,
            rev: u64,
        }
    }
    let row: Option<Counted> = c
        .row(
            Both(
                "UPDATE games SET chats = chats + 1, rev = rev + 1
                 WHERE id = $1 AND chats < $2 RETURNING chats - 1 AS n, rev",
            ),
            args![&w.game, w.max_lines],
        )
        .await?;
    let Some(Counted { n, rev }) = row else {
        return Err(missing_or(c, &w.game, Conflict::Changed).await);
    };
    // Counted after the game's row is locked by the update above: a line another server is
    // storing for this game is committed (and counted) or waits for this one.
    for rate in &w.rates {
        let Some(skip) = rate.lines.checked_sub(1) else {
            return Err(StoreError::Conflict(Conflict::TooFast {
                wait_ms: rate.window_ms.max(1) as u64,
            }));
        };
        // The oldest line that keeps the window full, if it is.
        let full: Option<i64> = c
            .value(
                Both(
                    "SELECT at FROM chat WHERE game_id = $1 AND seat = $2 AND at > $3
                     ORDER BY at DESC LIMIT 1 OFFSET $4",
                ),
                args![&w.game, w.seat, w.at_ms - rate.window_ms, skip],
            )
            .await?;
        if let Some(at) = full {
            // The transaction is rolled back: the count above is undone.
            return Err(StoreError::Conflict(Conflict::TooFast {
                wait_ms: (at + rate.window_ms - w.at_ms).max(1) as u64,
            }));
        }
    }
    let (text, phrase) = match &w.line {
        ChatText::Text(t) => (Some(t), None),
        ChatText::Phrase(p) => (None, Some(p)),
    };
    c.execute(
        Both(
            "INSERT INTO chat (game_id, n, at, seat, name, text, phrase)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        ),
        args![&w.game, n, w.at_ms, w.seat, &w.name, text, phrase],
    )
    .await?;
    c.changed(&w.game, rev).await?;
    Ok((n, rev))
}

pub(super) async fn chat(
    c: &mut dyn Conn,
    game: &str,
    from: u64,
    limit: u32,
) -> Result<Vec<ChatLine>, StoreError> {
    from_row! {
        struct LineRow {
            n: u64,
            at: i64,
            seat: u8,
            name: Option<String>,
            text: Option<String>,
            phrase: Option<String>,
        }
    }
    let rows: Vec<LineRow> = c
        .rows(
            Both(
                "SELECT n, at, seat, name, text, phrase FROM chat
                 WHERE game_id = $1 AND n >= $2 ORDER BY n LIMIT $3",
            ),
            args![game, from, limit],
        )
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| ChatLine {
            n: r.n,
            at_ms: r.at,
            seat: r.seat,
            name: r.name,
            line: match r.phrase {
                Some(p) => ChatText::Phrase(p),
                None => ChatText::Text(r.text.unwrap_or_default()),
            },
        })
        .collect())
}

pub(super) async fn ping(c: &mut dyn Conn) -> Result<(), StoreError> {
    c.value::<i64>(Both("SELECT 1 AS one"), args![]).await?;
    Ok(())
}

pub(super) async fn ids(
    c: &mut dyn Conn,
    after: &str,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Both("SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT $2"),
        args![after, limit],
    )
    .await?)
}

pub(super) async fn move_counts(
    c: &mut dyn Conn,
    games: Vec<String>,
) -> Result<HashMap<String, u64>, StoreError> {
    from_row! {
        struct CountRow {
            game_id: String,
            moves: u64,
        }
    }
    let rows: Vec<CountRow> = c
        .rows(
            Each {
                sqlite: "SELECT game_id, COUNT(*) AS moves FROM moves
                         WHERE game_id IN (SELECT value FROM json_each($1)) GROUP BY game_id",
                postgres: "SELECT game_id, COUNT(*) AS moves FROM moves WHERE game_id = ANY($1)
                           GROUP BY game_id",
            },
            &[Value::List(games.clone())],
        )
        .await?;
    let mut counts: HashMap<String, u64> = games.into_iter().map(|g| (g, 0)).collect();
    counts.extend(rows.into_iter().map(|r| (r.game_id, r.moves)));
    Ok(counts)
}
