//! The search tree of `mcts`: its nodes (one a seat's information set), one thread's walks
//! down it and playouts from it, and a tree kept from the last decision, re-rooted where the
//! game went.

use crate::aim::Aim;
use crate::mcts_config::MctsConfig;
use crate::playout::{playout_step, returns};
use crate::policy::{intermezzo_open, Policy};
use crate::sampler::PileSampler;
use crate::value::Value;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::{Expect, Gain, Game, Move, TileId, MAX_PLAYERS};
use std::sync::Mutex;

/// The trees of the last search (one shared, or one a thread), what the displays held then,
/// and the moves played since, in order, with their seats.
pub(crate) struct Kept {
    pub(crate) trees: Vec<Vec<Node>>,
    pub(crate) displays: Vec<Vec<TileId>>,
    pub(crate) since: Vec<(u8, Move)>,
}

impl Kept {
    /// Each tree re-rooted at the node of the moves played since, if the view is where they
    /// lead: every display is the old one with the tiles its seat placed since.
    pub(crate) fn follow(self, view: &View, legal: &[Move]) -> Vec<Vec<Node>> {
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

const NO_NODE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(crate) struct Child {
    pub(crate) mv: Move,
    /// Visits, summed return of the player who makes the move, and availability count.
    pub(crate) n: u32,
    pub(crate) w: f32,
    pub(crate) avail: u32,
    pub(crate) node: u32,
}

/// One information set: the moves seen so far and the candidates for the last tile set seen.
pub(crate) struct Node {
    /// The phase and the tiles on offer (or stored, or revealed) the candidates were made for.
    pub(crate) sig: (Option<Expect>, u128),
    pub(crate) cands: Vec<Move>,
    pub(crate) children: Vec<Child>,
}

impl Node {
    pub(crate) fn new() -> Node {
        Node {
            sig: (None, 0),
            cands: Vec::new(),
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
    pub(crate) guesses: Vec<Vec<TileId>>,
    pub(crate) root_visits: Vec<u32>,
    /// Scratch for `solo_td`.
    td: crate::td::Scratch,
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
            td: crate::td::Scratch::default(),
        }
    }

    /// The moves worth trying here, best first by `evaluate`, with the intermezzo choice or the
    /// pass second so that it is always among the first tried.
    pub(crate) fn candidates(&mut self, g: &Game, root: bool) -> Vec<Move> {
        let policy = &self.order[(g.players() == 1) as usize];
        let root_legal = self.root_legal;
        g.placement_gains(&mut self.gains);
        let mut rated: Vec<(Move, f32)> = policy
            .rate(g, &self.gains, &mut self.aim)
            .filter(|(mv, _)| !root || root_legal.contains(mv))
            .collect();
        rated.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut cands: Vec<Move> = rated
            .iter()
            .take(self.cfg.candidates)
            .map(|(mv, _)| *mv)
            .collect();
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
    pub(crate) fn iterate(&mut self, tree: &Mutex<Vec<Node>>, base: &Game, sampler: &PileSampler) {
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
            let (idx, new) = match fresh {
                Some(mv) => {
                    n.children.push(Child {
                        mv,
                        n: 0,
                        w: 0.0,
                        avail: 1,
                        node: NO_NODE,
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
    pub(crate) fn play_on_common_guess(&mut self, g: &mut Game, idx: usize, sampler: &PileSampler) {
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
