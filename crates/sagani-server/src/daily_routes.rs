//! The daily challenge's routes: today's challenge, starting it, a day's leaderboard, and a
//! daily game's result with par and the leaderboard around it.

use crate::accounts::{claimer, current};
use crate::app::{store_refusal, App};
use crate::asker::history_visible;
use crate::client_addr::ClientAddr;
use crate::daily::{hidden, place_among, ranked, streak, Day, VARIANTS};
use crate::error::{ApiError, Body, ErrorBody};
use crate::store::{DailyEntry, SoloResult};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use sagani_core::Variant;
use sagani_protocol::DailyVariantName;
use serde::Deserialize;
use std::sync::Arc;

pub use sagani_protocol::daily::{
    Attempt, Board, BoardEntry, Card, DailyStarted, ParInfo, ResultInfo, StartDaily, Today,
    VariantToday,
};

/// Entries of a day's leaderboard at most, and those shown with a daily game's result.
const BOARD: usize = 100;
const NEAR: usize = 10;
/// Days of a streak counted at most.
const STREAK_DAYS: u32 = 400;
/// Tiles at most for a symphony (docs/RULES.md, "Solo game").
const SYMPHONY: u8 = 25;

fn info(variant: Variant, r: &SoloResult) -> ResultInfo {
    ResultInfo {
        tiles: r.tiles,
        score: r.score,
        reached: r.reached,
        symphony: variant == Variant::Solo && r.reached && r.tiles <= SYMPHONY,
    }
}

/// `GET /api/daily/{variant}/leaderboard?day=`.
#[derive(Deserialize, Debug)]
pub struct BoardQuery {
    pub day: Option<String>,
}

fn variant_of(name: &str) -> Result<Variant, ApiError> {
    VARIANTS
        .into_iter()
        .find(|v| v.name() == name)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown daily variant {name:?}: it is solo or solo-all"
            ))
        })
}

/// The account's streak on `today`.
async fn streak_of(app: &App, player: &str, today: Day) -> Result<u32, ApiError> {
    let days = app
        .store
        .daily_days(player, STREAK_DAYS)
        .await
        .map_err(store_refusal)?;
    let days: Vec<Day> = days.iter().filter_map(|d| Day::parse(d)).collect();
    Ok(streak(&days, today))
}

/// A day's board: the ranked attempts in order, and its par entry.
async fn board_of(
    app: &App,
    day: Day,
    variant: Variant,
) -> Result<(Vec<(u32, DailyEntry, SoloResult)>, Option<DailyEntry>), ApiError> {
    let all = app
        .store
        .daily_board(&day.to_string(), variant)
        .await
        .map_err(store_refusal)?;
    let par = all.iter().find(|e| e.par).cloned();
    // A deleted account leaves the board.
    let people = all.into_iter().filter(|e| e.name.is_some()).collect();
    Ok((ranked(variant, people), par))
}

fn entry(variant: Variant, (rank, e, r): &(u32, DailyEntry, SoloResult), over: bool) -> BoardEntry {
    BoardEntry {
        rank: *rank,
        name: e.name.clone().unwrap_or_default(),
        result: info(variant, r),
        url: over.then(|| format!("/games/{}", e.game)),
    }
}

fn par_info(variant: Variant, par: Option<&DailyEntry>, over: bool) -> Option<ParInfo> {
    let par = par?;
    Some(ParInfo {
        bot: crate::daily::PAR_BOT.into(),
        result: info(variant, par.result.as_ref()?),
        url: over.then(|| format!("/games/{}", par.game)),
    })
}

/// Today's challenge: the day, its two variants and how to start each, and the logged-in
/// account's attempts and streak.
#[utoipa::path(get, path = "/api/daily",
    responses((status = 200, body = Today),
              (status = 429, body = ErrorBody, description = "too many look-ups from this address (`rate_limited`)")))]
