//! The game: setup, whose decision it is, turns, the intermezzo, refills, the end, and ranking.

use crate::deck::{check_deck, shuffled_deck};
use crate::display::{Display, Observer, Placed, SpotError};
use crate::element::Element;
use crate::geometry::Cell;
use crate::moves::{IllegalMove, Move};
use crate::tiles::{TileId, ARROWS_OF, ELEMENT_OF, TILE_COUNT, VALUE_OF};
use serde::{Deserialize, Serialize};
use std::fmt;

pub const MAX_PLAYERS: usize = 4;
pub const SOUND_DISCS: u16 = 24;
pub const OFFER_SIZE: usize = 5;
pub const STORAGE_SIZE: usize = 4;
/// The solo goal, and the most tiles for a "magical symphony".
pub const SOLO_TARGET: i16 = 75;
pub const SYMPHONY_TILES: u8 = 25;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// 2 to 4 players.
    Standard,
    /// 1 player, ends at 75 points; fewer tiles is better.
    Solo,
    /// 1 player, all 72 tiles; final score minus discs left on unflipped tiles.
    SoloAll,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Solo => "solo",
            Variant::SoloAll => "solo-all",
        }
    }

    pub fn parse(s: &str) -> Option<Variant> {
        match s {
            "standard" => Some(Variant::Standard),
            "solo" => Some(Variant::Solo),
            "solo-all" => Some(Variant::SoloAll),
            _ => None,
        }
    }

    pub fn is_solo(self) -> bool {
        self != Variant::Standard
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the draw pile's order comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeckOrder {
    /// A deterministic shuffle; the start player is drawn from the same seed.
    Seed(u64),
    /// Tile ids from the top of the draw pile; the start player defaults to 0.
    Explicit(Vec<i64>),
}

/// Everything needed to start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub players: u8,
    /// Defaults to `standard` for 2 to 4 players and `solo` for 1.
    pub variant: Option<Variant>,
    pub deck: DeckOrder,
    /// Defaults to the seeded draw, or 0 for an explicit deck.
    pub start_player: Option<u8>,
}

impl Setup {
    pub fn seeded(players: u8, seed: u64) -> Setup {
        Setup {
            players,
            variant: None,
            deck: DeckOrder::Seed(seed),
            start_player: None,
        }
    }
}

/// Why a setup (or a seat's view, rebuilt into a game) cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Not 1 to 4 players.
    Players(u8),
    /// The standard variant asked for one player.
    StandardForOne,
    /// A solo variant asked for several players.
    SoloForMany {
        variant: Variant,
        players: u8,
    },
    Deck(crate::deck::DeckError),
    StartPlayer {
        start: u8,
        players: u8,
    },
    /// Bots given for another number of seats than the game has (an arena).
    Bots {
        bots: usize,
        seats: u8,
    },
    /// A view (and pile) that describe no game.
    View(crate::view_error::ViewError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Players(n) => write!(f, "players must be 1 to 4, not {n}"),
            SetupError::StandardForOne => write!(
                f,
                "variant standard needs 2 to 4 players; use solo or solo-all for 1"
            ),
            SetupError::SoloForMany { variant, players } => {
                write!(f, "variant {variant} is for 1 player, not {players}")
            }
            SetupError::Deck(e) => write!(f, "{e}"),
            SetupError::StartPlayer { start, players } => write!(
                f,
                "start player {start} does not exist in a {players}-player game (players are 0 to {})",
                players - 1
            ),
            SetupError::Bots { bots, seats } => write!(f, "{bots} bots for {seats} seats"),
            SetupError::View(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// What the player who must act is expected to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    /// Take a tile of the offer display and place it, or make the intermezzo choice.
    Turn,
    /// Place the tile revealed by the intermezzo choice.
    PlaceDrawn,
    /// Take a tile of the intermezzo storage and place it, or pass.
    IntermezzoPick,
    /// Solo: place the revealed top tile of the draw pile.
    PlaceRevealed,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Turn => "turn",
            Expect::PlaceDrawn => "place-drawn",
            Expect::IntermezzoPick => "intermezzo-pick",
            Expect::PlaceRevealed => "place-revealed",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Turn,
    PlaceDrawn(TileId),
    /// `order` holds the players in intermezzo order, `pos` who acts now, `taken` whether
    /// anyone took a tile so far.
    Intermezzo {
        order: [u8; MAX_PLAYERS],
        pos: u8,
        taken: bool,
    },
    PlaceRevealed(TileId),
    Over,
}

/// One player's discs and score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Seat {
    pub score: i16,
    /// Sound discs plus Cacophony discs taken.
    pub supply: u16,
    /// Cacophony discs taken in the whole game.
    pub cacophony: u16,
    /// Of the supply, the Cacophony discs (the rest are Sound discs).
    pub supply_cacophony: u16,
    /// When the marker last moved on the score track (earlier ranks first on equal scores).
    pub arrival: u16,
}

