//! `mcts`: information-set Monte Carlo tree search (single observer, Cowling et al. 2012).
//!
//! Each iteration guesses the hidden draw order from what the seat knows (`PileSampler`), walks
//! one tree of the seat's information sets with that guess, adds one node, plays on with a cheap
//! policy (`playout_depth` steps, then the fitted evaluation `value` estimates the end; or to
//! the end) and backs up one return per player; each node scores its moves by the
//! return of the player who makes them. A move is only considered where the guess allows it
//! (which tiles lie in the offer depends on the draw), so counts use availability, not parent
//! visits. Hundreds of placements are legal on a turn, so a node opens its moves one at a time
//! in the order of `evaluate` (progressive widening). Every thread grows its own tree from its
//! own seed (root parallelism) and the root counts are summed; or, with `shared_tree` and a
//! budget of time, the threads share one tree (a thread walks it under a lock, counting its
//! visit at once so that the others try other moves meanwhile, and plays out without it).

use crate::aim::Aim;
use crate::clairvoyant::Beam;
use crate::hindsight::{self, Hindsight};
use crate::policy::{intermezzo_open, lateness, Policy};
use crate::race::{self, Race};
use crate::sampler::PileSampler;
use crate::value::Value;
use crate::{Analysis, Bot, Budget, Decision};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::{tile, Expect, Gain, Game, Move, Outcome, TileId, Variant, MAX_PLAYERS};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Search threads.
    pub threads: usize,
    /// Threads share one tree when the budget is a time (tree parallelism); false, or a
    /// budget of iterations alone: each thread grows its own (root parallelism), so that
    /// results repeat for a seed.
    pub shared_tree: bool,
    /// UCB exploration constant; returns lie between 0 and 1.
    pub exploration: f32,
    /// A node whose moves were on offer n times considers its best 1 + widening × √n of them.
    pub widening: f32,
    /// Moves kept per node, best first by `evaluate` (the rest are never tried).
    pub candidates: usize,
    /// Multiplayer playouts weigh this many random placements and play the best (0: all of
    /// them).
    pub playout_samples: usize,
    /// The same for solo playouts, where only the revealed tile can be placed.
    pub solo_playout_samples: usize,
    /// Thinking time when the budget names no limit.
    pub default_time: Duration,
    /// In solo, the return a playout earns for a magical symphony (75 with 25 tiles or
    /// fewer) on top of its tiles' worth: the search aims at the threshold, not only at fewer
    /// tiles.
    pub symphony_bonus: f32,
    /// How candidates are ordered and playouts play (`policy`).
    pub policy: Policy,
    /// The same in solo games.
    pub solo_policy: Policy,
    /// Order a node's candidates with the policy's positional features too (`aim`); false:
    /// only the playouts use them (a new node's ~60 placements are rated without them).
    pub tree_positional: bool,
    /// In playouts, take the intermezzo choice when what the reveal may bring (each tile the
    /// top of the pile may be, by its back, placed at its best) is worth more on average than
    /// the offer's last tile placed at its best, plus this for the tile that goes to storage;
    /// `None`: by the policy's value for the intermezzo choice, or for the hand-set policy in
    /// one playout step of 8 where it is open, whatever the tiles (`mcts-2026`'s way).
    pub intermezzo_reveal: Option<f32>,
    /// In games of 2 to 4 players, a playout stops after this many steps and the position is
    /// valued by `value` instead of by its end (0: every playout is played to the end).
    pub playout_depth: usize,
    /// The same for the standard solo game (`solo-all` playouts are always played out).
    pub solo_playout_depth: usize,
    /// The evaluation a cut playout ends with (`value`; `sagani train --value`).
    pub value: Value,
    /// Keep the tree after a decision and search on from the node the game reached, when the
    /// bot is told the moves played (`Bot::observe`; the arena tells, a server's bots are
    /// made afresh for each decision).
    pub reuse: bool,
    /// In the standard solo game, search by hindsight (`hindsight`) among this many
    /// placements instead of growing a tree (0: the tree).
    pub solo_hindsight: usize,
    /// The hindsight search's solver: displays kept and placements tried at each step.
    pub hindsight_width: usize,
    pub hindsight_branch: usize,
    /// Solo: search by a race of rollouts on common guesses (`race`) instead of the tree,
    /// dropping a placement `solo_race` standard errors behind the leader (0: the tree).
    pub solo_race: f32,
    /// Rounds of the race before a placement may leave it.
    pub race_min: usize,
    /// Solo: the tree's root placements are tried on common guesses of the pile, the k-th
    /// visit of each on the k-th guess, so that the luck of the draw drops out of their
    /// comparison as in the race, while the tree below still plays the tiles that come.
    pub solo_paired: bool,
    /// Solo: choose among a node's tried moves by PUCT, each move's exploration weighed by
    /// the policy's chance for it (a softmax of its value over `puct_temperature`), with this
    /// constant (0: UCB with `exploration`).
    pub solo_puct: f32,
    pub puct_temperature: f32,
    /// Solo: a cut playout (or a leaf) is valued by this value learned by temporal
    /// differences (`td`, `sagani train --td`) instead of by `value`, after `solo_td_depth`
    /// steps instead of `solo_playout_depth`.
    pub solo_td: Option<std::sync::Arc<crate::td::Td>>,
    /// With `solo_td`: a solo playout's steps before the value ends it (0: the leaf itself).
    pub solo_td_depth: usize,
    /// Solo: the tree's root keeps only this many placements, those the learned value
    /// (`solo_td`, else the shipped one) rates best `expecti_depth` placements deep with the
    /// chance of every draw counted out (`td::Td::expectimax`; 0: all).
    pub solo_expecti: usize,
    pub expecti_depth: u8,
    /// Deeper than two placements: how many of the root's placements, and of each later
    /// tile's for each back the tile after it shows, are searched on (`td::Expecti`).
    pub expecti_root_width: usize,
    pub expecti_width: usize,
    /// Solo: each root placement starts with this many visits worth what the learned value
    /// rates it `expecti_depth` placements deep, and the root's candidates are taken in that
    /// order (0: off), so the tree's returns and the value's are weighed together.
    pub expecti_prior: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(8)),
            // One tree of 1.6 times the iterations did no better than two (2 players at
            // 250 ms: 90 pairs 20 won, 50 split, 20 lost; solo at 1 s: 84 of 100 symphonies).
            shared_tree: false,
            exploration: 0.4,
            widening: 1.0,
            candidates: 48,
            // Every placement weighed in every playout step, as in solo: half the iterations
            // of 6 random ones, and much better games (SPRT against mcts-2026 at 100 and
            // 250 ms: H1 after 9 pairs, 16 of 18 games won; docs/bots.md).
            playout_samples: 0,
            solo_playout_samples: 0,
            default_time: Duration::from_millis(1000),
            // Solo symphonies on 100 decks at 250 ms: 81% with it, 73% without.
            symphony_bonus: 0.4,
            // Fitted by `sagani train` (docs/bots.md): SPRT against the hand-set one at
            // 250 ms, H1 after 58 pairs, Elo +92 [+36, +153].
            policy: Policy::trained().clone(),
            // Tuned by its own solo games (`sagani train --solo`), with the solo evaluation
            // fitted to it: at 1 s, 88% symphonies on 100 decks (mean tiles 22.84) against
            // 81% (23.06) with the policy above, and 87% (23.02) against 80% (23.32) on 100
            // others (docs/bots.md).
            solo_policy: Policy::solo_trained().clone(),
            tree_positional: true,
            // SPRT against mcts without it at 250 ms: H1 after 71 pairs, Elo +90 [+36, +149].
            reuse: true,
            intermezzo_reveal: None,
            // Cut playouts valued by the fitted evaluation: SPRT against whole playouts at
            // 250 ms, H1 after 33 pairs, Elo +228 [+122, +395]; 16 steps lost to 8 (-120).
            playout_depth: 8,
            // Solo, 100 decks at 250 ms: symphonies 85% at 14 steps, 79% at 8, 77% played
            // out, mean tiles to 75 23.2, 23.3, 23.7 (docs/bots.md).
            solo_playout_depth: 14,
            value: Value::trained().clone(),
            solo_hindsight: 0,
            hindsight_width: 1,
            hindsight_branch: 4,
            solo_race: 0.0,
            race_min: 16,
            // At 5,000 iterations a move, 0.31 tiles fewer to 75 over 600 decks (standard
            // error 0.095) at the same speed; at 1 s within the spread (docs/bots.md).
            solo_paired: true,
            solo_puct: 0.0,
            puct_temperature: 1.0,
            // At 5,000 iterations 0.32 tiles fewer to 75 than the evaluation after 14 steps,
            // at 1.75 times the speed, but at 1 s no better (docs/bots.md): an option.
            solo_td: None,
            solo_td_depth: 4,
            // The root kept to the value's 10 best: 0.27 tiles fewer at 5,000 iterations,
            // at 1 s no better (84 of 100; docs/bots.md): an option.
            solo_expecti: 0,
            expecti_depth: 2,
            expecti_root_width: 10,
            expecti_width: 3,
            // 0.38 tiles fewer at 5,000 iterations with 100 visits, 0.24 at 20,000 with 400,
            // at 1 s with 800 no better (docs/bots.md): an option.
            expecti_prior: 0,
        }
    }
}

