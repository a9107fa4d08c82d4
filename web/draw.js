// Drawing tiles, displays and the score track as SVG. No rules here: what is legal, covered or
// completed comes from the server (the engine); this file only shows it.

const SVG = 'http://www.w3.org/2000/svg';

/// Element colours, each with a letter and an icon, so nothing depends on colour alone.
export const ELEMENTS = {
  fire: { name: 'Fire', letter: 'F', color: '#c8381f', tint: '#f8d9d0' },
  water: { name: 'Water', letter: 'W', color: '#1f5fc8', tint: '#d3e1f8' },
  earth: { name: 'Earth', letter: 'E', color: '#3d7a22', tint: '#d8ecc9' },
  air: { name: 'Air', letter: 'A', color: '#9a7a00', tint: '#f6ecbd' },
};

/// Seat colours for score markers and names (distinct from the element colours).
export const SEAT_COLORS = ['#6a2c91', '#0f7d7d', '#c2571a', '#333333'];

const DIRS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];
const STEP = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };

/// One cell of a display is 100 units; tiles sit in it with a small gap.
export const CELL = 100;
const PAD = 4;

export function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.append(c);
  return el;
}

function text(x, y, s, attrs = {}) {
  const t = svg('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', ...attrs });
  t.textContent = s;
  return t;
}

/// A small pictogram per element, drawn behind the letter.
function icon(element) {
  const c = ELEMENTS[element].color;
  const common = { fill: 'none', stroke: c, 'stroke-width': 3, opacity: 0.45, 'stroke-linejoin': 'round' };
  switch (element) {
    case 'fire':
      return svg('path', { d: 'M50 24 C62 38 70 46 66 60 C63 71 56 76 50 76 C44 76 37 71 34 60 C31 48 42 44 42 34 C47 40 48 44 50 46 Z', ...common });
    case 'water':
      return svg('path', { d: 'M50 24 C58 38 68 50 68 60 A18 18 0 0 1 32 60 C32 50 42 38 50 24 Z', ...common });
    case 'earth':
      return svg('path', { d: 'M24 72 L44 38 L54 52 L62 42 L78 72 Z', ...common });
    default:
      return svg('path', { d: 'M26 40 H62 A8 8 0 1 0 54 32 M26 52 H70 M26 64 H58 A8 8 0 1 1 50 72', ...common });
  }
}

/// Where an arrow pointing `dir` sits on a tile, and the angle it points at.
function arrowSpot(dir) {
  const [dx, dy] = STEP[dir];
  const angle = (DIRS.indexOf(dir) * 45);
  return { x: 50 + dx * 34, y: 50 + dy * 34, angle };
}

/// Describes a tile for screen readers and tooltips.
export function describeTile(info, arrows, flipped) {
  const el = ELEMENTS[info.element].name;
  if (flipped) return `Tile ${info.id}: ${el}, completed (${info.value} points)`;
  const list = arrows
    .map((a) => `${a.direction} ${ELEMENTS[a.element].name}${a.covered ? ' (covered)' : ''}`)
    .join(', ');
  return `Tile ${info.id}: ${el}, ${info.value} points; arrows ${list}`;
}

/// A tile as an SVG group of 100×100 units at the origin.
/// `arrows`: [{direction, element, covered}] as placed; `flipped`: show its back.
/// `marks`: {covers: Set of directions about to be covered, completes: bool}.
export function tileGroup(info, { arrows, flipped = false, marks = null, back = false } = {}) {
  const e = ELEMENTS[info.element];
  const g = svg('g', { class: 'tile', 'data-tile': info.id, 'data-element': info.element });
  const title = svg('title');
  title.textContent = back
    ? `The back of a tile: ${e.name}, ${info.value} points`
    : describeTile(info, arrows, flipped);
  g.append(title);
  const face = flipped || back;
  g.append(svg('rect', {
    x: PAD, y: PAD, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10,
    fill: face ? e.color : e.tint, stroke: e.color, 'stroke-width': 4, class: 'tile-body',
  }));
  if (face) {
    g.append(text(50, 42, e.letter, { class: 'tile-letter', fill: '#fff', 'font-size': 34, 'font-weight': 700 }));
    g.append(text(50, 72, String(info.value), { fill: '#fff', 'font-size': 22, 'font-weight': 700 }));
    return g;
  }
  g.append(icon(info.element));
  g.append(text(50, 50, e.letter, { class: 'tile-letter', fill: e.color, 'font-size': 30, 'font-weight': 700 }));
  g.append(text(50, 71, String(info.value), { fill: e.color, 'font-size': 13, 'font-weight': 600 }));
  for (const a of arrows) {
    const spot = arrowSpot(a.direction);
    const ae = ELEMENTS[a.element];
    const arrow = svg('g', {
      transform: `translate(${spot.x} ${spot.y}) rotate(${spot.angle})`,
      class: 'arrow', 'data-direction': a.direction, 'data-element': a.element,
      'data-covered': a.covered ? 'true' : 'false',
    });
    arrow.append(svg('path', { d: 'M0 -15 L13 6 L-13 6 Z', fill: ae.color, stroke: '#fff', 'stroke-width': 1.5 }));
    // The letter stays upright whatever the arrow's angle.
    const letter = text(0, 0, ae.letter, { fill: '#fff', 'font-size': 12, 'font-weight': 700, transform: `rotate(${-spot.angle}) translate(0 1)` });
    arrow.append(letter);
    if (a.covered) {
      arrow.append(svg('circle', { cx: 0, cy: -1, r: 9, class: 'disc', fill: '#2b2b2b', stroke: '#fff', 'stroke-width': 2 }));
    } else if (marks && marks.covers && marks.covers.has(a.direction)) {
      arrow.append(svg('circle', { cx: 0, cy: -1, r: 11, class: 'will-cover', fill: 'none', stroke: '#ffb300', 'stroke-width': 4 }));
    }
    g.append(arrow);
  }
  return g;
}

