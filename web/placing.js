// Placing a tile: choosing it (in the offer, the intermezzo storage, or the one drawn), a cell,
// turning it, the engine's preview of what it would do, and confirming; the keys for all of it;
// and a practice game's hints (the engine's moves, each tried with a click). The engine says what
// is legal and what a placement does: the page only asks.

import { h, hidden } from './dom.js';
import { tileSvg } from './draw.js';
import { t } from './i18n.js';
import * as motion from './motion.js';
import { effectWords, reasonText, tileName } from './words.js';
import { askEngine, engineList, engineMarks } from './engine.js';
import { painted, timings } from './timings.js';

/// The decision the player is making at the table.
export class Placing {
  constructor(table) {
    this.table = table;
    this.sel = null; // the tile chosen and how it is turned: {tile, rot}
    this.chosen = null; // the cell chosen for it: {x, y}
    this.preview = null; // the engine's preview of that placement
    this.previewFor = null; // the placement the last preview was asked for (a later one wins)
    this.hint = null; // a practice game's hints for this decision: {at, asking} | the engine's answer | {at, error}
    this.coachTarget = null; // where the tutorial's coach points: {tile, x, y}
    this.placedNow = null; // my own tile, just sent: it is at its cell already and does not fly
  }

  /// The tiles I may place now.
  placeable() {
    const table = this.table;
    const set = new Set();
    if (!table.myTurn()) return set;
    for (const m of table.state.legal) if (m.action === 'place') set.add(m.tile);
    return set;
  }

  legalCells(tile) {
    const cells = new Set();
    for (const m of this.table.state.legal) if (m.action === 'place' && m.tile === tile) cells.add(`${m.x},${m.y}`);
    return cells;
  }

  /// A new decision (the game moved on): nothing chosen, no hints.
  reset() {
    this.hint = null;
    this.clear();
  }

  /// A tile drawn from the pile is the only one to place: choose it at once.
  autoSelect() {
    const table = this.table;
    const e = table.expects();
    if ((e === 'place-drawn' || e === 'place-revealed') && table.state.view.revealed && !this.sel) {
      this.sel = { tile: table.state.view.revealed, rot: 0 };
      table.look.mode = 'one';
      table.look.focus = table.you;
    }
  }

  clear() {
    this.sel = null;
    this.chosen = null;
    this.preview = null;
    this.previewFor = null;
  }

  /// Chooses a tile to place; from the keyboard, the focus goes on to the first legal cell.
  choose(tile, byKey = false) {
    const table = this.table;
    if (!this.placeable().has(tile)) return;
    table.actAgain();
    this.sel = { tile, rot: this.sel && this.sel.tile === tile ? this.sel.rot : 0 };
    this.chosen = null;
    this.preview = null;
    this.previewFor = null;
    // The tile goes onto my display: show it (from "All displays" too).
    table.look.mode = 'one';
    table.look.focus = table.you;
    table.look.pinned = false;
    table.render();
    const first = table.app.querySelector(`[data-testid="display-${table.you}"] .cell.legal`);
    if (byKey && first) first.focus({ preventScroll: true });
  }

  rotate(by) {
    if (!this.sel) return;
    this.sel.rot = (this.sel.rot + by + 4) % 4;
    this.preview = null;
    if (this.chosen) this.askPreview();
    this.table.render();
  }

  async pickCell(x, y, legal, byKey = false) {
    const table = this.table;
    if (!this.sel) return;
    // Enter on the chosen cell, once its preview is shown, places the tile.
    if (byKey && this.preview && this.chosen && this.chosen.x === x && this.chosen.y === y) return this.confirm();
    table.actAgain();
    const from = this.chosen ? null : table.app.querySelector(`[data-source-tile="${this.sel.tile}"]`);
    const fromRect = from ? from.getBoundingClientRect() : null;
    this.chosen = { x, y };
    this.preview = null;
    // The engine is asked first, and the table drawn while it answers.
    const asked = this.askPreview();
    table.render();
    // The chosen tile travels from the offer to its cell.
    const landed = table.app.querySelector(`[data-testid="display-${table.you}"] g.chosen`);
    if (fromRect && landed && from) motion.fly(from.querySelector('svg') || from, fromRect, landed);
    await asked;
  }