impl MctsConfig {
    /// The playouts' samples for the game's player count.
    pub fn playout_samples_for(&self, g: &Game) -> usize {
        if g.players() == 1 {
            self.solo_playout_samples
        } else {
            self.playout_samples
        }
    }

    /// The policy for the game's player count.
    pub fn policy_for(&self, g: &Game) -> &Policy {
        if g.players() == 1 {
            &self.solo_policy
        } else {
            &self.policy
        }
    }

    /// Sets each of `NAME=VALUE/NAME=VALUE/…` (as in `mcts/policy=runs/p.json/reuse=true`): a
    /// part without `=` belongs to the value before it, so that paths keep their slashes.
    pub fn set_all(&mut self, settings: &str) -> Result<(), String> {
        let mut parts: Vec<String> = Vec::new();
        for part in settings.split('/') {
            match parts.last_mut() {
                Some(last) if !part.contains('=') => {
                    last.push('/');
                    last.push_str(part);
                }
                _ => parts.push(part.to_string()),
            }
        }
        parts.iter().try_for_each(|p| self.set(p))
    }

    /// Sets one setting from `NAME=VALUE` (for tuning from the command line).
    pub fn set(&mut self, setting: &str) -> Result<(), String> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("{setting:?}: a setting is NAME=VALUE"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{setting:?}: {e}");
        match name.trim() {
            "exploration" => self.exploration = value.parse().map_err(|e| bad(&e))?,
            "widening" => self.widening = value.parse().map_err(|e| bad(&e))?,
            "candidates" => self.candidates = value.parse().map_err(|e| bad(&e))?,
            "playout_samples" => self.playout_samples = value.parse().map_err(|e| bad(&e))?,
            "solo_playout_samples" => {
                self.solo_playout_samples = value.parse().map_err(|e| bad(&e))?
            }
            "symphony_bonus" => self.symphony_bonus = value.parse().map_err(|e| bad(&e))?,
            "reuse" => self.reuse = value.parse().map_err(|e| bad(&e))?,
            "shared_tree" => self.shared_tree = value.parse().map_err(|e| bad(&e))?,
            "tree_positional" => self.tree_positional = value.parse().map_err(|e| bad(&e))?,
            "playout_depth" => self.playout_depth = value.parse().map_err(|e| bad(&e))?,
            "solo_playout_depth" => {
                self.solo_playout_depth = value.parse().map_err(|e| bad(&e))?
            }
            "value" => {
                self.value = match value {
                    "trained" => Value::trained().clone(),
                    path => Value::load(path).map_err(|e| bad(&e))?,
                }
            }
            "intermezzo_reveal" => {
                self.intermezzo_reveal = match value {
                    "off" => None,
                    v => Some(v.parse().map_err(|e| bad(&e))?),
                }
            }
            "solo_hindsight" => self.solo_hindsight = value.parse().map_err(|e| bad(&e))?,
            "hindsight_width" => self.hindsight_width = value.parse().map_err(|e| bad(&e))?,
            "hindsight_branch" => {
                self.hindsight_branch = value.parse().map_err(|e| bad(&e))?
            }
            "solo_race" => self.solo_race = value.parse().map_err(|e| bad(&e))?,
            "race_min" => self.race_min = value.parse().map_err(|e| bad(&e))?,
            "solo_paired" => self.solo_paired = value.parse().map_err(|e| bad(&e))?,
            "solo_puct" => {
                let c: f32 = value.parse().map_err(|e| bad(&e))?;
                if !(c >= 0.0 && c.is_finite()) {
                    return Err(bad(&"the constant is 0 (off) or more"));
                }
                self.solo_puct = c;
            }
            "puct_temperature" => {
                let t: f32 = value.parse().map_err(|e| bad(&e))?;
                if !(t > 0.0 && t.is_finite()) {
                    return Err(bad(&"the temperature is above 0"));
                }
                self.puct_temperature = t;
            }
            "solo_td" => {
                self.solo_td = match value {
                    "none" => None,
                    "trained" => Some(crate::td::Td::trained().clone()),
                    path => Some(std::sync::Arc::new(
                        crate::td::Td::load(path).map_err(|e| bad(&e))?,
                    )),
                }
            }
            "solo_td_depth" => self.solo_td_depth = value.parse().map_err(|e| bad(&e))?,
            "solo_expecti" => self.solo_expecti = value.parse().map_err(|e| bad(&e))?,
            "expecti_depth" => self.expecti_depth = value.parse().map_err(|e| bad(&e))?,
            "expecti_root_width" => {
                self.expecti_root_width = value.parse().map_err(|e| bad(&e))?
            }
            "expecti_width" => self.expecti_width = value.parse().map_err(|e| bad(&e))?,
            "expecti_prior" => self.expecti_prior = value.parse().map_err(|e| bad(&e))?,
            "policy" => self.policy = Policy::named(value).map_err(|e| bad(&e))?,
            "solo_policy" => self.solo_policy = Policy::named(value).map_err(|e| bad(&e))?,
            other => {
                return Err(format!(
                    "{other:?} is not an mcts setting: exploration, widening, candidates, \
                     playout_samples, solo_playout_samples, symphony_bonus, policy, solo_policy, reuse, \
                     shared_tree, tree_positional, intermezzo_reveal, playout_depth, solo_playout_depth, value, solo_hindsight, \
                     hindsight_width, hindsight_branch, solo_race, race_min, solo_paired, solo_puct, puct_temperature, solo_td, solo_td_depth, \
                     solo_expecti, expecti_depth, expecti_root_width, expecti_width, expecti_prior"
                ))
            }
        }
        Ok(())
    }
}

/// What the last search did.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub iterations: u64,
    pub elapsed: Duration,
    /// Root moves, most visited first.
    pub root: Vec<Analysis>,
    /// Of the root's visits, those a kept tree brought from earlier decisions (`reuse`).
    pub reused: u64,
}

pub struct Mcts {
    rng: ChaCha8Rng,
    cfg: MctsConfig,
    pub last: SearchStats,
    kept: Option<Kept>,
}

/// The trees of the last search (one shared, or one a thread), what the displays held then,
/// and the moves played since, in order, with their seats.
struct Kept {
    trees: Vec<Vec<Node>>,
    displays: Vec<Vec<TileId>>,
    since: Vec<(u8, Move)>,
}