/// What `Seat::settle_discs` did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Settled {
    /// New Cacophony discs taken (2 points each).
    pub shortfall: u16,
    /// Cacophony discs left on the new tile (0 if it completed at once).
    pub on_tile: u8,
}

impl Seat {
    /// RULES.md "Placing a tile", steps 2 to 4, for the discs and the score of the player who
    /// placed `tile`: earlier tiles that flipped give back `earlier_discs` (`earlier_cacophony`
    /// of them Cacophony) and score `earlier_points`; the new tile takes its discs, Sound ones
    /// first, then Cacophony ones of the supply, then new Cacophony for any shortfall; its own
    /// completion gives them back (docs/RULES.md "Which discs").
    #[inline]
    pub(crate) fn settle_discs(
        &mut self,
        tile: TileId,
        earlier_points: u16,
        earlier_discs: u16,
        earlier_cacophony: u16,
        new_completes: bool,
    ) -> Settled {
        // Step 2: earlier tiles' discs come back before the new tile's discs are taken.
        self.supply += earlier_discs;
        self.supply_cacophony += earlier_cacophony;
        self.score += earlier_points as i16;
        // Step 3: Sound discs first; whatever they do not cover is Cacophony, from the supply
        // and then new.
        let need = ARROWS_OF[tile as usize] as u16;
        let shortfall = need.saturating_sub(self.supply);
        let sound = self.supply - self.supply_cacophony;
        let mut on_tile = need.saturating_sub(sound);
        self.supply_cacophony -= on_tile - shortfall;
        self.cacophony += shortfall;
        self.score -= 2 * shortfall as i16;
        self.supply = self.supply + shortfall - need;
        // Step 4: its own completion returns its discs but never spares the Cacophony.
        if new_completes {
            self.supply += need;
            self.supply_cacophony += on_tile;
            on_tile = 0;
            self.score += VALUE_OF[tile as usize] as i16;
        }
        Settled {
            shortfall,
            on_tile: on_tile as u8,
        }
    }
}