/// A tile on its own, for the offer, the intermezzo storage and the pile (`size` px).
export function tileSvg(info, { rot = 0, size = 64, back = false, label } = {}) {
  const arrows = back ? [] : info.rotations[rot].map((a) => ({ ...a, covered: false }));
  const s = svg('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'tile-svg', role: 'img', 'aria-label': label || describeTile(info, arrows, false) });
  s.append(tileGroup(info, { arrows, back }));
  return s;
}

/// A player's display. `options`:
///   cellPx: pixels per cell; placing: {tile: info, rot, legal: Set "x,y", chosen: {x,y}|null}
///   fresh: Set of tile ids to outline (placed by an opponent since my last turn)
///   preview: the engine's preview of the chosen placement (covered arrows, completed tiles)
///   onCell(x, y, legal)
export function displaySvg(seatView, tiles, options) {
  const { cellPx, placing, fresh = new Set(), preview = null } = options;
  const placed = seatView.display;
  const occupied = new Map(placed.map((t) => [`${t.x},${t.y}`, t]));
  let xs = placed.map((t) => t.x);
  let ys = placed.map((t) => t.y);
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
  const root = svg('svg', {
    viewBox: `${minX * CELL} ${minY * CELL} ${cols * CELL} ${rows * CELL}`,
    width: cols * cellPx, height: rows * cellPx, class: 'display-svg',
  });
  const covers = new Map(); // tile id -> Set of directions the preview covers
  const completes = new Set(preview ? preview.completed : []);
  if (preview) {
    for (const c of preview.covered) {
      if (!covers.has(c.tile)) covers.set(c.tile, new Set());
      covers.get(c.tile).add(c.direction);
    }
  }
  for (const t of placed) {
    const g = tileGroup(tiles[t.tile], {
      arrows: t.arrows, flipped: t.flipped,
      marks: { covers: covers.get(t.tile) },
    });
    g.setAttribute('transform', `translate(${t.x * CELL} ${t.y * CELL})`);
    g.setAttribute('data-cell', `${t.x},${t.y}`);
    if (fresh.has(t.tile)) g.classList.add('fresh');
    if (completes.has(t.tile)) g.classList.add('completes');
    if (fresh.has(t.tile) || completes.has(t.tile)) {
      g.append(svg('rect', { x: 1, y: 1, width: 98, height: 98, rx: 12, class: completes.has(t.tile) ? 'outline-complete' : 'outline-fresh', fill: 'none' }));
    }
    root.append(g);
  }
  if (!placing) return root;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const key = `${x},${y}`;
      if (occupied.has(key)) continue;
      const legal = placing.legal.has(key);
      const cell = svg('rect', {
        x: x * CELL + PAD, y: y * CELL + PAD, width: CELL - 2 * PAD, height: CELL - 2 * PAD, rx: 10,
        class: legal ? 'cell legal' : 'cell', 'data-cell': key,
        tabindex: legal ? 0 : undefined, role: 'button',
        'aria-label': `${legal ? 'Place' : 'Try'} at column ${x}, row ${y}${legal ? '' : ' (not a legal cell)'}`,
      });
      cell.addEventListener('click', () => options.onCell(x, y, legal));
      cell.addEventListener('keydown', (ev) => {
        if ((ev.key === 'Enter' || ev.key === ' ') && !ev.repeat) {
          ev.preventDefault();
          options.onCell(x, y, legal, true);
        }
      });
      root.append(cell);
    }
  }
  const info = placing.tile;
  // The arrows as turned come from the server's tile table.
  const arrows = info.rotations[placing.rot].map((a) => ({ ...a, covered: false }));
  if (placing.chosen) {
    // The new tile's own arrows that the preview covers.
    const own = preview ? covers.get(info.id) : null;
    const tile = tileGroup(info, { arrows, marks: { covers: own } });
    tile.setAttribute('transform', `translate(${placing.chosen.x * CELL} ${placing.chosen.y * CELL})`);
    tile.classList.add('chosen');
    tile.setAttribute('pointer-events', 'none');
    if (completes.has(info.id)) {
      tile.append(svg('rect', { x: 1, y: 1, width: 98, height: 98, rx: 12, class: 'outline-complete', fill: 'none' }));
    }
    root.append(tile);
  } else {
    // The tile follows the pointer (or the focused cell) without redrawing the display.
    const ghost = tileGroup(info, { arrows });
    ghost.classList.add('ghost');
    ghost.setAttribute('pointer-events', 'none');
    ghost.setAttribute('visibility', 'hidden');
    root.append(ghost);
    const follow = (ev) => {
      const cell = ev.target.closest && ev.target.closest('.cell');
      // Focus moved by the page after a click is not the player's pointing.
      if (!cell || (ev.type === 'focusin' && !cell.matches(':focus-visible'))) return;
      const [x, y] = cell.getAttribute('data-cell').split(',').map(Number);
      ghost.setAttribute('transform', `translate(${x * CELL} ${y * CELL})`);
      ghost.setAttribute('visibility', 'visible');
    };
    root.addEventListener('pointerover', follow);
    root.addEventListener('focusin', follow);
    root.addEventListener('pointerleave', () => ghost.setAttribute('visibility', 'hidden'));
  }
  return root;
}