impl Kept {
    /// Each tree re-rooted at the node of the moves played since, if the view is where they
    /// lead: every display is the old one with the tiles its seat placed since.
    fn follow(self, view: &View, legal: &[Move]) -> Vec<Vec<Node>> {
        let mut displays = self.displays;
        for &(seat, mv) in &self.since {
            if let (Move::Place { tile, .. }, Some(d)) = (mv, displays.get_mut(seat as usize)) {
                d.push(tile);
            }
        }
        let now: Vec<Vec<TileId>> = view
            .seats
            .iter()
            .map(|s| s.display.iter().map(|t| t.tile).collect())
            .collect();
        if self.since.is_empty() || now != displays {
            return Vec::new();
        }
        let path: Vec<Move> = self.since.iter().map(|(_, mv)| *mv).collect();
        self.trees
            .into_iter()
            .filter_map(|nodes| reroot(nodes, &path, legal))
            .collect()
    }
}

/// The subtree at the end of `path` as a tree of its own, its root's moves cut to `legal`.
fn reroot(mut nodes: Vec<Node>, path: &[Move], legal: &[Move]) -> Option<Vec<Node>> {
    let mut at = 0u32;
    for mv in path {
        let ch = nodes[at as usize].children.iter().find(|c| c.mv == *mv)?;
        if ch.node == NO_NODE {
            return None;
        }
        at = ch.node;
    }
    let mut out = vec![Node::new()];
    let mut todo = vec![(at, 0u32)];
    while let Some((old, new)) = todo.pop() {
        let mut node = std::mem::replace(&mut nodes[old as usize], Node::new());
        for ch in node.children.iter_mut().filter(|c| c.node != NO_NODE) {
            let id = out.len() as u32;
            out.push(Node::new());
            todo.push((ch.node, id));
            ch.node = id;
        }
        out[new as usize] = node;
    }
    // The root's candidates are made again, for the caller's legal moves.
    out[0].children.retain(|c| legal.contains(&c.mv));
    out[0].sig = (None, 0);
    Some(out)
}

