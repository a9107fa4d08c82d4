//! A table: one game as this server has it, its seats and who may act for them, and what each
//! seat (or a spectator) is shown.

use crate::api::{
    ClockState, GameState, NotRated, PlayedMove, RatingChange, Replaced, SeatInfo, SeatKind,
};
use crate::error::{ApiError, ErrorCode};
use crate::secret;
use crate::store::replay::{self, clocks_of, progress_of, GameLog};
use crate::store::{Ended, Progress, SavedGame, SavedSeat};
use crate::time_control::{Clocks, TimeControl};
use sagani_core::record::RecordMove;
use sagani_core::{Outcome, Variant};
use std::sync::Arc;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// One game as this server has it cached: a copy of the store's, checked against the store's
/// `rev` before it is used (unless this server is the store's only writer).
pub struct Table {
    pub id: String,
    pub variant: Variant,
    pub public: bool,
    pub creator: String,
    /// The creator's name, as the lobby shows it.
    pub host: Option<String>,
    /// The game and its seats. Held across a change's commit, so this server shows no change
    /// before it is durable.
    state: Arc<Mutex<TableState>>,
}

pub struct TableState {
    /// The game with its record and each move's effect; the record (it holds the deck) leaves
    /// only once it is over.
    pub game: GameLog,
    pub seats: Vec<SavedSeat>,
    /// The game's rematch, once someone asked for it (`App::rematch`).
    pub rematch: Option<String>,
    /// The store's change counter this copy is at.
    pub rev: u64,
    /// Its end changes its players' ratings (never changes).
    pub rated: bool,
    /// A practice game: its player may ask the engine for hints while it is played (never
    /// changes).
    pub practice: bool,
    /// Its time control (never changes).
    pub clock: TimeControl,
    /// When the clocks started: every seat was claimed.
    pub started_ms: Option<i64>,
    /// When each move was stored, in milliseconds.
    pub times: Vec<i64>,
    /// Why it ended, when its rules did not end it.
    pub ended: Option<Ended>,
    /// Chat lines written so far.
    pub chats: u64,
    /// A daily challenge's game: its day (its result as it was read, not kept up to date).
    pub daily: Option<crate::store::DailyTag>,
    /// A rated game's rating changes, once it is over (read from the store after its end).
    pub ratings: Vec<crate::store::RatingStep>,
}

impl TableState {
    pub fn version(&self) -> u64 {
        self.game.record().moves.len() as u64
    }

    /// Over: by its rules, or ended otherwise (a resignation in solo, abandoned, closed,
    /// cancelled).
    pub fn over(&self) -> bool {
        self.ended.is_some() || self.game.game().is_over()
    }

    pub fn status(&self) -> crate::store::Status {
        replay::status(self.over(), &self.seats)
    }

    /// The running clock's deadline if the clocks started at `now_ms`.
    pub fn deadline_if_started(&self, now_ms: i64) -> Option<i64> {
        self.progress_from(Some(now_ms)).deadline_ms
    }

    /// The seats' clocks at `now_ms`.
    pub fn clocks(&self, now_ms: i64) -> Clocks {
        clocks_of(
            &self.game,
            &self.seats,
            self.clock,
            self.started_ms,
            &self.times,
            self.ended,
        )
        .at(now_ms)
    }

    pub fn seat_infos(&self) -> Vec<SeatInfo> {
        seat_infos(&self.seats)
    }

    /// Where the game stands, as the store keeps it.
    pub fn progress(&self) -> Progress {
        self.progress_from(self.started_ms)
    }

    /// Where the game stands had its clocks started at `started_ms`.
    fn progress_from(&self, started_ms: Option<i64>) -> Progress {
        progress_of(
            &self.game,
            &self.seats,
            self.clock,
            started_ms,
            &self.times,
            self.ended,
        )
    }

    /// The seat `token` acts for: `None` without a token (a spectator); a token that holds no
    /// seat here is refused.
    pub fn who(&self, token: Option<&str>) -> Result<Option<u8>, ApiError> {
        let Some(token) = token else {
            return Ok(None);
        };
        let h = secret::hash(token);
        self.seat_of_hash(&h).map(Some).ok_or_else(|| {
            ApiError::new(
                ErrorCode::WrongToken,
                "this token holds no seat at this game",
            )
        })
    }

    pub fn seat_of_hash(&self, h: &str) -> Option<u8> {
        self.seats
            .iter()
            .position(|s| matches!(s, SavedSeat::Human { token_hash: Some(t), .. } if t == h))
            .map(|i| i as u8)
    }

