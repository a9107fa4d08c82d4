// The table: everything a player of the physical game can see, placing tiles with the engine's
// preview, live updates over the WebSocket, and the end of the game.
//
// The table is built once and then updated part by part: each part is redrawn only when what it
// shows has changed (`part`), so a move redraws the display it went to, the offer, the scores and
// one line of the log, not the whole page.

import { api, findGame, saveGame, tiles as loadTiles } from './api.js';
import { announce, copy, h, touch } from './dom.js';
import * as draw from './draw.js';
import { displaySvg } from './draw-display.js';
import { scoreTrack } from './draw-track.js';
import { Board } from './board.js';
import { t, num } from './i18n.js';
import * as motion from './motion.js';
import { coach } from './tutorial.js';
import { claimName } from './account.js';
import { describeMove, effectWords, expectText, reasonText, seatName, shortName, tileName } from './words.js';
import { clockText, controlText, leftNow, ticker, LOW_MS } from './clock.js';
import { Chat } from './chat.js';
import { dailyResult, dayText } from './daily.js';
import { askEngine, engineList, engineMarks } from './engine.js';

const { SEAT_COLORS, magnifier, tileSvg } = draw;

/// Claims a seat (by invite or, in a public game, by number) and remembers its token.
export async function claimSeat(game, body) {
  // A guest's display name goes with the claim (an account's own name wins on the server).
  const joined = await api('POST', `/api/games/${game}/join`, { body: { ...body, name: claimName() } });
  saveGame({ game, seat: joined.seat, token: joined.token, invite: body.invite || null });
  return joined;
}

/// The table on screen, closed when the page goes elsewhere (`leave`).
let current = null;

export function leave() {
  if (current) current.close();
  current = null;
}

/// What tests and the closing note measure: the first render and each move's and preview's
/// round trip as the page sees it (from the click to the table showing the answer), in ms.
const timings = (window.saganiTimings = window.saganiTimings || { firstRender: null, moves: [], previews: [], renders: [] });