/// A game in progress or finished. Cheap to clone: fixed-size arrays, no heap.
/// Its `Debug` output leaves out the draw pile's order, so a stray log line cannot leak it.
#[derive(Clone, PartialEq, Eq)]
pub struct Game {
    pub(crate) variant: Variant,
    pub(crate) players: u8,
    pub(crate) start: u8,
    /// The player whose turn it is (multiplayer); 0 in solo.
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    pub(crate) final_round: bool,
    /// Deck index of the draw pile's top tile; everything before it has left the pile.
    pub(crate) next_draw: u8,
    pub(crate) offer: [TileId; OFFER_SIZE],
    pub(crate) offer_len: u8,
    pub(crate) storage: [TileId; STORAGE_SIZE],
    pub(crate) storage_len: u8,
    /// Tiles removed from the game after an intermezzo nobody took from (bit per id).
    pub(crate) removed: u128,
    pub(crate) placements: u16,
    pub(crate) seats: [Seat; MAX_PLAYERS],
    pub(crate) displays: [Display; MAX_PLAYERS],
    /// The whole deck, top first. Hidden: never leaves the engine through a view.
    pub(crate) deck: [TileId; TILE_COUNT],
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Game");
        d.field("variant", &self.variant)
            .field("players", &self.players)
            .field("start", &self.start)
            .field("current", &self.current)
            .field("phase", &self.phase)
            .field("final_round", &self.final_round)
            .field("offer", &self.offer())
            .field("storage", &self.intermezzo_storage())
            .field("removed", &self.removed())
            .field(
                "draw_pile",
                &format_args!("{} tiles, order hidden", self.draw_pile_len()),
            )
            .field("placements", &self.placements);
        for s in 0..self.players as usize {
            d.field("seat", &self.seats[s])
                .field("display", &self.displays[s]);
        }
        d.finish()
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// 2 to 4 players: seats best first and every seat's score.
    Ranking { ranking: Vec<u8>, scores: Vec<i16> },
    /// Solo: tiles used; `reached` when the score got to 75.
    Solo {
        tiles_used: u8,
        score: i16,
        reached: bool,
        symphony: bool,
    },
    /// Solo with all 72 tiles.
    SoloAll {
        score: i16,
        discs_left: u16,
        final_score: i16,
    },
}

