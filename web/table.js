// The table: everything a player of the physical game can see, placing tiles with the engine's
// preview, live updates over the WebSocket, and the end of the game.
//
// The table owns a few objects, each with its own file: the line to the server and the game's
// state (`Connection`, connection.js), the tile being placed (`Placing`, placing.js), the board
// with its zoom (`Board`, board.js, shared with the replay) and the end card (`EndCard`,
// end-card.js); the parts around the board are built by bar.js and panels.js.
//
// The table is built once and then updated part by part: each part is redrawn only when what it
// shows has changed (`Parts`), so a move redraws the display it went to, the offer, the scores
// and one line of the log, not the whole page.

import { findGame, saveGame, tiles as loadTiles } from './api.js';
import { announce, h, keep, touch } from './dom.js';
import { SEAT_COLORS, magnifier, tileSvg } from './draw.js';
import { displaySvg } from './draw-display.js';
import { scoreTrack } from './draw-track.js';
import { Board } from './board.js';
import { t } from './i18n.js';
import * as motion from './motion.js';
import * as sound from './sound.js';
import { coach } from './tutorial.js';
import { expectText, reasonText, seatName } from './words.js';
import { clockText, leftNow, ticker } from './clock.js';
import { Chat } from './chat.js';
import { Connection } from './connection.js';
import { Placing } from './placing.js';
import { EndCard } from './end-card.js';
import { bar, banners, turnLine } from './bar.js';
import * as panels from './panels.js';
import { strip } from './strip.js';
import { Fold } from './fold.js';
import { painted, timings } from './timings.js';

/// The table on screen, closed when the page goes elsewhere (`leave`).
let current = null;

export function leave() {
  if (current) current.close();
  current = null;
}

export async function openTable(app, game) {
  leave();
  current = new Table(app, game);
  await current.start();
}

class Table {
  constructor(app, game) {
    this.app = app;
    this.id = game;
    this.entry = findGame(game); // this browser's note of the game: token, invites, mark, ...
    this.conn = new Connection(game, this.entry ? this.entry.token : null, {
      taken: (old) => this.taken(old),
      answered: () => this.answered(),
      seatLost: () => {
        this.notice = t('notice.claimed');
      },
      gone: () => {
        this.notice = t('notice.gone');
        this.render();
      },
      arrived: (animate) => this.soon(animate),
      render: () => this.render(),
    });
    this.placing = new Placing(this);
    this.endCard = new EndCard(this);
    // What the player looks at: every display or one; whose, in 'one' mode; whether they chose
    // it (then the table does not change it by itself).
    this.look = { mode: 'one', focus: null, pinned: false };
    // The bar's questions: resign (asked once more), notifications (asked once).
    this.asks = { resigning: false, notified: false };
    this.error = null; // {kind: 'network' | 'move' | 'move-network', text}
    this.notice = '';
    this.tiles = null; // the tile table, by id
    this.shown = null; // the state the table shows now (to animate the difference)
    this.parts = new Parts();
    this.board = null; // built with the skeleton, like the other elements
    this.dialog = null; // the pile's dialog, while it is open
    this.pending = null; // a redraw asked for by the socket: {animate}
    this.moveTimer = null; // my move on its way: {from: version, started}
    this.wasMyTurn = false; // to notify once when my turn comes
    this.touch = touch();
    this.onKey = (ev) => this.placing.onKey(ev);
  }

  get state() {
    return this.conn.state;
  }

  get token() {
    return this.conn.token;
  }

  get closed() {
    return this.conn.closed;
  }

  async start() {
    this.app.replaceChildren(h('p', { class: 'loading' }, t('table.loading')));
    try {
      this.tiles = await loadTiles();
      if (this.closed) return;
      await this.conn.fetchState();
    } catch (e) {
      if (this.closed) return;
      if (e.status === 403 && this.token) {
        // The seat was claimed again elsewhere: watch instead.
        this.conn.loseSeat();
        await this.conn.fetchState().catch((err) => this.fatal(err));
      } else {
        return this.fatal(e);
      }
    }
    if (this.closed || !this.state) return;
    if (this.entry) {
      // Games joined by invite learn their kind here, for the list of my games.
      saveGame({ game: this.id, variant: this.state.view.variant, players: this.state.view.players });
      if (this.you !== undefined && !this.entry.mark) this.remember(this.state);
    }
    await this.conn.fetchLog();
    if (this.closed) return;
    document.addEventListener('keydown', this.onKey);
    this.conn.connect();
    this.render();
    if (timings.firstRender === null) timings.firstRender = performance.now();
  }

