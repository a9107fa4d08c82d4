// The replay: a finished game (`/games/{id}/replay`) or a record file (`/replay`) step by step,
// with buttons, keys (← → Home End) and a slider; every display or one, the offer, the draw
// pile's count, the intermezzo and the track as they were; each move's effect in words and on
// the board; every player's score over the game as a graph; and at any position "What would the
// engine do?". The server answers every position (`GET /api/games/{id}/replay`,
// `POST /api/replay`): the page knows no rules.

import { api, findGame, tiles as loadTiles } from './api.js';
import { announce, h, touch } from './dom.js';
import * as draw from './draw.js';
import { displaySvg } from './draw-display.js';
import { scoreTrack } from './draw-track.js';
import { Board } from './board.js';
import { num, t } from './i18n.js';
import { askEngine, engineList, engineMarks } from './engine.js';
import { describeMove, effectWords, seatName, shortName, tileName } from './words.js';
import { scoreGraph } from './graph.js';
import { refusalText } from './refusals.js';

const { SEAT_COLORS, magnifier, tileSvg } = draw;

/// The replay on screen, closed when the page goes elsewhere.
let current = null;

export function leaveReplay() {
  if (current) current.close();
  current = null;
}

/// `/games/{id}/replay`: a stored game, once it is over (a practice game's player sees it
/// before, with the seat's token).
export async function replayPage(app, game) {
  leaveReplay();
  document.title = t('replay.doc.title');
  app.replaceChildren(h('p', { class: 'loading' }, t('replay.loading')));
  const entry = findGame(game);
  const token = entry ? entry.token : null;
  let answer;
  let tiles;
  try {
    tiles = await loadTiles();
    answer = await api('GET', `/api/games/${game}/replay`, { token });
  } catch (e) {
    if (!app.isConnected) return;
    const why = e.status === 404 ? t('table.no-game') : e.code === 'game_in_progress' ? t('replay.in-progress')
      : e.code === 'history_hidden' ? t('replay.hidden') : e.code === 'network' ? t('error.network') : t('replay.failed', { reason: refusalText(e) });
    app.replaceChildren(h('h1', {}, t('replay.title')),
      h('p', { class: e.code === 'game_in_progress' ? 'notice' : 'error', 'data-testid': 'replay-refused' }, why),
      h('p', {}, h('a', { href: `/games/${game}` }, t('replay.to-table')), ' · ', h('a', { href: '/' }, t('page.missing.home'))));
    announce(why);
    return;
  }
  if (!app.isConnected) return;
  current = new Replay(app, answer, tiles, { game, token });
  current.start();
}

/// `/replay`: a record file, dropped on the page or picked, replayed by the server.
export async function recordPage(app) {
  leaveReplay();
  document.title = t('replay.file.doc');
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'record-error', hidden: true });
  const input = h('input', { type: 'file', id: 'record-file', accept: '.json,application/json', 'data-testid': 'record-file' });
  const zone = h('div', { class: 'drop-zone', 'data-testid': 'drop-zone' },
    h('p', { class: 'drop-lead' }, t('replay.file.drop')),
    h('label', { for: 'record-file', class: 'drop-label' }, t('replay.file.pick')), input);
  const open = async (file) => {
    if (!file) return;
    error.hidden = true;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch {
      error.textContent = t('replay.file.bad', { reason: t('replay.file.json') });
      error.hidden = false;
      return;
    }
    let answer;
    let tiles;
    try {
      tiles = await loadTiles();
      answer = await api('POST', '/api/replay', { body: { record } });
    } catch (e) {
      error.textContent = e.code === 'network' ? t('error.network') : t('replay.file.bad', { reason: e.detail || e.code !== 'bad_request' ? refusalText(e) : t('replay.file.record') });
      error.hidden = false;
      return;
    }
    if (!app.isConnected) return;
    current = new Replay(app, answer, tiles, { record });
    current.start();
  };
  input.addEventListener('change', () => open(input.files[0]));
  zone.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (ev) => {
    ev.preventDefault();
    zone.classList.remove('over');
    open(ev.dataTransfer.files[0]);
  });
  app.replaceChildren(h('article', { class: 'page record-page', 'data-testid': 'record-page' },
    h('header', { class: 'page-head' }, h('h1', {}, t('replay.file.title')), h('p', { class: 'lead' }, t('replay.file.lead'))),
    zone, error,
    h('p', {}, h('a', { href: '/' }, t('page.missing.home')))));
}