/// `/games/{id}/join/{code}`: claims the seat unless this browser already holds it, then opens
/// the table under the plain game link (so the invite does not stay in the address bar).
export async function joinByInvite(app, game, code) {
  const here = location.pathname;
  const mine = findGame(game);
  if (mine && mine.token && mine.invite !== code) {
    // This browser plays another seat of this game (the creator trying a link, say): taking
    // this one too would leave that seat without anyone to play it.
    const keep = h('a', { href: `/games/${game}`, class: 'button primary', 'data-testid': 'keep-seat' }, t('invite.keep', { n: mine.seat + 1 }));
    const take = h('button', { 'data-testid': 'take-seat' }, t('invite.take'));
    take.addEventListener('click', () => {
      take.disabled = true;
      claim();
    });
    document.title = t('invite.title');
    app.replaceChildren(h('h1', {}, t('app.name')),
      h('p', { class: 'notice', 'data-testid': 'other-seat' }, t('invite.other', { n: mine.seat + 1 })),
      h('p', { class: 'end-actions' }, keep, take));
    return;
  }
  if (mine && mine.token) {
    // This browser's own invite: its token still holds the seat, unless the seat was claimed
    // on another device since; then the invite takes it back.
    try {
      await api('GET', `/api/games/${game}`, { token: mine.token });
      return open();
    } catch (e) {
      if (e.status !== 403) return open();
    }
  }
  return claim();

  async function claim() {
    try {
      await claimSeat(game, { invite: code });
    } catch (e) {
      if (location.pathname !== here) return;
      document.title = t('invite.title');
      const why = e.code === 'network' ? t('error.network') : e.code === 'wrong_invite' ? t('invite.wrong') : e.code === 'seat_taken' ? t('invite.taken') : t('invite.unusable');
      app.replaceChildren(
        h('h1', {}, t('app.name')),
        h('p', { class: 'error', 'data-testid': 'error' }, why),
        h('p', {}, h('a', { href: `/games/${game}` }, t('invite.watch')), ' · ', h('a', { href: '/' }, t('invite.new'))),
      );
      announce(why);
      return;
    }
    return open();
  }

  function open() {
    // The player may have gone elsewhere while the seat was claimed.
    if (location.pathname !== here) return;
    history.replaceState(null, '', `/games/${game}`);
    return openTable(app, game);
  }
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
    this.entry = findGame(game);
    this.token = this.entry ? this.entry.token : null;
    this.state = null;
    this.shown = null; // the state the table shows now (to animate the difference)
    this.log = new Map(); // version -> the move played at that version, with its effect
    this.sel = null; // {tile, rot}
    this.hint = null; // a practice game's hints for this decision: {at, asking} | the engine's answer | {at, error}
    this.chosen = null; // {x, y}
    this.preview = null;
    this.previewFor = null;
    this.error = null; // {kind: 'network' | 'move', text}
    this.notice = '';
    this.mode = 'one';
    this.focus = null; // the seat shown in 'one' mode
    this.pinned = false; // the player chose a display: the table does not change it by itself
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.wasMyTurn = false;
    this.endHidden = false;
    this.parts = new Map();
    this.jobs = [];
    this.held = []; // socket messages that came in while my move was on its way
    this.arrived = performance.now(); // when the state shown arrived (the clocks count from it)
    this.resigning = false; // the resign button asks again first
    this.onKey = (ev) => this.key(ev);
    this.touch = touch();
  }

  async start() {
    this.app.replaceChildren(h('p', { class: 'loading' }, t('table.loading')));
    try {
      this.tiles = await loadTiles();
      if (this.closed) return;
      await this.fetchState();
    } catch (e) {
      if (this.closed) return;
      if (e.status === 403 && this.token) {
        // The seat was claimed again elsewhere: watch instead.
        this.token = null;
        this.notice = t('notice.claimed');
        await this.fetchState().catch((err) => this.fatal(err));
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
    await this.fetchLog();
    if (this.closed) return;
    document.addEventListener('keydown', this.onKey);
    this.connect();
    this.render();
    if (timings.firstRender === null) timings.firstRender = performance.now();
  }

  fatal(e) {
    if (this.closed) return;
    this.closed = true;
    document.title = t('app.name');
    const what = e.status === 404 ? t('table.no-game') : e.code === 'network' ? t('error.network')
      : e.code === 'history_hidden' ? t('table.daily-hidden') : t('table.cannot-load');
    this.app.replaceChildren(h('h1', {}, t('app.name')), h('p', { class: 'error', 'data-testid': 'error' }, what), h('a', { href: '/' }, t('page.missing.home')));
    announce(what);
  }

  close() {
    this.closed = true;
    document.removeEventListener('keydown', this.onKey);
    if (this.ws) this.ws.close();
    if (this.dialog) this.dialog.close();
    if (this.board) this.board.close();
    if (this.dockSize) this.dockSize.disconnect();
    if (this.clocks) this.clocks.stop();
    const main = document.querySelector('main');
    if (main) main.style.removeProperty('--dock-h');
    document.body.classList.remove('at-table');
  }

  async fetchState() {
    this.apply(await api('GET', `/api/games/${this.id}`, { token: this.token }));
    this.back();
  }

  async fetchLog() {
    try {
      // With the token: a daily game's moves are its player's alone during its day.
      const { moves } = await api('GET', `/api/games/${this.id}/moves`, { token: this.token });
      for (const m of moves) this.logMove(m);
      this.back();
    } catch {
      // The log is a convenience; the table itself is complete without it.
    }
  }

  /// The server answered again: a connection error is over. (A move that may not have
  /// arrived keeps its message until the player acts again or the game moves on.)
  back() {
    if (this.error && this.error.kind === 'network') this.error = null;
  }

  /// The player acts again: a message about an earlier action is done.
  actAgain() {
    if (this.error && (this.error.kind === 'move' || this.error.kind === 'move-network')) this.error = null;
  }

  logMove(m) {
    const had = this.log.get(m.version);
    if (!had || (!had.effect && m.effect)) this.log.set(m.version, m);
  }

  /// Takes a newer state; an older one (a late answer) only adds its moves to the log.
  apply(state, moves = []) {
    for (const m of moves) this.logMove(m);
    if (state.last_move) this.logMove(state.last_move);
    // A rematch, once named, stays named (a late answer of the same version may predate it).
    if (this.state && this.state.rematch && !state.rematch) state.rematch = this.state.rematch;
    const old = this.state;
    if (old && state.version < old.version) return false;
    this.state = state;
    this.arrived = performance.now();
    if (!old || old.version !== state.version) {
      this.hint = null;
      this.clearSelection();
      if (old && this.error && this.error.kind === 'move-network') this.error = null;
    }
    if (this.focus === null) this.focus = state.you !== undefined ? state.you : state.view.current_player;
    if (old && old.version !== state.version) this.follow(old);
    this.autoSelect();
    return true;
  }

  /// After a change the board shows what matters: my display on my turn, otherwise the display
  /// of whoever just placed a tile, unless the player chose a display themselves.
  follow(old) {
    if (this.mode !== 'one') return;
    // At the end, a player looks at their own display again.
    if (this.state.status === 'over' && this.you !== undefined && !this.pinned) {
      this.focus = this.you;
      return;
    }
    if (this.myTurn()) {
      if (!this.pinned || !old || old.view.next?.player !== this.you) {
        this.focus = this.you;
        this.pinned = false;
      }
      return;
    }
    const last = this.state.last_move;
    if (!this.pinned && last && last.move.action === 'place') this.focus = last.seat;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // The token goes in the first message, never in the address (which browsers print).
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${this.id}/ws`);
    this.ws = ws;
    let first = true;
    ws.onopen = () => {
      if (this.token) ws.send(JSON.stringify({ type: 'auth', token: this.token }));
    };
    ws.onmessage = async (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (this.closed || this.ws !== ws) return;
      if (msg.type === 'error') {
        if (msg.error === 'wrong_token' && this.token) {
          this.token = null;
          this.notice = t('notice.claimed');
          ws.close();
          this.ws = null;
          this.connect();
        }
        return;
      }
      if (msg.type !== 'state') return;
      // A seat's socket may say a spectator's state before it reads the token.
      if (this.token && msg.state.you === undefined) return;
      // The answer to my own move is drawn first (a bot's answer would hold up its frame):
      // what the socket says meanwhile follows it.
      if (this.sending) {
        this.held.push([ws, ev]);
        return;
      }
      this.retry = 0;
      const wasOffline = this.offline;
      this.offline = false;
      this.back();
      this.apply(msg.state, msg.moves);
      if (first) {
        // Moves played while this socket was away.
        first = false;
        await this.fetchLog();
      }
      if (!this.closed) this.soon(!wasOffline);
    };
    ws.onclose = async () => {
      if (this.closed || this.ws !== ws) return;
      this.offline = true;
      this.render();
      // A refused or closed socket: was the seat claimed elsewhere, or the game removed?
      try {
        await api('GET', `/api/games/${this.id}`, { token: this.token });
      } catch (e) {
        if (e.status === 403 && this.token) {
          this.token = null;
          this.notice = t('notice.claimed');
        } else if (e.status === 404) {
          this.notice = t('notice.gone');
          this.offline = false;
          this.render();
          return;
        }
      }
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  /// Draws what the socket brought, right after the next frame is painted: a burst of updates
  /// is drawn once, and the frame that shows the player's own move is never held up by the
  /// answer that follows it (a bot's move) being drawn first.
  soon(animate) {
    this.soonAnimate = this.soonAnimate || animate;
    if (this.soonPending) return;
    this.soonPending = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.soonPending = false;
      const a = this.soonAnimate;
      this.soonAnimate = false;
      if (!this.closed) this.render({ animate: a });
    }, 0));
  }

  /// Resigns or cancels (`POST /api/games/{id}/{what}`) and shows the game as it is then; a
  /// refusal says `failed`.
  async act(what, failed) {
    try {
      this.apply(await api('POST', `/api/games/${this.id}/${what}`, { token: this.token }));
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

  /// The tiles I may place now.
  placeable() {
    const set = new Set();
    if (!this.myTurn()) return set;
    for (const m of this.state.legal) if (m.action === 'place') set.add(m.tile);
    return set;
  }

  legalCells(tile) {
    const cells = new Set();
    for (const m of this.state.legal) if (m.action === 'place' && m.tile === tile) cells.add(`${m.x},${m.y}`);
    return cells;
  }

  /// A tile drawn from the pile is the only one to place: choose it at once.
  autoSelect() {
    const e = this.expects();
    if ((e === 'place-drawn' || e === 'place-revealed') && this.state.view.revealed && !this.sel) {
      this.sel = { tile: this.state.view.revealed, rot: 0 };
      this.mode = 'one';
      this.focus = this.you;
    }
  }

  clearSelection() {
    this.sel = null;
    this.chosen = null;
    this.preview = null;
    this.previewFor = null;
  }

  /// Chooses a tile to place; from the keyboard, the focus goes on to the first legal cell.
  choose(tile, byKey = false) {
    if (!this.placeable().has(tile)) return;
    this.actAgain();
    this.sel = { tile, rot: this.sel && this.sel.tile === tile ? this.sel.rot : 0 };
    this.chosen = null;
    this.preview = null;
    this.previewFor = null;
    // The tile goes onto my display: show it (from "All displays" too).
    this.mode = 'one';
    this.focus = this.you;
    this.pinned = false;
    this.render();
    const first = this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`);
    if (byKey && first) first.focus({ preventScroll: true });
  }

  rotate(by) {
    if (!this.sel) return;
    this.sel.rot = (this.sel.rot + by + 4) % 4;
    this.preview = null;
    if (this.chosen) this.askPreview();
    this.render();
  }

  async pickCell(x, y, legal, byKey = false) {
    if (!this.sel) return;
    // Enter on the chosen cell, once its preview is shown, places the tile.
    if (byKey && this.preview && this.chosen && this.chosen.x === x && this.chosen.y === y) return this.confirm();
    this.actAgain();
    const from = this.chosen ? null : this.app.querySelector(`[data-source-tile="${this.sel.tile}"]`);
    const fromRect = from ? from.getBoundingClientRect() : null;
    this.chosen = { x, y };
    this.preview = null;
    // The engine is asked first, and the table drawn while it answers.
    const asked = this.askPreview();
    this.render();
    // The chosen tile travels from the offer to its cell.
    const landed = this.app.querySelector(`[data-testid="display-${this.you}"] g.chosen`);
    if (fromRect && landed && from) motion.fly(from.querySelector('svg') || from, fromRect, landed);
    await asked;
  }

  /// Asks the engine what the chosen placement would do. An illegal cell gets the engine's
  /// reason as an error, and the table stays as it was.
  async askPreview() {
    const mv = { action: 'place', tile: this.sel.tile, x: this.chosen.x, y: this.chosen.y, rot: this.sel.rot };
    const key = JSON.stringify(mv);
    this.previewFor = key;
    const started = performance.now();
    try {
      const { preview } = await api('POST', `/api/games/${this.id}/preview`, { token: this.token, body: { move: mv } });
      if (this.previewFor !== key) return;
      this.back();
      this.preview = preview;
    } catch (e) {
      if (this.previewFor !== key) return;
      // A connection lost is never an illegal placement.
      this.error = e.code === 'network' || e.code === 'storage' || e.code === 'timeout'
        ? { kind: 'network', text: t('error.network') }
        : { kind: 'move', text: t('error.placement', { reason: reasonText(e) }) };
      this.chosen = null;
      this.preview = null;
    }
    this.render();
    if (this.preview) painted(started, timings.previews);
  }

  cancel() {
    if (this.chosen) {
      this.chosen = null;
      this.preview = null;
    } else if (this.sel && !['place-drawn', 'place-revealed'].includes(this.expects())) {
      this.sel = null;
    }
    this.previewFor = null;
    this.actAgain();
    this.render();
  }

  async confirm() {
    if (!this.sel || !this.chosen || !this.preview) return;
    await this.send({ action: 'place', tile: this.sel.tile, x: this.chosen.x, y: this.chosen.y, rot: this.sel.rot });
  }

  async send(mv) {
    if (this.sending) return;
    this.sending = true;
    // My own tile is at its cell already: it does not fly again.
    this.placedNow = mv.action === 'place' ? mv.tile : null;
    if (this.board) this.board.cancelTap();
    // Timed from the click to the first painted frame that shows the move (see `render`).
    this.moveTimer = { from: this.state.version, started: performance.now() };
    this.actAgain();
    const body = { version: this.state.version, move: mv };
    let shown = false;
    try {
      // A move that got no answer (the network, or a store that failed) is sent again as it
      // was: the server plays it at most once, and says so when it had played it already.
      let result;
      for (let attempt = 0; ; attempt++) {
        try {
          result = await api('POST', `/api/games/${this.id}/moves`, { token: this.token, body });
          break;
        } catch (e) {
          if (attempt >= 2 || !(e.code === 'network' || e.code === 'storage')) throw e;
          await new Promise((resolve) => setTimeout(resolve, 400 * (attempt + 1)));
        }
      }
      this.back();
      this.apply(result.state);
      // An answer to a retry (`applied: false`) is the game as it is now, perhaps moves later.
      if (result.applied) this.remember(result.state);
      shown = true;
    } catch (e) {
      let error;
      if (e.code === 'stale_version' || e.code === 'not_your_turn' || e.code === 'game_over') error = { kind: 'move', text: t('error.stale') };
      else if (['network', 'storage', 'timeout', 'rate_limited'].includes(e.code)) error = { kind: 'move-network', text: t('error.network.move') };
      else if (e.code === 'wrong_token' && this.token) {
        // The seat was claimed on another device: watch from here.
        this.token = null;
        this.notice = t('notice.claimed');
        if (this.ws) this.ws.close();
      } else error = { kind: 'move', text: t('error.refused', { reason: reasonText(e) }) };
      await this.fetchState().catch(() => {});
      // Set after the fetch, which would take a connection error as over.
      this.error = error || null;
    } finally {
      this.sending = false;
    }
    if (!shown) this.moveTimer = null;
    this.render({ animate: true });
    // What the socket said meanwhile (a bot's answer) is drawn on the next frame, animated.
    const held = this.held.splice(0);
    for (const [ws, ev] of held) ws.onmessage(ev);
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

  key(ev) {
    if (!this.state || ev.target.closest('input, select, textarea, dialog')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (/^[1-5]$/.test(k)) {
      const e = this.expects();
      const row = e === 'intermezzo-pick' ? this.state.view.intermezzo : e === 'turn' ? this.state.view.offer : [];
      const tile = row[Number(k) - 1];
      if (tile) {
        ev.preventDefault();
        this.choose(tile, true);
      }
    } else if (k === 'q' || k === 'Q' || k === '[') {
      ev.preventDefault();
      this.rotate(-1);
    } else if (k === 'e' || k === 'E' || k === ']' || k === 'r' || k === 'R') {
      ev.preventDefault();
      this.rotate(1);
    } else if (k === 'Escape') {
      this.cancel();
    } else if (k === 'Enter' && !ev.repeat && this.preview && !ev.target.closest('button, [role="button"], a')) {
      ev.preventDefault();
      this.confirm();
    }
  }

  // ---- drawing ----

  /// Notes that part `name` is to be redrawn with `build()` when `key` differs from the last
  /// time; `redraw` does it once every part has been asked.
  part(name, key, build) {
    const p = this.parts.get(name);
    if (p && p.key !== key) this.jobs.push([p, key, build]);
  }

  /// Redraws the parts noted by `part`, and the board. Chromium lays out the whole page again to
  /// take the focus off a control it removes from a page with changes: the focus is taken off
  /// before anything changes, which costs nothing (`render` puts it back where it belongs).
  redraw(boardKey) {
    const jobs = this.jobs;
    this.jobs = [];
    const active = document.activeElement;
    const boardGoes = this.boardKey !== boardKey && this.boardEl.contains(active)
      && (active.closest('svg') || this.mode !== 'one' || this.board.seat !== this.focus);
    if (active && active !== document.body && (boardGoes || jobs.some(([p]) => p.el.contains(active)))) active.blur();
    for (const [p, key, build] of jobs) {
      p.key = key;
      p.el.replaceChildren(...[build()].flat().filter(Boolean));
    }
  }

  /// The frame of the table, built once: every part is filled in by `render`.
  skeleton() {
    const slot = (name, tag, attrs = {}) => {
      const el = h(tag, attrs);
      this.parts.set(name, { el, key: null });
      return el;
    };
    this.root = h('div', { class: 'table', 'data-testid': 'table' },
      h('h1', { class: 'sr-only' }, t('table.heading')),
      slot('bar', 'header', { class: 'bar' }),
      slot('banners', 'div', { class: 'banners' }),
      slot('invites', 'div', {}),
      h('div', { class: 'layout' },
        this.boardArea = h('section', { class: 'board-area', 'aria-label': t('table.board') },
          slot('turn', 'div', { class: 'turn-line' }),
          slot('tabs', 'div', { class: 'tabs-line' }),
          this.boardEl = h('div', { class: 'board' }),
          slot('inset', 'div', { class: 'inset-slot' })),
        h('aside', { class: 'side' },
          this.dockEl = slot('dock', 'div', { class: 'dock', 'data-testid': 'dock' }),
          slot('common', 'div', { class: 'common' }),
          h('section', { class: 'panel players-panel' }, slot('players', 'div', {}),
            h('h3', {}, t('track.title'), ' ', help('help.track')), this.trackEl = h('div', { class: 'track' }), slot('ties', 'div', {})),
          h('section', { class: 'panel log-panel' }, h('h2', {}, t('log.title')),
            this.logEl = h('ol', { class: 'log-list', 'data-testid': 'log', tabindex: 0, 'aria-label': t('log.title') })),
          (this.chat = new Chat(this.id, (i) => seatName(this.state, i), () => this.token)).el)),
      slot('end', 'div', { class: 'end-slot' }));
    this.board = new Board(this.boardEl);
    this.app.replaceChildren(this.root);
    document.body.classList.add('at-table');
    // On a phone the dock sits at the bottom; the board leaves it room.
    this.dockSize = new ResizeObserver(() => {
      const px = `${this.dockEl.offsetHeight}px`;
      for (const el of [document.querySelector('main'), this.boardArea]) if (el && el.style.getPropertyValue('--dock-h') !== px) el.style.setProperty('--dock-h', px);
    });
    this.dockSize.observe(this.dockEl);
    this.clocks = ticker(this.root, () => ({ clock: this.state && this.state.status === 'playing' ? this.state.clock : null, arrived: this.arrived }), (left) => {
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
    const names = v.seats.map((_, i) => seatName(s, i));
    const myTurn = this.myTurn();
    this.title(myTurn, names);
    Object.assign(this.root.dataset, {
      version: s.version, status: s.status, expects: this.expects() || 'none', myTurn: String(myTurn), live: String(!this.offline), mode: this.mode,
    });
    const sel = JSON.stringify([this.sel, this.chosen, this.preview && this.preview.score_after, this.sending]);
    const coached = this.entry && this.entry.tutorial ? coach({
      state: s, tiles: this.tiles, entry: this.entry, rerender: () => this.render(), save: (fields) => {
        Object.assign(this.entry, fields);
        saveGame({ game: this.id, ...fields });
      },
    }) : null;
    this.coachTarget = coached ? coached.target : null;

    const gone = s.seats.map((x) => x.replaced || null);
    this.part('bar', JSON.stringify([s.status, this.offline, this.you, this.mode, this.notifyAsked, this.endHidden, gone, this.resigning, s.clock && s.clock.control]), () => this.bar(myTurn, names));
    this.part('banners', JSON.stringify([s.version, this.notice, this.error, v.final_round, gone]), () => this.banners(names));
    this.part('invites', JSON.stringify([s.version, s.seats]), () => this.invites());
    this.part('turn', JSON.stringify([s.version, s.status, this.offline, myTurn, this.sel]), () => this.turnLine(names, myTurn));
    this.part('tabs', JSON.stringify([s.version, this.mode, this.focus, names]), () => this.tabs(names));
    const lastSeat = s.last_move ? s.last_move.seat : null;
    this.part('inset', JSON.stringify([s.last_move, this.mode, this.focus, lastSeat === null ? null : v.seats[lastSeat].display, this.entry && this.entry.mark]), () => this.inset(names));
    // The dock is rebuilt for a new coach text too (a card's Next button changes it).
    this.part('dock', JSON.stringify([s.version, sel, myTurn, coached ? coached.panel.dataset.step : null, this.coachTarget, this.hint]), () => [coached ? coached.panel : null, this.placing(), this.hintPanel(), this.offer(), this.revealed(), this.storage()]);
    this.part('common', JSON.stringify([s.version]), () => this.pile());
    this.part('players', JSON.stringify([v.seats.map((p) => [p.score, p.supply, p.cacophony]), v.next, names, s.clock, gone, s.status]), () => this.players(names));
    const trackKey = JSON.stringify([v.seats.map((p) => p.score), v.ranking, names]);
    this.part('ties', trackKey, () => this.ties(names));
    this.part('end', JSON.stringify([s.version, s.status, s.rematch, this.endHidden, this.error, s.ended, gone]), () => this.end(names));
    const boardKey = this.boardKeyNow(names);
    this.redraw(boardKey);
    this.clocks.tick();
    this.chat.sync(s.chats || 0);
    const drawn = this.displays(names, boardKey);
    const logKey = JSON.stringify([s.version, this.log.size, [...this.log.values()].filter((m) => m.effect).length, names]);
    if (this.logKey !== logKey) {
      this.logKey = logKey;
      this.logList(names);
    }
    if (this.trackKey !== trackKey) {
      // Drawn in place: the markers move, the spaces stay.
      this.trackKey = trackKey;
      const had = this.trackEl.firstElementChild;
      const track = scoreTrack(v, names, had);
      if (track !== had) this.trackEl.replaceChildren(track);
    }
    // An opponent's tile flies into the small display in the corner when theirs is not shown.
    const insetSvg = this.root.querySelector('.inset svg');
    if (insetSvg && lastSeat !== null && !drawn.has(lastSeat)) drawn.set(lastSeat, insetSvg);

    if (this.dialog) this.dialog.querySelector('.pile-body').replaceChildren(...this.pileContent());
    // The end card is a dialog: the table behind it waits, and the keyboard starts on it.
    const card = this.root.querySelector('.end-card');
    for (const behind of this.root.querySelectorAll(':scope > .bar, :scope > .banners, :scope > .layout')) behind.inert = !!card;
    if (card && !card.contains(document.activeElement)) card.querySelector('h2').focus({ preventScroll: true });
    announce(this.error ? this.error.text : this.statusText(names));
    if (before && prev) this.animate(before, prev, drawn);
    if (!prev || prev.version !== s.version) timings.renders.push(performance.now() - began);
    if (this.moveTimer && s.version > this.moveTimer.from) {
      painted(this.moveTimer.started, timings.moves);
      this.moveTimer = null;
    }
    this.shown = s;
    const again = refocus && this.app.querySelector(refocus);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
    else if (!again && (!document.activeElement || document.activeElement === document.body) && refocus !== null) {
      // The focused control went with the move: the keyboard goes on from the board (or, with
      // a tile to place, a legal cell).
      const first = this.sel && myTurn ? this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`) : null;
      const board = this.app.querySelector('.display-wrap[tabindex]');
      if (first) first.focus({ preventScroll: true });
      else if (board) board.focus({ preventScroll: true });
    } else if (!again && this.sel && myTurn && (!document.activeElement || document.activeElement === document.body)) {
      const first = this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`);
      if (first) first.focus({ preventScroll: true });
    }
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
        if (!o && d.tile !== this.placedNow) {
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
        const marker = this.root.querySelector(`g.marker[data-seat="${seat}"]`);
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
    if (myTurn && !this.wasMyTurn && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      try {
        const left = s.clock ? leftNow(s.clock, this.arrived)[this.you] : null;
        const body = expectText(s.view.next.expects, this.touch) + (left === null || left === undefined ? '' : ` ${t('notify.time', { time: clockText(left) })}`);
        new Notification(t('notify.title'), { body, tag: `sagani-${this.id}` });
      } catch {
        // Some browsers only notify from a service worker; the title still tells.
      }
    }
    this.wasMyTurn = myTurn;
    let title = myTurn ? t('title.your-turn') : s.status === 'over' ? t('title.over') : t('title.other', { status: this.statusText(names) });
    // On my turn with a clock, the tab says how much time is left.
    const left = myTurn && s.clock ? leftNow(s.clock, this.arrived)[this.you] : null;
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

  bar(myTurn, names) {
    const s = this.state;
    const toggle = h('button', { class: 'small', 'data-testid': 'view-toggle' }, this.mode === 'all' ? t('view.one') : t('view.all'));
    toggle.addEventListener('click', () => {
      this.mode = this.mode === 'all' ? 'one' : 'all';
      this.render();
    });
    let notify = null;
    if (this.you !== undefined && s.view.players > 1 && 'Notification' in window && Notification.permission === 'default' && s.status !== 'over') {
      notify = h('button', { class: 'small', 'data-testid': 'notify' }, t('notify.ask'));
      notify.addEventListener('click', () => Notification.requestPermission().then(() => {
        this.notifyAsked = true;
        this.render();
      }));
    }
    // Resigning asks once more: a bot then plays the seat (a solo game ends).
    let resign = null;
    if (this.you !== undefined && s.status === 'playing' && !s.seats[this.you].replaced) {
      if (!this.resigning) {
        resign = h('button', { class: 'small', 'data-testid': 'resign' }, t('resign.button'));
        resign.addEventListener('click', () => {
          this.resigning = true;
          this.render();
        });
      } else {
        const yes = h('button', { class: 'small danger', 'data-testid': 'resign-yes' }, t('resign.yes'));
        const no = h('button', { class: 'small', 'data-testid': 'resign-no' }, t('resign.no'));
        yes.addEventListener('click', async () => {
          yes.disabled = true;
          this.resigning = false;
          await this.act('resign', 'resign.failed');
        });
        no.addEventListener('click', () => {
          this.resigning = false;
          this.render();
        });
        resign = h('span', { class: 'resign-ask', role: 'group', 'data-testid': 'resign-ask' },
          t(s.view.players === 1 ? 'resign.ask.solo' : 'resign.ask'), ' ', yes, no);
      }
    }
    let result = null;
    if (s.status === 'over' && this.endHidden) {
      result = h('button', { class: 'small primary', 'data-testid': 'show-result' }, t('end.show'));
      result.addEventListener('click', () => {
        this.endHidden = false;
        this.render();
      });
    }
    return [
      h('a', { href: '/', class: 'home-link', 'aria-label': t('bar.home') }, t('app.name')),
      !this.offline ? null : h('span', { class: 'offline', 'data-testid': 'offline', title: t('bar.offline.title') }, t('bar.offline')),
      this.you === undefined ? h('span', { class: 'watching', 'data-testid': 'watching' }, t('bar.watching')) : null,
      s.rated ? h('span', { class: 'watching', 'data-testid': 'rated', title: t('bar.rated.title') }, t('profile.rated')) : null,
      s.daily ? h('span', { class: 'watching daily-badge', 'data-testid': 'daily-badge' }, t('daily.badge', { date: dayText(s.daily.day) })) : null,
      s.practice ? h('span', { class: 'watching', 'data-testid': 'practice', title: t('bar.practice.title') }, t('bar.practice')) : null,
      notify, result,
      s.clock ? h('span', { class: 'watching', 'data-testid': 'clock-control' }, controlText(s.clock.control)) : null,
      h('span', { class: 'spacer' }),
      resign,
      h('a', { href: '/rules', class: 'small-link', target: '_blank', rel: 'noopener' }, t('bar.rules')),
      s.view.seats.length > 1 ? toggle : null,
      this.mode === 'one' ? this.board.zoomButtons() : null,
    ];
  }

  banners(names) {
    const v = this.state.view;
    const out = [];
    if (v.final_round && this.state.status !== 'over') {
      let text;
      if (v.turns_left === undefined || v.turns_left === null) text = t('final.on');
      else if (v.turns_left === 0) text = t('final.after-intermezzo');
      else text = t('final.turns', { count: v.turns_left, last: names[v.last_player] });
      out.push(h('p', { class: 'banner final', 'data-testid': 'final-round', role: 'status', 'data-turns-left': v.turns_left ?? '' }, h('strong', {}, t('final.title')), ' ', text));
    }
    // Who left the table to a bot, and why: everyone sees it.
    this.state.seats.forEach((seat, i) => {
      if (!seat.replaced || this.state.status === 'over') return;
      const who = i === this.you ? t('left.you') : names[i];
      out.push(h('p', { class: 'notice', 'data-testid': `left-banner-${i}`, role: 'status' },
        t(`left.banner.${seat.replaced.reason}`, { who, bot: seat.replaced.bot })));
    });
    if (this.notice) out.push(h('p', { class: 'notice', 'data-testid': 'notice' }, this.notice));
    if (this.error) out.push(h('p', { class: 'error', role: 'alert', 'data-testid': 'error', 'data-kind': this.error.kind }, this.error.text));
    return out;
  }

  /// Whose turn, above the board, whichever display is shown.
  turnLine(names, myTurn) {
    const s = this.state;
    const v = s.view;
    const who = v.next ? v.next.player : null;
    return h('div', { class: `turn${myTurn ? ' yours' : ''}`, 'data-testid': 'turn' },
      who !== null ? h('span', { class: 'dot', style: `background:${SEAT_COLORS[who]}` }) : null,
      h('span', { class: 'status', 'data-testid': 'status' }, this.statusText(names)));
  }

  tabs(names) {
    const v = this.state.view;
    if (this.mode !== 'one' || v.seats.length < 2) return null;
    return h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('tabs.label') }, v.seats.map((p, i) => {
      const fresh = this.fresh(i).size > 0;
      const b = h('button', { role: 'tab', 'aria-selected': String(i === this.focus), class: `tab${fresh ? ' has-fresh' : ''}`, 'data-testid': `tab-${i}` },
        h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), shortName(this.state, i),
        i === v.start_player ? this.startBadge() : null,
        h('span', { class: 'tab-score' }, num(p.score)));
      b.addEventListener('click', () => {
        this.focus = i;
        this.pinned = i !== this.you;
        this.render();
      });
      return b;
    }));
  }

  startBadge() {
    const label = t('start.player');
    if (draw.startMarker) {
      const m = draw.startMarker(16);
      return h('span', { class: 'start-badge', title: label, 'data-testid': 'start-marker' }, m);
    }
    return h('span', { class: 'start-badge text', title: label, 'aria-label': label, 'data-testid': 'start-marker' }, '★');
  }

  /// What the board shows: it is drawn again when this changes.
  boardKeyNow(names) {
    const v = this.state.view;
    if (this.mode === 'all') return JSON.stringify(['all', this.state.version, names, this.hintMarks(this.you)]);
    const seat = this.focus;
    const placingKey = seat === this.you && this.sel && this.myTurn() ? [this.sel, this.chosen, this.preview, this.coachTarget] : null;
    return JSON.stringify(['one', seat, v.seats[seat].display, placingKey, [...this.fresh(seat)], this.hintMarks(seat)]);
  }

  /// Draws the displays when `key` (from `boardKeyNow`) changed; returns the drawn SVGs by
  /// seat, for the animations.
  displays(names, key) {
    const v = this.state.view;
    const drawnNow = new Map();
    if (this.boardKey === key) return drawnNow;
    this.boardKey = key;
    if (this.mode === 'all') {
      this.board.showAll(v.seats.map((_, i) => {
        const magnify = h('button', { class: 'small icon', title: t('view.only', { who: names[i] }), 'aria-label': t('view.only', { who: names[i] }), 'data-testid': `magnify-display-${i}` }, magnifier());
        magnify.addEventListener('click', () => {
          this.mode = 'one';
          this.focus = i;
          this.pinned = i !== this.you;
          this.render();
        });
        const svgEl = this.drawDisplay(i, true);
        drawnNow.set(i, svgEl);
        return {
          seat: i,
          heading: [h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), names[i], ' ', i === v.start_player ? this.startBadge() : null, ' ', magnify],
          label: t('display.label', { who: names[i] }),
          svg: svgEl,
        };
      }));
      return drawnNow;
    }
    const seat = this.focus;
    drawnNow.set(seat, this.board.showOne(seat, t('display.label.scroll', { who: names[seat] }), (into) => this.drawDisplay(seat, false, into)));
    return drawnNow;
  }

  /// Draws the display of `seat` (`into`: the one drawn before, to update in place).
  drawDisplay(seat, fit, into = null) {
    const v = this.state.view;
    const mine = seat === this.you && this.sel && this.myTurn();
    const placing = mine ? { tile: this.tiles[this.sel.tile], rot: this.sel.rot, legal: this.legalCells(this.sel.tile), chosen: this.chosen, target: this.coachTarget } : null;
    const svgEl = displaySvg(v.seats[seat], this.tiles, {
      cellPx: 80, fit, seatColor: SEAT_COLORS[seat], placing, fresh: this.fresh(seat), preview: mine && this.chosen ? this.preview : null, hints: this.hintMarks(seat),
      onCell: (x, y, legal, byKey) => this.pickCell(x, y, legal, byKey), into,
    });
    if (placing && this.coachTarget) {
      const cell = svgEl.querySelector(`rect.cell[data-cell="${this.coachTarget.x},${this.coachTarget.y}"]`);
      if (cell) cell.classList.add('coach-target');
    }
    return svgEl;
  }

  /// In one-display mode, the display of whoever moved last (if not the one shown), small, with
  /// the new tile outlined: the opponent's move stays in sight on the display you look at.
  inset(names) {
    const s = this.state;
    const last = s.last_move;
    if (this.mode !== 'one' || !last || last.seat === this.focus || s.view.seats.length < 2) return null;
    const seat = last.seat;
    const fresh = this.fresh(seat).size ? this.fresh(seat) : (last.move.action === 'place' ? new Set([last.move.tile]) : new Set());
    const svgEl = displaySvg(s.view.seats[seat], this.tiles, { cellPx: 30, fit: true, seatColor: SEAT_COLORS[seat], fresh });
    svgEl.removeAttribute('width');
    svgEl.removeAttribute('height');
    svgEl.classList.add('fit');
    const b = h('button', { class: 'inset', 'data-testid': `inset-${seat}`, title: t('inset.label', { who: names[seat] }) },
      h('span', { class: 'inset-title' }, h('span', { class: 'dot', style: `background:${SEAT_COLORS[seat]}` }), t('inset.title', { who: shortName(s, seat) })), hidden(svgEl));
    b.addEventListener('click', () => {
      this.focus = seat;
      this.pinned = true;
      this.render();
    });
    return b;
  }

  placing() {
    if (!this.sel || !this.myTurn()) return null;
    const info = this.tiles[this.sel.tile];
    const keys = !this.touch;
    const left = h('button', { 'data-testid': 'rotate-left', class: 'big', title: keys ? t('place.left.key') : t('place.left'), 'aria-label': t('place.left') }, '⟲');
    const right = h('button', { 'data-testid': 'rotate-right', class: 'big', title: keys ? t('place.right.key') : t('place.right'), 'aria-label': t('place.right') }, '⟳');
    left.addEventListener('click', () => this.rotate(-1));
    right.addEventListener('click', () => this.rotate(1));
    const ok = h('button', { 'data-testid': 'confirm', class: 'primary big', disabled: !this.preview || this.sending, title: keys ? t('place.confirm.key') : t('place.confirm'), 'aria-label': t('place.confirm') }, '✓');
    const no = h('button', { 'data-testid': 'cancel', class: 'big', title: keys ? t('place.cancel.key') : t('place.cancel'), 'aria-label': t('place.cancel') }, '✗');
    ok.addEventListener('click', () => this.confirm());
    no.addEventListener('click', () => this.cancel());
    let what;
    if (!this.chosen) what = h('p', { class: 'hint' }, keys ? t('place.hint.keys') : t('place.hint'));
    else if (!this.preview) what = h('p', { class: 'hint' }, t('place.asking'));
    else what = this.previewText(this.preview);
    return h('section', { class: 'panel placing', 'data-testid': 'placing' },
      h('div', { class: 'placing-row' }, h('span', { class: 'placing-tile' }, tileSvg(info, { size: 64, rot: this.sel.rot, label: tileName(this.tiles, info.id) })), left, right, no, ok),
      h('div', { 'data-testid': 'preview', class: 'preview', 'data-move': this.preview ? JSON.stringify({ action: 'place', tile: this.preview.tile, x: this.preview.x, y: this.preview.y, rot: this.preview.rot }) : null }, what));
  }

  /// The engine's hints on `seat`'s display: a practice game's player asked for them.
  hintMarks(seat) {
    if (seat !== this.you || !this.hint || !this.hint.moves) return [];
    // A tile tried on a cell hides the faint one there.
    return engineMarks(this.hint).map((m) => (this.chosen ? { ...m, ghost: false } : m));
  }

  /// A practice game's Hint: the engine's best moves for my decision, listed here and marked on
  /// my display; "Try it" puts a move's tile on its cell with the engine's preview.
  hintPanel() {
    const s = this.state;
    if (!s.practice || !this.myTurn()) return null;
    const a = this.hint;
    let body = null;
    if (a && a.asking) body = h('p', { class: 'hint', 'data-testid': 'engine-asking' }, t('engine.asking'));
    else if (a && a.error) body = h('p', { class: 'error', 'data-testid': 'engine-error' }, a.error);
    else if (a) body = engineList(a, { tiles: this.tiles, display: s.view.seats[this.you].display, whose: 'your', onTry: (mv) => this.tryHint(mv) });
    let ask = null;
    if (!a || a.error) {
      ask = h('button', { type: 'button', class: 'small', 'data-testid': 'hint' }, t('hint.button'));
      ask.addEventListener('click', () => this.askHint());
    }
    return h('section', { class: 'panel hints', 'data-testid': 'hints' },
      h('h2', {}, t('hint.title'), ' ', ask), body);
  }

  async askHint() {
    const at = this.state.version;
    this.hint = { at, asking: true };
    this.render();
    const answer = await askEngine({ game: this.id, at }, this.token);
    if (this.closed || this.state.version !== at) return;
    this.hint = { at, ...answer };
    this.render();
  }

  /// Puts a hinted placement's tile on its cell, turned as the engine would: the preview
  /// follows, and the player confirms or takes it back.
  tryHint(mv) {
    if (!this.placeable().has(mv.tile)) return;
    this.choose(mv.tile);
    this.sel.rot = mv.rot;
    this.pickCell(mv.x, mv.y, true);
  }

  previewText(p) {
    const words = effectWords(p, this.tiles);
    return h('div', {},
      h('p', { 'data-testid': 'preview-score', class: 'preview-score' }, h('strong', {}, words.score), ' ', t('preview.supply', { count: p.supply_after }), p.reaches_target ? h('strong', { class: 'goal' }, ' ', t('preview.goal')) : null),
      h('div', { class: 'preview-details' },
        h('p', { 'data-testid': 'preview-covered' }, words.covered),
        h('p', { 'data-testid': 'preview-completed' }, words.completed),
        h('p', { 'data-testid': 'preview-cacophony', class: p.cacophony ? 'warn' : '' }, words.cacophony)));
  }

  /// A tile that can be taken: in the offer or the intermezzo storage.
  tileButton(tile, enabled, label, testid) {
    const info = this.tiles[tile];
    const chosen = this.sel && this.sel.tile === tile;
    const name = tileName(this.tiles, tile);
    const b = h('button', {
      class: `tile-btn${chosen ? ' chosen' : ''}${this.coachTarget && this.coachTarget.tile === tile ? ' coach-target' : ''}`, 'data-testid': testid, 'data-tile': tile, 'data-source-tile': tile,
      disabled: !enabled, 'aria-pressed': String(!!chosen),
    }, hidden(tileSvg(info, { size: 60, rot: chosen ? this.sel.rot : 0, label: name })),
    // Named by its content (the picture's letters are no words), so the name is all there is.
    h('span', { class: 'sr-only' }, t(label, { tile: name, arrows: arrowList(info, chosen ? this.sel.rot : 0) })));
    // A click from the keyboard (Enter, Space) has no pointer detail.
    b.addEventListener('click', (ev) => this.choose(tile, ev.detail === 0));
    return b;
  }

  offer() {
    const v = this.state.view;
    if (v.variant !== 'standard') return null;
    const can = this.expects() === 'turn' ? this.placeable() : new Set();
    const intermezzo = this.state.legal.find((m) => m.action === 'intermezzo');
    const row = v.offer.map((tile) => this.tileButton(tile, can.has(tile), 'offer.tile', 'offer-tile'));
    let store = null;
    if (intermezzo) {
      store = h('button', { 'data-testid': 'intermezzo-choice', class: 'small', title: t('offer.intermezzo.title') }, t('offer.intermezzo'));
      store.addEventListener('click', () => this.send({ action: 'intermezzo', tile: intermezzo.tile }));
    }
    return h('section', { class: 'panel offer', 'data-testid': 'offer' }, h('h2', {}, t('offer.title'), ' ', help('help.offer')),
      h('div', { class: 'tile-row' }, row.length ? row : h('span', { class: 'hint' }, t('offer.empty'))), store);
  }

  revealed() {
    const v = this.state.view;
    if (!v.revealed) return null;
    const info = this.tiles[v.revealed];
    return h('section', { class: 'panel revealed', 'data-testid': 'revealed', 'data-source-tile': v.revealed }, h('h2', {}, t('revealed.title')),
      h('div', { class: 'tile-row' }, tileSvg(info, { size: 64, rot: this.sel && this.sel.tile === v.revealed ? this.sel.rot : 0, label: tileName(this.tiles, v.revealed) }),
        h('span', { class: 'hint' }, t('revealed.must'))));
  }

  pile() {
    const p = this.state.view.draw_pile;
    const back = p.top
      ? h('span', { 'data-testid': 'pile-back' }, tileSvg({ id: 0, element: p.top.element, value: p.top.value, arrows: [], rotations: [[], [], [], []] }, { size: 56, back: true, label: t('pile.top', { element: t(`element.${p.top.element}`), value: p.top.value }) }))
      : h('span', { class: 'hint' }, t('pile.empty'));
    const open = h('button', { class: 'small', 'data-testid': 'pile-open' }, t('pile.list'));
    open.addEventListener('click', () => this.pileDialog());
    return h('section', { class: 'panel pile', 'data-testid': 'pile' }, h('h2', {}, t('pile.title')),
      h('div', { class: 'pile-row' }, back, h('span', { class: 'count', 'data-testid': 'pile-count' }, t('pile.count', { count: p.count })), open));
  }

  /// The tiles left in the pile, by element (the dialog follows the game while it is open).
  pileContent() {
    const p = this.state.view.draw_pile;
    return [
      h('h2', {}, t('pile.dialog.title', { count: p.count })),
      h('p', { class: 'hint' }, t('pile.dialog.hint')),
      ...['fire', 'water', 'earth', 'air'].map((el) => {
        const list = p.tiles.filter((id) => this.tiles[id].element === el);
        return h('div', { class: 'pile-group' }, h('h3', {}, t('pile.dialog.group', { element: t(`element.${el}`), count: list.length })),
          h('div', { class: 'tile-row' }, list.map((id) => tileSvg(this.tiles[id], { size: 48, label: tileName(this.tiles, id) }))));
      }),
    ];
  }

  pileDialog() {
    const close = h('button', { 'data-testid': 'pile-close' }, t('dialog.close'));
    const dialog = h('dialog', { 'data-testid': 'pile-dialog', 'aria-label': t('pile.dialog.label') },
      h('div', { class: 'pile-body' }, this.pileContent()), close);
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (this.dialog === dialog) this.dialog = null;
    });
    document.body.append(dialog);
    this.dialog = dialog;
    dialog.showModal();
  }

  storage() {
    const s = this.state;
    const v = s.view;
    if (v.variant !== 'standard') return null;
    const picking = this.expects() === 'intermezzo-pick';
    const running = v.next && v.next.expects === 'intermezzo-pick';
    const can = picking ? this.placeable() : new Set();
    const slots = [0, 1, 2, 3].map((i) => {
      const tile = v.intermezzo[i];
      return tile ? this.tileButton(tile, can.has(tile), 'storage.tile', 'intermezzo-tile') : h('span', { class: 'slot', role: 'img', 'aria-label': t('storage.empty-slot', { n: i + 1 }) });
    });
    let pass = null;
    if (picking && s.legal.some((m) => m.action === 'pass')) {
      pass = h('button', { 'data-testid': 'pass', class: 'small' }, t('storage.pass'));
      pass.addEventListener('click', () => this.send({ action: 'pass' }));
    }
    let why = null;
    if (running) {
      const names = v.seats.map((_, i) => seatName(s, i));
      const later = v.intermezzo_queue.filter((p) => p !== v.next.player).map((p) => names[p]);
      why = h('p', { class: 'why', 'data-testid': 'intermezzo-why' },
        picking ? t('storage.why.you') : t('storage.why.other', { who: names[v.next.player] }),
        later.length ? ` ${t('storage.after', { list: later.join(', ') })}` : '');
    }
    return h('section', { class: `panel storage${running ? ' running' : ''}`, 'data-testid': 'intermezzo' },
      h('h2', {}, t('storage.title'), ' ', help('help.intermezzo')),
      why,
      h('div', { class: 'tile-row slots' }, slots), pass);
  }

  players(names) {
    const s = this.state;
    const v = s.view;
    const rank = new Map(v.ranking.map((seat, i) => [seat, i + 1]));
    const rows = v.seats.map((p, i) => {
      const magnify = h('button', { class: 'small icon', 'data-testid': `magnify-${i}`, title: t('view.show', { who: names[i] }), 'aria-label': t('view.show', { who: names[i] }) }, magnifier());
      magnify.addEventListener('click', () => {
        this.mode = 'one';
        this.focus = i;
        this.pinned = i !== this.you;
        this.render();
      });
      const acting = v.next && v.next.player === i;
      const gone = s.seats[i].replaced;
      const left = s.clock ? s.clock.left_ms[i] : null;
      const clock = !s.clock ? null : h('td', { class: `clock${s.clock.running === i && s.status === 'playing' ? ' running' : ''}${s.clock.running === i && left < LOW_MS ? ' low' : ''}`, 'data-testid': `clock-${i}`, 'data-clock': left === null ? null : i },
        left === null ? '–' : clockText(left));
      return h('tr', { class: acting ? 'acting' : '', 'data-seat': i },
        h('th', { scope: 'row', title: names[i] },
          h('span', { class: 'who' },
            acting ? h('span', { class: 'acting-mark', role: 'img', 'aria-label': t('players.acting') }, '▶') : null,
            h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), h('span', { class: 'name' }, shortName(s, i)),
            i === v.start_player && v.players > 1 ? this.startBadge() : null, magnify),
          gone ? h('span', { class: 'left-note', 'data-testid': `left-${i}` }, t(`left.${gone.reason}`, { bot: gone.bot })) : null),
        h('td', { 'data-testid': `score-${i}`, title: t('players.rank', { n: rank.get(i) }) }, p.score),
        h('td', {}, p.supply), h('td', { class: p.cacophony ? 'warn' : '' }, p.cacophony), clock);
    });
    return [
      h('h2', {}, t('players.title')),
      h('table', { class: 'players', 'data-testid': 'players-table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('players.player')),
          h('th', { title: t('players.score.title') }, t('players.score')),
          h('th', { title: t('players.discs.title') }, t('players.discs'), ' ', help('help.discs')),
          h('th', { title: t('players.cacophony.title') }, t('players.cacophony'), ' ', help('help.cacophony')),
          s.clock ? h('th', { title: controlText(s.clock.control) }, t('players.clock')) : null)),
        h('tbody', {}, rows)),
    ];
  }

  /// How ties on the track are broken (not in solo).
  ties(names) {
    const v = this.state.view;
    if (v.players < 2) return null;
    return h('p', { class: 'hint', 'data-testid': 'tie-break' }, tieNotes(v, names) || t('track.ties'));
  }

  /// The log, newest first, drawn in place: an entry whose words are unchanged stays as it is.
  logList(names) {
    const list = this.logEl;
    const had = new Map([...list.children].map((li) => [li.dataset.words, li]));
    const items = [...this.log.keys()].sort((a, b) => b - a).map((version) => {
      const move = this.log.get(version);
      const { text, note, why } = describeMove(move, this.state, names, this.tiles);
      const words = JSON.stringify([version, move.seat, text, note, why]);
      return had.get(words) || h('li', { 'data-version': version, 'data-seat': move.seat, 'data-words': words },
        h('span', { class: 'dot', style: `background:${SEAT_COLORS[move.seat]}` }), text,
        note ? h('span', { class: 'note', 'data-testid': 'log-note' }, ` (${note})`) : null,
        why ? h('span', { class: 'why', 'data-testid': 'log-why' }, why) : null);
    });
    if (!items.length) items.push(h('li', { class: 'hint', 'data-words': '' }, t('log.empty')));
    items.forEach((li, i) => {
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
    });
    while (list.children.length > items.length) list.lastElementChild.remove();
  }

  invites() {
    const s = this.state;
    if (!this.entry || !this.entry.invites || s.status === 'over') return null;
    const open = this.entry.invites.filter((i) => s.seats[i.seat] && !s.seats[i.seat].claimed);
    if (!open.length) return null;
    // Nobody else has joined yet: the creator may call the game off.
    const alone = s.seats.every((x, i) => x.kind !== 'human' || !x.claimed || i === this.you);
    let cancel = null;
    if (alone && this.you !== undefined) {
      cancel = h('button', { class: 'small', 'data-testid': 'cancel-game' }, t('cancel.button'));
      cancel.addEventListener('click', async () => {
        cancel.disabled = true;
        await this.act('cancel', 'cancel.failed');
      });
    }
    return h('section', { class: 'panel invites', 'data-testid': 'invites' },
      h('h2', {}, t('invites.title')),
      h('p', { class: 'hint' }, t('invites.hint'), ' ', cancel),
      open.map((i) => {
        const url = `${location.origin}/games/${this.id}/join/${i.code}`;
        const input = h('input', { readonly: true, value: url, 'data-testid': `invite-link-${i.seat}`, 'aria-label': t('invites.link', { n: i.seat + 1 }), size: 40 });
        const b = h('button', { class: 'small', 'data-testid': `copy-invite-${i.seat}` }, t('invites.copy'));
        b.addEventListener('click', async () => {
          b.textContent = (await copy(url, input)) ? t('invites.copied') : t('invites.select');
        });
        return h('div', { class: 'invite' }, h('span', {}, t('seat.number', { n: i.seat + 1 })), input, b);
      }));
  }

  end(names) {
    const s = this.state;
    const v = s.view;
    if (s.status !== 'over' || this.endHidden) return null;
    const o = s.outcome || {};
    // The result is the engine's (`outcome`); the page only words it.
    let head;
    let result;
    let won = false;
    if (o.kind === 'ranking') {
      // A seat whose player timed out or resigned is ranked after the others (as the server
      // rates it), whatever its bot scored.
      const order = [...o.ranking.filter((x) => !s.seats[x].replaced), ...o.ranking.filter((x) => s.seats[x].replaced)];
      won = this.you !== undefined && order[0] === this.you;
      head = won ? t('end.won') : this.you !== undefined ? t('end.place', { n: order.indexOf(this.you) + 1, count: v.players }) : t('end.winner', { who: names[order[0]] });
      result = h('ol', { class: 'ranking', 'data-testid': 'ranking' }, order.map((seat, i) => {
        const p = v.seats[seat];
        return h('li', { class: i === 0 ? 'first' : '' },
          h('span', { class: 'dot', style: `background:${SEAT_COLORS[seat]}` }),
          h('strong', {}, names[seat]), ' ', t('end.points', { count: o.scores[seat] }),
          s.seats[seat].replaced ? h('span', { class: 'end-detail', 'data-testid': `end-left-${seat}` }, ` · ${t(`left.${s.seats[seat].replaced.reason}`, { bot: s.seats[seat].replaced.bot })}`) : null,
          h('span', { class: 'end-detail' }, t('end.detail', { tiles: p.display.length, flipped: p.display.filter((d) => d.flipped).length, cacophony: p.cacophony })));
      }));
    } else if (o.kind === 'solo') {
      won = o.reached;
      head = o.reached ? (o.symphony ? t('end.symphony') : t('end.solo.reached')) : t('end.solo.short');
      result = h('p', { 'data-testid': 'solo-result' }, o.reached
        ? t('end.solo.result', { score: o.score, count: o.tiles_used }) + ' ' + (o.symphony ? t('end.solo.symphony') : t('end.solo.no-symphony'))
        : t('end.solo.ran-out', { score: o.score, target: v.target, count: o.tiles_used }));
    } else if (o.kind === 'solo-all') {
      won = true;
      head = t('end.solo-all.head');
      result = h('p', { 'data-testid': 'solo-result' }, t('end.solo-all', { final: o.final_score, score: o.score, count: o.discs_left, tiles: v.placements }));
    }
    if (s.ended) {
      // Ended before its rules ended it: resigned, out of time, abandoned, closed, cancelled.
      head = t(`end.ended.${s.ended}`);
      result = h('p', { 'data-testid': 'ended' }, t(`end.ended.${s.ended}.text`));
    }
    const ties = v.variant === 'standard' ? tieNotes(v, names) : '';
    // A rematch keeps every person in the same seat with the same token, and the bots.
    let rematch = null;
    // A daily challenge has no rematch: tomorrow brings the next deck.
    if (s.daily) {
      rematch = null;
    } else if (this.you !== undefined) {
      rematch = h('button', { class: 'primary', 'data-testid': 'rematch' }, s.rematch ? t('end.rematch.go') : t('end.rematch'));
      rematch.addEventListener('click', async () => {
        rematch.disabled = true;
        try {
          const next = s.rematch || (await api('POST', `/api/games/${this.id}/rematch`, { token: this.token })).game;
          if (this.closed) return;
          // Every seat keeps its invite in the rematch, and this browser its token.
          const e = this.entry || {};
          saveGame({ game: next, seat: this.you, token: this.token, invite: e.invite || null, invites: e.invites || [], variant: v.variant, players: v.players, mark: null, public: e.public });
          history.pushState(null, '', `/games/${next}`);
          dispatchEvent(new PopStateEvent('popstate'));
        } catch (e) {
          this.error = { kind: e.code === 'network' ? 'network' : 'move', text: e.code === 'network' ? t('error.network') : t('end.rematch.failed') };
          this.render();
        }
      });
    } else if (s.rematch) {
      rematch = h('a', { href: `/games/${s.rematch}`, class: 'button', 'data-testid': 'watch-rematch' }, t('end.rematch.watch'));
    }
    const hide = h('button', { class: 'small', 'data-testid': 'end-hide' }, t('end.hide'));
    hide.addEventListener('click', () => {
      this.endHidden = true;
      this.render();
    });
    // The daily part (the player's own: its place, par, the line to share) is fetched once and
    // kept across redraws of the card.
    if (s.daily && !s.daily.par && this.you !== undefined && !this.daily) this.daily = dailyResult(this.id, this.token);
    // A daily game's record holds the day's deck: nobody's to download until the day (UTC) is
    // over (its player could play the deck again as a guest); the replay shows the game now.
    const dayOpen = s.daily && s.daily.day >= new Date().toISOString().slice(0, 10);
    const record = dayOpen
      ? null
      : h('a', { href: `/api/games/${this.id}/record`, download: `sagani-${this.id}.json`, 'data-testid': 'download-record', class: 'button' }, t('end.record'));
    const card = h('section', { class: `end-card${won ? ' won' : ''}${s.daily ? ' daily' : ''}`, 'data-testid': 'end', role: 'dialog', 'aria-labelledby': 'end-head' },
      h('h2', { id: 'end-head', tabindex: -1 }, head),
      result,
      s.daily && this.daily ? this.daily : null,
      ties ? h('p', { class: 'hint', 'data-testid': 'end-tie-break' }, ties) : null,
      s.rematch ? h('p', { 'data-testid': 'rematch-ready' }, t('end.rematch.ready')) : null,
      this.error ? h('p', { class: 'error' }, this.error.text) : null,
      h('div', { class: 'end-actions' },
        rematch,
        h('a', { href: `/games/${this.id}/replay`, 'data-testid': 'end-replay', class: 'button', title: t('replay.link.title') }, t('replay.link')),
        record,
        h('a', { href: '/', class: 'button' }, t('end.home')), hide),
      dayOpen ? h('p', { class: 'hint', 'data-testid': 'record-later' }, t('daily.record.later')) : null);
    const layer = h('div', { class: 'end-layer' }, card);
    layer.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        this.endHidden = true;
        this.render();
      }
    });
    if (won && this.shown && this.shown.status !== 'over') motion.confetti(layer);
    return layer;
  }
}

