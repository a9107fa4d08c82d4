// The table's line to the server for one game: the game's state (a newer version replaces an
// older one; a late answer only adds its moves to the log), the log of moves, the live socket
// (reconnecting, and finding out why it closed), and requests: my moves (sent again when they
// got no answer), previews, resigning.

import { api } from './api.js';

export class Connection {
  /// `token`: the seat's (null: watching). `hooks`, what the table does when something happens:
  ///   taken(old)       a state was taken (`old`: the one shown before, or null)
  ///   answered()       the server answered again: a connection error is over
  ///   seatLost()       the seat was claimed on another device: the token is gone, we watch
  ///   gone()           the game was removed
  ///   arrived(animate) the socket brought news, to be drawn
  ///   render()         the line's own state changed (it went offline)
  constructor(game, token, hooks) {
    this.game = game;
    this.token = token;
    this.hooks = hooks;
    this.state = null;
    this.log = new Map(); // version -> the move played at that version, with its effect
    this.arrived = performance.now(); // when the state shown arrived (the clocks count from it)
    this.ws = null;
    this.retry = 0;
    this.offline = false;
    this.sending = false; // my move is on its way
    this.held = []; // socket messages that came in while my move was on its way
    this.closed = false;
    this.loggedAt = -1; // the state's version when the log was last fetched whole
    this.synced = false; // the socket's first state (and the moves it missed) has been taken
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  /// `GET /api/games/{id}`: the game as it is now.
  async fetchState() {
    this.take(await api('GET', `/api/games/${this.game}`, { token: this.token }));
    this.hooks.answered();
  }

  async fetchLog() {
    try {
      const at = this.state ? this.state.version : -1;
      // With the token: a daily game's moves are its player's alone during its day.
      const { moves } = await api('GET', `/api/games/${this.game}/moves`, { token: this.token });
      for (const m of moves) this.logMove(m);
      this.loggedAt = Math.max(this.loggedAt, at);
      this.hooks.answered();
    } catch {
      // The log is a convenience; the table itself is complete without it.
    }
  }

  /// `POST /api/games/{id}/{what}` with the seat's token: a preview, resigning, a rematch, ...
  post(what, body) {
    return api('POST', `/api/games/${this.game}/${what}`, { token: this.token, body });
  }

  /// The seat was claimed on another device: watch from here.
  loseSeat() {
    this.token = null;
    this.hooks.seatLost();
  }

  /// Whether a move played since the log was last fetched whole is missing from it (a move's
  /// version is the one it was played against: 0 to the state's version - 1).
  logGap() {
    if (this.loggedAt < 0) return true;
    for (let v = this.loggedAt; v < this.state.version; v++) if (!this.log.has(v)) return true;
    return false;
  }

  logMove(m) {
    const had = this.log.get(m.version);
    if (!had || (!had.effect && m.effect)) this.log.set(m.version, m);
  }

  /// Takes a newer state; an older one (a late answer) only adds its moves to the log.
  take(state, moves = []) {
    for (const m of moves) this.logMove(m);
    if (state.last_move) this.logMove(state.last_move);
    // A rematch, once named, stays named (a late answer of the same version may predate it).
    if (this.state && this.state.rematch && !state.rematch) state.rematch = this.state.rematch;
    const old = this.state;
    if (old && state.version < old.version) return;
    this.state = state;
    this.arrived = performance.now();
    this.hooks.taken(old);
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // The token goes in the first message, never in the address (which browsers print).
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${this.game}/ws`);
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
          this.loseSeat();
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
      this.hooks.answered();
      this.take(msg.state, msg.moves);
      if (first) {
        // Moves played while this socket was away: asked for only when the log has a gap (on
        // opening the table it was fetched just before).
        first = false;
        if (this.logGap()) await this.fetchLog();
        this.synced = true;
      }
      if (!this.closed) this.hooks.arrived(!wasOffline);
    };
    ws.onclose = async () => {
      if (this.closed || this.ws !== ws) return;
      this.offline = true;
      this.hooks.render();
      // A refused or closed socket: was the seat claimed elsewhere, or the game removed?
      try {
        await api('GET', `/api/games/${this.game}`, { token: this.token });
      } catch (e) {
        if (e.status === 403 && this.token) {
          this.loseSeat();
        } else if (e.status === 404) {
          this.offline = false;
          this.hooks.gone();
          return;
        }
      }
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  /// Sends my move at the version shown. A move that got no answer (the network, or a store that
  /// failed) is sent again as it was: the server plays it at most once, and says so when it had
  /// played it already. Returns the server's answer; throws its refusal.
  async sendMove(mv) {
    const body = { version: this.state.version, move: mv };
    for (let attempt = 0; ; attempt++) {
      try {
        return await api('POST', `/api/games/${this.game}/moves`, { token: this.token, body });
      } catch (e) {
        if (attempt >= 2 || !(e.code === 'network' || e.code === 'storage')) throw e;
        await new Promise((resolve) => setTimeout(resolve, 400 * (attempt + 1)));
      }
    }
  }

  /// What the socket said while my move was on its way (a bot's answer), taken now that my move
  /// is drawn.
  release() {
    for (const [ws, ev] of this.held.splice(0)) ws.onmessage(ev);
  }
}