/// What a game is: "3-player game", "Solo game".
function gameWords(answer) {
  if (answer.variant === 'solo') return t('home.mine.solo');
  if (answer.variant === 'solo-all') return t('home.mine.solo-all');
  return t('home.mine.players', { count: answer.players, n: num(answer.players) });
}

/// The steps' pictures: to the start, back, on, to the end (triangles and bars, drawn: not every
/// font has the media symbols).
function stepIcon(kind) {
  const back = kind === 'first' || kind === 'prev';
  const bar = kind === 'first' || kind === 'last';
  const tri = back ? 'M17 4 L6 12 L17 20 Z' : 'M7 4 L18 12 L7 20 Z';
  const parts = [draw.svg('path', { d: tri, fill: 'currentColor' })];
  if (bar) parts.push(draw.svg('rect', { x: back ? 3 : 18, y: 4, width: 3, height: 16, fill: 'currentColor' }));
  return draw.svg('svg', { viewBox: '0 0 24 24', width: 22, height: 22, 'aria-hidden': 'true', class: 'step-icon' }, parts);
}

class Replay {
  constructor(app, answer, tiles, source) {
    this.app = app;
    this.r = answer;
    this.tiles = tiles;
    this.source = source;
    this.count = answer.moves.length;
    // A stored game's seats as its table named them; a record file's by the names it has.
    const seats = answer.seats || answer.names.map((name) => (name ? { kind: 'human', claimed: true, name, account: true } : { kind: 'human', claimed: true }));
    this.who = { seats };
    this.names = seats.map((_, i) => seatName(this.who, i));
    const wanted = Number(new URLSearchParams(location.search).get('at'));
    this.at = Number.isInteger(wanted) && wanted >= 0 && wanted <= this.count && new URLSearchParams(location.search).has('at') ? wanted : 0;
    this.mode = 'one';
    this.focus = null; // the seat shown in 'one' mode; null: whoever moved last
    this.analysis = new Map(); // at -> {asking} | answer | {error}
    this.closed = false;
    this.touch = touch();
    this.onKey = (ev) => this.key(ev);
  }