    /// What seat `you` (or a spectator) is shown at `now_ms`.
    pub fn state_for(&self, id: &str, you: Option<u8>, now_ms: i64) -> GameState {
        let game = self.game.game();
        let legal = match (you, game.to_act()) {
            (_, _) if self.ended.is_some() => Vec::new(),
            // A seat a bot took over is the bot's to play.
            (Some(y), _) if self.seats[y as usize].left().is_some() => Vec::new(),
            (Some(y), Some(p)) if y == p => game.legal_moves(),
            _ => Vec::new(),
        };
        let clock = (!self.clock.is_none()).then(|| {
            let c = self.clocks(now_ms);
            ClockState {
                control: self.clock,
                left_ms: c.left_ms,
                running: c.running,
                now_ms,
            }
        });
        let moves = &self.game.record().moves;
        GameState {
            game: id.to_string(),
            version: self.version(),
            status: self.status().into(),
            you,
            seats: self.seat_infos(),
            view: game.view(you),
            legal,
            last_move: moves.len().checked_sub(1).map(|n| self.played(n)),
            standings: game
                .outcome()
                .map(|o| standings(&o, |s| seat_left(&self.seats, s)))
                .unwrap_or_default(),
            outcome: game.outcome(),
            rematch: self.rematch.clone(),
            rated: self.rated,
            not_rated: not_rated(self.rated, &self.seats),
            ratings: self
                .ratings
                .iter()
                .map(|r| RatingChange {
                    seat: r.seat,
                    before: crate::rating::shown(r.before.0, r.before.1),
                    after: crate::rating::shown(r.after.0, r.after.1),
                })
                .collect(),
            practice: self.practice,
            clock,
            ended: self.ended.map(Into::into),
            chats: self.chats,
            daily: self.daily.as_ref().map(|d| crate::api::DailyMark {
                day: d.day.clone(),
                variant: game.variant(),
                ranked: !d.par && self.seats.first().is_some_and(|s| s.player().is_some()),
                par: d.par,
            }),
        }
    }

    /// Move number `n` (played at version `n`), with what it did.
    fn played(&self, n: usize) -> PlayedMove {
        let m = self.game.record().moves[n];
        PlayedMove {
            version: n as u64,
            seat: m.player,
            mv: m.mv,
            effect: self.game.effect(n).cloned(),
        }
    }

    /// The moves played from version `since` on.
    pub fn moves_since(&self, since: u64) -> Vec<PlayedMove> {
        (since as usize..self.game.record().moves.len())
            .map(|n| self.played(n))
            .collect()
    }

    /// Whether move number `version` was `mv` by `seat` (a retried move).
    pub fn played_at(&self, version: u64, seat: u8, mv: sagani_core::Move) -> bool {
        self.game.record().moves.get(version as usize) == Some(&RecordMove { player: seat, mv })
    }

    /// The game and seats as stored: the setup, then every move replayed.
    pub fn restore(saved: &SavedGame) -> Result<TableState, replay::ReplayError> {
        Ok(TableState {
            game: replay::replay(saved)?,
            seats: saved.seats.clone(),
            rematch: saved.rematch.clone(),
            rev: saved.rev,
            rated: saved.rated,
            practice: saved.practice,
            clock: saved.clock,
            started_ms: saved.started_ms,
            times: saved.moves.iter().map(|m| m.at_ms).collect(),
            ended: saved.ended,
            chats: saved.chats,
            daily: saved.daily.clone(),
            ratings: saved.ratings.clone(),
        })
    }
}

impl Table {
    /// Rebuilds a stored game by replaying its moves.
    pub fn restore(saved: &SavedGame) -> Result<Table, replay::ReplayError> {
        let state = TableState::restore(saved)?;
        Ok(Table {
            id: saved.id.clone(),
            variant: saved.variant,
            public: saved.public,
            creator: saved.creator.clone(),
            host: saved.host.clone(),
            state: Arc::new(Mutex::new(state)),
        })
    }

    pub async fn lock(&self) -> OwnedMutexGuard<TableState> {
        self.state.clone().lock_owned().await
    }
}

/// Why a rated game with these seats changes no rating (`rating::too_early`), if it does not.
pub fn not_rated(rated: bool, seats: &[SavedSeat]) -> Option<NotRated> {
    let left: Vec<Option<u64>> = seats.iter().map(|s| s.left().map(|l| l.version)).collect();
    (rated && crate::rating::too_early(&left)).then_some(NotRated::TooEarly)
}

/// The seats as everybody may see them.
pub fn seat_infos(seats: &[SavedSeat]) -> Vec<SeatInfo> {
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            SavedSeat::Human {
                token_hash,
                name,
                player,
                left,
                ..
            } => SeatInfo {
                seat: i as u8,
                kind: SeatKind::Human,
                bot: None,
                level: None,
                claimed: token_hash.is_some(),
                name: name.clone(),
                account: player.is_some() && name.is_some(),
                deleted: player.is_some() && name.is_none(),
                replaced: left.as_ref().map(|l| Replaced {
                    reason: l.reason.into(),
                    version: l.version,
                    bot: l.bot.clone(),
                    level: (l.bot == "mcts").then_some(l.level),
                }),
            },
            SavedSeat::Bot { bot, level } => SeatInfo {
                seat: i as u8,
                kind: SeatKind::Bot,
                bot: Some(bot.clone()),
                level: (bot == "mcts").then_some(*level),
                claimed: true,
                name: None,
                account: false,
                deleted: false,
                replaced: None,
            },
        })
        .collect()
}