  fatal(e) {
    if (this.closed) return;
    this.conn.close();
    document.title = t('app.name');
    const what = e.status === 404 ? t('table.no-game') : e.code === 'network' ? t('error.network')
      : e.code === 'history_hidden' ? t('table.daily-hidden') : t('table.cannot-load');
    this.app.replaceChildren(h('h1', {}, t('app.name')), h('p', { class: 'error', 'data-testid': 'error' }, what), h('a', { href: '/' }, t('page.missing.home')));
    announce(what);
  }

  close() {
    this.conn.close();
    document.removeEventListener('keydown', this.onKey);
    if (this.dialog) this.dialog.close();
    if (this.board) this.board.close();
    if (this.dockSize) this.dockSize.disconnect();
    if (this.phone) this.phone.removeEventListener('change', this.onPhone);
    if (this.clocks) this.clocks.stop();
    const main = document.querySelector('main');
    if (main) main.style.removeProperty('--dock-h');
    document.body.classList.remove('at-table');
  }

  /// The server answered again: a connection error is over. (A move that may not have
  /// arrived keeps its message until the player acts again or the game moves on.)
  answered() {
    if (this.error && this.error.kind === 'network') this.error = null;
  }

  /// The player acts again: a message about an earlier action is done.
  actAgain() {
    if (this.error && (this.error.kind === 'move' || this.error.kind === 'move-network')) this.error = null;
  }

  /// A state was taken (`old`: the one before): a new version is a new decision.
  taken(old) {
    const state = this.state;
    if (!old || old.version !== state.version) {
      this.placing.reset();
      if (old && this.error && this.error.kind === 'move-network') this.error = null;
    }
    if (this.look.focus === null) this.look.focus = state.you !== undefined ? state.you : state.view.current_player;
    if (old && old.version !== state.version) this.follow(old);
    this.placing.autoSelect();
  }

  /// After a change the board shows what matters: my display on my turn, otherwise the display
  /// of whoever just placed a tile, unless the player chose a display themselves.
  follow(old) {
    const look = this.look;
    if (look.mode !== 'one') return;
    // At the end, a player looks at their own display again.
    if (this.state.status === 'over' && this.you !== undefined && !look.pinned) {
      look.focus = this.you;
      return;
    }
    if (this.myTurn()) {
      if (!look.pinned || !old || old.view.next?.player !== this.you) {
        look.focus = this.you;
        look.pinned = false;
      }
      return;
    }
    const last = this.state.last_move;
    if (!look.pinned && last && last.move.action === 'place') look.focus = last.seat;
  }

  /// Shows `seat`'s display alone (pinned, unless it is mine).
  lookAt(seat) {
    this.look.mode = 'one';
    this.look.focus = seat;
    this.look.pinned = seat !== this.you;
    this.render();
  }

  /// Draws what the socket brought, right after the next frame is painted: a burst of updates
  /// is drawn once, and the frame that shows the player's own move is never held up by the
  /// answer that follows it (a bot's move) being drawn first.
  soon(animate) {
    if (this.pending) {
      this.pending.animate = this.pending.animate || animate;
      return;
    }
    this.pending = { animate };
    requestAnimationFrame(() => setTimeout(() => {
      const a = this.pending.animate;
      this.pending = null;
      if (!this.closed) this.render({ animate: a });
    }, 0));
  }

  /// Resigns or cancels (`POST /api/games/{id}/{what}`) and shows the game as it is then; a
  /// refusal says `failed`.
  async act(what, failed) {
    try {
      this.conn.take(await this.conn.post(what));
    } catch (e) {
      this.error = { kind: e.code === 'network' ? 'network' : 'move', text: e.code === 'network' ? t('error.network') : t(failed) };
    }
    this.render();
  }