  start() {
    document.title = t('replay.doc.game', { game: gameWords(this.r) });
    const slider = h('input', { type: 'range', min: 0, max: this.count, step: 1, value: this.at, 'data-testid': 'replay-slider', 'aria-label': t('replay.slider') });
    slider.addEventListener('input', () => this.go(Number(slider.value)));
    this.slider = slider;
    const step = (id, label, key, icon, to) => {
      const b = h('button', { type: 'button', class: 'big step', 'data-testid': id, title: this.touch ? label : `${label} (${key})`, 'aria-label': label }, stepIcon(icon));
      b.addEventListener('click', () => this.go(to()));
      return b;
    };
    this.buttons = [
      step('replay-first', t('replay.step.first'), t('replay.key.home'), 'first', () => 0),
      step('replay-prev', t('replay.step.prev'), '←', 'prev', () => this.at - 1),
      step('replay-next', t('replay.step.next'), '→', 'next', () => this.at + 1),
      step('replay-last', t('replay.step.last'), t('replay.key.end'), 'last', () => this.count),
    ];
    this.positionEl = h('p', { class: 'replay-position', 'data-testid': 'replay-position' });
    const toggle = this.r.players > 1 ? h('button', { class: 'small', 'data-testid': 'view-toggle' }) : null;
    if (toggle) {
      toggle.addEventListener('click', () => {
        this.mode = this.mode === 'all' ? 'one' : 'all';
        this.render();
      });
    }
    this.toggle = toggle;
    this.boardEl = h('div', { class: 'board' });
    this.board = new Board(this.boardEl);
    this.zoomEl = this.board.zoomButtons();
    const game = this.source.game;
    const download = game
      ? h('a', { href: `/api/games/${game}/record`, download: `sagani-${game}.json`, class: 'small-link', 'data-testid': 'download-record' }, t('end.record'))
      : null;
    this.ask = h('button', { type: 'button', class: 'primary', 'data-testid': 'engine-ask' }, t('engine.ask'));
    this.ask.addEventListener('click', () => this.askEngine());
    this.root = h('div', { class: 'table replay', 'data-testid': 'replay' },
      h('header', { class: 'bar' },
        h('a', { href: '/', class: 'home-link', 'aria-label': t('bar.home') }, t('app.name')),
        h('h1', { class: 'replay-title' }, t('replay.heading', { game: gameWords(this.r) })),
        h('span', { class: 'spacer' }),
        game ? h('a', { href: `/games/${game}`, class: 'small-link', 'data-testid': 'replay-table' }, t('replay.to-table')) : h('a', { href: '/replay', class: 'small-link' }, t('replay.file.another')),
        download,
        h('a', { href: '/rules', class: 'small-link', target: '_blank', rel: 'noopener' }, t('bar.rules')),
        toggle, this.zoomEl),
      h('div', { class: 'layout' },
        this.boardArea = h('section', { class: 'board-area', 'aria-label': t('replay.board') },
          this.turnEl = h('div', { class: 'turn', 'data-testid': 'turn' }),
          this.tabsEl = h('div', { class: 'tabs-line' }),
          this.boardEl),
        h('aside', { class: 'side' },
          this.dockEl = h('div', { class: 'dock replay-dock', 'data-testid': 'dock' },
            h('section', { class: 'panel steps', 'data-testid': 'steps', 'aria-label': t('replay.steps') },
              h('div', { class: 'step-row' }, this.buttons[0], this.buttons[1], slider, this.buttons[2], this.buttons[3]),
              this.positionEl,
              this.dockMoveEl = h('p', { class: 'dock-move', 'data-testid': 'dock-move' }),
              this.touch ? null : h('p', { class: 'hint keys' }, t('replay.keys')))),
          this.moveEl = h('section', { class: 'panel replay-move', 'data-testid': 'replay-move', 'aria-live': 'polite' }),
          h('section', { class: 'panel engine', 'data-testid': 'engine' },
            h('h2', {}, t('engine.title')), this.ask, this.engineEl = h('div', { class: 'engine-body' })),
          h('section', { class: 'panel graph-panel' }, h('h2', {}, t('replay.graph.title')), this.graphEl = h('div', { class: 'graph' })),
          this.commonEl = h('div', { class: 'common' }),
          h('section', { class: 'panel players-panel' }, this.playersEl = h('div', {}),
            h('h3', {}, t('track.title')), this.trackEl = h('div', { class: 'track' })),
          h('section', { class: 'panel log-panel' }, h('h2', {}, t('log.title')),
            this.logEl = h('ol', { class: 'log-list replay-log', 'data-testid': 'replay-log', 'aria-label': t('log.title') })))));
    this.app.replaceChildren(this.root);
    document.body.classList.add('at-table');
    // On a phone the steps sit at the bottom; the board leaves them room.
    this.dockSize = new ResizeObserver(() => {
      const px = `${this.dockEl.offsetHeight}px`;
      for (const el of [document.querySelector('main'), this.boardArea]) if (el && el.style.getPropertyValue('--dock-h') !== px) el.style.setProperty('--dock-h', px);
    });
    this.dockSize.observe(this.dockEl);
    this.drawLog();
    document.addEventListener('keydown', this.onKey);
    this.render();
  }

  close() {
    this.closed = true;
    document.removeEventListener('keydown', this.onKey);
    if (this.board) this.board.close();
    if (this.dockSize) this.dockSize.disconnect();
    const main = document.querySelector('main');
    if (main) main.style.removeProperty('--dock-h');
    document.body.classList.remove('at-table');
  }

  key(ev) {
    if (ev.target.closest && ev.target.closest('input, select, textarea, dialog')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const to = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.count }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.go(to);
  }

  /// Shows the position after `at` moves (kept in the address, so a reload or a link keeps it).
  go(at) {
    const to = Math.max(0, Math.min(this.count, at));
    if (to === this.at || this.closed) return;
    this.at = to;
    this.focus = null;
    const url = new URL(location.href);
    url.searchParams.set('at', String(to));
    history.replaceState(null, '', url.pathname + url.search);
    this.render();
  }

  /// The move that led to the position shown (none at the start).
  last() {
    return this.at > 0 ? this.r.moves[this.at - 1] : null;
  }

  view() {
    return this.r.positions[this.at];
  }

  /// The seat whose display is shown: the one chosen, else the engine's seat when it answered,
  /// else whoever moved last (at the start, the start player).
  seat() {
    if (this.focus !== null) return this.focus;
    const a = this.analysis.get(this.at);
    if (a && a.moves) return a.seat;
    const last = this.last();
    return last ? last.seat : this.r.start_player;
  }