  /// Asks the engine what the chosen placement would do. An illegal cell gets the engine's
  /// reason as an error, and the table stays as it was.
  async askPreview() {
    const table = this.table;
    const mv = { action: 'place', tile: this.sel.tile, x: this.chosen.x, y: this.chosen.y, rot: this.sel.rot };
    const key = JSON.stringify(mv);
    this.previewFor = key;
    const started = performance.now();
    try {
      const { preview } = await table.conn.post('preview', { move: mv });
      if (this.previewFor !== key) return;
      table.answered();
      this.preview = preview;
    } catch (e) {
      if (this.previewFor !== key) return;
      // A connection lost is never an illegal placement.
      table.error = e.code === 'network' || e.code === 'storage' || e.code === 'timeout'
        ? { kind: 'network', text: t('error.network') }
        : { kind: 'move', text: t('error.placement', { reason: reasonText(e) }) };
      this.chosen = null;
      this.preview = null;
    }
    table.render();
    if (this.preview) painted(started, timings.previews);
  }

  cancel() {
    const table = this.table;
    if (this.chosen) {
      this.chosen = null;
      this.preview = null;
    } else if (this.sel && !['place-drawn', 'place-revealed'].includes(table.expects())) {
      this.sel = null;
    }
    this.previewFor = null;
    table.actAgain();
    table.render();
  }

  async confirm() {
    if (!this.sel || !this.chosen || !this.preview) return;
    await this.table.send({ action: 'place', tile: this.sel.tile, x: this.chosen.x, y: this.chosen.y, rot: this.sel.rot });
  }