  // ---- what I may do now ----

  get you() {
    return this.token && this.state ? this.state.you : undefined;
  }

  myTurn() {
    const v = this.state.view;
    return this.you !== undefined && !!v.next && v.next.player === this.you && this.state.status === 'playing';
  }

  expects() {
    return this.myTurn() ? this.state.view.next.expects : null;
  }

  /// Sends my move, and shows the game as the server answers it (or why it refused).
  async send(mv) {
    const conn = this.conn;
    if (conn.sending) return;
    conn.sending = true;
    // My own tile is at its cell already: it does not fly again.
    this.placing.placedNow = mv.action === 'place' ? mv.tile : null;
    if (this.board) this.board.cancelTap();
    // Timed from the click to the first painted frame that shows the move (see `render`).
    this.moveTimer = { from: this.state.version, started: performance.now() };
    this.actAgain();
    let shown = false;
    try {
      const result = await conn.sendMove(mv);
      if (this.moveTimer) this.moveTimer.answered = performance.now();
      this.answered();
      conn.take(result.state);
      // An answer to a retry (`applied: false`) is the game as it is now, perhaps moves later.
      if (result.applied) this.remember(result.state);
      shown = true;
    } catch (e) {
      let error;
      if (e.code === 'stale_version' || e.code === 'not_your_turn' || e.code === 'game_over') error = { kind: 'move', text: t('error.stale') };
      else if (['network', 'storage', 'timeout', 'rate_limited'].includes(e.code)) error = { kind: 'move-network', text: t('error.network.move') };
      else if (e.code === 'wrong_token' && this.token) {
        // The seat was claimed on another device: watch from here.
        conn.loseSeat();
        if (conn.ws) conn.ws.close();
      } else error = { kind: 'move', text: t('error.refused', { reason: reasonText(e) }) };
      await conn.fetchState().catch(() => {});
      // Set after the fetch, which would take a connection error as over.
      this.error = error || null;
    } finally {
      conn.sending = false;
    }
    if (!shown) this.moveTimer = null;
    this.render({ animate: true });
    // What the socket said meanwhile (a bot's answer) is drawn on the next frame, animated.
    conn.release();
  }

  /// Notes how many tiles each display holds after my move (`state` is the answer to it, not
  /// a later state): tiles added after this are outlined.
  remember(state) {
    if (!this.entry || this.you === undefined) return;
    const mark = state.view.seats.map((s) => s.display.length);
    this.entry.mark = mark;
    saveGame({ game: this.id, mark });
  }

  /// Tiles an opponent placed since my last turn (a spectator: the last move's tile).
  fresh(seat) {
    const display = this.state.view.seats[seat].display;
    if (this.you !== undefined) {
      if (seat === this.you || !this.entry || !this.entry.mark) return new Set();
      return new Set(display.slice(this.entry.mark[seat] || 0).map((d) => d.tile));
    }
    const last = this.state.last_move;
    if (last && last.seat === seat && last.move.action === 'place') return new Set([last.move.tile]);
    return new Set();
  }

  // ---- drawing ----

  /// Redraws the parts asked for (`Parts.part`). Chromium lays out the whole page again to take
  /// the focus off a control it removes from a page with changes: the focus is taken off before
  /// anything changes, which costs nothing (`render` puts it back where it belongs). The board
  /// is drawn after (`displays`) when `boardKey` changed.
  redraw(boardKey) {
    const jobs = this.parts.take();
    const active = document.activeElement;
    const boardGoes = !this.parts.same('board', boardKey) && this.boardEl.contains(active)
      && (active.closest('svg') || this.look.mode !== 'one' || this.board.seat !== this.look.focus);
    if (active && active !== document.body && (boardGoes || jobs.some(([p]) => p.el.contains(active)))) active.blur();
    for (const [p, key, build] of jobs) {
      p.key = key;
      // A part may hand back some of the same elements (the offer keeps its tiles): they stay.
      keep(p.el, [build()].flat().filter(Boolean));
    }
  }