  render() {
    if (this.closed) return;
    const v = this.view();
    Object.assign(this.root.dataset, { at: this.at, count: this.count, mode: this.mode });
    this.slider.value = String(this.at);
    const position = this.positionText();
    this.slider.setAttribute('aria-valuetext', position);
    this.positionEl.textContent = position;
    this.buttons[0].disabled = this.buttons[1].disabled = this.at === 0;
    this.buttons[2].disabled = this.buttons[3].disabled = this.at === this.count;
    if (this.toggle) this.toggle.textContent = this.mode === 'all' ? t('view.one') : t('view.all');
    this.zoomEl.hidden = this.mode !== 'one';
    this.turnEl.replaceChildren(...this.turnLine(v));
    this.tabsEl.replaceChildren(this.tabs(v) || '');
    this.moveEl.replaceChildren(...this.moveWords());
    // On a phone the move's line stays in sight beside the steps.
    this.dockMoveEl.textContent = this.moveEl.querySelector('[data-testid=replay-move-text]').textContent;
    this.drawEngine();
    this.graphEl.replaceChildren(scoreGraph(this.r.scores, this.names, this.at, (i) => this.go(i)));
    this.commonEl.replaceChildren(...[this.offer(v), this.revealed(v), this.storage(v), this.pile(v)].filter(Boolean));
    this.playersEl.replaceChildren(...this.players(v));
    const had = this.trackEl.firstElementChild;
    const track = scoreTrack(v, this.names, had);
    if (track !== had) this.trackEl.replaceChildren(track);
    this.displays(v);
    this.markLog();
    announce(position);
  }

  positionText() {
    if (this.at === 0) return t('replay.position.start', { count: this.count });
    return t('replay.position', { at: num(this.at), count: num(this.count) });
  }

  /// Above the board: who acts next, or the result at the end.
  turnLine(v) {
    if (v.next) {
      return [h('span', { class: 'dot', style: `background:${SEAT_COLORS[v.next.player]}` }),
        h('span', { class: 'status', 'data-testid': 'status' }, t(`replay.next.${v.next.expects}`, { who: this.names[v.next.player] }))];
    }
    return [h('span', { class: 'status', 'data-testid': 'status' }, this.result())];
  }

  /// The end, in the end card's words.
  result() {
    const o = this.r.outcome;
    if (this.r.ended) return t(`end.ended.${this.r.ended}.text`);
    if (!o) return t('status.over');
    if (o.kind === 'ranking') return t('end.winner', { who: this.names[this.r.standings[0]] });
    if (o.kind === 'solo') {
      if (!o.reached) return t('end.solo.ran-out', { score: o.score, target: this.view().target, count: o.tiles_used });
      return `${t('replay.solo.reached', { score: o.score, count: o.tiles_used })} ${o.symphony ? t('end.solo.symphony') : t('end.solo.no-symphony')}`;
    }
    if (o.kind === 'solo-all') return t('end.solo-all', { final: o.final_score, score: o.score, count: o.discs_left, tiles: this.view().placements });
    return t('status.over');
  }

