//! Players as everyone may see them: a profile (name, rating and its history, results, solo
//! records, recent games), the leaderboard, and "my games" for a logged-in account. Nothing
//! else of an account is shown: no e-mail is kept, and no address or time of a log-in.

use crate::accounts::current;
use crate::api::GameStatus;
use crate::app::{store_refusal, App};
use crate::client_addr::ClientAddr;
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::rating::{shown, PROVISIONAL_GAMES};
use crate::store::{PlayedGame, Rating};
use crate::table::seat_infos;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::Value;
use std::sync::Arc;

pub use sagani_protocol::players::{
    GameEntry, Leader, Leaderboard, MyGames, Profile, RatingEntry, SoloRecords,
};

/// Recent games on a profile, and "my games", at most.
const RECENT: u32 = 50;
/// Points of the rating graph at most.
const HISTORY: u32 = 200;
/// Players on the leaderboard at most.
const LEADERS: u32 = 100;

/// The player's place and score in a finished game, from its stored outcome.
fn result(g: &PlayedGame) -> (Option<u8>, Option<i64>) {
    let Some(outcome) = g
        .outcome
        .as_deref()
        .and_then(|o| serde_json::from_str::<Value>(o).ok())
    else {
        return (None, None);
    };
    let seat = g.seat as u64;
    match outcome["kind"].as_str() {
        Some("ranking") => {
            let place = ranking(&outcome, g)
                .iter()
                .position(|&s| s == seat)
                .map(|i| i as u8 + 1);
            (place, outcome["scores"][g.seat as usize].as_i64())
        }
        Some("solo") => (None, outcome["score"].as_i64()),
        Some("solo-all") => (None, outcome["final_score"].as_i64()),
        _ => (None, None),
    }
}

fn entry(g: PlayedGame) -> GameEntry {
    let (place, score) = result(&g);
    let over = g.status == crate::store::Status::Over;
    GameEntry {
        url: format!("/games/{}", g.id),
        record_url: over.then(|| format!("/api/games/{}/record", g.id)),
        variant: g.variant,
        status: g.status.into(),
        rated: g.rated,
        not_rated: crate::table::not_rated(g.rated, &g.seats),
        created_at: g.created_at,
        ended_at: g.ended_at,
        seat: g.seat,
        seats: seat_infos(&g.seats),
        place,
        score,
        game: g.id,
        your_turn: false,
        left_ms: None,
    }
}

/// Whose turn it is in a game in play, and the player's time left: read from the game itself
/// (its cached table, up to date with the store), so every server answers the same.
async fn urgency(app: &App, e: &mut GameEntry) {
    if e.status != GameStatus::Playing {
        return;
    }
    // A game that cannot be read now is listed without it.
    let Ok((_, st)) = app.fresh(&e.game, None).await else {
        return;
    };
    let seat = e.seat as usize;
    let playing = !st.over() && st.seats.get(seat).is_some_and(|s| s.left().is_none());
    e.your_turn = playing && st.game.game().to_act() == Some(e.seat);
    if playing && !st.clock.is_none() {
        e.left_ms = st.clocks(app.now_ms()).left_ms.get(seat).copied().flatten();
    }
}

/// Most urgent first: games where it is my turn, the least time left first (no clock last);
/// then the rest as they came (newest first).
fn by_urgency(games: &mut [GameEntry]) {
    games.sort_by_key(|g| {
        (
            !g.your_turn,
            g.your_turn.then(|| g.left_ms.unwrap_or(i64::MAX)),
        )
    });
}