/// Notes the time from `started` until the frame showing the change is painted.
function painted(started, list) {
  requestAnimationFrame(() => setTimeout(() => list.push(performance.now() - started), 0));
}

/// A picture inside a control that has its own name: screen readers read the name only.
function hidden(el) {
  el.setAttribute('aria-hidden', 'true');
  el.removeAttribute('role');
  el.removeAttribute('aria-label');
  return el;
}

/// A "?" that explains a word of the game, in a small popover.
function help(key) {
  const tip = h('span', { class: 'help-tip', role: 'tooltip', id: `tip-${key.replace(/\W/g, '-')}-${Math.random().toString(36).slice(2, 7)}` }, t(key));
  const b = h('button', { class: 'help', type: 'button', 'aria-label': t('help.label', { what: t(`${key}.what`) }), 'aria-describedby': tip.id, 'aria-expanded': 'false', 'data-testid': `help-${key.split('.')[1]}` }, '?');
  b.addEventListener('click', (ev) => {
    ev.stopPropagation();
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
  });
  b.addEventListener('blur', () => b.setAttribute('aria-expanded', 'false'));
  return h('span', { class: 'help-wrap' }, b, tip);
}

/// The arrows of a tile, for its accessible name: "arrows up Fire, right Water".
function arrowList(info, rot) {
  return info.rotations[rot].map((a) => t('arrow.named', { direction: t(`direction.${a.direction}`), element: t(`element.${a.element}`) })).join(', ');
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

/// Explains every tie on the harmony track: among equal scores the engine's ranking puts first
/// the marker that moved to that score earliest (RULES.md, "Score order").
function tieNotes(view, names) {
  const notes = [];
  const byScore = new Map();
  for (const seat of view.ranking) {
    const score = view.seats[seat].score;
    if (!byScore.has(score)) byScore.set(score, []);
    byScore.get(score).push(seat);
  }
  for (const [score, seats] of byScore) {
    if (seats.length < 2) continue;
    notes.push(t('track.tie', { count: seats.length, score, order: seats.map((p) => names[p]).join(' → ') }));
  }
  return notes.join(' ');
}

