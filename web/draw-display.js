// Drawing a player's display as SVG: the tiles placed, the cells a tile may go to, the tile being
// placed, a placement's preview and the engine's moves. No rules here: what is legal, covered or
// completed comes from the server (the engine). The tiles themselves are draw.js's.
//
// displaySvg(seatView, tiles, opts)  a display. opts: cellPx, fit (width and height 100%,
//   scaled to its box), seatColor, placing {tile, rot, legal, chosen}, fresh (Set of tile ids),
//   preview (a placement's effect: the arrows it covers ringed, the tiles it completes outlined;
//   before the move or after it), hints ([{x, y, n, tile, rot, ghost}]: the engine's moves,
//   numbered marks on their cells, a `ghost` move's tile drawn faintly there),
//   onCell(x, y, legal, byKey), into (a display drawn before: updated in place, its unchanged
//   tiles, its cells and the tile being placed kept, which saves the page restyling and laying
//   them out again; a display in a board.js frame keeps the size the frame gives it).
//   Uses `discs` and `cacophony` of each TileView when the server sends them. Cells are listened
//   to on the <svg>: the latest `onCell` is called.

import { currentLang, t } from './i18n.js';
import { PALETTE } from './colours.js';
import { CELL, ELEMENT_ORDER, NEUTRAL_DISC, PAD, emblem, svg, text, tileGroup, tileKey, tileWords } from './draw.js';

const SIDES = [[1, 0, 'left'], [-1, 0, 'right'], [0, 1, 'above'], [0, -1, 'below']];

/// Words for cells, by what they depend on (a display has hundreds of cells, most of them
/// said the same way as on the last drawing).
const cellWordsSaid = new Map();

/// Words for an empty cell, by a tile beside it ("right of Fire 10"), never by coordinates.
function cellWords(x, y, legal, occupied, tiles) {
  if (occupied.size === 0) return t('draw.cell.first');
  let by = null;
  for (const [dx, dy, side] of SIDES) {
    const n = occupied.get(`${x + dx},${y + dy}`);
    if (n) {
      by = [side, n.tile, tiles[n.tile].element, tiles[n.tile].value];
      break;
    }
  }
  const key = `${currentLang()}|${legal}|${by ? by.join() : ''}`;
  let words = cellWordsSaid.get(key);
  if (words === undefined) {
    const where = by ? t(`draw.side.${by[0]}`, { tile: tileWords(tiles[by[1]]) }) : t('draw.side.none');
    words = t(legal ? 'draw.cell.legal' : 'draw.cell.illegal', { where });
    if (cellWordsSaid.size > 2000) cellWordsSaid.clear();
    cellWordsSaid.set(key, words);
  }
  return words;
}

/// What a display's cells do when picked, by drawn display (the latest `onCell` given).
const cellHandlers = new WeakMap();

/// The cell a pointer or key event is about, with where it is and whether it is legal.
function cellOf(ev) {
  const cell = ev.target && ev.target.closest ? ev.target.closest('rect.cell') : null;
  if (!cell) return null;
  const [x, y] = cell.getAttribute('data-cell').split(',').map(Number);
  return { x, y, legal: cell.classList.contains('legal') };
}