impl Mcts {
    pub fn new(seed: u64, cfg: MctsConfig) -> Mcts {
        Mcts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            cfg,
            last: SearchStats::default(),
            kept: None,
        }
    }

    /// `solo_expecti`, `expecti_prior`: the solo root's placements as the learned value
    /// rates them, best first (None where neither is set or the game is not solo).
    fn rated_by_value(&self, base: &Game, view: &View, legal: &[Move]) -> Option<Vec<(Move, f32)>> {
        if (self.cfg.solo_expecti == 0 && self.cfg.expecti_prior == 0)
            || base.variant() != Variant::Solo
        {
            return None;
        }
        let td = self
            .cfg
            .solo_td
            .as_deref()
            .unwrap_or(crate::td::Td::trained());
        let e = crate::td::Expecti {
            depth: self.cfg.expecti_depth,
            root_width: self.cfg.expecti_root_width,
            width: self.cfg.expecti_width,
        };
        let mut s = crate::td::Scratch::default();
        let mut rated = td.expectimax(view, &e, &mut s, self.cfg.symphony_bonus);
        rated.retain(|r| legal.contains(&r.0));
        Some(rated)
    }

    /// `solo_expecti`: the solo root's placements the value rates best, where there are more
    /// than it keeps.
    fn kept_by_value(&self, rated: Option<&[(Move, f32)]>, legal: &[Move]) -> Option<Vec<Move>> {
        let keep = self.cfg.solo_expecti;
        let rated = rated?;
        if keep == 0 || legal.len() <= keep {
            return None;
        }
        Some(rated.iter().map(|r| r.0).take(keep).collect())
    }

    /// The solo searches without a tree, when one is set (`solo_hindsight`, `solo_race`):
    /// the root's moves, best first, and the iterations they count.
    fn search_solo_without_tree(
        &mut self,
        base: &Game,
        sampler: &PileSampler,
        legal: &[Move],
        deadline: Option<Instant>,
        budget: Budget,
    ) -> Option<(Vec<Analysis>, u64)> {
        if base.variant() != Variant::Solo {
            return None;
        }
        if self.cfg.solo_hindsight > 0 {
            let set = Hindsight {
                candidates: self.cfg.solo_hindsight,
                beam: Beam {
                    width: self.cfg.hindsight_width.max(1),
                    branch: self.cfg.hindsight_branch.max(1),
                },
            };
            return Some(hindsight::search(
                base,
                sampler,
                legal,
                set,
                &self.cfg.solo_policy,
                self.cfg.symphony_bonus,
                deadline,
                budget.iterations,
                &mut self.rng,
            ));
        }
        if self.cfg.solo_race > 0.0 {
            let race = Race {
                z: self.cfg.solo_race,
                min_rounds: self.cfg.race_min.max(2),
            };
            let mut walker = Walker::new(&self.cfg, self.rng.next_u64(), legal);
            return Some(race::search(
                base,
                sampler,
                &mut walker,
                race,
                deadline,
                budget.iterations,
                self.cfg.symphony_bonus,
            ));
        }
        None
    }

    /// Searches the position of `view` and returns the root's moves, most visited first.
    pub fn search(&mut self, view: &View, legal: &[Move], budget: Budget) -> SearchStats {
        let start = Instant::now();
        let sampler = PileSampler::new(view);
        let base = sampler.any_game(view).expect("views rebuild");
        let threads = self.cfg.threads.max(1);
        let time = match (budget.time, budget.iterations) {
            (None, None) => Some(self.cfg.default_time),
            (t, _) => t,
        };
        let deadline = time.map(|t| start + t);
        let rated = self.rated_by_value(&base, view, legal);
        let kept = self.kept_by_value(rated.as_deref(), legal);
        let legal = kept.as_deref().unwrap_or(legal);
        let prior = match &rated {
            Some(r) if self.cfg.expecti_prior > 0 => r.as_slice(),
            _ => &[],
        };
        if let Some((root, iterations)) =
            self.search_solo_without_tree(&base, &sampler, legal, deadline, budget)
        {
            return SearchStats {
                iterations,
                elapsed: start.elapsed(),
                root,
                reused: 0,
            };
        }
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.next_u64()).collect();
        let cfg = &self.cfg;
        let shared = cfg.shared_tree && budget.iterations.is_none();
        let trees = if shared { 1 } else { threads };
        let mut starts = match self.kept.take() {
            Some(kept) if cfg.reuse => kept.follow(view, legal),
            _ => Vec::new(),
        };
        starts.truncate(trees);
        starts.resize_with(trees, || vec![Node::new()]);
        let reused = starts
            .iter()
            .flat_map(|nodes| &nodes[0].children)
            .map(|c| c.n as u64)
            .sum();
        if !prior.is_empty() {
            // A kept root's placements get the value's visits too (after `reused`, which
            // counts the tree's own), and its candidates are made again in the value's order.
            let m = cfg.expecti_prior;
            for root in starts.iter_mut().map(|nodes| &mut nodes[0]) {
                root.sig = (None, 0);
                for c in &mut root.children {
                    if let Some(r) = prior.iter().find(|r| r.0 == c.mv) {
                        c.n += m;
                        c.w += m as f32 * r.1;
                    }
                }
            }
        }
        let locked: Vec<Mutex<Vec<Node>>> = starts.into_iter().map(Mutex::new).collect();
        let iterations: u64 = std::thread::scope(|s| {
            let handles: Vec<_> = seeds
                .iter()
                .enumerate()
                .map(|(i, &seed)| {
                    let quota = budget.iterations.map(|n| {
                        let n = n.max(1);
                        n / threads as u64 + ((i as u64) < n % threads as u64) as u64
                    });
                    let (base, sampler) = (&base, &sampler);
                    let nodes = &locked[i % trees];
                    s.spawn(move || {
                        let mut walker = Walker::new(cfg, seed, legal);
                        walker.root_worth = prior;
                        let mut done = 0u64;
                        while quota.is_none_or(|q| done < q) {
                            if done.is_multiple_of(16)
                                && deadline.is_some_and(|d| Instant::now() >= d)
                            {
                                break;
                            }
                            walker.iterate(nodes, base, sampler);
                            done += 1;
                        }
                        done
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("search threads do not panic"))
                .sum()
        });
        let grown: Vec<Vec<Node>> = locked
            .into_iter()
            .map(|m| m.into_inner().expect("search threads do not panic"))
            .collect();
        let mut root: Vec<Analysis> = Vec::new();
        let mut wins: Vec<f64> = Vec::new();
        for nodes in &grown {
            for c in &nodes[0].children {
                match root.iter().position(|a| a.mv == c.mv) {
                    Some(i) => {
                        root[i].visits += c.n as u64;
                        wins[i] += c.w as f64;
                    }
                    None => {
                        root.push(Analysis {
                            mv: c.mv,
                            value: 0.0,
                            visits: c.n as u64,
                        });
                        wins.push(c.w as f64);
                    }
                }
            }
        }
        self.kept = cfg.reuse.then(|| Kept {
            trees: grown,
            displays: view
                .seats
                .iter()
                .map(|s| s.display.iter().map(|t| t.tile).collect())
                .collect(),
            since: Vec::new(),
        });
        for (a, w) in root.iter_mut().zip(&wins) {
            a.value = if a.visits > 0 {
                w / a.visits as f64
            } else {
                0.0
            };
        }
        root.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        SearchStats {
            iterations,
            elapsed: start.elapsed(),
            root,
            reused,
        }
    }
}

impl Bot for Mcts {
    fn name(&self) -> String {
        "mcts".into()
    }

    fn observe(&mut self, seat: u8, mv: Move) {
        if let Some(kept) = &mut self.kept {
            kept.since.push((seat, mv));
        }
    }

    fn choose(&mut self, view: &View, legal: &[Move], budget: Budget) -> Decision {
        if legal.len() == 1 {
            return legal[0].into();
        }
        let stats = self.search(view, legal, budget);
        let best = stats.root.first().map_or(legal[0], |a| a.mv);
        let comment = stats.root.first().map(|a| {
            format!(
                "{} iterations, value {:.3} over {} visits",
                stats.iterations, a.value, a.visits
            )
        });
        let reason = PileSampler::new(view)
            .any_game(view)
            .ok()
            .map(|g| crate::explain::reason(&g, best, stats.root.first()));
        self.last = stats;
        Decision {
            mv: best,
            comment,
            fault: None,
            reason,
        }
    }

    fn analyse(
        &mut self,
        view: &View,
        legal: &[Move],
        budget: Budget,
        top: usize,
    ) -> Vec<Analysis> {
        let stats = self.search(view, legal, budget);
        let mut root = stats.root.clone();
        self.last = stats;
        root.truncate(top);
        root
    }
}

const NO_NODE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Child {
    mv: Move,
    /// Visits, summed return of the player who makes the move, and availability count.
    n: u32,
    w: f32,
    avail: u32,
    node: u32,
    /// The policy's chance for the move among the node's candidates (`solo_puct`).
    prior: f32,
}

/// One information set: the moves seen so far and the candidates for the last tile set seen.
struct Node {
    /// The phase and the tiles on offer (or stored, or revealed) the candidates were made for.
    sig: (Option<Expect>, u128),
    cands: Vec<Move>,
    /// The policy's chance for each candidate (`solo_puct`; empty without it).
    priors: Vec<f32>,
    children: Vec<Child>,
}

impl Node {
    fn new() -> Node {
        Node {
            sig: (None, 0),
            cands: Vec::new(),
            priors: Vec::new(),
            children: Vec::new(),
        }
    }
}

/// The tiles the player to act may choose from, as bits.
fn tile_bits(g: &Game) -> u128 {
    let tiles: &[TileId] = match g.expects() {
        Some(Expect::Turn) => g.offer(),
        Some(Expect::IntermezzoPick) => g.intermezzo_storage(),
        _ => return g.revealed().map_or(0, |t| 1u128 << t),
    };
    tiles.iter().fold(0, |b, &t| b | 1u128 << t)
}

fn available(mv: &Move, tiles: u128) -> bool {
    match *mv {
        Move::Place { tile, .. } | Move::Intermezzo { tile } => tiles >> tile & 1 == 1,
        Move::Pass => true,
    }
}

/// Where a walk down the tree stands.
enum Walk {
    /// To go on from this node, with the candidates made for it (if it needed them).
    From(u32, Option<Vec<Move>>),
    /// This node needs candidates for the tiles of the guess.
    Needs(u32),
    /// At the node added, or where the tree ends for the guess.
    Done,
}

/// One thread's walks through a tree, with its own generator and scratch space.
pub(crate) struct Walker<'a> {
    cfg: &'a MctsConfig,
    rng: ChaCha8Rng,
    /// The root's moves are the caller's legal moves, whatever the guess.
    root_legal: &'a [Move],
    pile: Vec<TileId>,
    gains: Vec<(Move, Gain)>,
    aim: Aim,
    path: Vec<(u32, u32, u8)>,
    /// The policies that order candidates (games of 2 to 4 players, solo): the configured
    /// ones, or without their positional weights (`tree_positional`).
    order: [Policy; 2],
    /// `solo_paired`: the guesses made so far, in order, and each root child's visits in
    /// this search (the index of the guess its next visit plays on).
    guesses: Vec<Vec<TileId>>,
    root_visits: Vec<u32>,
    /// The priors of the candidates made last (`solo_puct`).
    priors: Vec<f32>,
    /// Scratch for `solo_td`.
    td: crate::td::Scratch,
    /// `expecti_prior`: the root's placements as the learned value rates them, best first.
    root_worth: &'a [(Move, f32)],
}