impl Game {
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        let players = setup.players;
        if !(1..=MAX_PLAYERS as u8).contains(&players) {
            return Err(SetupError::Players(players));
        }
        let variant = setup.variant.unwrap_or(if players == 1 {
            Variant::Solo
        } else {
            Variant::Standard
        });
        if variant.is_solo() != (players == 1) {
            return Err(if players == 1 {
                SetupError::StandardForOne
            } else {
                SetupError::SoloForMany { variant, players }
            });
        }
        let (deck, drawn_start) = match &setup.deck {
            DeckOrder::Seed(seed) => shuffled_deck(*seed, players),
            DeckOrder::Explicit(ids) => (check_deck(ids).map_err(SetupError::Deck)?, 0),
        };
        let start = setup.start_player.unwrap_or(drawn_start);
        if start >= players {
            return Err(SetupError::StartPlayer { start, players });
        }
        Ok(Game::from_parts(variant, players, start, deck))
    }

    /// A game with a seeded shuffle: `players` 1 to 4 (1 means solo).
    pub fn seeded(players: u8, seed: u64) -> Result<Game, SetupError> {
        Game::new(&Setup::seeded(players, seed))
    }

    fn from_parts(variant: Variant, players: u8, start: u8, deck: [TileId; TILE_COUNT]) -> Game {
        let mut seats = [Seat::default(); MAX_PLAYERS];
        for k in 0..players {
            let s = &mut seats[((start + k) % players) as usize];
            s.supply = SOUND_DISCS;
            s.arrival = k as u16;
        }
        let mut g = Game {
            variant,
            players,
            start,
            current: start,
            phase: Phase::Turn,
            final_round: false,
            next_draw: 0,
            offer: [0; OFFER_SIZE],
            offer_len: 0,
            storage: [0; STORAGE_SIZE],
            storage_len: 0,
            removed: 0,
            placements: 0,
            seats,
            displays: std::array::from_fn(|_| Display::new()),
            deck,
        };
        if variant.is_solo() {
            g.phase = Phase::PlaceRevealed(g.deck[0]);
            g.next_draw = 1;
        } else {
            g.refill_offer();
        }
        g
    }

    // ----- what anyone may see -----

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn start_player(&self) -> u8 {
        self.start
    }

    /// The score that starts the final round (75/60/45), or the solo goal; none for solo-all.
    pub fn target(&self) -> Option<i16> {
        match self.variant {
            Variant::Standard => Some([0, 0, 75, 60, 45][self.players as usize]),
            Variant::Solo => Some(SOLO_TARGET),
            Variant::SoloAll => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn final_round(&self) -> bool {
        self.final_round
    }

    /// The seat that plays the last turn of every round: the one before the start player.
    pub fn last_player(&self) -> u8 {
        (self.start + self.players - 1) % self.players
    }

    /// `None` unless the final round is on; then the turns still to be played, counting the
    /// turn being played now: 0 during an intermezzo after the last turn, and once it is over.
    /// (The offer never runs dry within the final round: the refill that starts it leaves 4
    /// tiles or more in it, and the round has at most 3 turns left.)
    pub fn turns_left(&self) -> Option<u8> {
        if !self.final_round {
            return None;
        }
        // Turns after the current player's, up to the last player's.
        let after = (self.last_player() + self.players - self.current) % self.players;
        Some(match self.phase {
            Phase::Turn | Phase::PlaceDrawn(_) => after + 1,
            Phase::Intermezzo { .. } => after,
            Phase::PlaceRevealed(_) | Phase::Over => 0,
        })
    }

    /// Who must act now, or `None` when the game is over.
    pub fn to_act(&self) -> Option<u8> {
        match self.phase {
            Phase::Turn | Phase::PlaceDrawn(_) | Phase::PlaceRevealed(_) => Some(self.current),
            Phase::Intermezzo { order, pos, .. } => Some(order[pos as usize]),
            Phase::Over => None,
        }
    }

    pub fn expects(&self) -> Option<Expect> {
        match self.phase {
            Phase::Turn => Some(Expect::Turn),
            Phase::PlaceDrawn(_) => Some(Expect::PlaceDrawn),
            Phase::Intermezzo { .. } => Some(Expect::IntermezzoPick),
            Phase::PlaceRevealed(_) => Some(Expect::PlaceRevealed),
            Phase::Over => None,
        }
    }

    /// The player whose turn it is (or was, during an intermezzo).
    pub fn current_player(&self) -> u8 {
        self.current
    }

    /// Players still to act in a running intermezzo, the one acting first.
    pub fn intermezzo_queue(&self) -> &[u8] {
        match &self.phase {
            Phase::Intermezzo { order, pos, .. } => &order[*pos as usize..self.players as usize],
            _ => &[],
        }
    }

    /// Whether someone has taken a tile in the running intermezzo.
    pub fn intermezzo_taken(&self) -> bool {
        matches!(self.phase, Phase::Intermezzo { taken: true, .. })
    }

    pub fn offer(&self) -> &[TileId] {
        &self.offer[..self.offer_len as usize]
    }

    pub fn intermezzo_storage(&self) -> &[TileId] {
        &self.storage[..self.storage_len as usize]
    }

    /// Tiles taken out of the game after an intermezzo nobody took from, ascending.
    pub fn removed(&self) -> Vec<TileId> {
        (1..=TILE_COUNT as u8)
            .filter(|&t| self.removed >> t & 1 == 1)
            .collect()
    }

    /// The tile revealed and waiting to be placed (solo, or after an intermezzo choice).
    pub fn revealed(&self) -> Option<TileId> {
        match self.phase {
            Phase::PlaceDrawn(t) | Phase::PlaceRevealed(t) => Some(t),
            _ => None,
        }
    }

    /// Tiles still face down in the draw pile (a revealed tile is not counted).
    pub fn draw_pile_len(&self) -> usize {
        TILE_COUNT - self.next_draw as usize
    }

    /// The back of the draw pile's top tile: its element and value.
    pub fn draw_pile_top_back(&self) -> Option<(Element, u8)> {
        let t = *self.deck.get(self.next_draw as usize)?;
        Some((
            Element::from_index(ELEMENT_OF[t as usize] as usize),
            VALUE_OF[t as usize],
        ))
    }

    /// Which tiles are still in the draw pile, ascending: public, unlike their order.
    pub fn draw_pile_tiles(&self) -> Vec<TileId> {
        let mut v = self.deck[self.next_draw as usize..].to_vec();
        v.sort_unstable();
        v
    }

    pub fn display(&self, seat: u8) -> &Display {
        &self.displays[seat as usize]
    }

    pub fn score(&self, seat: u8) -> i16 {
        self.seats[seat as usize].score
    }

    /// Discs in the supply (Sound and Cacophony alike).
    pub fn supply(&self, seat: u8) -> u16 {
        self.seats[seat as usize].supply
    }

    /// Cacophony discs the seat took in the whole game.
    pub fn cacophony(&self, seat: u8) -> u16 {
        self.seats[seat as usize].cacophony
    }

    /// Of the seat's supply, the Cacophony discs (the rest are Sound discs).
    pub fn supply_cacophony(&self, seat: u8) -> u16 {
        self.seats[seat as usize].supply_cacophony
    }

    /// When the seat's marker last moved on the score track (lower arrived earlier).
    pub fn arrival(&self, seat: u8) -> u16 {
        self.seats[seat as usize].arrival
    }

    /// Placements made so far in the whole game.
    pub fn placements(&self) -> u16 {
        self.placements
    }

    /// Seats best first: higher score, then earlier arrival on the score track.
    pub fn ranking(&self) -> Vec<u8> {
        let mut r: Vec<u8> = (0..self.players).collect();
        r.sort_by_key(|&s| {
            let seat = &self.seats[s as usize];
            (-seat.score, seat.arrival)
        });
        r
    }

    /// Solo-all: the score minus the discs left on unflipped tiles.
    pub fn final_score(&self, seat: u8) -> i16 {
        self.score(seat) - self.displays[seat as usize].discs_on_unflipped() as i16
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.variant {
            Variant::Standard => Outcome::Ranking {
                ranking: self.ranking(),
                scores: (0..self.players).map(|s| self.score(s)).collect(),
            },
            Variant::Solo => {
                let tiles_used = self.displays[0].len() as u8;
                let score = self.score(0);
                let reached = score >= SOLO_TARGET;
                Outcome::Solo {
                    tiles_used,
                    score,
                    reached,
                    symphony: reached && tiles_used <= SYMPHONY_TILES,
                }
            }
            Variant::SoloAll => Outcome::SoloAll {
                score: self.score(0),
                discs_left: self.displays[0].discs_on_unflipped(),
                final_score: self.final_score(0),
            },
        })
    }

    // ----- moves -----

    /// Every legal move for whoever must act (empty when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::new();
        self.legal_moves_into(&mut v);
        v
    }

    /// Like `legal_moves`, into a reused buffer (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let Some(seat) = self.to_act() else { return };
        let display = &self.displays[seat as usize];
        for &tile in self.placeable() {
            for cell in display.open_cells() {
                for rot in 0..4 {
                    out.push(Move::place(tile, cell, rot));
                }
            }
        }
        match self.phase {
            Phase::Turn if self.intermezzo_allowed() => out.push(Move::Intermezzo {
                tile: self.offer[0],
            }),
            Phase::Intermezzo { .. } => out.push(Move::Pass),
            _ => {}
        }
    }

    /// The tiles the player who must act may place now: the offer on a turn, the revealed tile,
    /// or the intermezzo storage.
    pub(crate) fn placeable(&self) -> &[TileId] {
        match &self.phase {
            Phase::Turn => self.offer(),
            Phase::PlaceDrawn(t) | Phase::PlaceRevealed(t) => std::slice::from_ref(t),
            Phase::Intermezzo { .. } => self.intermezzo_storage(),
            Phase::Over => &[],
        }
    }

    /// The storage never holds 4 on a turn (4 starts an intermezzo at once), so it has room.
    fn intermezzo_allowed(&self) -> bool {
        debug_assert!((self.storage_len as usize) < STORAGE_SIZE);
        self.offer_len == 1 && self.draw_pile_len() > 0
    }

    /// Applies a legal move, or says why it is not legal and changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Place { tile, x, y, rot } => {
                let (seat, from, spot) = self.check_place(tile, Cell::new(x, y), rot)?;
                match from {
                    Source::Offer(i) => {
                        let last = self.offer_len as usize - 1;
                        self.offer[i] = self.offer[last];
                        self.offer[last] = 0;
                        self.offer_len -= 1;
                    }
                    Source::Storage(i) => {
                        let len = self.storage_len as usize;
                        self.storage.copy_within(i + 1..len, i);
                        self.storage[len - 1] = 0;
                        self.storage_len -= 1;
                    }
                    Source::Revealed => {}
                }
                self.place_tile(seat, tile, rot, spot, &mut ());
                match self.phase {
                    Phase::Turn | Phase::PlaceDrawn(_) => {
                        self.phase = Phase::Turn;
                        self.after_turn();
                    }
                    Phase::Intermezzo { order, pos, .. } => {
                        self.phase = Phase::Intermezzo {
                            order,
                            pos,
                            taken: true,
                        };
                        self.next_in_intermezzo();
                    }
                    Phase::PlaceRevealed(_) => self.after_solo_placement(),
                    Phase::Over => unreachable!("checked above"),
                }
                Ok(())
            }
            Move::Intermezzo { tile } => {
                match self.phase {
                    Phase::Turn => {}
                    Phase::Over => return Err(IllegalMove::GameOver),
                    Phase::PlaceDrawn(t) | Phase::PlaceRevealed(t) => {
                        return Err(IllegalMove::MustPlaceRevealed { revealed: t })
                    }
                    Phase::Intermezzo { .. } => return Err(IllegalMove::IntermezzoNotNow),
                }
                if self.offer_len != 1 {
                    return Err(IllegalMove::IntermezzoNeedsLastOfferTile {
                        offer_len: self.offer_len as usize,
                    });
                }
                if self.offer[0] != tile {
                    return Err(IllegalMove::IntermezzoWrongTile {
                        tile,
                        offer: self.offer[0],
                    });
                }
                if self.draw_pile_len() == 0 {
                    return Err(IllegalMove::IntermezzoEmptyPile);
                }
                debug_assert!((self.storage_len as usize) < STORAGE_SIZE);
                self.storage[self.storage_len as usize] = tile;
                self.storage_len += 1;
                self.offer[0] = 0;
                self.offer_len = 0;
                let revealed = self.draw();
                self.phase = Phase::PlaceDrawn(revealed);
                Ok(())
            }
            Move::Pass => match self.phase {
                Phase::Intermezzo { .. } => {
                    self.next_in_intermezzo();
                    Ok(())
                }
                Phase::Over => Err(IllegalMove::GameOver),
                Phase::PlaceDrawn(t) | Phase::PlaceRevealed(t) => {
                    Err(IllegalMove::MustPlaceRevealed { revealed: t })
                }
                Phase::Turn => Err(IllegalMove::PassNotNow),
            },
        }
    }

    /// Checks a placement for whoever must act: where the tile comes from and where it goes.
    // Inlined into `play` (its hot caller) even though `gain` calls it too.
    #[inline(always)]
    pub(crate) fn check_place(
        &self,
        tile: TileId,
        cell: Cell,
        rot: u8,
    ) -> Result<(u8, Source, crate::display::Spot), IllegalMove> {
        let seat = self.to_act().ok_or(IllegalMove::GameOver)?;
        if tile == 0 || tile as usize > TILE_COUNT {
            return Err(IllegalMove::UnknownTile { tile });
        }
        let from = match self.phase {
            Phase::Turn => Source::Offer(
                self.offer()
                    .iter()
                    .position(|&t| t == tile)
                    .ok_or(IllegalMove::NotInOffer { tile })?,
            ),
            Phase::PlaceDrawn(t) | Phase::PlaceRevealed(t) => {
                if t != tile {
                    return Err(IllegalMove::MustPlaceRevealed { revealed: t });
                }
                Source::Revealed
            }
            Phase::Intermezzo { .. } => Source::Storage(
                self.intermezzo_storage()
                    .iter()
                    .position(|&t| t == tile)
                    .ok_or(IllegalMove::NotInStorage { tile })?,
            ),
            Phase::Over => return Err(IllegalMove::GameOver),
        };
        if rot > 3 {
            return Err(IllegalMove::BadRotation { rot });
        }
        let spot = self.displays[seat as usize]
            .spot(cell, ELEMENT_OF[tile as usize])
            .map_err(|e| match e {
                SpotError::FirstNotAtOrigin => {
                    IllegalMove::FirstTileNotAtOrigin { cell, player: seat }
                }
                SpotError::Taken(tile) => IllegalMove::CellTaken {
                    cell,
                    player: seat,
                    tile,
                },
                SpotError::NotAdjacent => IllegalMove::CellNotAdjacent { cell, player: seat },
            })?;
        Ok((seat, from, spot))
    }

    /// RULES.md "Placing a tile": the display does steps 1, 2 and 4; the discs of step 3 and the
    /// score track are here, in that order.
    #[inline]
    fn place_tile<O: Observer>(
        &mut self,
        seat: u8,
        tile: TileId,
        rot: u8,
        spot: crate::display::Spot,
        obs: &mut O,
    ) -> (Placed, u16) {
        let display = &mut self.displays[seat as usize];
        let placed = display.place(tile, rot, spot, obs);
        let now = self.players as u16 + self.placements;
        self.placements += 1;
        let s = &mut self.seats[seat as usize];
        let settled = s.settle_discs(
            tile,
            placed.earlier_points,
            placed.earlier_discs,
            placed.earlier_cacophony,
            placed.new_completes,
        );
        display.set_last_cacophony(settled.on_tile);
        let shortfall = settled.shortfall;
        if placed.earlier_completed || placed.new_completes || shortfall > 0 {
            s.arrival = now;
        }
        if self.variant == Variant::Standard && s.score >= self.target().unwrap_or(i16::MAX) {
            self.final_round = true;
        }
        (placed, shortfall)
    }

    fn draw(&mut self) -> TileId {
        let t = self.deck[self.next_draw as usize];
        self.next_draw += 1;
        t
    }

    fn refill_offer(&mut self) {
        while (self.offer_len as usize) < OFFER_SIZE && self.draw_pile_len() > 0 {
            let t = self.draw();
            self.offer[self.offer_len as usize] = t;
            self.offer_len += 1;
        }
    }

    /// After a turn's placement: an intermezzo or a refill when the offer is empty, then the
    /// next player.
    fn after_turn(&mut self) {
        if self.offer_len > 0 {
            self.pass_turn();
        } else if self.storage_len as usize == STORAGE_SIZE {
            self.start_intermezzo();
        } else {
            self.refill_and_pass();
        }
    }

    fn start_intermezzo(&mut self) {
        // Fixed now: the reverse of the ranking (lowest first, later arrival first on ties).
        let mut order = [0u8; MAX_PLAYERS];
        for (i, s) in self.ranking().into_iter().rev().enumerate() {
            order[i] = s;
        }
        self.phase = Phase::Intermezzo {
            order,
            pos: 0,
            taken: false,
        };
    }

    fn next_in_intermezzo(&mut self) {
        let Phase::Intermezzo { order, pos, taken } = self.phase else {
            unreachable!("only called during an intermezzo")
        };
        let pos = pos + 1;
        if pos < self.players && self.storage_len > 0 {
            self.phase = Phase::Intermezzo { order, pos, taken };
            return;
        }
        if !taken {
            for i in 0..self.storage_len as usize {
                self.removed |= 1u128 << self.storage[i];
            }
            self.storage = [0; STORAGE_SIZE];
            self.storage_len = 0;
        }
        self.phase = Phase::Turn;
        self.refill_and_pass();
    }

    fn refill_and_pass(&mut self) {
        self.refill_offer();
        if self.draw_pile_len() <= 4 {
            self.final_round = true;
        }
        if self.offer_len == 0 {
            self.phase = Phase::Over;
            return;
        }
        self.pass_turn();
    }

    fn pass_turn(&mut self) {
        let next = (self.current + 1) % self.players;
        if self.final_round && next == self.start {
            self.phase = Phase::Over;
        } else {
            self.current = next;
            self.phase = Phase::Turn;
        }
    }

    fn after_solo_placement(&mut self) {
        let goal_reached = self.variant == Variant::Solo && self.seats[0].score >= SOLO_TARGET;
        if goal_reached || self.draw_pile_len() == 0 {
            self.phase = Phase::Over;
        } else {
            let t = self.draw();
            self.phase = Phase::PlaceRevealed(t);
        }
    }

    // ----- preview -----

    /// What a placement would do, without doing it.
    pub fn preview(&self, mv: Move) -> Result<Preview, IllegalMove> {
        let Move::Place { tile, x, y, rot } = mv else {
            return Err(IllegalMove::NotAPlacement);
        };
        let (seat, _, spot) = self.check_place(tile, Cell::new(x, y), rot)?;
        let mut scratch = self.clone();
        let mut rec = Recorder::default();
        let before = scratch.seats[seat as usize];
        let (placed, shortfall) = scratch.place_tile(seat, tile, rot, spot, &mut rec);
        let after = scratch.seats[seat as usize];
        let mut points = placed.earlier_points as i16;
        if placed.new_completes {
            points += VALUE_OF[tile as usize] as i16;
        }
        Ok(Preview {
            player: seat,
            tile,
            x,
            y,
            rot,
            covered: rec.covered,
            completed: rec.completed,
            points,
            cacophony: shortfall,
            score_change: after.score - before.score,
            score_after: after.score,
            supply_after: after.supply,
            reaches_target: self
                .target()
                .is_some_and(|t| before.score < t && after.score >= t),
        })
    }

    // ----- for records and views inside the crate -----

    pub(crate) fn deck(&self) -> &[TileId; TILE_COUNT] {
        &self.deck
    }
}

