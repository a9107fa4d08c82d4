//! Ratings of rated games, with Weng-Lin (OpenSkill) from `skillratings`. Chosen over Glicko-2
//! because it is made for free-for-all games: one update takes the whole ranking of a 2–4
//! player game (ties included) at once, where Glicko-2 rates pairs of players over rating
//! periods. A rating is a skill `mu` and an uncertainty `sigma`; the number shown is the
//! conservative `mu - 3 sigma`, on a scale that starts at 1000.

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A player's rating in rated games (Weng-Lin: `mu` the skill, `sigma` how unsure it is).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
    /// Rated games played.
    pub games: u32,
}

/// A rating is provisional until this many rated games.
pub const PROVISIONAL_GAMES: u32 = 10;

/// The rating of an account before its first rated game.
pub fn initial() -> Rating {
    let r = WengLinRating::new();
    Rating {
        mu: r.rating,
        sigma: r.uncertainty,
        games: 0,
    }
}

/// The number shown for a skill `mu` known to within `sigma`: 1000 for a newcomer, about
/// 40 points per unit of `mu`.
pub fn shown(mu: f64, sigma: f64) -> i64 {
    (1000.0 + 40.0 * (mu - 3.0 * sigma)).round() as i64
}

/// The ratings after a game: `players` holds each player's rating before it and their place
/// (1 for the first; tied players share a place).
pub fn update(players: &[(Rating, u8)]) -> Vec<Rating> {
    let ratings: Vec<[WengLinRating; 1]> = players
        .iter()
        .map(|(r, _)| {
            [WengLinRating {
                rating: r.mu,
                uncertainty: r.sigma,
            }]
        })
        .collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = ratings
        .iter()
        .zip(players)
        .map(|(r, (_, place))| (&r[..], MultiTeamOutcome::new(*place as usize)))
        .collect();
    weng_lin_multi_team(&teams, &WengLinConfig::new())
        .into_iter()
        .zip(players)
        .map(|(team, (before, _))| Rating {
            mu: team[0].rating,
            sigma: team[0].uncertainty,
            games: before.games + 1,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_gains_and_the_loser_loses() {
        let after = update(&[(initial(), 2), (initial(), 1)]);
        assert!(after[1].mu > initial().mu && after[0].mu < initial().mu);
        // Both are surer of their skill now.
        assert!(after
            .iter()
            .all(|r| r.sigma < initial().sigma && r.games == 1));
        assert_eq!(shown(initial().mu, initial().sigma), 1000);
    }

    #[test]
    fn a_tie_between_equals_changes_no_skill() {
        let after = update(&[(initial(), 1), (initial(), 1), (initial(), 3)]);
        assert!((after[0].mu - after[1].mu).abs() < 1e-9);
        assert!(after[0].mu > after[2].mu);
    }
}