/// A finished game's ranking, seats first to last, with those whose player timed out or
/// resigned placed after everyone else (as their ratings were).
fn ranking(outcome: &Value, g: &PlayedGame) -> Vec<u64> {
    let ranking: Vec<u64> = outcome["ranking"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let left = |s: &u64| g.left_seats.contains(&(*s as u8));
    let (stayed, left): (Vec<u64>, Vec<u64>) = ranking.into_iter().partition(|s| !left(s));
    stayed.into_iter().chain(left).collect()
}

/// The counts and records of a player's finished games.
fn tally(results: &[PlayedGame]) -> (u32, u32, SoloRecords) {
    let (mut games, mut wins) = (0, 0);
    let mut solo = SoloRecords::default();
    for g in results {
        let Some(outcome) = g
            .outcome
            .as_deref()
            .and_then(|o| serde_json::from_str::<Value>(o).ok())
        else {
            continue;
        };
        games += 1;
        match outcome["kind"].as_str() {
            Some("ranking") if ranking(&outcome, g).first() == Some(&(g.seat as u64)) => {
                wins += 1;
            }
            Some("solo") => {
                solo.games += 1;
                if outcome["symphony"].as_bool() == Some(true) {
                    solo.symphonies += 1;
                }
                if outcome["reached"].as_bool() == Some(true) {
                    if let Some(t) = outcome["tiles_used"].as_u64() {
                        let t = t as u8;
                        solo.best_tiles = Some(solo.best_tiles.map_or(t, |b| b.min(t)));
                    }
                }
            }
            Some("solo-all") => {
                solo.games += 1;
                if let Some(s) = outcome["final_score"].as_i64() {
                    solo.best_solo_all = Some(solo.best_solo_all.map_or(s, |b| b.max(s)));
                }
            }
            _ => {}
        }
    }
    (games, wins, solo)
}

fn provisional(r: &Rating) -> bool {
    r.games < PROVISIONAL_GAMES
}

/// A player's profile: rating, results, solo records and recent games.
#[utoipa::path(get, path = "/api/players/{name}",
    params(("name" = String, Path, description = "the account's name, in any case")),
    responses((status = 200, body = Profile),
              (status = 404, body = ErrorBody, description = "no account has that name (`not_found`)"),
              (status = 429, body = ErrorBody, description = "too many look-ups from this address (`rate_limited`)")))]
pub async fn profile(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Profile>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let store = &app.store;
    let player = store
        .player_named(&crate::names::key(&name))
        .await
        .map_err(store_refusal)?
        .ok_or_else(|| ApiError::not_found("no player has that name"))?;
    let rating = store.rating(&player.id).await.map_err(store_refusal)?;
    let history = store
        .rating_history(&player.id, HISTORY)
        .await
        .map_err(store_refusal)?;
    let results = store.results_of(&player.id).await.map_err(store_refusal)?;
    let recent = store
        .games_of(&player.id, RECENT)
        .await
        .map_err(store_refusal)?;
    let (games, wins, solo) = tally(&results);
    // Whether the logged-in viewer follows this player (not on one's own profile).
    let following = match current(&app, &headers).await? {
        Some((viewer, _)) if viewer.id != player.id => Some(
            store
                .is_following(&viewer.id, &player.id)
                .await
                .map_err(store_refusal)?,
        ),
        _ => None,
    };
    Ok(Json(Profile {
        name: player.name,
        rating: rating.map(|r| shown(r.mu, r.sigma)),
        provisional: rating.is_none_or(|r| provisional(&r)),
        rated_games: rating.map_or(0, |r| r.games),
        games,
        wins,
        solo,
        history: history
            .into_iter()
            .map(|p| RatingEntry {
                rating: shown(p.mu, p.sigma),
                game: p.game,
                at: p.at,
            })
            .collect(),
        recent: recent.into_iter().map(entry).collect(),
        following,
    }))
}

/// Accounts by rating, best first (the best 100 that played a rated game).
#[utoipa::path(get, path = "/api/leaderboard",
    responses((status = 200, body = Leaderboard),
              (status = 429, body = ErrorBody, description = "too many look-ups from this address (`rate_limited`)")))]
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
) -> Result<Json<Leaderboard>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let ranked = app
        .store
        .leaderboard(LEADERS, 1)
        .await
        .map_err(store_refusal)?;
    Ok(Json(Leaderboard {
        players: ranked
            .into_iter()
            .enumerate()
            .map(|(i, r)| Leader {
                rank: i as u32 + 1,
                rating: shown(r.rating.mu, r.rating.sigma),
                rated_games: r.rating.games,
                provisional: provisional(&r.rating),
                name: r.name,
            })
            .collect(),
    }))
}