  /// The keys: 1–5 choose a tile of the offer (or the storage), Q and E turn it, Escape takes
  /// back, Enter places.
  onKey(ev) {
    const table = this.table;
    if (!table.state || ev.target.closest('input, select, textarea, dialog')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (/^[1-5]$/.test(k)) {
      const e = table.expects();
      const row = e === 'intermezzo-pick' ? table.state.view.intermezzo : e === 'turn' ? table.state.view.offer : [];
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

  /// The tile being placed, with the buttons to turn it, take it back and place it, and the
  /// preview in words.
  panel() {
    const table = this.table;
    if (!this.sel || !table.myTurn()) return null;
    const info = table.tiles[this.sel.tile];
    const keys = !table.touch;
    const left = h('button', { 'data-testid': 'rotate-left', class: 'big', title: keys ? t('place.left.key') : t('place.left'), 'aria-label': t('place.left') }, '⟲');
    const right = h('button', { 'data-testid': 'rotate-right', class: 'big', title: keys ? t('place.right.key') : t('place.right'), 'aria-label': t('place.right') }, '⟳');
    left.addEventListener('click', () => this.rotate(-1));
    right.addEventListener('click', () => this.rotate(1));
    const ok = h('button', { 'data-testid': 'confirm', class: 'primary big', disabled: !this.preview || table.conn.sending, title: keys ? t('place.confirm.key') : t('place.confirm'), 'aria-label': t('place.confirm') }, '✓');
    const no = h('button', { 'data-testid': 'cancel', class: 'big', title: keys ? t('place.cancel.key') : t('place.cancel'), 'aria-label': t('place.cancel') }, '✗');
    ok.addEventListener('click', () => this.confirm());
    no.addEventListener('click', () => this.cancel());
    let what;
    if (!this.chosen) what = h('p', { class: 'hint' }, keys ? t('place.hint.keys') : t('place.hint'));
    else if (!this.preview) what = h('p', { class: 'hint' }, t('place.asking'));
    else what = previewText(this.preview, table.tiles);
    return h('section', { class: 'panel placing', 'data-testid': 'placing' },
      h('div', { class: 'placing-row' }, h('span', { class: 'placing-tile' }, tileSvg(info, { size: 64, rot: this.sel.rot, label: tileName(table.tiles, info.id) })), left, right, no, ok),
      h('div', { 'data-testid': 'preview', class: 'preview', 'data-move': this.preview ? JSON.stringify({ action: 'place', tile: this.preview.tile, x: this.preview.x, y: this.preview.y, rot: this.preview.rot }) : null }, what));
  }

  /// A tile that can be taken: in the offer or the intermezzo storage.
  tileButton(tile, enabled, label, testid) {
    const tiles = this.table.tiles;
    const info = tiles[tile];
    const chosen = this.sel && this.sel.tile === tile;
    const name = tileName(tiles, tile);
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

  /// The engine's hints on `seat`'s display: a practice game's player asked for them.
  hintMarks(seat) {
    if (seat !== this.table.you || !this.hint || !this.hint.moves) return [];
    // A tile tried on a cell hides the faint one there.
    return engineMarks(this.hint).map((m) => (this.chosen ? { ...m, ghost: false } : m));
  }

  /// A practice game's Hint: the engine's best moves for my decision, listed here and marked on
  /// my display; "Try it" puts a move's tile on its cell with the engine's preview.
  hintPanel() {
    const table = this.table;
    const s = table.state;
    if (!s.practice || !table.myTurn()) return null;
    const a = this.hint;
    let body = null;
    if (a && a.asking) body = h('p', { class: 'hint', 'data-testid': 'engine-asking' }, t('engine.asking'));
    else if (a && a.error) body = h('p', { class: 'error', 'data-testid': 'engine-error' }, a.error);
    else if (a) body = engineList(a, { tiles: table.tiles, display: s.view.seats[table.you].display, whose: 'your', onTry: (mv) => this.tryHint(mv) });
    let ask = null;
    if (!a || a.error) {
      ask = h('button', { type: 'button', class: 'small', 'data-testid': 'hint' }, t('hint.button'));
      ask.addEventListener('click', () => this.askHint());
    }
    return h('section', { class: 'panel hints', 'data-testid': 'hints' },
      h('h2', {}, t('hint.title'), ' ', ask), body);
  }

  async askHint() {
    const table = this.table;
    const at = table.state.version;
    this.hint = { at, asking: true };
    table.render();
    const answer = await askEngine({ game: table.id, at }, table.token);
    if (table.closed || table.state.version !== at) return;
    this.hint = { at, ...answer };
    table.render();
  }

  /// Puts a hinted placement's tile on its cell, turned as the engine would: the preview
  /// follows, and the player confirms or takes it back.
  tryHint(mv) {
    if (!this.placeable().has(mv.tile)) return;
    this.choose(mv.tile);
    this.sel.rot = mv.rot;
    this.pickCell(mv.x, mv.y, true);
  }
}

/// What a placement would do, in words: the score, the arrows it covers, the tiles it completes,
/// the Cacophony it costs.
function previewText(p, tiles) {
  const words = effectWords(p, tiles);
  return h('div', {},
    h('p', { 'data-testid': 'preview-score', class: 'preview-score' }, h('strong', {}, words.score), ' ', t('preview.supply', { count: p.supply_after }), p.reaches_target ? h('strong', { class: 'goal' }, ' ', t('preview.goal')) : null),
    h('div', { class: 'preview-details' },
      h('p', { 'data-testid': 'preview-covered' }, words.covered),
      h('p', { 'data-testid': 'preview-completed' }, words.completed),
      h('p', { 'data-testid': 'preview-cacophony', class: p.cacophony ? 'warn' : '' }, words.cacophony)));
}

/// The arrows of a tile, for its accessible name: "arrows up Fire, right Water".
function arrowList(info, rot) {
  return info.rotations[rot].map((a) => t('arrow.named', { direction: t(`direction.${a.direction}`), element: t(`element.${a.element}`) })).join(', ');
}