/// Each seat's name for a game record: a person's name as the table shows it ("a deleted
/// player" for a deleted account, none if none was given), a bot's kind and level.
pub fn record_names(seats: &[SavedSeat]) -> Vec<Option<String>> {
    seats
        .iter()
        .map(|s| match s {
            SavedSeat::Human {
                name: Some(name), ..
            } => Some(name.clone()),
            SavedSeat::Human {
                name: None,
                player: Some(_),
                ..
            } => Some("a deleted player".into()),
            SavedSeat::Human { .. } => None,
            SavedSeat::Bot { bot, level } if bot == "mcts" => Some(format!("{bot}, level {level}")),
            SavedSeat::Bot { bot, .. } => Some(bot.clone()),
        })
        .collect()
}

/// A game of 2 to 4 players in its final order, first to last: the engine's ranking (strict:
/// equal scores are ordered by arrival on the track), with the seats whose player left (timed
/// out or resigned) after all the others whatever their score, in the engine's order among
/// themselves. Empty for a solo game.
pub fn standings(outcome: &Outcome, left: impl Fn(u8) -> bool) -> Vec<u8> {
    let Outcome::Ranking { ranking, .. } = outcome else {
        return Vec::new();
    };
    let gone = |s: &&u8| left(**s);
    let stayed = ranking.iter().filter(|s| !gone(s));
    stayed
        .chain(ranking.iter().filter(|s| gone(s)))
        .copied()
        .collect()
}

/// Whether the player of `seat` left (timed out or resigned).
pub fn seat_left(seats: &[SavedSeat], seat: u8) -> bool {
    seats.get(seat as usize).is_some_and(|s| s.left().is_some())
}

#[cfg(test)]
mod tests {

    use super::{standings, TableState};
    use crate::store::replay::GameLog;
    use crate::store::{SavedGame, SavedMove, SavedSeat};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use sagani_core::{Move, Outcome, Setup, Variant};

    /// A game read back from the store shows each move with the effect it had when it was
    /// played, worked out afresh by replaying; the intermezzo choice and passes have none.
    #[test]
    fn a_restored_game_lists_each_move_with_its_effect() {
        let setup = Setup::seeded(3, 11);
        let mut played = GameLog::new(&setup).unwrap();
        let mut rng = SmallRng::seed_from_u64(4);
        let mut moves = Vec::new();
        let mut expected = Vec::new();
        let (mut placements, mut others) = (0, 0);
        while !played.game().is_over() {
            let legal = played.game().legal_moves();
            // The intermezzo choice and passes whenever they may be made, so both occur.
            let mv = legal
                .iter()
                .copied()
                .find(|m| !matches!(m, Move::Place { .. }) && rng.random_bool(0.5))
                .unwrap_or_else(|| legal[rng.random_range(0..legal.len())]);
            let seat = played.game().to_act().unwrap();
            let effect = match mv {
                Move::Place { .. } => {
                    placements += 1;
                    Some(played.game().preview(mv).unwrap())
                }
                _ => {
                    others += 1;
                    None
                }
            };
            expected.push(effect);
            moves.push(SavedMove { seat, mv, at_ms: 0 });
            played.play(mv).unwrap();
        }
        assert!(placements > 50 && others > 2, "{placements} {others}");
        let saved = SavedGame {
            id: "g".into(),
            created_at: 0,
            variant: Variant::Standard,
            deck: played.record().deck.clone(),
            start_player: played.record().start_player,
            public: false,
            creator: "test".into(),
            host: None,
            rated: false,
            practice: false,
            seats: vec![
                SavedSeat::Bot {
                    bot: "random".into(),
                    level: 1,
                };
                3
            ],
            moves,
            rev: 1,
            rematch: None,
            clock: crate::time_control::TimeControl::None,
            started_ms: None,
            ended: None,
            chats: 0,
            daily: None,
            ratings: Vec::new(),
        };
        let restored = TableState::restore(&saved).unwrap();
        let listed = restored.moves_since(0);
        assert_eq!(listed.len(), expected.len());
        for (n, (m, e)) in listed.iter().zip(&expected).enumerate() {
            assert_eq!((m.version, &m.effect), (n as u64, e), "move {n}");
            assert_eq!(m.mv, saved.moves[n].mv);
        }
        // The effect of the last move is in every state too.
        let state = restored.state_for("g", None, 0);
        assert_eq!(state.last_move.as_ref(), listed.last());
        assert_eq!(
            restored.moves_since(listed.len() as u64 - 2),
            listed[listed.len() - 2..]
        );
    }

    #[test]
    fn standings_put_who_left_last_in_the_engines_order() {
        let outcome = Outcome::Ranking {
            ranking: vec![2, 0, 3, 1],
            scores: vec![40, 12, 50, 20],
        };
        assert_eq!(standings(&outcome, |_| false), vec![2, 0, 3, 1]);
        assert_eq!(standings(&outcome, |s| s == 2), vec![0, 3, 1, 2]);
        assert_eq!(standings(&outcome, |s| s == 2 || s == 1), vec![0, 3, 2, 1]);
        let solo = Outcome::SoloAll {
            score: 60,
            discs_left: 3,
            final_score: 57,
        };
        assert!(standings(&solo, |_| true).is_empty());
    }
}