impl<'a> Walker<'a> {
    pub(crate) fn new(cfg: &'a MctsConfig, seed: u64, root_legal: &'a [Move]) -> Walker<'a> {
        Walker {
            cfg,
            rng: ChaCha8Rng::seed_from_u64(seed),
            root_legal,
            pile: Vec::new(),
            gains: Vec::new(),
            aim: Aim::default(),
            path: Vec::new(),
            order: [&cfg.policy, &cfg.solo_policy].map(|p| match cfg.tree_positional {
                true => p.clone(),
                false => p.without_positional(),
            }),
            guesses: Vec::new(),
            root_visits: Vec::new(),
            priors: Vec::new(),
            td: crate::td::Scratch::default(),
            root_worth: &[],
        }
    }

    pub(crate) fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// The moves worth trying here, best first by `evaluate`, with the intermezzo choice or the
    /// pass second so that it is always among the first tried.
    pub(crate) fn candidates(&mut self, g: &Game, root: bool) -> Vec<Move> {
        let policy = &self.order[(g.players() == 1) as usize];
        let root_legal = self.root_legal;
        let mut rated: Vec<(Move, f32)> = if root && !self.root_worth.is_empty() {
            self.root_worth
                .iter()
                .filter(|(mv, _)| root_legal.contains(mv))
                .copied()
                .collect()
        } else {
            // The gains only the policy needs.
            g.placement_gains(&mut self.gains);
            policy
                .rate(g, &self.gains, &mut self.aim)
                .filter(|(mv, _)| !root || root_legal.contains(mv))
                .collect()
        };
        rated.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut cands: Vec<Move> = rated
            .iter()
            .take(self.cfg.candidates)
            .map(|(mv, _)| *mv)
            .collect();
        // Solo only, where no intermezzo choice or pass joins the candidates below: the
        // priors follow the candidates' order.
        self.priors.clear();
        if self.cfg.solo_puct > 0.0 && g.players() == 1 {
            let t = self.cfg.puct_temperature;
            let top = rated.first().map_or(0.0, |r| r.1);
            self.priors.extend(
                rated
                    .iter()
                    .take(cands.len())
                    .map(|r| ((r.1 - top) / t).exp()),
            );
            let sum: f32 = self.priors.iter().sum();
            self.priors.iter_mut().for_each(|p| *p /= sum);
        }
        let other = match g.expects() {
            Some(Expect::Turn) if intermezzo_open(g) => {
                Some(Move::Intermezzo { tile: g.offer()[0] })
            }
            Some(Expect::IntermezzoPick) => Some(Move::Pass),
            _ => None,
        };
        if let Some(mv) = other.filter(|mv| !root || self.root_legal.contains(mv)) {
            // The hand-set policy tries it second; a fitted one where its value puts it (but
            // always among the candidates).
            let at = match policy.other_value(mv) {
                None => 1,
                Some(v) => rated.iter().take_while(|(_, r)| *r > v).count(),
            };
            cands.insert(at.min(cands.len()), mv);
        }
        cands
    }

    /// One iteration: a guess of the pile, a walk down the tree (under its lock), a playout
    /// (without it) and the return backed up. A node's candidates for a new set of tiles are
    /// made without the lock too: the walk stops there and goes on once they are made.
    fn iterate(&mut self, tree: &Mutex<Vec<Node>>, base: &Game, sampler: &PileSampler) {
        let mut g = base.clone();
        sampler.sample(&mut self.rng, &mut self.pile);
        g.set_draw_pile(&self.pile)
            .expect("samples hold the pile's tiles");
        self.path.clear();
        let mut walk = Walk::From(0, None);
        while let Walk::From(node, cands) = walk {
            walk = self.descend(
                &mut tree.lock().expect("search threads do not panic"),
                &mut g,
                node,
                cands,
                sampler,
            );
            if let Walk::Needs(node) = walk {
                walk = Walk::From(node, Some(self.candidates(&g, node == 0)));
            }
        }
        let r = self.play_out(g);
        let mut nodes = tree.lock().expect("search threads do not panic");
        for &(node, idx, player) in &self.path {
            nodes[node as usize].children[idx as usize].w += r[player as usize];
        }
    }

    /// Walks the tree from `node` with the guess `g`, playing its moves, to the first node
    /// it adds (or to where the tree ends for this guess), or to a node that has no candidates
    /// for the tiles `g` has there (`Walk::Needs`; `cands`: those of `node`, made since). Each
    /// move walked counts its visit now, its return later: meanwhile other threads see it as
    /// a visit that earned nothing (a virtual loss) and try other moves.
    fn descend(
        &mut self,
        nodes: &mut Vec<Node>,
        g: &mut Game,
        mut node: u32,
        mut cands: Option<Vec<Move>>,
        sampler: &PileSampler,
    ) -> Walk {
        while let Some(player) = g.to_act() {
            let tiles = tile_bits(g);
            let sig = (g.expects(), tiles);
            if nodes[node as usize].sig != sig {
                let Some(cands) = cands.take() else {
                    return Walk::Needs(node);
                };
                let n = &mut nodes[node as usize];
                n.sig = sig;
                n.cands = cands;
                n.priors.clone_from(&self.priors);
            }
            cands = None;
            let c = self.cfg.exploration;
            let n = &mut nodes[node as usize];
            // Widen by how often this set of moves was on offer, not by all visits: where the
            // offer was freshly drawn, each guess brings other tiles.
            let mut open = 0;
            let mut seen = 0;
            for ch in n.children.iter_mut().filter(|ch| available(&ch.mv, tiles)) {
                seen = seen.max(ch.avail);
                ch.avail += 1;
                open += 1;
            }
            let allowed = 1 + (self.cfg.widening * (seen as f32).sqrt()) as usize;
            let fresh = if open < allowed {
                n.cands
                    .iter()
                    .find(|mv| !n.children.iter().any(|ch| ch.mv == **mv))
                    .copied()
            } else {
                None
            };
            let puct = if g.players() == 1 {
                self.cfg.solo_puct
            } else {
                0.0
            };
            let (idx, new) = match fresh {
                Some(mv) => {
                    // Looked up only where there are priors (`solo_puct`).
                    let prior = match n.priors.is_empty() {
                        true => 0.0,
                        false => n
                            .cands
                            .iter()
                            .position(|c| *c == mv)
                            .and_then(|i| n.priors.get(i))
                            .copied()
                            .unwrap_or(0.0),
                    };
                    // `expecti_prior`: the value's worth as visits already made.
                    let (visits, worth) = match node {
                        0 => self
                            .root_worth
                            .iter()
                            .find(|r| r.0 == mv)
                            .map_or((0, 0.0), |r| {
                                let m = self.cfg.expecti_prior;
                                (m, m as f32 * r.1)
                            }),
                        _ => (0, 0.0),
                    };
                    n.children.push(Child {
                        mv,
                        n: visits,
                        w: worth,
                        avail: 1,
                        node: NO_NODE,
                        prior,
                    });
                    (n.children.len() - 1, true)
                }
                None => {
                    let mut best = (usize::MAX, f32::NEG_INFINITY);
                    for (i, ch) in n.children.iter().enumerate() {
                        if !available(&ch.mv, tiles) {
                            continue;
                        }
                        let score = if ch.n == 0 {
                            f32::INFINITY
                        } else if puct > 0.0 {
                            ch.w / ch.n as f32
                                + puct * ch.prior * (ch.avail as f32).sqrt() / (1 + ch.n) as f32
                        } else {
                            ch.w / ch.n as f32 + c * ((ch.avail as f32).ln() / ch.n as f32).sqrt()
                        };
                        if score > best.1 {
                            best = (i, score);
                        }
                    }
                    if best.0 == usize::MAX {
                        // Nothing tried here fits this guess and every candidate is open:
                        // play on without the tree.
                        break;
                    }
                    (best.0, false)
                }
            };
            n.children[idx].n += 1;
            let mv = n.children[idx].mv;
            self.path.push((node, idx as u32, player));
            if node == 0 && self.cfg.solo_paired && g.players() == 1 {
                self.play_on_common_guess(g, idx, sampler);
            }
            g.play(mv)
                .expect("tree moves are legal in every guess that allows them");
            if new {
                break;
            }
            let child = nodes[node as usize].children[idx].node;
            node = if child == NO_NODE {
                let id = nodes.len() as u32;
                nodes.push(Node::new());
                nodes[node as usize].children[idx].node = id;
                id
            } else {
                child
            };
        }
        Walk::Done
    }

    /// `solo_paired`: puts the guess of the pile that root child `idx`'s visit plays on
    /// into `g` (still at the root): its k-th visit in this search gets the k-th guess, the
    /// same for every child. The root's moves place the revealed tile, known whatever the
    /// guess, so the guess may change before the move is played.
    fn play_on_common_guess(&mut self, g: &mut Game, idx: usize, sampler: &PileSampler) {
        if self.root_visits.len() <= idx {
            self.root_visits.resize(idx + 1, 0);
        }
        let k = self.root_visits[idx] as usize;
        self.root_visits[idx] += 1;
        while self.guesses.len() <= k {
            let mut pile = Vec::new();
            sampler.sample(&mut self.rng, &mut pile);
            self.guesses.push(pile);
        }
        g.set_draw_pile(&self.guesses[k])
            .expect("samples hold the pile's tiles");
    }

    /// Plays on from `g` with the playout policy and returns each player's return: from the
    /// end, or from the evaluation where the playout is cut.
    pub(crate) fn play_out(&mut self, mut g: Game) -> [f32; MAX_PLAYERS] {
        let samples = self.cfg.playout_samples_for(&g);
        let td = self
            .cfg
            .solo_td
            .as_ref()
            .filter(|_| g.players() == 1 && Value::evaluates(&g));
        let depth = match g.players() {
            _ if !Value::evaluates(&g) => 0,
            1 if td.is_some() => self.cfg.solo_td_depth,
            1 => self.cfg.solo_playout_depth,
            _ => self.cfg.playout_depth,
        };
        // With `solo_td`, 0 steps values the leaf itself.
        let depth = if depth == 0 && td.is_none() {
            usize::MAX
        } else {
            depth
        };
        let policy = self.cfg.policy_for(&g);
        let mut steps = 0;
        while steps < depth
            && playout_step(
                &mut g,
                &mut self.rng,
                samples,
                policy,
                self.cfg.intermezzo_reveal,
                &mut self.gains,
                &mut self.aim,
            )
        {
            steps += 1;
        }
        if g.is_over() {
            returns(&g, self.cfg.symphony_bonus)
        } else if let Some(td) = td {
            [td.value(&g, &mut self.td); MAX_PLAYERS]
        } else {
            self.cfg
                .value
                .returns(&g, self.cfg.symphony_bonus, &mut self.aim)
        }
    }
}