pub async fn today(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<Today>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let day = app.today();
    let who = current(&app, &headers).await?.map(|(p, _)| p);
    let mine = match &who {
        Some(p) => app
            .store
            .daily_of(&p.id, &day.to_string())
            .await
            .map_err(store_refusal)?,
        None => Vec::new(),
    };
    let mut variants = Vec::new();
    for variant in VARIANTS {
        let (board, _) = board_of(&app, day, variant).await?;
        let attempt = mine
            .iter()
            .find(|e| e.variant == variant && !e.par)
            .map(|e| Attempt {
                url: format!("/games/{}", e.game),
                result: e.result.as_ref().map(|r| info(variant, r)),
                rank: board
                    .iter()
                    .find(|(_, b, _)| b.game == e.game)
                    .map(|(rank, _, _)| *rank),
                game: e.game.clone(),
            });
        variants.push(VariantToday {
            variant,
            start: format!("/api/daily/{variant}/start"),
            leaderboard: format!("/api/daily/{variant}/leaderboard?day={day}"),
            players: board.len() as u32,
            attempt,
        });
    }
    let streak = match &who {
        Some(p) => Some(streak_of(&app, &p.id, day).await?),
        None => None,
    };
    Ok(Json(Today {
        day: day.to_string(),
        ends_at_ms: day.end_ms(),
        now_ms: app.now_ms(),
        variants,
        account: who.map(|p| p.name),
        streak,
    }))
}

/// Starts today's challenge in a variant: a solo game, the seat already the caller's. With an
/// account's session cookie it is the account's one ranked attempt of the day in that variant,
/// on the day's deck (asking again gives that same game, with a new token); a guest's attempt
/// is unranked and on a deck of its own, so that nobody can learn the day's deck before
/// playing it ranked.
#[utoipa::path(post, path = "/api/daily/{variant}/start", request_body = StartDaily,
    params(("variant" = DailyVariantName, Path, description = "`solo` or `solo-all`")),
    responses((status = 201, body = DailyStarted, description = "a new attempt"),
              (status = 200, body = DailyStarted, description = "the account's attempt of today, taken up again"),
              (status = 400, body = ErrorBody, description = "an unknown variant, or a display name out of bounds (`bad_request`)"),
              (status = 403, body = ErrorBody, description = "the cookie from another site (`wrong_origin`)"),
              (status = 409, body = ErrorBody, description = "a display name that looks like an account's (`name_taken`)"),
              (status = 429, body = ErrorBody, description = "too many claims, or too many open games, from this address (`rate_limited`, `too_many_games`)")))]
pub async fn start(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(variant): Path<String>,
    headers: HeaderMap,
    Body(req): Body<StartDaily>,
) -> Result<(StatusCode, Json<DailyStarted>), ApiError> {
    let variant = variant_of(&variant)?;
    app.limiters.check_claim(&addr)?;
    let who = claimer(&app, &headers, req.name.as_deref()).await?;
    let s = app.start_daily(variant, who, addr).await?;
    let (url, watch_url) = (
        format!("/api/games/{}", s.joined.game),
        format!("/games/{}", s.joined.game),
    );
    Ok((
        if s.again {
            StatusCode::OK
        } else {
            StatusCode::CREATED
        },
        Json(DailyStarted {
            game: s.joined.game,
            seat: s.joined.seat,
            token: s.joined.token,
            invite: s.invite,
            url,
            watch_url,
            day: s.day.to_string(),
            variant: s.variant,
            ranked: s.ranked,
            again: s.again,
        }),
    ))
}

/// A day's leaderboard in a variant: in solo the fewest tiles to 75 points, then the higher
/// score; in solo-all the best final score. Accounts only (guests play unranked).
#[utoipa::path(get, path = "/api/daily/{variant}/leaderboard",
    params(("variant" = DailyVariantName, Path, description = "`solo` or `solo-all`"),
           ("day" = Option<String>, Query, pattern = r"^(19[7-9][0-9]|2[0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
            description = "the UTC day, `YYYY-MM-DD` (default: today)")),
    responses((status = 200, body = Board),
              (status = 400, body = ErrorBody, description = "a day not written YYYY-MM-DD, or an unknown variant (`bad_request`)"),
              (status = 404, body = ErrorBody, description = "a day the calendar has not (`2026-02-30`), or whose challenge has not begun (`not_found`)"),
              (status = 429, body = ErrorBody, description = "too many look-ups from this address (`rate_limited`)")))]