  /// The frame of the table, built once: every part is filled in by `render`.
  skeleton() {
    const slot = (name, tag, attrs = {}) => this.parts.slot(name, h(tag, attrs));
    // The panels beside the board fold (fold.js); the intermezzo storage opens by itself when a
    // tile must be taken from it.
    this.folds = {
      storage: new Fold('storage', t('storage.title'), this.storageEl = slot('storage', 'div', { class: 'storage-slot' }), { open: false, extra: panels.help('help.intermezzo'), cls: 'storage' }),
      pile: new Fold('pile', t('pile.title'), slot('common', 'div', { class: 'common' })),
      players: new Fold('players', t('players.title'), slot('players', 'div', {}), { cls: 'players-panel' }),
      track: new Fold('track', t('track.title'), [this.trackEl = h('div', { class: 'track' }), slot('ties', 'div', {})], { open: false, extra: panels.help('help.track') }),
      log: new Fold('log', t('log.title'), this.logEl = h('ol', { class: 'log-list', 'data-testid': 'log', tabindex: 0, 'aria-label': t('log.title') }), { open: false, cls: 'log-panel' }),
    };
    this.root = h('div', { class: 'table', 'data-testid': 'table' },
      h('h1', { class: 'sr-only' }, t('table.heading')),
      slot('bar', 'header', { class: 'bar' }),
      slot('banners', 'div', { class: 'banners' }),
      slot('invites', 'div', {}),
      // The scores, always in sight (strip.js).
      slot('strip', 'div', { class: 'strip-line' }),
      this.layoutEl = h('div', { class: 'layout play' },
        this.boardArea = h('section', { class: 'board-area', 'aria-label': t('table.board') },
          slot('turn', 'div', { class: 'turn-line' }),
          // On a phone the display of whoever moved last sits below the board, never over it.
          this.boardRow = h('div', { class: 'board-row' },
            this.boardEl = h('div', { class: 'board' }))),
        // Beside the board, like the market of the physical game: the offer, and below it the
        // display of whoever moved last. On a phone the offer goes to the bar at the bottom.
        this.market = h('div', { class: 'market' },
          this.offerEl = slot('offer', 'div', { class: 'offer-slot' }),
          this.insetEl = slot('inset', 'div', { class: 'inset-slot' })),
        h('aside', { class: 'side' },
          this.dockEl = h('div', { class: 'dock', 'data-testid': 'dock' }, slot('dock', 'div', { class: 'dock-parts' })),
          ...Object.values(this.folds).map((f) => f.el),
          (this.chat = new Chat(this.id, (i) => seatName(this.state, i), () => this.token)).el)),
      slot('end', 'div', { class: 'end-slot' }));
    this.board = new Board(this.boardEl);
    this.app.replaceChildren(this.root);
    document.body.classList.add('at-table');
    this.phone = window.matchMedia('(max-width: 760px)');
    this.onPhone = () => this.place();
    this.phone.addEventListener('change', this.onPhone);
    // On a phone the dock sits at the bottom; the board leaves it room, and the lines above (the
    // bar, the scores) too: the board and the last move's display stay in sight. On a desktop the
    // board, the market and the side fill the window below those lines.
    this.dockSize = new ResizeObserver(() => {
      const px = `${this.dockEl.offsetHeight}px`;
      for (const el of [document.querySelector('main'), this.boardArea]) if (el && el.style.getPropertyValue('--dock-h') !== px) el.style.setProperty('--dock-h', px);
      const above = `${Math.round(this.layoutEl.getBoundingClientRect().top + window.scrollY)}px`;
      if (this.layoutEl.style.getPropertyValue('--above-h') !== above) this.layoutEl.style.setProperty('--above-h', above);
    });
    this.dockSize.observe(this.dockEl);
    for (const name of ['bar', 'banners', 'invites', 'strip']) this.dockSize.observe(this.parts.slots.get(name).el);
    this.clocks = ticker(this.root, () => ({ clock: this.state && this.state.status === 'playing' ? this.state.clock : null, arrived: this.conn.arrived }), (left) => {
      // The tab counts down too, on my turn.
      if (!this.myTurn() || left[this.you] === null || left[this.you] === undefined) return;
      const title = t('title.your-turn.time', { time: clockText(left[this.you]) });
      if (document.title !== title) document.title = title;
    });
  }

