//! The daily leaderboards' order, a solo result from the engine's outcome, and streaks.

use super::Day;
use crate::store::{DailyEntry, SoloResult};
use sagani_core::{Outcome, Variant};
use std::cmp::Ordering;

/// A solo game's result for the leaderboards, from the engine's outcome (none for 2–4 players).
pub fn solo_result(outcome: &Outcome, at_ms: i64) -> Option<SoloResult> {
    match *outcome {
        Outcome::Solo {
            tiles_used,
            score,
            reached,
            ..
        } => Some(SoloResult {
            tiles: tiles_used,
            score: score.into(),
            reached,
            at_ms,
        }),
        Outcome::SoloAll { final_score, .. } => Some(SoloResult {
            tiles: sagani_core::TILE_COUNT as u8,
            score: final_score.into(),
            reached: true,
            at_ms,
        }),
        Outcome::Ranking { .. } => None,
    }
}

/// How good a result is, better first: in solo, reaching 75 with fewer tiles, then the higher
/// score (those short of 75 after all who reached it, by score); in solo-all, the final score.
fn merit(variant: Variant, r: &SoloResult) -> (bool, u8, i64) {
    match variant {
        Variant::SoloAll => (false, 0, -r.score),
        _ => (!r.reached, if r.reached { r.tiles } else { 0 }, -r.score),
    }
}

/// Compares two results as the leaderboard orders them: by merit, then the earlier finish.
pub fn compare(variant: Variant, a: &SoloResult, b: &SoloResult) -> Ordering {
    merit(variant, a)
        .cmp(&merit(variant, b))
        .then(a.at_ms.cmp(&b.at_ms))
}

/// The ranked, finished attempts in leaderboard order, each with its rank: equal results share
/// a rank (1, 2, 2, 4), the earlier finish listed first.
pub fn ranked(variant: Variant, entries: Vec<DailyEntry>) -> Vec<(u32, DailyEntry, SoloResult)> {
    let mut list: Vec<(DailyEntry, SoloResult)> = entries
        .into_iter()
        .filter(|e| !e.par && e.player.is_some())
        .filter_map(|e| e.result.map(|r| (e, r)))
        .collect();
    list.sort_by(|(a, ra), (b, rb)| compare(variant, ra, rb).then(a.game.cmp(&b.game)));
    let mut out: Vec<(u32, DailyEntry, SoloResult)> = Vec::with_capacity(list.len());
    for (i, (e, r)) in list.into_iter().enumerate() {
        let rank = match out.last() {
            Some((rank, _, last)) if merit(variant, last) == merit(variant, &r) => *rank,
            _ => i as u32 + 1,
        };
        out.push((rank, e, r));
    }
    out
}

/// Where `result` would stand among `ranked` (for a guest, who is not on the board): the rank
/// of the first result it is not worse than.
pub fn place_among(
    variant: Variant,
    ranked: &[(u32, DailyEntry, SoloResult)],
    result: &SoloResult,
) -> u32 {
    ranked
        .iter()
        .find(|(_, _, r)| merit(variant, result) <= merit(variant, r))
        .map_or(ranked.len() as u32 + 1, |(rank, _, _)| *rank)
}

/// Consecutive days with a finished daily game, up to `today`: counted back from today, or from
/// yesterday while today's is still to come (a streak is not lost before the day is over).
/// `days` are the days played, newest first.
pub fn streak(days: &[Day], today: Day) -> u32 {
    let mut expect = match days.first() {
        Some(&d) if d == today => today,
        Some(&d) if d == today.prev() => today.prev(),
        _ => return 0,
    };
    let mut n = 0;
    for &d in days {
        if d > expect {
            continue;
        }
        if d != expect {
            break;
        }
        n += 1;
        expect = expect.prev();
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: &str, tiles: u8, score: i64, reached: bool, at_ms: i64) -> DailyEntry {
        DailyEntry {
            game: game.into(),
            day: "2026-12-03".into(),
            variant: Variant::Solo,
            player: Some(format!("p-{game}")),
            name: Some(game.into()),
            par: false,
            result: Some(SoloResult {
                tiles,
                score,
                reached,
                at_ms,
            }),
        }
    }

    #[test]
    fn solo_ranks_fewest_tiles_then_score_then_the_earlier_finish() {
        let entries = vec![
            entry("slow", 30, 80, true, 1),
            entry("short", 50, 70, false, 2),
            entry("late-tie", 22, 78, true, 9),
            entry("best", 22, 81, true, 5),
            entry("tie", 22, 78, true, 3),
            entry("shorter", 60, 40, false, 1),
        ];
        let order: Vec<(u32, String)> = ranked(Variant::Solo, entries.clone())
            .into_iter()
            .map(|(rank, e, _)| (rank, e.game))
            .collect();
        let expected = [
            (1, "best"),
            (2, "tie"),
            (2, "late-tie"),
            (4, "slow"),
            (5, "short"),
            (6, "shorter"),
        ];
        assert_eq!(
            order,
            expected
                .iter()
                .map(|(r, g)| (*r, g.to_string()))
                .collect::<Vec<_>>()
        );
        let board = ranked(Variant::Solo, entries);
        let guest = |tiles, score, reached| SoloResult {
            tiles,
            score,
            reached,
            at_ms: 100,
        };
        assert_eq!(place_among(Variant::Solo, &board, &guest(21, 75, true)), 1);
        assert_eq!(place_among(Variant::Solo, &board, &guest(22, 78, true)), 2);
        assert_eq!(place_among(Variant::Solo, &board, &guest(40, 99, true)), 5);
        assert_eq!(place_among(Variant::Solo, &board, &guest(72, 10, false)), 7);
    }

    #[test]
    fn solo_all_ranks_by_the_final_score_and_leaves_out_guests_par_and_unfinished() {
        let mut guest = entry("guest", 72, 120, true, 1);
        guest.player = None;
        let mut par = entry("par", 72, 130, true, 1);
        par.par = true;
        par.player = None;
        let mut playing = entry("playing", 0, 0, false, 0);
        playing.result = None;
        let entries = vec![
            entry("low", 72, 40, true, 1),
            entry("high", 72, 90, true, 7),
            guest,
            par,
            playing,
            entry("mid", 72, 60, true, 2),
        ];
        let order: Vec<String> = ranked(Variant::SoloAll, entries)
            .into_iter()
            .map(|(_, e, _)| e.game)
            .collect();
        assert_eq!(order, ["high", "mid", "low"]);
    }

    #[test]
    fn a_streak_counts_days_in_a_row_up_to_today_or_yesterday() {
        let today = Day::parse("2026-12-03").unwrap();
        let days = |ds: &[i64]| ds.iter().map(|&d| Day(today.0 - d)).collect::<Vec<_>>();
        assert_eq!(streak(&days(&[0, 1, 2, 4]), today), 3);
        assert_eq!(streak(&days(&[1, 2, 3]), today), 3, "today still to come");
        assert_eq!(streak(&days(&[2, 3]), today), 0, "yesterday missed");
        assert_eq!(streak(&days(&[0]), today), 1);
        assert_eq!(streak(&[], today), 0);
    }
}