/// The score track. Markers at the same score stack as on the table: the one that got there
/// first (first in the engine's ranking) lowest. Markers too close to read side by side stack
/// as well.
export function scoreTrack(view, names) {
  const scores = view.seats.map((s) => s.score);
  // Solo-all has no goal: the track then just covers the scores.
  const target = view.target;
  const lo = Math.min(0, ...scores);
  const hi = Math.max(target ?? 10, ...scores) + 2;
  const width = 340, left = 12, right = 10, r = 7.5;
  const scale = (width - left - right) / (hi - lo);
  const px = (v) => left + (v - lo) * scale;
  const rank = new Map(view.ranking.map((seat, i) => [seat, i]));
  const order = view.seats.map((_, i) => i).sort((a, b) => scores[a] - scores[b] || rank.get(a) - rank.get(b));
  const levels = []; // per level, the x of the markers on it
  const placed = order.map((seat) => {
    const x = px(scores[seat]);
    let k = 0;
    while ((levels[k] || []).some((other) => Math.abs(other - x) < 2 * r + 1)) k++;
    (levels[k] = levels[k] || []).push(x);
    return { seat, x, k };
  });
  const height = 40 + levels.length * 16;
  const base = height - 22;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'track-svg', role: 'img', 'aria-label': `Score track: ${view.ranking.map((p) => `${names[p]} ${scores[p]}`).join(', ')}` });
  root.append(svg('line', { x1: px(lo), y1: base, x2: px(hi), y2: base, stroke: '#888', 'stroke-width': 2 }));
  // Ticks and labels far enough apart to read, however wide the scores range.
  const tick = [5, 10, 25, 50, 100, 250].find((t) => t * scale >= 9) || 500;
  const label = [10, 20, 50, 100, 200, 500, 1000].find((l) => l % tick === 0 && l * scale >= 30) || 1000;
  for (let v = Math.ceil(lo / tick) * tick; v <= hi; v += tick) {
    root.append(svg('line', { x1: px(v), y1: base - 4, x2: px(v), y2: base + 4, stroke: '#888' }));
    if (v % label === 0) root.append(text(px(v), base + 13, String(v), { 'font-size': 10, fill: '#555' }));
  }
  if (target !== null && target !== undefined) {
    root.append(svg('line', { x1: px(target), y1: 6, x2: px(target), y2: base + 4, stroke: '#b00', 'stroke-dasharray': '4 3' }));
    root.append(text(px(target), 8, `goal ${target}`, { 'font-size': 11, fill: '#b00', 'text-anchor': 'end', dx: -4 }));
  }
  for (const { seat, x, k } of placed) {
    const cy = base - 10 - k * 16;
    const g = svg('g', { class: 'marker', 'data-seat': seat, 'data-stack': k });
    const t = svg('title');
    t.textContent = `${names[seat]}: ${scores[seat]} points, rank ${rank.get(seat) + 1}`;
    g.append(t);
    g.append(svg('circle', { cx: x, cy, r, fill: SEAT_COLORS[seat], stroke: '#fff', 'stroke-width': 1.5 }));
    g.append(text(x, cy, String(seat + 1), { 'font-size': 10, fill: '#fff', 'font-weight': 700 }));
    root.append(g);
  }
  return root;
}

/// A magnifier icon (no emoji font needed).
export function magnifier() {
  return svg('svg', { viewBox: '0 0 20 20', width: 16, height: 16, 'aria-hidden': 'true' }, [
    svg('circle', { cx: 8, cy: 8, r: 5.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    svg('line', { x1: 12, y1: 12, x2: 18, y2: 18, stroke: 'currentColor', 'stroke-width': 2.5, 'stroke-linecap': 'round' }),
  ]);
}
