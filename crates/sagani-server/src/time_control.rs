//! Time controls and the seats' clocks. A clock is never stored as a running number: it is
//! worked out from when the game started and when each move was stored, so every server (and
//! a restarted one) gets the same answer from the same rows.

pub use sagani_protocol::time_control::{TimeControl, TimeControlError, OFFERED};

/// What the clocks of a game say at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Each seat's time left, in milliseconds; `None` for a seat without a clock (a bot, a
    /// seat a bot took over) or a game without one.
    pub left_ms: Vec<Option<i64>>,
    /// The seat whose clock is running.
    pub running: Option<u8>,
    /// When the running clock reaches zero (milliseconds since the Unix epoch).
    pub deadline_ms: Option<i64>,
}

/// A game's timing as the clocks need it.
pub struct Timing<'a> {
    pub control: TimeControl,
    /// When every seat was first claimed: the clocks start then.
    pub started_ms: Option<i64>,
    /// Each move's seat and when it was stored, in order.
    pub moves: &'a [(u8, i64)],
    /// Per seat: whether a person still plays it against the clock.
    pub timed: &'a [bool],
    /// The seat to decide now (`None` once the game is over).
    pub to_act: Option<u8>,
}

impl Timing<'_> {
    /// The clocks at `now_ms`.
    pub fn at(&self, now_ms: i64) -> Clocks {
        let seats = self.timed.len();
        let none = Clocks {
            left_ms: vec![None; seats],
            running: None,
            deadline_ms: None,
        };
        let (bank, increment) = match self.control {
            TimeControl::None => return none,
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => (
                Some(i64::from(initial_s) * 1000),
                i64::from(increment_s) * 1000,
            ),
            TimeControl::Turn { .. } => (None, 0),
        };
        let allowance = self.allowance_ms();
        let mut left = vec![allowance; seats];
        // The decision in progress began when the clocks started or the last move was stored,
        // whichever was later; before the start no decision takes time.
        let mut since = self.started_ms;
        for &(seat, at) in self.moves {
            let Some(start) = since else { continue };
            // A move stored before the clocks started took no time and earns no increment.
            if bank.is_some() && self.started_ms.is_some_and(|s| at >= s) {
                if let Some(l) = left.get_mut(seat as usize) {
                    *l = (*l - (at - start).max(0)).max(0) + increment;
                }
            }
            since = Some(at.max(start));
        }
        let running = match (since, self.to_act) {
            (Some(_), Some(s)) if self.timed.get(s as usize) == Some(&true) => Some(s),
            _ => None,
        };
        let deadline_ms = running.map(|s| since.unwrap_or(now_ms) + left[s as usize]);
        if let (Some(s), Some(deadline)) = (running, deadline_ms) {
            left[s as usize] = (deadline - now_ms).max(0);
        }
        Clocks {
            left_ms: left
                .into_iter()
                .zip(self.timed)
                .map(|(l, &t)| t.then_some(l))
                .collect(),
            running,
            deadline_ms,
        }
    }

    /// A seat's time at the start: its bank, or one turn-based decision.
    fn allowance_ms(&self) -> i64 {
        match self.control {
            TimeControl::None => 0,
            TimeControl::Realtime { initial_s, .. } => i64::from(initial_s) * 1000,
            TimeControl::Turn { days } => i64::from(days) * 86_400_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE_PLUS_FIVE: TimeControl = TimeControl::Realtime {
        initial_s: 300,
        increment_s: 5,
    };

    fn timing<'a>(
        control: TimeControl,
        started_ms: Option<i64>,
        moves: &'a [(u8, i64)],
        timed: &'a [bool],
        to_act: Option<u8>,
    ) -> Timing<'a> {
        Timing {
            control,
            started_ms,
            moves,
            timed,
            to_act,
        }
    }

    #[test]
    fn fischer_takes_what_a_decision_used_and_adds_the_increment() {
        // Seat 0 uses 10 s, seat 1 uses 20 s, seat 0 has been thinking for 7 s.
        let moves = [(0, 10_000), (1, 30_000)];
        let t = timing(FIVE_PLUS_FIVE, Some(0), &moves, &[true, true], Some(0));
        let c = t.at(37_000);
        assert_eq!(
            c.left_ms,
            vec![Some(300_000 - 10_000 + 5_000 - 7_000), Some(285_000)]
        );
        assert_eq!(c.running, Some(0));
        assert_eq!(c.deadline_ms, Some(30_000 + 295_000));
        // The same rows give the same clocks at the deadline, and zero after it.
        assert_eq!(t.at(325_000).left_ms[0], Some(0));
        assert_eq!(t.at(400_000).left_ms[0], Some(0));
        assert_eq!(t.at(400_000).left_ms[1], Some(285_000));
    }

    #[test]
    fn intermezzo_picks_run_the_picking_seats_clock() {
        // Seat 0 places, then seats 1 and 2 pick in the intermezzo, then seat 1 places: the
        // clock of whoever decided ran, whatever the turn order.
        let moves = [(0, 1_000), (1, 4_000), (2, 6_000), (1, 16_000)];
        let t = timing(
            TimeControl::Realtime {
                initial_s: 60,
                increment_s: 0,
            },
            Some(0),
            &moves,
            &[true, true, true],
            Some(2),
        );
        let c = t.at(16_000);
        assert_eq!(
            c.left_ms,
            vec![Some(59_000), Some(60_000 - 3_000 - 10_000), Some(58_000)]
        );
        assert_eq!(c.running, Some(2));
        assert_eq!(c.deadline_ms, Some(16_000 + 58_000));
    }

    #[test]
    fn no_time_passes_before_the_start_nor_for_bots() {
        // Seat 0 moved before seat 1 was claimed (started at 50 s): that move took no time
        // (and earned no increment); then seat 1, a bot, moved.
        let moves = [(0, 40_000), (1, 55_000)];
        let t = timing(
            FIVE_PLUS_FIVE,
            Some(50_000),
            &moves,
            &[true, false],
            Some(0),
        );
        let c = t.at(60_000);
        assert_eq!(c.left_ms, vec![Some(295_000), None]);
        assert_eq!(c.deadline_ms, Some(55_000 + 300_000));
        // Not started: nobody's clock runs.
        let waiting = timing(FIVE_PLUS_FIVE, None, &moves, &[true, true], Some(0)).at(60_000);
        assert_eq!(waiting.left_ms, vec![Some(300_000); 2]);
        assert_eq!((waiting.running, waiting.deadline_ms), (None, None));
        // A bot to act: no clock runs.
        let bot = timing(FIVE_PLUS_FIVE, Some(0), &[], &[true, false], Some(1)).at(1_000);
        assert_eq!((bot.running, bot.deadline_ms), (None, None));
    }

    #[test]
    fn a_restart_in_the_middle_of_a_turn_changes_nothing() {
        // The clocks come from stored rows only: worked out again later (another server, a
        // restart) they say the same for the same moment.
        let moves = [(0, 3_000), (1, 9_000), (0, 20_000)];
        let before = timing(FIVE_PLUS_FIVE, Some(1_000), &moves, &[true; 2], Some(1));
        let copy = moves;
        let after = timing(FIVE_PLUS_FIVE, Some(1_000), &copy, &[true; 2], Some(1));
        assert_eq!(before.at(25_000), after.at(25_000));
        assert_eq!(
            after.at(25_000).left_ms,
            vec![
                Some(300_000 - 2_000 + 5_000 - 11_000 + 5_000),
                Some(300_000 - 6_000 + 5_000 - 5_000)
            ]
        );
    }

    #[test]
    fn turn_based_gives_each_decision_its_days() {
        let day = 86_400_000;
        let moves = [(0, day / 2)];
        let t = timing(
            TimeControl::Turn { days: 2 },
            Some(0),
            &moves,
            &[true; 2],
            Some(1),
        );
        let c = t.at(day);
        assert_eq!(c.left_ms, vec![Some(2 * day), Some(2 * day - day / 2)]);
        assert_eq!(c.deadline_ms, Some(day / 2 + 2 * day));
        // No clock, no deadline.
        let none = timing(TimeControl::None, Some(0), &moves, &[true; 2], Some(1)).at(day);
        assert_eq!(none.left_ms, vec![None, None]);
        assert_eq!(none.deadline_ms, None);
    }
}
