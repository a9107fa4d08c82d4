// The table: everything a player of the physical game can see, placing tiles with the engine's
// preview, live updates over the WebSocket, and the end of the game.

import { api, findGame, saveGame, seatName, tiles as loadTiles } from './api.js';
import { copy, h } from './dom.js';
import { ELEMENTS, SEAT_COLORS, displaySvg, magnifier, scoreTrack, tileSvg } from './draw.js';

const SIZE_KEY = 'sagani.cellPx';
const DEFAULT_SIZE = 80;

/// Claims a seat (by invite or, in a public game, by number) and remembers its token.
export async function claimSeat(game, body) {
  const joined = await api('POST', `/api/games/${game}/join`, { body });
  saveGame({ game, seat: joined.seat, token: joined.token, invite: body.invite || null });
  return joined;
}

/// The table on screen, closed when the page goes elsewhere (`leave`).
let current = null;

export function leave() {
  if (current) current.close();
  current = null;
}

/// `/games/{id}/join/{code}`: claims the seat unless this browser already holds it, then opens
/// the table under the plain game link (so the invite does not stay in the address bar).
export async function joinByInvite(app, game, code) {
  const here = location.pathname;
  const mine = findGame(game);
  if (mine && mine.token && mine.invite !== code) {
    // This browser plays another seat of this game (the creator trying a link, say): taking
    // this one too would leave that seat without anyone to play it.
    const keep = h('a', { href: `/games/${game}`, class: 'button primary', 'data-testid': 'keep-seat' }, `Go on as seat ${mine.seat + 1}`);
    const take = h('button', { 'data-testid': 'take-seat' }, 'Take this seat instead');
    take.addEventListener('click', () => {
      take.disabled = true;
      claim();
    });
    document.title = 'Sagani: invite';
    app.replaceChildren(h('h1', {}, 'Sagani'),
      h('p', { class: 'notice', 'data-testid': 'other-seat' }, `This browser already plays seat ${mine.seat + 1} of this game. An invite is for someone else: send it to them. If you take this seat here, nobody will play seat ${mine.seat + 1} from this browser.`),
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
      document.title = 'Sagani: invite';
      app.replaceChildren(
        h('h1', {}, 'Sagani'),
        h('p', { class: 'error', 'data-testid': 'error' }, `This invite cannot be used: ${e.message}.`),
        h('p', {}, h('a', { href: `/games/${game}` }, 'Watch the game'), ' or ', h('a', { href: '/' }, 'start a new one'), '.'),
      );
      announce(`This invite cannot be used: ${e.message}.`);
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

/// Tells screen readers what changed, once (the table itself is redrawn on every update).
export function announce(text) {
  const region = document.getElementById('announce');
  if (region && region.textContent !== text) region.textContent = text;
}

const EXPECT_TEXT = {
  turn: 'Your turn: choose a tile of the offer display and place it.',
  'place-drawn': 'Place the tile you drew from the pile.',
  'intermezzo-pick': 'Intermezzo: take a stored tile and place it, or pass.',
  'place-revealed': 'Place the revealed tile.',
};

class Table {
  constructor(app, game) {
    this.app = app;
    this.id = game;
    this.entry = findGame(game);
    this.token = this.entry ? this.entry.token : null;
    this.state = null;
    this.log = new Map(); // version -> the move played at that version
    this.after = new Map(); // version -> [[score, cacophony] per seat]
    this.sel = null; // {tile, rot}
    this.chosen = null; // {x, y}
    this.preview = null;
    this.previewFor = null;
    this.error = '';
    this.notice = '';
    this.mode = 'one';
    this.focus = null; // the seat shown in 'one' mode
    this.cellPx = Number(localStorage.getItem(SIZE_KEY)) || DEFAULT_SIZE;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.wasMyTurn = false;
    this.scroll = new Map();
    this.onKey = (ev) => this.key(ev);
  }

  async start() {
    this.app.replaceChildren(h('p', {}, 'Loading the game…'));
    try {
      this.tiles = await loadTiles();
      if (this.closed) return;
      await this.fetchState();
    } catch (e) {
      if (this.closed) return;
      if (e.status === 403 && this.token) {
        // The seat was claimed again elsewhere: watch instead.
        this.token = null;
        this.notice = 'Your seat was claimed on another device, so you are watching here.';
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
  }

  fatal(e) {
    if (this.closed) return;
    this.closed = true;
    document.title = 'Sagani';
    const what = e.status === 404 ? 'There is no such game on this server.' : `The game cannot be loaded: ${e.message}`;
    this.app.replaceChildren(h('h1', {}, 'Sagani'), h('p', { class: 'error', 'data-testid': 'error' }, what), h('a', { href: '/' }, 'Back to the start'));
    announce(what);
  }

  close() {
    this.closed = true;
    document.removeEventListener('keydown', this.onKey);
    if (this.ws) this.ws.close();
    if (this.dialog) this.dialog.close();
  }

  async fetchState() {
    this.apply(await api('GET', `/api/games/${this.id}`, { token: this.token }));
  }

  async fetchLog() {
    try {
      const { moves } = await api('GET', `/api/games/${this.id}/moves`);
      for (const m of moves) this.logMove(m);
    } catch {
      // The log is a convenience; the table itself is complete without it.
    }
  }

  logMove(m) {
    if (!this.log.has(m.version)) this.log.set(m.version, m);
  }

  /// Takes a newer state; an older one (a late answer) only adds its moves to the log.
  apply(state, moves = []) {
    for (const m of moves) this.logMove(m);
    if (state.last_move) this.logMove(state.last_move);
    // A rematch, once named, stays named (a late answer of the same version may predate it).
    if (this.state && this.state.rematch && !state.rematch) state.rematch = this.state.rematch;
    // Scores and Cacophony after each version, for the notes in the move log.
    this.after.set(state.version, state.view.seats.map((p) => [p.score, p.cacophony]));
    const old = this.state;
    if (old && state.version < old.version) return false;
    this.state = state;
    if (!old || old.version !== state.version) this.clearSelection();
    if (this.focus === null) this.focus = state.you !== undefined ? state.you : 0;
    this.autoSelect();
    return true;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${this.id}/ws${query}`);
    this.ws = ws;
    let first = true;
    ws.onmessage = async (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type !== 'state' || this.closed) return;
      this.retry = 0;
      this.offline = false;
      this.apply(msg.state, msg.moves);
      if (first) {
        // Moves played while this socket was away.
        first = false;
        await this.fetchLog();
      }
      if (!this.closed) this.render();
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
          this.notice = 'Your seat was claimed on another device, so you are watching here.';
        } else if (e.status === 404) {
          this.notice = 'This game is no longer on this server.';
          this.render();
          return;
        }
      }
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  // ---- what I may do now ----

  get you() {
    return this.token ? this.state.you : undefined;
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
    this.error = '';
    this.sel = { tile, rot: this.sel && this.sel.tile === tile ? this.sel.rot : 0 };
    this.chosen = null;
    this.preview = null;
    this.focus = this.you;
    this.mode = this.mode === 'all' ? 'all' : 'one';
    this.render();
    const first = this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`);
    if (byKey && first) first.focus({ preventScroll: true });
  }

  rotate(by) {
    if (!this.sel) return;
    this.sel.rot = (this.sel.rot + by + 4) % 4;
    this.preview = null;
    this.render();
    if (this.chosen) this.askPreview();
  }

  async pickCell(x, y, legal, byKey = false) {
    if (!this.sel) return;
    // Enter on the chosen cell, once its preview is shown, places the tile.
    if (byKey && this.preview && this.chosen && this.chosen.x === x && this.chosen.y === y) return this.confirm();
    this.error = '';
    this.chosen = { x, y };
    this.preview = null;
    this.render();
    await this.askPreview(legal);
  }

  /// Asks the engine what the chosen placement would do. An illegal cell gets the engine's
  /// reason as an error, and the table stays as it was.
  async askPreview() {
    const mv = { action: 'place', tile: this.sel.tile, x: this.chosen.x, y: this.chosen.y, rot: this.sel.rot };
    const key = JSON.stringify(mv);
    this.previewFor = key;
    try {
      const { preview } = await api('POST', `/api/games/${this.id}/preview`, { body: { move: mv } });
      if (this.previewFor !== key) return;
      this.preview = preview;
    } catch (e) {
      if (this.previewFor !== key) return;
      this.error = `That placement is not allowed: ${e.message}.`;
      this.chosen = null;
      this.preview = null;
    }
    this.render();
  }

  cancel() {
    if (this.chosen) {
      this.chosen = null;
      this.preview = null;
    } else if (this.sel && !['place-drawn', 'place-revealed'].includes(this.expects())) {
      this.sel = null;
    }
    this.error = '';
    this.render();
  }

  async confirm() {
    if (!this.sel || !this.chosen || !this.preview) return;
    await this.send({ action: 'place', tile: this.sel.tile, x: this.chosen.x, y: this.chosen.y, rot: this.sel.rot });
  }

  async send(mv) {
    if (this.sending) return;
    this.sending = true;
    this.error = '';
    const body = { version: this.state.version, move: mv };
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
      this.apply(result.state);
      // An answer to a retry (`applied: false`) is the game as it is now, perhaps moves later.
      if (result.applied) this.remember(result.state);
    } catch (e) {
      if (e.code === 'stale_version') this.error = 'The game moved on before your move arrived; here is the table as it is now.';
      else if (e.code === 'network' || e.code === 'storage') this.error = `Your move may not have arrived (${e.message}); here is the table as the server has it. Try again if it is still your turn.`;
      else this.error = `Your move was refused: ${e.message}.`;
      await this.fetchState().catch(() => {});
    } finally {
      this.sending = false;
    }
    this.render();
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
      return new Set(display.slice(this.entry.mark[seat] || 0).map((t) => t.tile));
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

  render() {
    if (this.closed || !this.state) return;
    const active = document.activeElement;
    const refocus = focusSelector(active);
    for (const wrap of this.app.querySelectorAll('.display-wrap')) this.scroll.set(wrap.dataset.seat, [wrap.scrollLeft, wrap.scrollTop]);

    const s = this.state;
    const v = s.view;
    const names = v.seats.map((_, i) => seatName(s, i));
    const myTurn = this.myTurn();
    this.title(myTurn, names);

    const root = h('div', {
      class: 'table', 'data-testid': 'table', 'data-version': s.version, 'data-status': s.status,
      'data-expects': this.expects() || 'none', 'data-my-turn': String(myTurn), 'data-live': String(!this.offline),
    },
    this.bar(myTurn, names),
    this.notice ? h('p', { class: 'notice', 'data-testid': 'notice' }, this.notice) : null,
    s.status === 'over' ? this.end(names) : null,
    this.invites(),
    h('div', { class: 'layout' },
      h('aside', { class: 'side' }, this.offer(), this.revealed(), this.pile(), this.storage(), this.players(names), this.track(names)),
      h('section', { class: 'main' }, this.placing(), this.errorBox(), this.displays(names)),
      h('aside', { class: 'log-panel' }, h('h2', {}, 'Moves'), this.logList(names))));
    this.app.replaceChildren(root);

    for (const wrap of this.app.querySelectorAll('.display-wrap')) {
      const at = this.scroll.get(wrap.dataset.seat);
      if (at) [wrap.scrollLeft, wrap.scrollTop] = at;
      else centre(wrap);
    }
    const log = this.app.querySelector('.log-list');
    if (log) log.scrollTop = log.scrollHeight;
    if (this.dialog) this.dialog.querySelector('.pile-body').replaceChildren(...this.pileContent());
    announce(this.error || this.statusText(names));
    const again = refocus && this.app.querySelector(refocus);
    if (again) again.focus({ preventScroll: true });
    else if (this.sel && this.myTurn() && (!document.activeElement || document.activeElement === document.body)) {
      // A tile to place and nothing focused: the keyboard starts on a legal cell.
      const first = this.app.querySelector(`[data-testid="display-${this.you}"] .cell.legal`);
      if (first) first.focus({ preventScroll: true });
    }
  }

  title(myTurn, names) {
    const s = this.state;
    if (myTurn && !this.wasMyTurn && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      try {
        new Notification('Sagani: your turn', { body: EXPECT_TEXT[s.view.next.expects] || '', tag: `sagani-${this.id}` });
      } catch {
        // Some browsers only notify from a service worker; the title still tells.
      }
    }
    this.wasMyTurn = myTurn;
    document.title = myTurn ? '▶ Your turn · Sagani' : s.status === 'over' ? 'Game over · Sagani' : `${this.statusText(names)} · Sagani`;
  }

  statusText(names) {
    const s = this.state;
    const v = s.view;
    if (s.status === 'over') return 'Game over';
    if (s.status === 'waiting') return 'Waiting for players to take their seats';
    if (this.myTurn()) return EXPECT_TEXT[v.next.expects];
    if (!v.next) return '';
    const who = names[v.next.player];
    const bot = s.seats[v.next.player].kind === 'bot';
    const during = v.next.expects === 'intermezzo-pick' ? ' (intermezzo)' : '';
    return bot ? `${who} is thinking${during}…` : `Waiting for ${who}${during}`;
  }

  bar(myTurn, names) {
    const size = h('input', { type: 'range', min: 32, max: 140, step: 4, value: this.cellPx, 'data-testid': 'tile-size', 'aria-label': 'Tile size' });
    size.addEventListener('input', () => {
      this.cellPx = Number(size.value);
      localStorage.setItem(SIZE_KEY, String(this.cellPx));
      this.redrawDisplays(names);
    });
    const reset = h('button', { class: 'small', 'data-testid': 'tile-size-reset', title: 'Back to the usual tile size' }, 'Reset');
    reset.addEventListener('click', () => {
      this.cellPx = DEFAULT_SIZE;
      localStorage.removeItem(SIZE_KEY);
      this.render();
    });
    const toggle = h('button', { class: 'small', 'data-testid': 'view-toggle', 'aria-pressed': String(this.mode === 'all') }, this.mode === 'all' ? 'One display' : 'All displays');
    toggle.addEventListener('click', () => {
      this.mode = this.mode === 'all' ? 'one' : 'all';
      this.render();
    });
    let notify = null;
    if (this.you !== undefined && 'Notification' in window && Notification.permission === 'default' && this.state.status !== 'over') {
      notify = h('button', { class: 'small', 'data-testid': 'notify' }, 'Notify me on my turn');
      notify.addEventListener('click', () => Notification.requestPermission().then(() => this.render()));
    }
    return h('header', { class: 'bar' },
      h('a', { href: '/', class: 'home-link' }, 'Sagani'),
      h('span', { class: `status${myTurn ? ' yours' : ''}`, 'data-testid': 'status' }, this.statusText(names)),
      !this.offline ? null : h('span', { class: 'offline', 'data-testid': 'offline', title: 'Live updates are reconnecting' }, 'reconnecting…'),
      this.you === undefined ? h('span', { class: 'watching', 'data-testid': 'watching' }, 'watching') : null,
      notify,
      h('span', { class: 'spacer' }),
      toggle,
      h('label', { class: 'size' }, 'Tiles ', size), reset);
  }

  offer() {
    const v = this.state.view;
    if (v.variant !== 'standard') return null;
    const can = this.expects() === 'turn' ? this.placeable() : new Set();
    const intermezzo = this.state.legal.find((m) => m.action === 'intermezzo');
    const row = v.offer.map((t, i) => this.tileButton(t, can.has(t), `Offer tile ${i + 1}`, 'offer-tile'));
    let store = null;
    if (intermezzo) {
      store = h('button', { 'data-testid': 'intermezzo-choice', class: 'small' }, 'Store it and draw (intermezzo)');
      store.title = 'Put the last offer tile on the intermezzo storage, reveal the top tile of the pile and place that one';
      store.addEventListener('click', () => this.send({ action: 'intermezzo', tile: intermezzo.tile }));
    }
    return h('section', { class: 'panel', 'data-testid': 'offer' }, h('h2', {}, 'Offer'),
      h('div', { class: 'tile-row' }, row.length ? row : h('span', { class: 'hint' }, 'empty')), store);
  }

  tileButton(tile, enabled, label, testid) {
    const info = this.tiles[tile];
    const chosen = this.sel && this.sel.tile === tile;
    const b = h('button', {
      class: `tile-btn${chosen ? ' chosen' : ''}`, 'data-testid': testid, 'data-tile': tile,
      disabled: !enabled, 'aria-pressed': String(!!chosen), 'aria-label': `${label}: ${tileSvg(info).getAttribute('aria-label')}`,
    }, tileSvg(info, { size: 56, rot: chosen ? this.sel.rot : 0 }));
    // A click from the keyboard (Enter, Space) has no pointer detail.
    b.addEventListener('click', (ev) => this.choose(tile, ev.detail === 0));
    return b;
  }

  revealed() {
    const v = this.state.view;
    if (!v.revealed) return null;
    const info = this.tiles[v.revealed];
    return h('section', { class: 'panel', 'data-testid': 'revealed' }, h('h2', {}, 'Revealed tile'),
      tileSvg(info, { size: 56, rot: this.sel && this.sel.tile === v.revealed ? this.sel.rot : 0 }),
      h('span', { class: 'hint' }, ' must be placed'));
  }

  pile() {
    const p = this.state.view.draw_pile;
    const back = p.top
      ? tileSvg({ id: 0, element: p.top.element, value: p.top.value, arrows: [] }, { size: 56, back: true, label: `Top of the draw pile: the back of a ${ELEMENTS[p.top.element].name} tile worth ${p.top.value}` })
      : h('span', { class: 'hint' }, 'empty');
    const open = h('button', { class: 'small', 'data-testid': 'pile-open' }, 'Tiles in the pile');
    open.addEventListener('click', () => this.pileDialog());
    return h('section', { class: 'panel', 'data-testid': 'pile' }, h('h2', {}, 'Draw pile'),
      h('div', { class: 'pile-row' }, back, h('span', { class: 'count', 'data-testid': 'pile-count' }, `${p.count} tile${p.count === 1 ? '' : 's'}`)), open);
  }

  /// The tiles left in the pile, by element (the dialog follows the game while it is open).
  pileContent() {
    const p = this.state.view.draw_pile;
    return [
      h('h2', {}, `The ${p.count} tiles still in the draw pile`),
      h('p', { class: 'hint' }, 'Everyone may know which tiles are left; their order stays hidden.'),
      ...Object.keys(ELEMENTS).map((el) => {
        const list = p.tiles.filter((t) => this.tiles[t].element === el);
        return h('div', { class: 'pile-group' }, h('h3', {}, `${ELEMENTS[el].name} (${ELEMENTS[el].letter}): ${list.length}`),
          h('div', { class: 'tile-row' }, list.map((t) => tileSvg(this.tiles[t], { size: 44 }))));
      }),
    ];
  }

  pileDialog() {
    const close = h('button', { 'data-testid': 'pile-close' }, 'Close');
    const dialog = h('dialog', { 'data-testid': 'pile-dialog', 'aria-label': 'Tiles still in the draw pile' },
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
    const v = this.state.view;
    if (v.variant !== 'standard') return null;
    const picking = this.expects() === 'intermezzo-pick';
    const can = picking ? this.placeable() : new Set();
    const slots = [0, 1, 2, 3].map((i) => {
      const t = v.intermezzo[i];
      return t ? this.tileButton(t, can.has(t), `Intermezzo tile ${i + 1}`, 'intermezzo-tile') : h('span', { class: 'slot', 'aria-label': 'empty space' });
    });
    let pass = null;
    if (picking && this.state.legal.some((m) => m.action === 'pass')) {
      pass = h('button', { 'data-testid': 'pass', class: 'small' }, 'Pass');
      pass.addEventListener('click', () => this.send({ action: 'pass' }));
    }
    const queue = v.intermezzo_queue.length ? h('p', { class: 'hint' }, `Still to choose: ${v.intermezzo_queue.map((p) => `Seat ${p + 1}`).join(', ')}`) : null;
    return h('section', { class: 'panel', 'data-testid': 'intermezzo' }, h('h2', {}, 'Intermezzo storage'),
      h('div', { class: 'tile-row slots' }, slots), queue, pass);
  }

  players(names) {
    const s = this.state;
    const v = s.view;
    const rank = new Map(v.ranking.map((seat, i) => [seat, i + 1]));
    const rows = v.seats.map((p, i) => {
      const magnify = h('button', { class: 'small icon', 'data-testid': `magnify-${i}`, title: `Show ${names[i]}'s display`, 'aria-label': `Show ${names[i]}'s display` }, magnifier());
      magnify.addEventListener('click', () => {
        this.mode = 'one';
        this.focus = i;
        this.render();
      });
      const acting = v.next && v.next.player === i;
      return h('tr', { class: acting ? 'acting' : '', 'data-seat': i },
        h('td', { 'aria-label': acting ? 'to act' : '' }, acting ? '▶' : ''),
        h('th', { scope: 'row', title: names[i] }, h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), shortName(s, i)),
        h('td', { 'data-testid': `score-${i}` }, p.score),
        h('td', {}, p.supply), h('td', {}, p.cacophony), h('td', {}, p.display.length),
        h('td', {}, rank.get(i)), h('td', {}, magnify));
    });
    return h('section', { class: 'panel' }, h('h2', {}, 'Players'),
      h('table', { class: 'players', 'data-testid': 'players-table' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Player'), h('th', { title: 'Score' }, 'Score'), h('th', { title: 'Discs in the supply' }, 'Discs'), h('th', { title: 'Cacophony discs taken' }, 'Cacoph.'), h('th', { title: 'Tiles placed' }, 'Tiles'), h('th', { title: 'Rank' }, '#'), h('th', {}, ''))),
        h('tbody', {}, rows)));
  }

  track(names) {
    const v = this.state.view;
    const ties = tieNotes(v, names);
    return h('section', { class: 'panel' }, h('h2', {}, 'Score track'), scoreTrack(v, names),
      v.players > 1 ? h('p', { class: 'hint', 'data-testid': 'tie-break' }, ties || 'Equal scores: the marker that got there first (lower in the stack) ranks higher.') : null);
  }

  placing() {
    if (!this.sel || !this.myTurn()) return null;
    const info = this.tiles[this.sel.tile];
    const left = h('button', { 'data-testid': 'rotate-left', title: 'Turn left (Q)', 'aria-label': 'Turn the tile left' }, '⟲');
    const right = h('button', { 'data-testid': 'rotate-right', title: 'Turn right (E)', 'aria-label': 'Turn the tile right' }, '⟳');
    left.addEventListener('click', () => this.rotate(-1));
    right.addEventListener('click', () => this.rotate(1));
    const ok = h('button', { 'data-testid': 'confirm', class: 'primary', disabled: !this.preview || this.sending, title: 'Place it (Enter)', 'aria-label': 'Confirm the placement' }, '✓');
    const no = h('button', { 'data-testid': 'cancel', title: 'Cancel (Esc)', 'aria-label': 'Cancel' }, '✗');
    ok.addEventListener('click', () => this.confirm());
    no.addEventListener('click', () => this.cancel());
    let what;
    if (!this.chosen) what = h('p', { class: 'hint' }, 'Choose a highlighted cell of your display (Tab and Enter work too). Turn the tile with ⟲ ⟳ or Q and E.');
    else if (!this.preview) what = h('p', { class: 'hint' }, 'Asking the engine what this placement does…');
    else what = previewText(this.preview, this.tiles);
    return h('section', { class: 'panel placing', 'data-testid': 'placing' },
      h('div', { class: 'placing-row' }, tileSvg(info, { size: 64, rot: this.sel.rot }), left, right, ok, no),
      h('div', { 'data-testid': 'preview', class: 'preview', 'data-move': this.preview ? JSON.stringify({ action: 'place', tile: this.preview.tile, x: this.preview.x, y: this.preview.y, rot: this.preview.rot }) : null }, what));
  }

  errorBox() {
    if (!this.error) return null;
    return h('p', { class: 'error', 'data-testid': 'error' }, this.error);
  }

  displays(names) {
    const v = this.state.view;
    const seats = v.seats.map((_, i) => i);
    if (this.mode === 'all') {
      return h('div', { class: 'displays all', 'data-testid': 'displays' }, seats.map((i) => {
        const magnify = h('button', { class: 'small icon', title: `Only ${names[i]}'s display`, 'aria-label': `Only ${names[i]}'s display`, 'data-testid': `magnify-display-${i}` }, magnifier());
        magnify.addEventListener('click', () => {
          this.mode = 'one';
          this.focus = i;
          this.render();
        });
        return h('div', { class: 'display-box' }, h('h3', {}, h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), names[i], ' ', magnify), this.display(i));
      }));
    }
    const tabs = seats.length > 1 ? h('div', { class: 'tabs', role: 'tablist' }, seats.map((i) => {
      const b = h('button', { role: 'tab', 'aria-selected': String(i === this.focus), class: 'tab', 'data-testid': `tab-${i}` }, h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), names[i]);
      b.addEventListener('click', () => {
        this.focus = i;
        this.render();
      });
      return b;
    })) : null;
    return h('div', { class: 'displays one', 'data-testid': 'displays' }, tabs, this.display(this.focus));
  }

  display(seat) {
    const v = this.state.view;
    const mine = seat === this.you && this.sel && this.myTurn();
    const placing = mine ? { tile: this.tiles[this.sel.tile], rot: this.sel.rot, legal: this.legalCells(this.sel.tile), chosen: this.chosen } : null;
    const svgEl = displaySvg(v.seats[seat], this.tiles, {
      cellPx: this.cellPx, placing, fresh: this.fresh(seat), preview: mine && this.chosen ? this.preview : null,
      onCell: (x, y, legal, byKey) => this.pickCell(x, y, legal, byKey),
    });
    const wrap = h('div', { class: 'display-wrap', 'data-seat': seat, 'data-testid': `display-${seat}`, tabindex: 0, role: 'group', 'aria-label': `Display of ${seatName(this.state, seat)}: scroll with the arrow keys` }, svgEl);
    pan(wrap);
    return wrap;
  }

  /// A new tile size: the displays are drawn again around the same middle.
  redrawDisplays(names) {
    const main = this.app.querySelector('.displays');
    if (!main) return;
    const middles = new Map([...main.querySelectorAll('.display-wrap')].map((w) => [w.dataset.seat, [
      (w.scrollLeft + w.clientWidth / 2) / w.scrollWidth, (w.scrollTop + w.clientHeight / 2) / w.scrollHeight]]));
    const fresh = this.displays(names);
    main.replaceWith(fresh);
    for (const w of fresh.querySelectorAll('.display-wrap')) {
      const [mx, my] = middles.get(w.dataset.seat) || [0.5, 0.5];
      w.scrollLeft = mx * w.scrollWidth - w.clientWidth / 2;
      w.scrollTop = my * w.scrollHeight - w.clientHeight / 2;
    }
  }

  logList(names) {
    const items = [...this.log.keys()].sort((a, b) => a - b).map((version) => {
      const move = this.log.get(version);
      const note = scoreNote(this.after, version, move.seat);
      return h('li', { 'data-version': version }, `${version + 1}. `, describeMove(move, names, this.tiles), note ? h('span', { class: 'note' }, ` ${note}`) : null);
    });
    return h('ol', { class: 'log-list', 'data-testid': 'log' }, items.length ? items : h('li', { class: 'hint' }, 'No moves yet.'));
  }

  invites() {
    const s = this.state;
    if (!this.entry || !this.entry.invites || s.status === 'over') return null;
    const open = this.entry.invites.filter((i) => s.seats[i.seat] && !s.seats[i.seat].claimed);
    if (!open.length) return null;
    return h('section', { class: 'panel invites', 'data-testid': 'invites' },
      h('h2', {}, 'Invite the other players'),
      h('p', { class: 'hint' }, 'Send each link to one person: it takes that seat. The game starts once every seat is taken.'),
      open.map((i) => {
        const url = `${location.origin}/games/${this.id}/join/${i.code}`;
        const input = h('input', { readonly: true, value: url, 'data-testid': `invite-link-${i.seat}`, 'aria-label': `Invite link for seat ${i.seat + 1}`, size: 40 });
        const b = h('button', { class: 'small', 'data-testid': `copy-invite-${i.seat}` }, 'Copy');
        b.addEventListener('click', async () => {
          b.textContent = (await copy(url, input)) ? 'Copied' : 'Select and copy';
        });
        return h('div', { class: 'invite' }, h('label', {}, `Seat ${i.seat + 1} `), input, b);
      }));
  }

  end(names) {
    const s = this.state;
    const v = s.view;
    let result;
    // The result is the engine's (`outcome`); the page only words it.
    const o = s.outcome || {};
    if (o.kind === 'ranking') {
      result = h('ol', { class: 'ranking', 'data-testid': 'ranking' }, o.ranking.map((seat) => {
        const p = v.seats[seat];
        return h('li', {}, h('strong', {}, names[seat]), `: ${o.scores[seat]} points`, p.cacophony ? `, ${p.cacophony} Cacophony` : '');
      }));
    } else if (o.kind === 'solo') {
      result = h('p', { 'data-testid': 'solo-result' }, o.reached
        ? `You reached ${o.score} points with ${o.tiles_used} tiles. ${o.symphony ? 'A magical symphony!' : 'Not a magical symphony this time: that takes fewer tiles.'}`
        : `The pile ran out at ${o.score} points, short of the goal of ${v.target}, after ${o.tiles_used} tiles.`);
    } else if (o.kind === 'solo-all') {
      result = h('p', { 'data-testid': 'solo-result' }, `Final score ${o.final_score}: ${o.score} points minus ${o.discs_left} discs left on unflipped tiles, after all ${v.placements} tiles.`);
    }
    const ties = v.variant === 'standard' ? tieNotes(v, names) : '';
    // A rematch keeps every person in the same seat with the same token, and the bots.
    let rematch = null;
    if (this.you !== undefined) {
      rematch = h('button', { class: 'primary', 'data-testid': 'rematch' }, s.rematch ? 'Go to the rematch' : 'Rematch');
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
          this.error = `No rematch: ${e.message}.`;
          this.render();
        }
      });
    } else if (s.rematch) {
      rematch = h('a', { href: `/games/${s.rematch}`, class: 'button', 'data-testid': 'watch-rematch' }, 'Watch the rematch');
    }
    return h('section', { class: 'panel end', 'data-testid': 'end' }, h('h2', {}, 'Game over'), result,
      ties ? h('p', { class: 'hint', 'data-testid': 'end-tie-break' }, ties) : null,
      s.rematch ? h('p', { 'data-testid': 'rematch-ready' }, 'A rematch is ready: everyone keeps their seat, the bots too.') : null,
      h('div', { class: 'end-actions' },
        h('a', { href: `/api/games/${this.id}/record`, download: `sagani-${this.id}.json`, 'data-testid': 'download-record', class: 'button' }, 'Download the record'),
        rematch, h('a', { href: '/', class: 'button' }, 'Home')));
  }
}