  tabs(v) {
    if (this.mode !== 'one' || v.seats.length < 2) return null;
    const shown = this.seat();
    return h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('tabs.label') }, v.seats.map((p, i) => {
      const b = h('button', { role: 'tab', 'aria-selected': String(i === shown), class: 'tab', 'data-testid': `tab-${i}` },
        h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), shortName(this.who, i),
        h('span', { class: 'tab-score' }, num(p.score)));
      b.addEventListener('click', () => {
        this.focus = i;
        this.render();
      });
      return b;
    }));
  }

  /// The move that led here, in words: who did what, and what it did.
  moveWords() {
    const last = this.last();
    if (!last) {
      return [h('h2', {}, t('replay.start.title')),
        h('p', { 'data-testid': 'replay-move-text' }, t('replay.start.text', { who: this.names[this.r.start_player] }))];
    }
    const state = { seats: this.who.seats, view: this.view() };
    const { text } = describeMove(last, state, this.names, this.tiles);
    const out = [h('h2', {}, h('span', { class: 'dot', style: `background:${SEAT_COLORS[last.seat]}` }), t('replay.move.title', { n: num(this.at) })),
      h('p', { 'data-testid': 'replay-move-text' }, text)];
    const e = last.effect;
    if (e) {
      const words = effectWords(e, this.tiles);
      out.push(h('p', { class: 'preview-score', 'data-testid': 'replay-effect-score' }, h('strong', {}, words.score)),
        h('p', { 'data-testid': 'replay-effect-covered' }, words.covered),
        h('p', { 'data-testid': 'replay-effect-completed' }, words.completed),
        h('p', { 'data-testid': 'replay-effect-cacophony', class: e.cacophony ? 'warn' : '' }, words.cacophony));
    }
    if (this.at === this.count) out.push(h('p', { class: 'replay-end', 'data-testid': 'replay-end' }, h('strong', {}, this.result())));
    return out;
  }

  /// The engine's answer for the position shown, or the button to ask for it.
  async askEngine() {
    const at = this.at;
    if (this.analysis.has(at) && !this.analysis.get(at).error) return;
    this.analysis.set(at, { asking: true });
    this.render();
    const body = this.source.game ? { game: this.source.game, at } : { record: this.source.record, at };
    const answer = await askEngine(body, this.source.token);
    if (this.closed) return;
    this.analysis.set(at, answer);
    if (at === this.at) {
      this.focus = null;
      this.render();
    }
  }

  drawEngine() {
    const v = this.view();
    const a = this.analysis.get(this.at);
    this.ask.hidden = !v.next || (a && !a.error);
    this.ask.disabled = !!(a && a.asking);
    if (!v.next) {
      this.engineEl.replaceChildren(h('p', { class: 'hint' }, t('engine.nobody')));
      return;
    }
    if (!a) {
      this.engineEl.replaceChildren(h('p', { class: 'hint' }, t('engine.lead', { who: this.names[v.next.player] })));
      return;
    }
    if (a.asking) {
      this.engineEl.replaceChildren(h('p', { class: 'hint', 'data-testid': 'engine-asking' }, t('engine.asking')));
      return;
    }
    if (a.error) {
      this.engineEl.replaceChildren(h('p', { class: 'error', 'data-testid': 'engine-error' }, a.error));
      return;
    }
    const next = this.r.moves[this.at];
    this.engineEl.replaceChildren(
      h('p', { class: 'hint' }, t('engine.for', { who: this.names[a.seat] })),
      engineList(a, { tiles: this.tiles, display: v.seats[a.seat].display, whose: 'their', played: next ? next.move : null }));
  }

  offer(v) {
    if (v.variant !== 'standard') return null;
    return h('section', { class: 'panel offer', 'data-testid': 'offer' }, h('h2', {}, t('offer.title')),
      h('div', { class: 'tile-row' }, v.offer.length
        ? v.offer.map((id) => h('span', { class: 'tile-btn', 'data-testid': 'offer-tile', 'data-tile': id }, tileSvg(this.tiles[id], { size: 60, label: tileName(this.tiles, id) })))
        : h('span', { class: 'hint' }, t('offer.empty'))));
  }

  revealed(v) {
    if (!v.revealed) return null;
    return h('section', { class: 'panel revealed', 'data-testid': 'revealed' }, h('h2', {}, t('revealed.title')),
      h('div', { class: 'tile-row' }, tileSvg(this.tiles[v.revealed], { size: 60, label: tileName(this.tiles, v.revealed) })));
  }

  storage(v) {
    if (v.variant !== 'standard') return null;
    const slots = [0, 1, 2, 3].map((i) => {
      const id = v.intermezzo[i];
      return id ? h('span', { class: 'tile-btn', 'data-testid': 'intermezzo-tile', 'data-tile': id }, tileSvg(this.tiles[id], { size: 60, label: tileName(this.tiles, id) }))
        : h('span', { class: 'slot', role: 'img', 'aria-label': t('storage.empty-slot', { n: i + 1 }) });
    });
    const running = v.next && v.next.expects === 'intermezzo-pick';
    return h('section', { class: `panel storage${running ? ' running' : ''}`, 'data-testid': 'intermezzo' },
      h('h2', {}, t('storage.title')), h('div', { class: 'tile-row slots' }, slots));
  }

  pile(v) {
    const p = v.draw_pile;
    const back = p.top
      ? h('span', { 'data-testid': 'pile-back' }, tileSvg({ id: 0, element: p.top.element, value: p.top.value, arrows: [], rotations: [[], [], [], []] }, { size: 56, back: true, label: t('pile.top', { element: t(`element.${p.top.element}`), value: p.top.value }) }))
      : null;
    return h('section', { class: 'panel pile', 'data-testid': 'pile' }, h('h2', {}, t('pile.title')),
      h('div', { class: 'pile-row' }, back, h('span', { class: 'count', 'data-testid': 'pile-count' }, p.count ? t('pile.count', { count: p.count }) : t('pile.empty'))));
  }

  players(v) {
    const rows = v.seats.map((p, i) => {
      const acting = v.next && v.next.player === i;
      const magnify = h('button', { class: 'small icon', 'data-testid': `magnify-${i}`, title: t('view.show', { who: this.names[i] }), 'aria-label': t('view.show', { who: this.names[i] }) }, magnifier());
      magnify.addEventListener('click', () => {
        this.mode = 'one';
        this.focus = i;
        this.render();
      });
      return h('tr', { class: acting ? 'acting' : '', 'data-seat': i },
        h('th', { scope: 'row', title: this.names[i] },
          h('span', { class: 'who' },
            acting ? h('span', { class: 'acting-mark', role: 'img', 'aria-label': t('players.acting') }, '▶') : null,
            h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), h('span', { class: 'name' }, shortName(this.who, i)), magnify)),
        h('td', { 'data-testid': `score-${i}` }, p.score),
        h('td', {}, p.supply), h('td', { class: p.cacophony ? 'warn' : '' }, p.cacophony));
    });
    return [
      h('h2', {}, t('players.title')),
      h('table', { class: 'players', 'data-testid': 'players-table' },
        h('thead', {}, h('tr', {}, h('th', {}, t('players.player')),
          h('th', { title: t('players.score.title') }, t('players.score')),
          h('th', { title: t('players.discs.title') }, t('players.discs')),
          h('th', { title: t('players.cacophony.title') }, t('players.cacophony')))),
        h('tbody', {}, rows)),
    ];
  }

  /// Every move, each a button to its position.
  drawLog() {
    this.logItems = this.r.moves.map((m, k) => {
      const state = { seats: this.who.seats, view: this.r.positions[k + 1] };
      const { text, note } = describeMove(m, state, this.names, this.tiles);
      const b = h('button', { type: 'button', class: 'log-step', 'data-testid': 'replay-log-move' },
        h('span', { class: 'dot', style: `background:${SEAT_COLORS[m.seat]}` }), `${num(k + 1)}. `, text, note ? h('span', { class: 'note' }, ` (${note})`) : null);
      b.addEventListener('click', () => this.go(k + 1));
      return h('li', { 'data-at': k + 1 }, b);
    });
    this.logEl.replaceChildren(...this.logItems);
  }

  /// The move shown is marked in the list, and scrolled into its view (the list only).
  markLog() {
    for (const li of this.logEl.querySelectorAll('li.current')) li.classList.remove('current');
    const li = this.logItems[this.at - 1];
    if (!li) return;
    li.classList.add('current');
    const list = this.logEl;
    if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = li.offsetTop - list.clientHeight / 2;
    }
  }

  /// What a seat's display shows here: the last move's tile outlined, the arrows it covered
  /// ringed and the tiles it completed outlined (when it was this seat's), the engine's moves.
  marks(seat) {
    const last = this.last();
    const mine = last && last.seat === seat && last.move.action === 'place';
    const a = this.analysis.get(this.at);
    return {
      fresh: mine ? new Set([last.move.tile]) : new Set(),
      preview: mine ? last.effect : null,
      hints: a && a.moves && a.seat === seat ? engineMarks(a) : [],
    };
  }

  displays(v) {
    if (this.mode === 'all') {
      this.board.showAll(v.seats.map((p, i) => {
        const magnify = h('button', { class: 'small icon', title: t('view.only', { who: this.names[i] }), 'aria-label': t('view.only', { who: this.names[i] }), 'data-testid': `magnify-display-${i}` }, magnifier());
        magnify.addEventListener('click', () => {
          this.mode = 'one';
          this.focus = i;
          this.render();
        });
        return {
          seat: i,
          heading: [h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), this.names[i], ' ', magnify],
          label: t('display.label', { who: this.names[i] }),
          svg: displaySvg(p, this.tiles, { cellPx: 80, fit: true, seatColor: SEAT_COLORS[i], ...this.marks(i) }),
        };
      }));
      return;
    }
    const seat = this.seat();
    this.board.showOne(seat, t('display.label.scroll', { who: this.names[seat] }),
      (into) => displaySvg(v.seats[seat], this.tiles, { cellPx: 80, seatColor: SEAT_COLORS[seat], into, ...this.marks(seat) }));
  }
}