pub(crate) enum Source {
    Offer(usize),
    Storage(usize),
    Revealed,
}

#[derive(Default)]
struct Recorder {
    covered: Vec<CoveredArrow>,
    completed: Vec<TileId>,
}

impl Observer for Recorder {
    fn covered(&mut self, tile: TileId, bit: u32) {
        let (element, direction) = crate::display::arrow_of_bit(bit);
        self.covered.push(CoveredArrow {
            tile,
            direction,
            element,
        });
    }
    fn completed(&mut self, tile: TileId) {
        self.completed.push(tile);
    }
}

/// An arrow a placement covers: on which tile, where it points (as placed), its element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoveredArrow {
    pub tile: TileId,
    pub direction: crate::geometry::Direction,
    pub element: Element,
}

/// What a placement would do (`Game::preview`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preview {
    pub player: u8,
    pub tile: TileId,
    pub x: i32,
    pub y: i32,
    pub rot: u8,
    /// Arrows that get a disc: those of earlier tiles first, then the new tile's own.
    pub covered: Vec<CoveredArrow>,
    /// Tiles that would flip, earlier ones first, then the new tile if it completes at once.
    pub completed: Vec<TileId>,
    /// Values of the completed tiles.
    pub points: i16,
    /// Cacophony discs taken, 2 points each.
    pub cacophony: u16,
    /// `points - 2 * cacophony`.
    pub score_change: i16,
    pub score_after: i16,
    pub supply_after: u16,
    /// The placement brings the score up to the target (75/60/45, or 75 in solo).
    pub reaches_target: bool,
}