/// A selector that finds the focused element again after the table is redrawn.
function focusSelector(el) {
  if (!el || !el.getAttribute) return null;
  const cell = el.getAttribute('data-cell');
  if (cell) return `[data-cell="${cell}"].cell`;
  const id = el.getAttribute('data-testid');
  if (!id) return null;
  const tile = el.getAttribute('data-tile');
  return tile ? `[data-testid="${id}"][data-tile="${tile}"]` : `[data-testid="${id}"]`;
}

/// Keeps a display's tiles in view when it is first drawn.
function centre(wrap) {
  wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
  wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) / 2;
}

/// Drag a large display around with the mouse (scrollbars and the keyboard work too). A drag
/// that starts on a cell pans; only a click without movement chooses the cell.
function pan(wrap) {
  let from = null;
  let moved = false;
  wrap.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    from = { x: ev.clientX, y: ev.clientY, left: wrap.scrollLeft, top: wrap.scrollTop };
    moved = false;
  });
  wrap.addEventListener('pointermove', (ev) => {
    if (!from) return;
    const dx = ev.clientX - from.x;
    const dy = ev.clientY - from.y;
    if (!moved && Math.hypot(dx, dy) < 6) return;
    moved = true;
    wrap.classList.add('panning');
    wrap.scrollLeft = from.left - dx;
    wrap.scrollTop = from.top - dy;
  });
  const stop = () => {
    from = null;
    wrap.classList.remove('panning');
  };
  wrap.addEventListener('pointerup', stop);
  wrap.addEventListener('pointerleave', stop);
  wrap.addEventListener('click', (ev) => {
    if (moved) {
      ev.stopPropagation();
      moved = false;
    }
  }, true);
}

