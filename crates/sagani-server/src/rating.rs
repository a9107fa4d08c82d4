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

/// Rated games between the same two accounts that count in any 24 hours: beyond them, a game
/// moves neither rating against the other. Friends who play a long evening still see their
/// first games count; puppet accounts fed win after win stop paying off after these.
pub const PAIR_GAMES_A_DAY: u64 = 3;

/// The span `PAIR_GAMES_A_DAY` counts over, in seconds.
pub const PAIR_WINDOW_S: i64 = 86_400;

/// Whether a rated game ended too early to be rated: a seat left (resigned or timed out) before
/// every seat had moved, i.e. with fewer moves played than there are seats. Chess sites abort
/// such games; so are these, for ratings: resigning at once costs nothing and gains nobody
/// anything, which is what made puppet accounts worth having.
pub fn too_early(left_at: &[Option<u64>]) -> bool {
    let seats = left_at.len() as u64;
    left_at.iter().flatten().any(|&version| version < seats)
}

/// The ratings after a game in which player `i` counts only the players `j` with
/// `counts(i, j)` (a pair still under `PAIR_GAMES_A_DAY`): each player's new rating is the
/// update of the game among those alone, `None` for a player it counts against nobody.
pub fn update_counted(
    players: &[(Rating, u8)],
    counts: impl Fn(usize, usize) -> bool,
) -> Vec<Option<Rating>> {
    (0..players.len())
        .map(|i| {
            let among: Vec<usize> = (0..players.len())
                .filter(|&j| j == i || counts(i, j))
                .collect();
            if among.len() < 2 {
                return None;
            }
            let sub: Vec<(Rating, u8)> = among.iter().map(|&j| players[j]).collect();
            let at = among.iter().position(|&j| j == i)?;
            update(&sub).get(at).copied()
        })
        .collect()
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
    fn leaving_before_every_seat_moved_is_too_early() {
        assert!(!too_early(&[None, None, None, None]), "nobody left");
        assert!(too_early(&[Some(0), None, None, None]), "at move 0");
        assert!(
            too_early(&[None, None, Some(3), None]),
            "seat 4 had not moved"
        );
        assert!(
            !too_early(&[None, Some(4), None, None]),
            "everyone had moved"
        );
        assert!(too_early(&[Some(1), None]));
        assert!(!too_early(&[Some(2), Some(5)]));
    }

    #[test]
    fn a_game_counts_only_between_pairs_under_the_cap() {
        let four = [
            (initial(), 1),
            (initial(), 2),
            (initial(), 3),
            (initial(), 4),
        ];
        let all = update_counted(&four, |_, _| true);
        assert_eq!(all, update(&four).into_iter().map(Some).collect::<Vec<_>>());
        // Seat 0 has met everyone too often: nothing moves for it, nor for them against it.
        let without_0 = update_counted(&four, |i, j| i != 0 && j != 0);
        assert_eq!(without_0[0], None);
        let rest = update(&four[1..]);
        assert_eq!(
            &without_0[1..],
            &rest.into_iter().map(Some).collect::<Vec<_>>()[..]
        );
        assert_eq!(update_counted(&four, |_, _| false), vec![None; 4]);
    }

    #[test]
    fn a_tie_between_equals_changes_no_skill() {
        let after = update(&[(initial(), 1), (initial(), 1), (initial(), 3)]);
        assert!((after[0].mu - after[1].mu).abs() < 1e-9);
        assert!(after[0].mu > after[2].mu);
    }
}