pub async fn board(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(variant): Path<String>,
    query: Result<Query<BoardQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<Board>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let variant = variant_of(&variant)?;
    let today = app.today();
    let day = match q.day {
        None => today,
        Some(day) => Day::parse(&day).ok_or_else(|| {
            // Written as a day but none the calendar has (February 30th, before 1970): there is
            // no such leaderboard. Anything else is not written as a day at all.
            let written = day.len() == 10
                && day.bytes().enumerate().all(|(i, c)| {
                    if i == 4 || i == 7 {
                        c == b'-'
                    } else {
                        c.is_ascii_digit()
                    }
                });
            if written {
                ApiError::not_found(format!("there is no day {day:?}, and no leaderboard of it"))
            } else {
                ApiError::bad_request(format!("day {day:?} is no day: give one as YYYY-MM-DD"))
            }
        })?,
    };
    if day > today {
        return Err(ApiError::not_found(format!(
            "the challenge of {day} has not begun (today is {today}, UTC)"
        )));
    }
    let over = day < today;
    let (board, par) = board_of(&app, day, variant).await?;
    let who = current(&app, &headers).await?.map(|(p, _)| p);
    let you = who.as_ref().and_then(|p| {
        board
            .iter()
            .find(|(_, e, _)| e.player.as_deref() == Some(p.id.as_str()))
            .map(|b| entry(variant, b, over))
    });
    Ok(Json(Board {
        day: day.to_string(),
        variant,
        over,
        players: board.len() as u32,
        entries: board
            .iter()
            .take(BOARD)
            .map(|b| entry(variant, b, over))
            .collect(),
        // Par is a spoiler until one has played the deck.
        par: if over || you.is_some() {
            par_info(variant, par.as_ref(), over)
        } else {
            None
        },
        you,
    }))
}

/// A daily game's standing: its result, its rank (or where a guest's would stand), par and
/// the day's best 10 once it is over, the player's streak. Its player's alone until the day is
/// over, like its moves.
#[utoipa::path(get, path = "/api/games/{id}/daily",
    params(("id" = String, Path, description = "game id")),
    security((), ("seat_token" = [])),
    responses((status = 200, body = Card),
              (status = 403, body = ErrorBody, description = "someone else's daily game before its day is over (`history_hidden`)"),
              (status = 404, body = ErrorBody, description = "no such game, or not a daily challenge's (`not_found`)"),
              (status = 429, body = ErrorBody, description = "too many look-ups from this address (`rate_limited`)")))]
pub async fn card(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Card>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let (game_day, variant, over, result, player, par_game) = {
        let (_, st) = app.fresh(&id, None).await?;
        let Some(d) = st.daily.clone() else {
            return Err(ApiError::not_found("this game is not a daily challenge's"));
        };
        if !history_visible(&app, &headers, &st).await? {
            return Err(hidden());
        }
        let g = st.game.game();
        let at = st.times.last().copied().unwrap_or(0);
        let result = g.outcome().and_then(|o| crate::daily::solo_result(&o, at));
        let player = st
            .seats
            .first()
            .and_then(|s| s.player())
            .map(str::to_string);
        (d.day, g.variant(), st.over(), result, player, d.par)
    };
    let day = Day::parse(&game_day)
        .ok_or_else(|| ApiError::not_found("this game's day cannot be read"))?;
    let today = app.today();
    let day_over = day < today;
    let (board, par) = board_of(&app, day, variant).await?;
    let ranked = player.is_some() && !par_game;
    let rank = board
        .iter()
        .find(|(_, e, _)| e.game == id)
        .map(|(rank, _, _)| *rank);
    // A guest's game is on a deck of its own: neither the day's places nor par compare.
    let guest = player.is_none() && !par_game;
    let place = result.as_ref().filter(|_| !guest).map(|r| match rank {
        Some(rank) => rank,
        None => place_among(variant, &board, r),
    });
    // Par only to a ranked attempt with a result (a resigned attempt has none), or after the
    // day: before, it would tell how good a deck is that is still to be played.
    let par_info = (!guest && ((ranked && result.is_some()) || day_over))
        .then(|| par_info(variant, par.as_ref(), day_over))
        .flatten();
    if over && par.is_none() && day == today {
        // The par game was never made (a store that failed at the start): make it now.
        let secret = app.daily_secret().await?;
        app.ensure_par(day, variant, &secret).await;
    }
    let streak = match (&player, ranked) {
        (Some(p), true) => Some(streak_of(&app, p, today).await?),
        _ => None,
    };
    Ok(Json(Card {
        day: day.to_string(),
        variant,
        ranked,
        over,
        day_over,
        result: result.as_ref().map(|r| info(variant, r)),
        rank,
        place,
        players: board.len() as u32,
        par_pending: over && !guest && par_info.is_none(),
        par: par_info,
        leaderboard: if over {
            board
                .iter()
                .take(NEAR)
                .map(|b| entry(variant, b, day_over))
                .collect()
        } else {
            Vec::new()
        },
        streak,
    }))
}