/// The playout policy: the best placement by `policy` among `samples` random ones (among
/// all of them when `samples` is 0); the intermezzo choice when the policy values it above the
/// best placement (or, with `reveal`, when the reveal looks better than the offer's last
/// tile; with neither, now and then); an intermezzo tile when it is worth more than passing.
pub(crate) fn playout_step(
    g: &mut Game,
    rng: &mut ChaCha8Rng,
    samples: usize,
    policy: &Policy,
    reveal: Option<f32>,
    gains: &mut Vec<(Move, Gain)>,
    aim: &mut Aim,
) -> bool {
    let Some(seat) = g.to_act() else { return false };
    let expects = g.expects().expect("someone acts");
    let intermezzo = intermezzo_open(g);
    let by_chance = policy.intermezzo.is_none() && reveal.is_none();
    if intermezzo && by_chance && rng.random_range(0..8) == 0 {
        let tile = g.offer()[0];
        g.play(Move::Intermezzo { tile })
            .expect("intermezzo is open");
        return true;
    }
    let late = lateness(g);
    let mut best = (Move::Pass, f32::NEG_INFINITY);
    if samples == 0 {
        g.placement_gains(gains);
        if let Some(b) = policy.best(g, gains, aim) {
            best = b;
        }
    } else {
        let revealed = [g.revealed().unwrap_or(0)];
        let tiles: &[TileId] = match expects {
            Expect::Turn => g.offer(),
            Expect::IntermezzoPick => g.intermezzo_storage(),
            Expect::PlaceDrawn | Expect::PlaceRevealed => &revealed,
        };
        let display = g.display(seat);
        for _ in 0..samples {
            let tile = tiles[rng.random_range(0..tiles.len())];
            let cell = display.open_cell(rng.random_range(0..display.open_len()));
            let mv = Move::place(tile, cell, rng.random_range(0..4));
            // Sampled placements are for many players, whose policy has no positional
            // weights.
            let v = policy.value(&g.gain(mv).expect("open cells are legal"), late);
            if v > best.1 {
                best = (mv, v);
            }
        }
    }
    if intermezzo {
        let value = match (reveal, policy.intermezzo) {
            (Some(bonus), _) => Some(reveal_value(g, rng, policy, late, gains) + bonus),
            (None, v) => v,
        };
        if let Some(v) = value.filter(|v| *v > best.1) {
            best = (Move::Intermezzo { tile: g.offer()[0] }, v);
        }
    }
    if expects == Expect::IntermezzoPick && best.1 <= policy.pass {
        best.0 = Move::Pass;
    }
    g.play(best.0).expect("playout moves are legal");
    true
}

/// The most tiles `reveal_value` weighs.
const REVEAL_TILES: usize = 3;

/// What the intermezzo choice's reveal is worth to the player to act: the mean, over the tiles
/// the top of the pile may be (those in the pile with its back's element and value; at most
/// `REVEAL_TILES` of them, at random), of each one placed at its best by `policy`. Only what
/// the player sees: which tiles are in the pile and the top's back, not its face.
fn reveal_value(
    g: &Game,
    rng: &mut ChaCha8Rng,
    policy: &Policy,
    late: f32,
    gains: &mut Vec<(Move, Gain)>,
) -> f32 {
    let Some((element, value)) = g.draw_pile_top_back() else {
        return f32::NEG_INFINITY;
    };
    let mut maybe: Vec<TileId> = g
        .draw_pile_tiles()
        .into_iter()
        .filter(|&t| tile(t).is_some_and(|k| k.element == element && k.value() == value))
        .collect();
    let mut sum = 0.0;
    let mut n = 0;
    while n < REVEAL_TILES && !maybe.is_empty() {
        let t = maybe.swap_remove(rng.random_range(0..maybe.len()));
        g.gains_of(&[t], gains);
        sum += gains
            .iter()
            .map(|(_, gain)| policy.value(gain, late))
            .fold(f32::NEG_INFINITY, f32::max);
        n += 1;
    }
    if n == 0 {
        f32::NEG_INFINITY
    } else {
        sum / n as f32
    }
}

/// Each player's return from a finished game, 0 to 1 (`symphony`: the solo bonus).
pub(crate) fn returns(g: &Game, symphony: f32) -> [f32; MAX_PLAYERS] {
    outcome_returns(g.outcome(), symphony)
}

/// The same from the outcome alone.
pub(crate) fn outcome_returns(outcome: Option<Outcome>, symphony: f32) -> [f32; MAX_PLAYERS] {
    let mut r = [0.0; MAX_PLAYERS];
    match outcome {
        Some(Outcome::Ranking { ranking, scores }) => {
            let n = ranking.len();
            for (pos, &seat) in ranking.iter().enumerate() {
                let place = 1.0 - pos as f32 / (n - 1) as f32;
                let best_other = (0..n)
                    .filter(|&s| s != seat as usize)
                    .map(|s| scores[s])
                    .max()
                    .unwrap_or(0);
                let margin = (scores[seat as usize] - best_other) as f32 / 10.0;
                r[seat as usize] = 0.85 * place + 0.15 / (1.0 + (-margin).exp());
            }
        }
        Some(Outcome::Solo {
            tiles_used,
            score,
            reached,
            symphony: magical,
        }) => {
            // Fewer tiles is better, evenly from 15 to 55, and a symphony (25 or fewer) earns
            // its bonus; falling short is worst.
            r[0] = if reached {
                crate::value::solo_return(
                    solo_tiles_share(tiles_used),
                    magical as u8 as f32,
                    symphony,
                )
            } else {
                0.1 * (score.max(0) as f32 / 75.0)
            };
        }
        Some(Outcome::SoloAll { final_score, .. }) => {
            r[0] = 1.0 / (1.0 + (-(final_score as f32 - 100.0) / 40.0).exp());
        }
        None => {}
    }
    r
}