/// The logged-in account's games (the latest 50), on any device, most urgent first: those where
/// it is the player's turn, the least time left first, then the others, newest first. A seat of
/// one still in play is taken here with `POST /api/games/{id}/join {"seat"}`.
#[utoipa::path(get, path = "/api/me/games",
    responses((status = 200, body = MyGames),
              (status = 401, body = ErrorBody, description = "not logged in (`not_logged_in`)"),
              (status = 429, body = ErrorBody, description = "too many look-ups from this address (`rate_limited`)")))]
pub async fn my_games(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
) -> Result<Json<MyGames>, ApiError> {
    app.limiters.check_lookup(&addr)?;
    let (player, _) = current(&app, &headers)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "this needs you to be logged in"))?;
    let games = app
        .store
        .games_of(&player.id, RECENT)
        .await
        .map_err(store_refusal)?;
    let mut games: Vec<GameEntry> = games.into_iter().map(entry).collect();
    for g in &mut games {
        urgency(&app, g).await;
    }
    by_urgency(&mut games);
    Ok(Json(MyGames { games }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Status;
    use sagani_core::Variant;

    fn ended(variant: Variant, seat: u8, outcome: &str) -> PlayedGame {
        PlayedGame {
            id: "g".into(),
            created_at: 0,
            ended_at: Some(1),
            variant,
            rated: false,
            status: Status::Over,
            seat,
            outcome: Some(outcome.into()),
            seats: Vec::new(),
            left_seats: Vec::new(),
        }
    }

    #[test]
    fn results_and_solo_records_come_from_the_outcomes() {
        let solo = |tiles, reached, symphony| {
            ended(
                Variant::Solo,
                0,
                &format!(
                    r#"{{"kind":"solo","tiles_used":{tiles},"score":75,"reached":{reached},"symphony":{symphony}}}"#
                ),
            )
        };
        let games = vec![
            ended(
                Variant::Standard,
                1,
                r#"{"kind":"ranking","ranking":[1,0],"scores":[40,75]}"#,
            ),
            ended(
                Variant::Standard,
                0,
                r#"{"kind":"ranking","ranking":[1,0],"scores":[40,75]}"#,
            ),
            solo(31, true, false),
            solo(24, true, true),
            // Not reached: no record of tiles, however few.
            solo(12, false, false),
            ended(
                Variant::SoloAll,
                0,
                r#"{"kind":"solo-all","score":90,"discs_left":5,"final_score":85}"#,
            ),
            ended(
                Variant::SoloAll,
                0,
                r#"{"kind":"solo-all","score":70,"discs_left":1,"final_score":69}"#,
            ),
        ];
        let (played, wins, records) = tally(&games);
        assert_eq!((played, wins), (7, 1));
        assert_eq!(
            records,
            SoloRecords {
                games: 5,
                best_tiles: Some(24),
                symphonies: 1,
                best_solo_all: Some(85),
            }
        );
        assert_eq!(result(&games[0]), (Some(1), Some(75)));
        assert_eq!(result(&games[1]), (Some(2), Some(40)));
        assert_eq!(result(&games[5]), (None, Some(85)));
        // Seat 1 scored most but timed out (a bot played on): it is ranked last.
        let mut left = games[0].clone();
        left.left_seats = vec![1];
        let mut stayed = games[1].clone();
        stayed.left_seats = vec![1];
        assert_eq!(result(&left), (Some(2), Some(75)));
        assert_eq!(result(&stayed), (Some(1), Some(40)));
        assert_eq!(tally(&[left, stayed]).1, 1);
    }
}