  render({ animate = false } = {}) {
    if (this.closed || !this.state) return;
    const began = performance.now();
    const before = this.root && animate && this.shown && this.shown.version !== this.state.version ? motion.snapshot(this.root) : null;
    const prev = this.shown;
    if (!this.root) this.skeleton();
    const active = document.activeElement;
    const refocus = focusSelector(active);

    const s = this.state;
    const v = s.view;
    const { look, placing, conn } = this;
    const names = v.seats.map((_, i) => seatName(s, i));
    const myTurn = this.myTurn();
    this.title(myTurn, names);
    Object.assign(this.root.dataset, {
      version: s.version, status: s.status, expects: this.expects() || 'none', myTurn: String(myTurn), live: String(!conn.offline), synced: String(conn.synced), mode: look.mode,
    });
    const sel = JSON.stringify([placing.sel, placing.chosen, placing.preview && placing.preview.score_after, conn.sending]);
    const coached = this.entry && this.entry.tutorial ? coach({
      state: s, tiles: this.tiles, entry: this.entry, rerender: () => this.render(), save: (fields) => {
        Object.assign(this.entry, fields);
        saveGame({ game: this.id, ...fields });
      },
    }) : null;
    placing.coachTarget = coached ? coached.target : null;

    const gone = s.seats.map((x) => x.replaced || null);
    this.parts.part('bar', JSON.stringify([s.status, conn.offline, this.you, look.mode, this.asks.notified, this.endCard.hidden, gone, this.asks.resigning, s.clock && s.clock.control]), () => bar(this, myTurn, names));
    this.parts.part('banners', JSON.stringify([s.version, this.notice, this.error, v.final_round, gone]), () => banners(this, names));
    this.parts.part('invites', JSON.stringify([s.version, s.seats]), () => panels.invites(this));
    this.parts.part('turn', JSON.stringify([s.version, s.status, conn.offline, myTurn, placing.sel]), () => turnLine(this, names, myTurn));
    this.parts.part('strip', JSON.stringify([s.version, s.status, look.mode, look.focus, names]), () => strip(this, names));
    const lastSeat = s.last_move ? s.last_move.seat : null;
    this.parts.part('inset', JSON.stringify([s.last_move, look.mode, look.focus, lastSeat === null ? null : v.seats[lastSeat].display, this.entry && this.entry.mark]), () => panels.inset(this, names));
    // The dock is rebuilt for a new coach text too (a card's Next button changes it).
    this.parts.part('dock', JSON.stringify([s.version, sel, myTurn, coached ? coached.panel.dataset.step : null, placing.coachTarget, placing.hint]), () => [coached ? coached.panel : null, placing.panel(), placing.hintPanel(), panels.revealed(this)]);
    const tilesKey = JSON.stringify([s.version, sel, myTurn, placing.coachTarget]);
    this.parts.part('offer', tilesKey, () => panels.offer(this));
    this.parts.part('storage', tilesKey, () => panels.storage(this));
    this.parts.part('common', JSON.stringify([s.version]), () => panels.pile(this));
    this.parts.part('players', JSON.stringify([v.seats.map((p) => [p.score, p.supply, p.cacophony]), v.next, names, s.clock, gone, s.status]), () => panels.players(this, names));
    const trackKey = JSON.stringify([v.seats.map((p) => p.score), v.ranking, names]);
    this.parts.part('ties', trackKey, () => panels.ties(this, names));
    this.parts.part('end', JSON.stringify([s.version, s.status, s.rematch, this.endCard.hidden, this.error, s.ended, gone]), () => this.endCard.build(names));
    const boardKey = this.boardKeyNow(names);
    this.redraw(boardKey);
    this.place();
    this.clocks.tick();
    this.chat.sync(s.chats || 0);
    const drawn = this.displays(names, boardKey);
    const logKey = JSON.stringify([s.version, conn.log.size, [...conn.log.values()].filter((m) => m.effect).length, names]);
    if (this.parts.changed('log', logKey)) panels.logList(this, this.logEl, names);
    if (this.parts.changed('track', trackKey)) {
      // Drawn in place: the markers move, the spaces stay.
      const had = this.trackEl.firstElementChild;
      const track = scoreTrack(v, names, had);
      if (track !== had) this.trackEl.replaceChildren(track);
    }
    // An opponent's tile flies into the small display in the corner when theirs is not shown.
    const insetSvg = this.root.querySelector('.inset svg');
    if (insetSvg && lastSeat !== null && !drawn.has(lastSeat)) drawn.set(lastSeat, insetSvg);

    if (this.dialog) this.dialog.querySelector('.pile-body').replaceChildren(...panels.pileContent(this));
    // The end card is a dialog: the table behind it waits, and the keyboard starts on it.
    const card = this.root.querySelector('.end-card');
    for (const behind of this.root.querySelectorAll(':scope > .bar, :scope > .banners, :scope > .layout')) behind.inert = !!card;
    if (card && !card.contains(document.activeElement)) card.querySelector('h2').focus({ preventScroll: true });
    announce(this.error ? this.error.text : this.statusText(names));
    if (before && prev) this.animate(before, prev, drawn);
    // Heard once per change that arrived live (never for a reload or a reconnection's catch-up).
    if (animate && prev && prev.version !== s.version) sound.play(sound.story(prev, s, this.you));
    if (!prev || prev.version !== s.version) timings.renders.push(performance.now() - began);
    if (this.moveTimer && s.version > this.moveTimer.from) {
      const { started, answered } = this.moveTimer;
      painted(started, timings.moves, answered ? { answered, drawn: performance.now() } : null);
      this.moveTimer = null;
    }
    this.shown = s;
    const again = refocus && this.app.querySelector(refocus);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
    else if (!again && (!document.activeElement || document.activeElement === document.body) && refocus !== null) {
      // The focused control went with the move: the keyboard goes on from the board (or, with
      // a tile to place, a legal cell).
      const first = placing.sel && myTurn ? this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`) : null;
      const board = this.app.querySelector('.display-wrap[tabindex]');
      if (first) first.focus({ preventScroll: true });
      else if (board) board.focus({ preventScroll: true });
    } else if (!again && placing.sel && myTurn && (!document.activeElement || document.activeElement === document.body)) {
      const first = this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`);
      if (first) first.focus({ preventScroll: true });
    }
  }

  /// Puts the parts that move between a desktop and a phone where they belong: on a desktop the
  /// offer and the last move's display beside the board, the intermezzo storage in its folding
  /// section (open while a tile must be taken from it); on a phone the offer in the bar at the
  /// bottom, within thumb reach, with the storage above it while it is needed, and the last
  /// move's display below the board. An element is moved only when it is elsewhere.
  place() {
    const phone = this.phone.matches;
    const v = this.state.view;
    const needed = this.state.status === 'playing' && !!v.next && v.next.expects === 'intermezzo-pick';
    const put = (el, parent) => {
      if (el.parentNode !== parent) parent.append(el);
    };
    put(this.offerEl, phone ? this.dockEl : this.market);
    put(this.storageEl, phone && needed ? this.dockEl : this.folds.storage.body);
    put(this.insetEl, phone ? this.boardRow : this.market);
    // Nothing on the market (a game without an offer, alone): the board takes its room too.
    const empty = !this.offerEl.childElementCount && !this.insetEl.childElementCount;
    if (this.layoutEl.classList.contains('no-market') !== empty) this.layoutEl.classList.toggle('no-market', empty);
    this.folds.storage.need(needed);
    this.folds.storage.el.classList.toggle('running', needed);
    this.folds.storage.el.hidden = phone && needed;
  }

  /// The story of the moves between the state shown before (`prev`) and now. Everything is
  /// measured first and animated after, so the page is laid out once.
  animate(before, prev, drawn) {
    if (motion.reduced()) return;
    const v = this.state.view;
    const flights = [];
    const rises = [];
    const changes = [];
    for (const [seat, svgRoot] of drawn) {
      const old = prev.view.seats[seat];
      const now = v.seats[seat];
      const had = new Map(old.display.map((d) => [d.tile, d]));
      const covered = [];
      const flipped = [];
      for (const d of now.display) {
        const o = had.get(d.tile);
        if (!o && d.tile !== this.placing.placedNow) {
          // A new tile: from the offer, the storage, or the pile, to its cell.
          const target = svgRoot.querySelector(`g.tile[data-tile="${d.tile}"]`);
          const from = before.sources.get(d.tile) || before.pile;
          if (target && from) flights.push({ d, from, target, end: target.getBoundingClientRect() });
        }
        for (const a of d.arrows) {
          const oa = o && o.arrows.find((x) => x.direction === a.direction);
          if (a.covered && !(oa && oa.covered)) covered.push({ tile: d.tile, direction: a.direction });
        }
        if (d.flipped && !(o && o.flipped)) flipped.push(d.tile);
      }
      changes.push([svgRoot, { covered, flipped }]);
      const gained = now.score - old.score;
      if (gained > 0 && flipped.length) {
        const tileEl = svgRoot.querySelector(`g.tile[data-tile="${flipped[0]}"]`);
        // The points rise to the score marker, or to the score strip while the track is folded.
        const marker = this.folds.track.open ? this.root.querySelector(`g.marker[data-seat="${seat}"]`) : this.root.querySelector(`[data-testid=strip-score-${seat}]`);
        if (tileEl && marker) rises.push([gained, tileEl.getBoundingClientRect(), marker.getBoundingClientRect()]);
      }
    }
    const markerMoves = motion.measureMarkers(this.root, before.markers);
    for (const f of flights) motion.fly(tileSvg(this.tiles[f.d.tile], { size: 80, rot: f.d.rot }), f.from, f.target, { end: f.end });
    for (const [svgRoot, marks] of changes) motion.marks(svgRoot, marks);
    for (const [gained, a, b] of rises) motion.points(t('effect.points.plus', { count: gained }), a, b);
    motion.moveMarkers(markerMoves);
  }

  title(myTurn, names) {
    const s = this.state;
    const arrived = this.conn.arrived;
    if (myTurn && !this.wasMyTurn && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      try {
        const left = s.clock ? leftNow(s.clock, arrived)[this.you] : null;
        const body = expectText(s.view.next.expects, this.touch) + (left === null || left === undefined ? '' : ` ${t('notify.time', { time: clockText(left) })}`);
        new Notification(t('notify.title'), { body, tag: `sagani-${this.id}` });
      } catch {
        // Some browsers only notify from a service worker; the title still tells.
      }
    }
    this.wasMyTurn = myTurn;
    let title = myTurn ? t('title.your-turn') : s.status === 'over' ? t('title.over') : t('title.other', { status: this.statusText(names) });
    // On my turn with a clock, the tab says how much time is left.
    const left = myTurn && s.clock ? leftNow(s.clock, arrived)[this.you] : null;
    if (left !== null && left !== undefined) title = t('title.your-turn.time', { time: clockText(left) });
    if (document.title !== title) document.title = title;
  }

  statusText(names) {
    const s = this.state;
    const v = s.view;
    if (s.status === 'over') return t('status.over');
    if (s.status === 'waiting') return t('status.waiting');
    if (this.myTurn()) return expectText(v.next.expects, this.touch);
    if (!v.next) return '';
    const who = names[v.next.player];
    const bot = s.seats[v.next.player].kind === 'bot' || !!s.seats[v.next.player].replaced;
    const during = v.next.expects === 'intermezzo-pick';
    return t(`status.${bot ? 'thinking' : 'waiting-for'}${during ? '.intermezzo' : ''}`, { who });
  }

  // ---- the board ----

  /// What the board shows: it is drawn again when this changes.
  boardKeyNow(names) {
    const v = this.state.view;
    const { look, placing } = this;
    if (look.mode === 'all') return JSON.stringify(['all', this.state.version, names, placing.hintMarks(this.you)]);
    const seat = look.focus;
    const placingKey = seat === this.you && placing.sel && this.myTurn() ? [placing.sel, placing.chosen, placing.preview, placing.coachTarget] : null;
    return JSON.stringify(['one', seat, v.seats[seat].display, placingKey, [...this.fresh(seat)], placing.hintMarks(seat)]);
  }

  /// Draws the displays when `key` (from `boardKeyNow`) changed; returns the drawn SVGs by
  /// seat, for the animations.
  displays(names, key) {
    const v = this.state.view;
    const drawnNow = new Map();
    if (!this.parts.changed('board', key)) return drawnNow;
    if (this.look.mode === 'all') {
      this.board.showAll(v.seats.map((_, i) => {
        const magnify = h('button', { class: 'small icon', title: t('view.only', { who: names[i] }), 'aria-label': t('view.only', { who: names[i] }), 'data-testid': `magnify-display-${i}` }, magnifier());
        magnify.addEventListener('click', () => this.lookAt(i));
        const svgEl = this.drawDisplay(i, true);
        drawnNow.set(i, svgEl);
        return {
          seat: i,
          heading: [h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), names[i], ' ', i === v.start_player ? panels.startBadge() : null, ' ', magnify],
          label: t('display.label', { who: names[i] }),
          svg: svgEl,
        };
      }));
      return drawnNow;
    }
    const seat = this.look.focus;
    drawnNow.set(seat, this.board.showOne(seat, t('display.label.scroll', { who: names[seat] }), (into) => this.drawDisplay(seat, false, into)));
    return drawnNow;
  }

  /// Draws the display of `seat` (`into`: the one drawn before, to update in place).
  drawDisplay(seat, fit, into = null) {
    const v = this.state.view;
    const p = this.placing;
    const mine = seat === this.you && p.sel && this.myTurn();
    const placing = mine ? { tile: this.tiles[p.sel.tile], rot: p.sel.rot, legal: p.legalCells(p.sel.tile), chosen: p.chosen, target: p.coachTarget } : null;
    const svgEl = displaySvg(v.seats[seat], this.tiles, {
      cellPx: 80, fit, seatColor: SEAT_COLORS[seat], placing, fresh: this.fresh(seat), preview: mine && p.chosen ? p.preview : null, hints: p.hintMarks(seat),
      onCell: (x, y, legal, byKey) => p.pickCell(x, y, legal, byKey), into,
    });
    if (placing && p.coachTarget) {
      const cell = svgEl.querySelector(`rect.cell[data-cell="${p.coachTarget.x},${p.coachTarget.y}"]`);
      if (cell) cell.classList.add('coach-target');
    }
    return svgEl;
  }
}