/// A player's display (see the top of this file for the options).
export function displaySvg(seatView, tiles, options = {}) {
  const { cellPx = 80, placing, fresh = new Set(), preview = null, fit = false, seatColor = NEUTRAL_DISC, hints = [] } = options;
  const placed = seatView.display;
  const occupied = new Map(placed.map((d) => [`${d.x},${d.y}`, d]));
  let xs = [...placed.map((d) => d.x), ...hints.map((m) => m.x)];
  let ys = [...placed.map((d) => d.y), ...hints.map((m) => m.y)];
  if (placing) {
    for (const k of placing.legal) {
      const [x, y] = k.split(',').map(Number);
      xs.push(x);
      ys.push(y);
    }
  }
  if (xs.length === 0) { xs = [0]; ys = [0]; }
  // One empty ring around the tiles while placing, so cells beside them can be tried.
  const ring = placing ? 1 : 0;
  const minX = Math.min(...xs) - ring, maxX = Math.max(...xs) + ring;
  const minY = Math.min(...ys) - ring, maxY = Math.max(...ys) + ring;
  const cols = maxX - minX + 1, rows = maxY - minY + 1;
  const attrs = {
    viewBox: `${minX * CELL} ${minY * CELL} ${cols * CELL} ${rows * CELL}`,
    width: fit ? '100%' : cols * cellPx, height: fit ? '100%' : rows * cellPx,
    preserveAspectRatio: fit ? 'xMidYMid meet' : undefined,
    class: 'display-svg art',
  };
  const root = options.into || svg('svg', attrs);
  cellHandlers.set(root, options.onCell || (() => {}));
  if (options.into) {
    const framed = root.hasAttribute('data-framed');
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined) root.removeAttribute(k);
      // A picture in a frame (board.js) is sized by the frame: set here, its size would change
      // twice, and the whole picture be painted again.
      else if (!(framed && (k === 'width' || k === 'height')) && root.getAttribute(k) !== String(v)) root.setAttribute(k, String(v));
    }
  } else {
    // The tile being placed follows the pointer (or the focused cell) without a redraw.
    const follow = (ev) => {
      const ghost = root.querySelector(':scope > .ghost');
      const cell = ev.target.closest && ev.target.closest('.cell');
      // Focus moved by the page after a click is not the player's pointing.
      if (!ghost || !cell || (ev.type === 'focusin' && !cell.matches(':focus-visible'))) return;
      const [x, y] = cell.getAttribute('data-cell').split(',').map(Number);
      ghost.setAttribute('transform', `translate(${x * CELL} ${y * CELL})`);
      ghost.setAttribute('visibility', 'visible');
    };
    root.addEventListener('pointerover', follow);
    root.addEventListener('focusin', follow);
    root.addEventListener('pointerleave', () => {
      const ghost = root.querySelector(':scope > .ghost');
      if (ghost) ghost.setAttribute('visibility', 'hidden');
    });
    // The cells are listened to here, not one by one: cells stay from one drawing to the next.
    root.addEventListener('click', (ev) => {
      const c = cellOf(ev);
      if (c) cellHandlers.get(root)(c.x, c.y, c.legal);
    });
    root.addEventListener('keydown', (ev) => {
      if ((ev.key !== 'Enter' && ev.key !== ' ') || ev.repeat) return;
      const c = cellOf(ev);
      if (!c) return;
      ev.preventDefault();
      cellHandlers.get(root)(c.x, c.y, c.legal, true);
    });
  }
  // What was drawn before stays where it is still right: unchanged tiles, the cells (brought up
  // to date), the tile being placed. Everything new or moved is drawn again; a drawing kept
  // saves the page restyling it and laying it out again.
  const before = new Map(); // tile key -> <g>
  const cellsBefore = new Map(); // "x,y" -> <rect>
  const lastBefore = new Map(); // key -> the tile being placed (chosen or following the pointer)
  for (const el of root.children) {
    if (el.dataset.key) before.set(el.dataset.key, el);
    else if (el.dataset.placing) lastBefore.set(el.dataset.placing, el);
    else if (el.classList.contains('cell')) cellsBefore.set(el.getAttribute('data-cell'), el);
  }
  const keep = new Set();
  const added = [];
  const covers = new Map(); // tile id -> Set of directions the preview covers
  const completes = new Set(preview ? preview.completed : []);
  if (preview) {
    for (const c of preview.covered) {
      if (!covers.has(c.tile)) covers.set(c.tile, new Set());
      covers.get(c.tile).add(c.direction);
    }
  }
  for (const d of placed) {
    const shape = {
      arrows: d.arrows, flipped: d.flipped, seatColor,
      discs: d.flipped ? 0 : d.discs, cacophony: d.cacophony || 0,
      marks: { covers: covers.get(d.tile) },
    };
    const key = [tileKey(tiles[d.tile], shape), d.x, d.y, fresh.has(d.tile), completes.has(d.tile)].join('|');
    const old = before.get(key);
    if (old) {
      keep.add(old);
      continue;
    }
    const g = tileGroup(tiles[d.tile], shape);
    g.dataset.key = key;
    g.setAttribute('transform', `translate(${d.x * CELL} ${d.y * CELL})`);
    g.setAttribute('data-cell', `${d.x},${d.y}`);
    if (fresh.has(d.tile)) g.classList.add('fresh');
    if (completes.has(d.tile)) g.classList.add('completes');
    if (fresh.has(d.tile) || completes.has(d.tile)) {
      g.append(svg('rect', { x: 1, y: 1, width: 98, height: 98, rx: 12, class: completes.has(d.tile) ? 'outline-complete' : 'outline-fresh', fill: 'none' }));
    }
    added.push(g);
  }
  // The tile being placed: chosen at a cell, or following the pointer.
  let last = null;
  let lastKey = null;
  let own = null;
  if (placing) {
    // The new tile's own arrows that the preview covers.
    own = placing.chosen && preview ? covers.get(placing.tile.id) : null;
    lastKey = [currentLang(), placing.tile.id, placing.rot, seatColor, placing.chosen ? `${placing.chosen.x},${placing.chosen.y}` : 'ghost',
      own ? [...own].sort().join() : '', completes.has(placing.tile.id)].join('|');
    last = lastBefore.get(lastKey) || null;
  }
  // The cells wanted: every empty one within the bounds while placing, in rows.
  const cells = [];
  if (placing) {
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const key = `${x},${y}`;
        if (!occupied.has(key)) cells.push([x, y, key]);
      }
    }
  }
  const wanted = new Set(cells.map((c) => c[2]));
  for (const el of [...root.children]) {
    if (keep.has(el) || el === last) continue;
    if (el.classList.contains('cell') && wanted.has(el.getAttribute('data-cell'))) continue;
    el.remove();
  }
  // New tiles go after the tiles kept, under the cells and the tile being placed.
  const firstOther = [...root.children].find((el) => !el.dataset.key) || null;
  for (const g of added) root.insertBefore(g, firstOther);
  // The engine's moves, on top of everything (they take no clicks). An empty display shows
  // where its first tile goes, over the cells and under the tile being placed.
  const done = () => {
    if (placed.length === 0) root.insertBefore(startCell(Boolean(placing)), root.querySelector(':scope > [data-placing]'));
    root.append(...hintMarks(hints, tiles));
    return root;
  };
  if (!placing) return done();
  // Cells kept are in rows already; new ones go in between, so that Tab goes row by row.
  const kept = [...root.children].filter((el) => el.classList.contains('cell'));
  let next = 0;
  for (const [x, y, key] of cells) {
    const legal = placing.legal.has(key);
    const cls = legal ? 'cell legal' : 'cell';
    const words = cellWords(x, y, legal, occupied, tiles);
    const old = cellsBefore.get(key);
    if (old && kept[next] === old) {
      next++;
      if (old.getAttribute('class') !== cls) old.setAttribute('class', cls);
      if (legal !== old.hasAttribute('tabindex')) {
        if (legal) old.setAttribute('tabindex', '0');
        else old.removeAttribute('tabindex');
      }
      if (old.getAttribute('aria-label') !== words) old.setAttribute('aria-label', words);
      continue;
    }
    if (old) {
      // Out of its row (never expected): drawn again in its place.
      kept.splice(kept.indexOf(old), 1);
      old.remove();
    }
    const cell = svg('rect', {
      x: x * CELL + PAD, y: y * CELL + PAD, width: CELL - 2 * PAD, height: CELL - 2 * PAD, rx: 10,
      class: cls, 'data-cell': key, tabindex: legal ? 0 : undefined, role: 'button', 'aria-label': words,
    });
    root.insertBefore(cell, kept[next] || last);
  }
  if (last) return done();
  const info = placing.tile;
  // The arrows as turned come from the server's tile table.
  const arrows = info.rotations[placing.rot].map((a) => ({ ...a, covered: false }));
  if (placing.chosen) {
    const tile = tileGroup(info, { arrows, marks: { covers: own }, discs: 0, seatColor });
    tile.setAttribute('transform', `translate(${placing.chosen.x * CELL} ${placing.chosen.y * CELL})`);
    tile.classList.add('chosen');
    tile.setAttribute('pointer-events', 'none');
    if (completes.has(info.id)) {
      tile.append(svg('rect', { x: 1, y: 1, width: 98, height: 98, rx: 12, class: 'outline-complete', fill: 'none' }));
    }
    tile.dataset.placing = lastKey;
    root.append(tile);
  } else {
    // The tile follows the pointer (or the focused cell) without redrawing the display.
    const ghost = tileGroup(info, { arrows, discs: 0, seatColor });
    ghost.classList.add('ghost');
    ghost.setAttribute('pointer-events', 'none');
    ghost.setAttribute('visibility', 'hidden');
    ghost.dataset.placing = lastKey;
    root.append(ghost);
  }
  return done();
}