/// A seat's name for narrow places: "1 You", "2 greedy".
function shortName(state, seat) {
  const info = state.seats[seat];
  const who = state.you === seat ? 'You' : info.kind === 'bot' ? `${info.bot}${info.level ? ` L${info.level}` : ''}` : info.claimed ? 'Player' : 'free';
  return `${seat + 1} ${who}`;
}

function tileName(tile, tiles) {
  const info = tiles[tile];
  return `${ELEMENTS[info.element].letter}${tile}`;
}

export function describeMove(played, names, tiles) {
  const who = names[played.seat];
  const m = played.move;
  if (m.action === 'place') {
    const turn = m.rot ? `, turned ${m.rot * 90}°` : '';
    return `${who} placed ${tileName(m.tile, tiles)} (${ELEMENTS[tiles[m.tile].element].name}, ${tiles[m.tile].value}) at (${m.x}, ${m.y})${turn}`;
  }
  if (m.action === 'intermezzo') return `${who} stored ${tileName(m.tile, tiles)} for the intermezzo and drew the top tile`;
  return `${who} passed`;
}

/// What the move at `version` changed for its player, when the states before and after it
/// were both seen (`after`: version -> [score, cacophony] per seat).
function scoreNote(after, version, seat) {
  const a = after.get(version);
  const b = after.get(version + 1);
  if (!a || !b || !a[seat] || !b[seat]) return '';
  const [scoreA, cacA] = a[seat];
  const [scoreB, cacB] = b[seat];
  const parts = [];
  if (scoreB !== scoreA) parts.push(`${scoreB > scoreA ? '+' : '−'}${Math.abs(scoreB - scoreA)} points`);
  if (cacB > cacA) parts.push(`${cacB - cacA} Cacophony`);
  return parts.length ? `(${parts.join(', ')})` : '';
}

