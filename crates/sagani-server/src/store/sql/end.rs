//! A game's end, stored with its last move: the outcome, a daily game's result, and for a rated
//! game its players' new ratings, in the same transaction.

use super::super::db::{args, from_row, Conn, Sql};
use super::super::{GameEnd, Rating, StoreError};
use crate::rating;
use std::collections::HashMap;

use Sql::{Both, Each};

/// Stores how a game ended. A rated game changes no rating when a seat left before every seat
/// had moved (`rating::too_early`), and counts for each player only against those they have
/// not met `rating::PAIR_GAMES_A_DAY` times in the last day. The players' rating rows are
/// locked in id order, so games ending together update a rating one after the other.
pub(super) async fn store(c: &mut dyn Conn, game: &str, end: &GameEnd) -> Result<(), StoreError> {
    let rated: bool = c
        .value(
            Both("UPDATE games SET outcome = $2, ended_at = $3 WHERE id = $1 RETURNING rated"),
            args![game, &end.outcome, end.at],
        )
        .await?
        .ok_or(StoreError::NotFound)?;
    if let Some(r) = end.solo {
        // A daily game's result, for the leaderboards (no row for any other game).
        c.execute(
            Both(
                "UPDATE daily_games SET tiles = $2, score = $3, reached = $4, finished_at = $5
                 WHERE game_id = $1",
            ),
            args![game, r.tiles, r.score, r.reached, r.at_ms],
        )
        .await?;
    }
    if !rated {
        return Ok(());
    }
    from_row! {
        struct SeatRow {
            player_id: Option<String>,
            left_version: Option<u64>,
        }
    }
    let seats: Vec<SeatRow> = c
        .rows(
            Both("SELECT player_id, left_version FROM seats WHERE game_id = $1 ORDER BY seat"),
            args![game],
        )
        .await?;
    if seats.len() != end.places.len() || seats.iter().any(|s| s.player_id.is_none()) {
        // Refused at creation and at every claim: a store that holds one is damaged.
        return Err(StoreError::damaged(
            game,
            "a rated game with a seat no account holds",
        ));
    }
    let left: Vec<Option<u64>> = seats.iter().map(|s| s.left_version).collect();
    if rating::too_early(&left) {
        // Aborted for ratings: nobody's changes (the game says why, from its seats).
        return Ok(());
    }
    let players: Vec<String> = seats.into_iter().filter_map(|s| s.player_id).collect();
    let first = rating::initial();
    c.execute(
        Both(
            "INSERT INTO ratings (player_id, mu, sigma, games)
             SELECT player_id, $2, $3, 0 FROM seats WHERE game_id = $1 AND player_id IS NOT NULL
             ORDER BY player_id ON CONFLICT (player_id) DO NOTHING",
        ),
        args![game, first.mu, first.sigma],
    )
    .await?;
    from_row! {
        struct RatingRow {
            player_id: String,
            mu: f64,
            sigma: f64,
            games: u32,
        }
    }
    let ratings: HashMap<String, Rating> = c
        .rows::<RatingRow>(
            Each {
                sqlite: "SELECT player_id, mu, sigma, games FROM ratings WHERE player_id IN
                         (SELECT player_id FROM seats WHERE game_id = $1) ORDER BY player_id",
                postgres: "SELECT player_id, mu, sigma, games FROM ratings WHERE player_id IN
                           (SELECT player_id FROM seats WHERE game_id = $1) ORDER BY player_id
                           FOR UPDATE",
            },
            args![game],
        )
        .await?
        .into_iter()
        .map(|r| {
            let rating = Rating {
                mu: r.mu,
                sigma: r.sigma,
                games: r.games,
            };
            (r.player_id, rating)
        })
        .collect();
    let before: Vec<(Rating, u8)> = players
        .iter()
        .zip(&end.places)
        .map(|(p, place)| (ratings.get(p).copied().unwrap_or(first), *place))
        .collect();
    // Each pair's rated games of the last day, counted after the locks above: two games of
    // the same players ending together count one after the other.
    let mut met = vec![vec![0u64; players.len()]; players.len()];
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            let n: u64 = c
                .value(
                    Both(
                        "SELECT COUNT(*) FROM rating_history a JOIN rating_history b
                             ON b.game_id = a.game_id AND b.player_id = $2
                         WHERE a.player_id = $1 AND a.at > $3",
                    ),
                    args![&players[i], &players[j], end.at - rating::PAIR_WINDOW_S],
                )
                .await?
                .unwrap_or(0);
            (met[i][j], met[j][i]) = (n, n);
        }
    }
    let after = rating::update_counted(&before, |i, j| met[i][j] < rating::PAIR_GAMES_A_DAY);
    for (player, r) in players.iter().zip(after) {
        // Counted against nobody (over the cap with everyone, so rated before): the rating
        // stays as it was, with no entry for this game.
        let Some(r) = r else { continue };
        c.execute(
            Both("UPDATE ratings SET mu = $2, sigma = $3, games = $4 WHERE player_id = $1"),
            args![player, r.mu, r.sigma, r.games],
        )
        .await?;
        c.execute(
            Both(
                "INSERT INTO rating_history (player_id, game_id, at, mu, sigma)
                 VALUES ($1, $2, $3, $4, $5)",
            ),
            args![player, game, end.at, r.mu, r.sigma],
        )
        .await?;
    }
    Ok(())
}