/// The share of the solo return the tiles used earn: fewer is better, evenly from 15 to 55.
pub(crate) fn solo_tiles_share(tiles_used: u8) -> f32 {
    ((55.0 - tiles_used as f32) / 40.0).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `solo_paired`: every root placement's k-th visit plays on the k-th guess of the pile
    /// (seen in the tile it reveals next), and the search's visits at the root are the
    /// visits counted for the guesses.
    #[test]
    fn solo_root_placements_are_tried_on_common_guesses() {
        let (g, sampler, base) = crate::sampler::solo_after(23, 4);
        let legal = g.legal_moves();
        let cfg = MctsConfig {
            solo_paired: true,
            ..MctsConfig::default()
        };
        let mut walker = Walker::new(&cfg, 9, &legal);
        let mut next = vec![Vec::new(); 3];
        for _ in 0..8 {
            for (idx, seen) in next.iter_mut().enumerate() {
                let mut h = base.clone();
                walker.play_on_common_guess(&mut h, idx, &sampler);
                h.play(legal[idx]).expect("legal at the root");
                seen.push(h.revealed().expect("solo reveals the next tile"));
            }
        }
        assert_eq!(walker.guesses.len(), 8);
        let tops: Vec<TileId> = walker.guesses.iter().map(|p| p[0]).collect();
        assert!(next.iter().all(|seen| *seen == tops));
        assert!(tops.iter().any(|&t| t != tops[0]), "the guesses differ");

        let tree = Mutex::new(vec![Node::new()]);
        let mut walker = Walker::new(&cfg, 9, &legal);
        for _ in 0..300 {
            walker.iterate(&tree, &base, &sampler);
        }
        let nodes = tree.into_inner().unwrap();
        let visits: Vec<u32> = nodes[0].children.iter().map(|c| c.n).collect();
        assert_eq!(visits.iter().sum::<u32>(), 300);
        assert_eq!(walker.root_visits, visits);
        assert_eq!(walker.guesses.len(), *visits.iter().max().unwrap() as usize);
    }

    /// `solo_puct`: each candidate gets the policy's chance for it (a softmax over the
    /// candidates, highest first as they are ordered), each tried move keeps its
    /// candidate's, and the search spends its visits by them: with a large constant the
    /// move of the highest chance is visited most.
    #[test]
    fn solo_moves_are_explored_by_the_policy_s_chance() {
        let (g, sampler, base) = crate::sampler::solo_after(31, 6);
        let legal = g.legal_moves();
        let cfg = MctsConfig {
            solo_puct: 50.0,
            puct_temperature: 2.0,
            ..MctsConfig::default()
        };
        let mut walker = Walker::new(&cfg, 5, &legal);
        let cands = walker.candidates(&base, true);
        let priors = walker.priors.clone();
        assert_eq!(priors.len(), cands.len());
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(priors.windows(2).all(|p| p[0] >= p[1]), "{priors:?}");
        assert!(priors[0] > 2.0 * priors[priors.len() - 1], "{priors:?}");

        let tree = Mutex::new(vec![Node::new()]);
        for _ in 0..2000 {
            walker.iterate(&tree, &base, &sampler);
        }
        let nodes = tree.into_inner().unwrap();
        let root = &nodes[0];
        assert_eq!(root.cands, cands);
        for ch in &root.children {
            let i = cands.iter().position(|c| *c == ch.mv).unwrap();
            assert_eq!(ch.prior, priors[i], "{}", ch.mv);
        }
        let most = root.children.iter().max_by_key(|c| c.n).unwrap();
        assert_eq!(most.mv, cands[0]);

        // Without it, the prior plays no part (and is not worked out).
        let cfg = MctsConfig::default();
        let mut walker = Walker::new(&cfg, 5, &legal);
        walker.candidates(&base, true);
        assert!(walker.priors.is_empty());
    }

    /// PUCT's settings refuse what has no meaning (a softmax at temperature 0 is all NaN),
    /// and leave the setting as it was.
    #[test]
    fn puct_settings_refuse_what_has_no_meaning() {
        let mut cfg = MctsConfig::default();
        for bad in [
            "puct_temperature=0",
            "puct_temperature=-1",
            "puct_temperature=inf",
        ] {
            let e = cfg.set(bad).unwrap_err();
            assert!(e.contains("temperature is above 0"), "{bad}: {e}");
        }
        for bad in ["solo_puct=-0.5", "solo_puct=NaN"] {
            let e = cfg.set(bad).unwrap_err();
            assert!(e.contains("0 (off) or more"), "{bad}: {e}");
        }
        assert!(cfg.set("solo_puct=x").is_err());
        let default = MctsConfig::default();
        assert_eq!(
            (cfg.solo_puct, cfg.puct_temperature),
            (default.solo_puct, default.puct_temperature)
        );
        cfg.set("solo_puct=1.5").unwrap();
        cfg.set("puct_temperature=2").unwrap();
        assert_eq!((cfg.solo_puct, cfg.puct_temperature), (1.5, 2.0));
    }

    /// `solo_td`: a solo playout is valued by the learned value after `solo_td_depth` steps
    /// (the leaf itself at 0), a game of 2 players still by `value`; `solo_td=none` goes back
    /// to `value`, and a file that is not a value is refused and changes nothing.
    #[test]
    fn solo_playouts_end_with_the_learned_value() {
        let mut td = crate::td::Td::new();
        td.w[0] = 0.77;
        let mut cfg = MctsConfig {
            solo_td: Some(std::sync::Arc::new(td)),
            solo_td_depth: 0,
            ..MctsConfig::default()
        };
        let (_, _, base) = crate::sampler::solo_after(5, 3);
        let legal = base.legal_moves();
        for depth in [0, 4] {
            cfg.solo_td_depth = depth;
            let mut walker = Walker::new(&cfg, 1, &legal);
            assert_eq!(walker.play_out(base.clone())[0], 0.77, "depth {depth}");
        }
        let two = Game::seeded(2, 5).unwrap();
        let mut walker = Walker::new(&cfg, 1, &legal);
        assert_ne!(walker.play_out(two)[0], 0.77);
        assert!(cfg.set("solo_td=/nonexistent/td.json").is_err());
        assert!(cfg.solo_td.is_some());
        cfg.set("solo_td=none").unwrap();
        let mut walker = Walker::new(&cfg, 1, &legal);
        assert_ne!(walker.play_out(base.clone())[0], 0.77);
        // `trained` is the shipped value; the ladder's levels 5 to 7 are as measured.
        cfg.set("solo_td=trained").unwrap();
        assert!(cfg.solo_td.is_some());
        assert!(crate::levels::search_config().solo_td.is_none());
    }

    /// The shipped value's rating of the placements, two placements ahead, best first.
    fn two_ahead(view: &View, symphony: f32) -> Vec<(Move, f32)> {
        let two = crate::td::Expecti {
            depth: 2,
            root_width: 0,
            width: 0,
        };
        crate::td::Td::trained().expectimax(
            view,
            &two,
            &mut crate::td::Scratch::default(),
            symphony,
        )
    }

    /// `solo_expecti`: the solo root grows only the placements the learned value rates best
    /// two placements deep; games of 2 players, and solo without it, grow more.
    #[test]
    fn the_solo_root_keeps_what_the_value_rates_best() {
        let (g, _, _) = crate::sampler::solo_after(5, 6);
        let view = g.view(Some(0));
        let legal = g.legal_moves();
        let cfg = MctsConfig {
            threads: 1,
            solo_expecti: 3,
            ..MctsConfig::default()
        };
        let grown = |cfg: &MctsConfig, view: &View, legal: &[Move]| -> Vec<Move> {
            let mut bot = Mcts::new(1, cfg.clone());
            let stats = bot.search(view, legal, Budget::iterations(400));
            stats.root.iter().map(|a| a.mv).collect()
        };
        let rated = two_ahead(&view, cfg.symphony_bonus);
        let best: Vec<Move> = rated.iter().take(3).map(|r| r.0).collect();
        let kept = grown(&cfg, &view, &legal);
        assert!(!kept.is_empty() && kept.len() <= 3, "{kept:?}");
        assert!(
            kept.iter().all(|m| best.contains(m)),
            "{kept:?} not in {best:?}"
        );
        let all = MctsConfig {
            solo_expecti: 0,
            ..cfg.clone()
        };
        assert!(grown(&all, &view, &legal).len() > 3);
        let g2 = Game::seeded(2, 5).unwrap();
        let seat = g2.to_act().unwrap();
        assert!(grown(&cfg, &g2.view(Some(seat)), &g2.legal_moves()).len() > 3);
        let mut set = cfg.clone();
        assert!(set.set("solo_expecti=many").is_err());
        assert!(set.set("expecti_depth=-1").is_err());
        assert_eq!((set.solo_expecti, set.expecti_depth), (3, 2));
    }

    /// `expecti_prior`: the solo root's placements are grown in the order the learned value
    /// rates them, each starting with the prior's visits worth what the value says.
    #[test]
    fn the_solo_root_starts_from_the_value_s_worth() {
        let (g, _, _) = crate::sampler::solo_after(5, 6);
        let view = g.view(Some(0));
        let legal = g.legal_moves();
        let cfg = MctsConfig {
            threads: 1,
            expecti_prior: 50,
            ..MctsConfig::default()
        };
        let rated = two_ahead(&view, cfg.symphony_bonus);
        let mut bot = Mcts::new(1, cfg.clone());
        let one = bot.search(&view, &legal, Budget::iterations(1));
        assert_eq!(one.root.len(), 1);
        assert_eq!(one.root[0].mv, rated[0].0);
        assert_eq!(one.root[0].visits, 51);
        // One return of at most 1 + the bonus moves the mean of 51 by little.
        assert!((one.root[0].value - rated[0].1 as f64).abs() < 0.05);
        let mut bot = Mcts::new(1, cfg.clone());
        let grown = bot.search(&view, &legal, Budget::iterations(300));
        let tried: Vec<Move> = rated.iter().take(grown.root.len()).map(|r| r.0).collect();
        assert!(grown.root.len() > 1);
        assert!(grown
            .root
            .iter()
            .all(|a| tried.contains(&a.mv) && a.visits > 50));
        // Without it the root starts from the policy's best, with one visit.
        let mut bot = Mcts::new(
            1,
            MctsConfig {
                expecti_prior: 0,
                ..cfg.clone()
            },
        );
        assert_eq!(
            bot.search(&view, &legal, Budget::iterations(1)).root[0].visits,
            1
        );
        let mut set = cfg.clone();
        assert!(set.set("expecti_prior=-1").is_err());
        assert_eq!(set.expecti_prior, 50);
    }

    /// The intermezzo choice and the pass are always among a node's candidates: second with
    /// the hand-set policy, where their values put them with a fitted one.
    #[test]
    fn the_intermezzo_choice_and_the_pass_are_always_candidates() {
        let (mut choices, mut picks) = (0, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for seed in 0..30 {
            let mut g = Game::seeded(3, seed).unwrap();
            while g.to_act().is_some() {
                let other = match g.expects() {
                    Some(Expect::Turn) if intermezzo_open(&g) => {
                        Some(Move::Intermezzo { tile: g.offer()[0] })
                    }
                    Some(Expect::IntermezzoPick) => Some(Move::Pass),
                    _ => None,
                };
                if let Some(other) = other {
                    let legal = g.legal_moves();
                    for (policy, second) in
                        [(Policy::hand(), true), (Policy::trained().clone(), false)]
                    {
                        let cfg = MctsConfig {
                            policy: policy.clone(),
                            ..MctsConfig::default()
                        };
                        let cands = Walker::new(&cfg, 1, &legal).candidates(&g, true);
                        let at = cands.iter().position(|m| *m == other);
                        assert!(at.is_some(), "seed {seed}: {other} not among {cands:?}");
                        if second {
                            assert_eq!(at, Some(1.min(cands.len() - 1)), "seed {seed}");
                        }
                    }
                    match other {
                        Move::Pass => picks += 1,
                        _ => choices += 1,
                    }
                }
                // The intermezzo choice half the time, so that intermezzos come up.
                let moves = g.legal_moves();
                let mv = match other {
                    Some(mv @ Move::Intermezzo { .. }) if rng.random_range(0..2) == 0 => mv,
                    _ => moves[rng.random_range(0..moves.len())],
                };
                g.play(mv).unwrap();
            }
        }
        assert!(
            choices > 10 && picks > 10,
            "{choices} choices, {picks} picks"
        );
    }

    /// Without `tree_positional`, a node's candidates are those of the policy without its
    /// positional weights; with it, those weights change the order somewhere.
    #[test]
    fn the_tree_orders_by_the_positional_features_only_when_told() {
        let mut positional = Policy::solo_trained().clone();
        positional.weights[crate::policy::FIRST_POSITIONAL + 1] = 2.0;
        let cfg = |tree_positional, solo_policy: Policy| MctsConfig {
            solo_policy,
            tree_positional,
            ..MctsConfig::default()
        };
        let told = cfg(true, positional.clone());
        let untold = cfg(false, positional.clone());
        let stripped = cfg(true, positional.without_positional());
        let (mut rng, mut gains, mut aim) =
            (ChaCha8Rng::seed_from_u64(3), Vec::new(), Aim::default());
        let mut differ = 0;
        for seed in 0..10 {
            let mut g = Game::seeded(1, seed).unwrap();
            for _ in 0..8 {
                playout_step(&mut g, &mut rng, 0, &positional, None, &mut gains, &mut aim);
            }
            let legal = g.legal_moves();
            let cands = |cfg: &MctsConfig| Walker::new(cfg, 1, &legal).candidates(&g, false);
            assert_eq!(cands(&untold), cands(&stripped), "deck {seed}");
            differ += (cands(&told) != cands(&untold)) as usize;
        }
        assert!(differ > 0);
    }

    /// With `shared_tree`, thinking by time, the threads grow one tree (every iteration of
    /// both visits its root once, and one tree is kept for the next decision); with a budget
    /// of iterations, each grows its own so that results repeat; without it, each its own.
    #[test]
    fn threads_share_one_tree_when_thinking_by_time() {
        for players in [1, 2] {
            let g = Game::seeded(players, 11).unwrap();
            let view = g.view(g.to_act());
            let legal = g.legal_moves();
            for (shared_tree, budget, trees) in [
                (true, Budget::millis(30), 1),
                (true, Budget::iterations(300), 2),
                (false, Budget::millis(30), 2),
            ] {
                let cfg = MctsConfig {
                    threads: 2,
                    shared_tree,
                    ..MctsConfig::default()
                };
                let mut bot = Mcts::new(5, cfg);
                let stats = bot.search(&view, &legal, budget);
                let visits: u64 = stats.root.iter().map(|a| a.visits).sum();
                assert_eq!(visits, stats.iterations, "{players} players, {budget:?}");
                let kept = bot.kept.as_ref().expect("the tree is kept");
                assert_eq!(kept.trees.len(), trees, "{players} players, {budget:?}");
                for nodes in &kept.trees {
                    // Every visit counted on the way down had its return added on the way
                    // back: no virtual loss is left (returns are above 0 once reached).
                    for ch in &nodes[0].children {
                        assert!(ch.n == 0 || ch.w > 0.0, "{players} players: {ch:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn settings_keep_the_slashes_of_paths() {
        let dir = std::env::temp_dir().join(format!("sagani-policy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.json");
        let mut trained = Policy::hand();
        trained.intermezzo = Some(1.25);
        let file = trained.to_file(Default::default());
        std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
        let mut cfg = MctsConfig::default();
        cfg.set_all(&format!(
            "exploration=0.3/policy={}/reuse=false",
            path.display()
        ))
        .unwrap();
        assert_eq!(cfg.policy, trained);
        assert!(!cfg.reuse);
        assert_eq!(cfg.exploration, 0.3);
        let e = cfg.set_all("policy=/no/such/file.json").unwrap_err();
        assert!(e.contains("/no/such/file.json"), "{e}");
        let e = cfg.set_all("depth=3").unwrap_err();
        assert!(e.contains("\"depth\" is not an mcts setting"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