/// The parts of the table, each drawn again only when what it shows has changed: a part built
/// into a slot of the skeleton (`slot`, `part`), or drawn by the table itself (`changed`).
class Parts {
  constructor() {
    this.slots = new Map(); // name -> {el, key}
    this.jobs = []; // the slots to fill again: [slot, key, build]
    this.drawn = new Map(); // name -> the key of what the table drew itself
  }

  /// `el` is the slot of part `name`; returns it.
  slot(name, el) {
    this.slots.set(name, { el, key: null });
    return el;
  }

  /// Notes that part `name` is to be built again with `build()` when `key` differs from the last
  /// time; the table does it once every part has been asked (`take`).
  part(name, key, build) {
    const p = this.slots.get(name);
    if (p && p.key !== key) this.jobs.push([p, key, build]);
  }

  /// The parts to build again, noted since the last time.
  take() {
    return this.jobs.splice(0);
  }

  /// Whether `key` is what `name` shows now.
  same(name, key) {
    return this.drawn.get(name) === key;
  }

  /// Whether `name` is to be drawn again for `key` (and notes it drawn).
  changed(name, key) {
    if (this.same(name, key)) return false;
    this.drawn.set(name, key);
    return true;
  }
}

/// A selector that finds the focused element again after a part is redrawn.
function focusSelector(el) {
  if (!el || !el.getAttribute) return null;
  const cell = el.getAttribute('data-cell');
  if (cell) return `[data-cell="${cell}"].cell`;
  const id = el.getAttribute('data-testid');
  if (!id) return null;
  const tile = el.getAttribute('data-tile');
  return tile ? `[data-testid="${id}"][data-tile="${tile}"]` : `[data-testid="${id}"]`;
}
