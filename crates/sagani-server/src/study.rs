//! Looking back at a game: every position of it for the replay page
//! (`GET /api/games/{id}/replay`, `POST /api/replay` for a record file) and the engine's
//! analysis of a position (`POST /api/analysis`). Thin handlers over `App`; who may see what is
//! `app::history`'s.

use crate::app::history::{self, History};
use crate::app::App;
use crate::asker::viewer;
use crate::client_addr::ClientAddr;
use crate::error::{ApiError, Body, ErrorBody};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use sagani_core::record::Record;
use sagani_protocol::error::RefusalDetail;
use std::sync::Arc;

pub use sagani_protocol::study::{
    AnalysisAnswer, AnalysisRequest, RatedMove, ReplayAnswer, ReplayRequest,
};

/// A record sent in a request, read and replayed whole.
pub(crate) fn read_record(value: &serde_json::Value) -> Result<Record, ApiError> {
    let (record, _) = sagani_core::record::replay_json(&value.to_string()).map_err(|e| {
        // The engine's English fault stays the message; the detail lets a client word it.
        let detail = match &e {
            sagani_core::record::RecordError::Header(_) => RefusalDetail::RecordUnreadable,
            sagani_core::record::RecordError::Move { index, .. } => RefusalDetail::RecordMove {
                index: u32::try_from(*index).unwrap_or(u32::MAX),
            },
        };
        ApiError::refused_as(detail, e.to_string().replace('\n', " "))
    })?;
    Ok(record)
}

/// The engine's best moves at a position of a game, from what the seat to act could see then
/// (never the draw pile's order). For a finished game, a record, or a practice game's own
/// player while it is played; the search keeps to the server's budget and waits its turn
/// among the bots.
#[utoipa::path(post, path = "/api/analysis", request_body = AnalysisRequest,
    security((), ("seat_token" = [])),
    responses((status = 200, body = AnalysisAnswer),
              (status = 400, body = ErrorBody, description = "neither or both of `game` and `record`, a bad record, `at` past the end, or a position where nobody acts (`bad_request`)"),
              (status = 404, body = ErrorBody, description = "no such game (`not_found`)"),
              (status = 403, body = ErrorBody, description = "the game is in progress (`history_hidden`)"),
              (status = 429, body = ErrorBody, description = "too many analyses from this address (`rate_limited`)")))]
pub async fn analysis(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(req): Body<AnalysisRequest>,
) -> Result<Json<AnalysisAnswer>, ApiError> {
    app.limiters.check_analysis(&addr)?;
    let record = match (&req.game, &req.record) {
        (Some(id), None) => {
            let viewer = viewer(&app, &headers, req.token.as_deref()).await?;
            let (_, st) = app.fresh(id, None).await?;
            history::check(&st, &viewer, History::Analysis, app.now_ms())?;
            st.game.record().clone()
        }
        (None, Some(record)) => read_record(record)?,
        _ => {
            return Err(ApiError::bad_request(
                "give either `game` (a game's id) or `record` (a game record), not both",
            ))
        }
    };
    let at = req.at.unwrap_or(record.moves.len() as u64);
    let game = crate::app::analysis::position(&record, at)?;
    let a = app.analyse(game, at, &addr).await?;
    Ok(Json(AnalysisAnswer {
        at: a.at,
        seat: a.seat,
        decision: a.decision.name().to_string(),
        moves: a
            .moves
            .into_iter()
            .map(|m| RatedMove {
                mv: m.mv,
                value: m.value,
                visits: m.visits,
                effect: m.effect,
                reason: m.reason,
            })
            .collect(),
        budget_ms: a.budget_ms,
        iterations: a.iterations,
    }))
}

/// The replay of `record`, with what else is known of its game.
fn replay_of(
    record: &Record,
    game: Option<String>,
    seats: Option<Vec<crate::api::SeatInfo>>,
    names: Vec<Option<String>>,
    ended: Option<String>,
) -> Result<ReplayAnswer, ApiError> {
    let p =
        crate::positions::positions(record).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(ReplayAnswer {
        game,
        players: record.players,
        variant: record.variant,
        start_player: record.start_player,
        names,
        positions: p.views,
        moves: p.moves,
        scores: p.scores,
        standings: p.outcome.as_ref().map_or_else(Vec::new, |o| {
            crate::table::standings(o, |seat| {
                seats
                    .as_ref()
                    .and_then(|s| s.get(seat as usize))
                    .is_some_and(|s| s.replaced.is_some())
            })
        }),
        seats,
        outcome: p.outcome,
        ended,
    })
}

/// Every position of a finished game, each move with its effect, and every seat's score after
/// each move: what the replay page shows. The draw pile's order is in none of it.
#[utoipa::path(get, path = "/api/games/{id}/replay",
    params(("id" = String, Path, description = "game id")),
    security((), ("seat_token" = [])),
    responses((status = 200, body = ReplayAnswer),
              (status = 403, body = ErrorBody, description = "someone else's daily game before its day is over (`history_hidden`)"),
              (status = 409, body = ErrorBody, description = "the game is in progress (`game_in_progress`)")))]
pub async fn replay(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ReplayAnswer>, ApiError> {
    let viewer = viewer(&app, &headers, None).await?;
    let (table, st) = app.fresh(&id, None).await?;
    history::check(&st, &viewer, History::Replay, app.now_ms())?;
    let record = st.game.record().clone();
    let (seats, names, ended) = (
        st.seat_infos(),
        crate::table::record_names(&st.seats),
        st.ended.map(|e| e.name().to_string()),
    );
    drop(st);
    Ok(Json(replay_of(
        &record,
        Some(table.id.clone()),
        Some(seats),
        names,
        ended,
    )?))
}

/// The replay of a record file (RECORD.md) someone has: its positions as `GET
/// /api/games/{id}/replay` gives them. A record that does not replay is refused with the first
/// fault (`move N: …`).
#[utoipa::path(post, path = "/api/replay", request_body = ReplayRequest,
    responses((status = 200, body = ReplayAnswer),
              (status = 400, body = ErrorBody, description = "a record that cannot be read or replayed, with the first fault (`bad_request`)")))]
pub async fn replay_record(Body(req): Body<ReplayRequest>) -> Result<Json<ReplayAnswer>, ApiError> {
    let record = read_record(&req.record)?;
    let players = record.players as usize;
    // The record's own names, where it has them in the shape RECORD.md gives.
    let names = match req.record.get("names").and_then(|n| n.as_array()) {
        Some(list) if list.len() == players => list
            .iter()
            .map(|n| n.as_str().map(|s| s.chars().take(40).collect()))
            .collect(),
        _ => vec![None; players],
    };
    let ended = req
        .record
        .get("ended")
        .and_then(|e| e.as_str())
        .and_then(crate::store::Ended::parse)
        .map(|e| e.name().to_string());
    Ok(Json(replay_of(&record, None, None, names, ended)?))
}