/// The start cell of an empty display (the origin: the engine's one open cell there), drawn to
/// invite: a warm glow, the four spirits' emblems and a short invitation ("Place your first tile
/// here" while placing, "The first tile goes here" otherwise). It takes no clicks: the cell under
/// it does.
function startCell(placing) {
  const g = svg('g', { class: `start-cell${placing ? ' placing' : ''}`, 'pointer-events': 'none', 'data-start': '0,0' });
  const box = (inset, attrs) => svg('rect', { x: PAD + inset, y: PAD + inset, width: CELL - 2 * PAD - 2 * inset, height: CELL - 2 * PAD - 2 * inset, rx: 10, ...attrs });
  g.append(box(4, { fill: 'none', stroke: '#ffd54a', 'stroke-width': 10, 'stroke-opacity': 0.3 }));
  g.append(box(2, { fill: placing ? 'none' : '#fff6dc', 'fill-opacity': 0.9, stroke: '#ffd54a', 'stroke-width': 4, 'stroke-opacity': 0.7 }));
  g.append(box(0, { fill: 'none', stroke: '#a86f00', 'stroke-width': 2, 'stroke-dasharray': '7 4', class: 'start-outline' }));
  // Air's own yellow is faint on the pale cell: the emblems take their watermark colour.
  ELEMENT_ORDER.forEach((el, i) => g.append(emblem(el, { x: 26 + i * 16, y: 30, size: 13, fill: PALETTE[el].wash[0] })));
  // The invitation, one message in one element (the catalogue's words kept whole), wrapped by
  // the browser to the cell's width below the emblems.
  const words = document.createElementNS('http://www.w3.org/1999/xhtml', 'div');
  words.className = 'start-words';
  words.textContent = t(placing ? 'draw.start.here' : 'draw.start.cell');
  words.setAttribute('style', 'height:100%;display:flex;align-items:center;justify-content:center;text-align:center;'
    + 'font:700 9.5px/1.25 system-ui,sans-serif;color:#4a2f0c;user-select:none');
  g.append(svg('foreignObject', { x: PAD + 5, y: 40, width: CELL - 2 * PAD - 10, height: 42 }, [words]));
  return g;
}