/// Explains every tie on the score track: among equal scores the engine's ranking puts first
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
    const order = seats.map((p) => names[p]).join(', then ');
    notes.push(`${seats.length} players have ${score} points. Their markers rank in the order they last moved on the score track, earliest first: ${order}.`);
  }
  return notes.join(' ');
}

function previewText(p, tiles) {
  const covered = p.covered.length
    ? `Covers ${p.covered.length} arrow${p.covered.length === 1 ? '' : 's'}: ${p.covered.map((c) => `${c.direction} ${ELEMENTS[c.element].name} on ${tileName(c.tile, tiles)}`).join(', ')}.`
    : 'Covers no arrow.';
  const done = p.completed.length ? `Completes ${p.completed.map((t) => tileName(t, tiles)).join(', ')}: +${p.points} points.` : 'Completes no tile.';
  const cac = p.cacophony ? `Costs ${p.cacophony} Cacophony disc${p.cacophony === 1 ? '' : 's'} (−${p.points - p.score_change} points).` : 'No Cacophony.';
  const sign = p.score_change >= 0 ? '+' : '−';
  return h('div', {},
    h('p', { 'data-testid': 'preview-covered' }, covered),
    h('p', { 'data-testid': 'preview-completed' }, done),
    h('p', { 'data-testid': 'preview-cacophony', class: p.cacophony ? 'warn' : '' }, cac),
    h('p', { 'data-testid': 'preview-score' }, h('strong', {}, `Score ${sign}${Math.abs(p.score_change)} → ${p.score_after}`), `; discs left in your supply: ${p.supply_after}.`, p.reaches_target ? h('strong', {}, ' Reaches the goal!') : null));
}