/// The engine's moves on a display: a mark a cell, numbered by rank (a cell tried by several
/// moves lists them all), the `ghost` move's tile faintly on its cell.
function hintMarks(hints, tiles) {
  const byCell = new Map();
  for (const m of hints) {
    const key = `${m.x},${m.y}`;
    if (!byCell.has(key)) byCell.set(key, []);
    byCell.get(key).push(m);
  }
  return [...byCell].map(([key, list]) => {
    const g = svg('g', {
      class: `hint-mark${list.some((m) => m.n === 1) ? ' best' : ''}`, transform: `translate(${list[0].x * CELL} ${list[0].y * CELL})`,
      'data-hint-cell': key, 'data-hints': list.map((m) => m.n).join(','), 'pointer-events': 'none', 'aria-hidden': 'true',
    });
    const ghost = list.find((m) => m.ghost);
    if (ghost) {
      const info = tiles[ghost.tile];
      const tile = tileGroup(info, { arrows: info.rotations[ghost.rot].map((a) => ({ ...a, covered: false })), discs: 0 });
      tile.classList.add('ghost');
      g.append(tile);
    }
    g.append(svg('rect', { x: 3, y: 3, width: 94, height: 94, rx: 12, class: 'hint-cell', fill: 'none' }));
    // The numbers in the cell's corner, where they hide little of the tile.
    const label = list.map((m) => m.n).join(',');
    const w = 16 + 10 * label.length;
    g.append(svg('rect', { x: 1, y: 1, width: w, height: 26, rx: 13, class: 'hint-badge' }));
    g.append(text(1 + w / 2, 14.5, label, { class: 'hint-number', 'font-size': 17, 'font-weight': 800 }));
    return g;
  });
}
