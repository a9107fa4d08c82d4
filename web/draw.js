// Drawing tiles, displays, the harmony track and the start player marker as SVG: our own art,
// drawn here from paths (no pictures are fetched). No rules here: what is legal, covered or
// completed comes from the server (the engine); this file only shows it. Every word it shows or
// reads out comes from the message catalogues (i18n.js).
//
// Exports (the table draws with these; the CSS for them is in art.css):
//   ELEMENTS[el]          {color, dark, tint, ink, name, letter} for 'fire' 'water' 'earth' 'air';
//                         `name` and `letter` are read from the catalogue when asked.
//   ELEMENT_ORDER         the four elements in the game's order.
//   SEAT_COLORS           a colour per seat (score markers, discs, names).
//   CACOPHONY_COLOR       the red of the Cacophony discs.
//   CELL                  100: the units of one display cell (and of one tile).
//   svg(tag, attrs, children)
//   emblem(element, {x, y, size, fill, ...attrs}) a <path class="emblem"> with the element's
//                         emblem, `size` units wide, centred on (x, y) (default: the 100-unit box
//                         at the origin).
//   tileGroup(info, opts) a tile as <g class="tile"> of 100×100 units at the origin, holding
//                         <g class="tile-face"> (rotate or scale it in CSS with transform-box:
//                         fill-box; the outer group keeps the position). opts:
//                           arrows     [{direction, element, covered}] as placed
//                           flipped    completed: shows its back
//                           back       the back of a tile not yet placed (the draw pile)
//                           marks      {covers: Set of directions the preview covers}
//                           seatColor  the owner's colour: discs on covered arrows and the vessel
//                           discs      discs on the vessel (default: the uncovered arrows)
//                           cacophony  how many of the tile's discs are Cacophony discs (red:
//                                      on the vessel first, the rest on covered arrows)
//   tileSvg(info, {rot, size, back, label, seatColor})   a tile on its own, `size` px
//   displaySvg(seatView, tiles, opts)  a display. opts: cellPx, fit (width and height 100%,
//                         scaled to its box), seatColor, placing {tile, rot, legal, chosen},
//                         fresh (Set of tile ids), preview (a placement's effect: the arrows
//                         it covers ringed, the tiles it completes outlined; before the move or
//                         after it), hints ([{x, y, n, tile, rot, ghost}]: the engine's moves,
//                         numbered marks on their cells, a `ghost` move's tile drawn faintly
//                         there), onCell(x, y, legal, byKey),
//                         into (a display drawn before: updated in place, its unchanged tiles,
//                         its cells and the tile being placed kept, which saves the page
//                         restyling and laying them out again; a display in a board.js frame
//                         keeps the size the frame gives it).
//                         Uses `discs` and `cacophony` of each TileView when the server sends them.
//                         Cells are listened to on the <svg>: the latest `onCell` is called.
//   scoreTrack(view, names)   the harmony track: a serpentine of numbered spaces, the goal
//                         marked, a stacked disc per seat (the first to arrive lowest).
//   startMarker(size)     the start player's token, an <svg> of `size` px with its label.
// Classes for motion (art.css): a disc on an arrow is `.disc`, one on the vessel `.vessel-disc`
// (both with data-kind="sound|cacophony"); add `new` to a disc to drop it in, `flipping` to a
// `g.tile` to turn it over, `landed` to a `g.tile` just put down. Drawn SVGs carry class `art`.
//   magnifier()           a magnifier icon.
//   describeTile(info, arrows, flipped, {discs, cacophony})   words for screen readers.

import { currentLang, t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

/// The element colours: vermilion, blue, forest green and sunny yellow, far apart in lightness
/// as well as in hue, so that they stay apart for colour-blind players (checked for deuteranopia,
/// protanopia and tritanopia); each element also has its letter and its emblem everywhere.
/// `dark`: outlines and plaques; `tint`: the face of a tile; `ink`: text on the element colour;
/// `wash`: the colour and opacity of the big emblem on a face.
const PALETTE = {
  fire: { color: '#e0561a', dark: '#8f2e08', tint: '#fde6d8', ink: '#ffffff', wash: ['#e0561a', 0.2] },
  water: { color: '#1565c0', dark: '#0a3c78', tint: '#dce9f8', ink: '#ffffff', wash: ['#1565c0', 0.16] },
  earth: { color: '#2a5a1e', dark: '#15330e', tint: '#dfecd5', ink: '#ffffff', wash: ['#2a5a1e', 0.14] },
  air: { color: '#f7d23e', dark: '#7d6100', tint: '#fdf5d2', ink: '#3b2e00', wash: ['#b08a00', 0.16] },
};
export const ELEMENT_ORDER = ['fire', 'water', 'earth', 'air'];
export const ELEMENTS = Object.fromEntries(ELEMENT_ORDER.map((el) => [el, {
  ...PALETTE[el],
  get name() { return t(`element.${el}`); },
  get letter() { return t(`element.${el}.letter`); },
}]));

/// Seat colours for score markers, discs and names (apart from the element colours).
export const SEAT_COLORS = ['#6a2c91', '#0f7d7d', '#c2571a', '#333333'];
/// Cacophony discs: red, and marked with a jagged line so they are not told by colour alone.
export const CACOPHONY_COLOR = '#c8102e';
const NEUTRAL_DISC = '#3d3a36';

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
  const el = svg('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', ...attrs });
  el.textContent = s;
  return el;
}

function titled(el, words) {
  const title = svg('title');
  title.textContent = words;
  el.prepend(title);
  return el;
}

// ---- emblems ----

/// The emblems, drawn in a 100×100 box: filled paths with holes (even-odd), so that one colour
/// draws them on any background.
const EMBLEMS = {
  // A flame with an inner tongue.
  fire: [
    'M50 4 C55 20 70 30 78 46 C86 62 82 82 68 91 C60 96 40 96 32 91 C18 82 14 64 22 48 '
      + 'C25 56 30 60 36 61 C30 44 36 22 50 4 Z '
      + 'M50 50 C53 60 62 64 63 75 C64 84 57 89 50 89 C43 89 36 84 37 75 C38 66 47 62 50 50 Z',
  ],
  // A drop with a wave across it.
  water: [
    'M50 4 C58 20 80 42 80 64 A30 30 0 0 1 20 64 C20 42 42 20 50 4 Z '
      + 'M27 62 C35 55 42 69 50 62 C58 55 65 69 73 62 L73 71 C65 78 58 64 50 71 C42 78 35 64 27 71 Z',
  ],
  // Two mountains, the high one snow-capped, over a hill line.
  earth: [
    'M2 88 L36 24 L54 56 L66 40 L98 88 Z '
      + 'M29.5 39 L43.5 39 L46.5 45 L42 42.5 L38 47 L34 42.5 L28.5 45.5 Z',
  ],
  // Three gusts of wind, two of them curling.
  air: [
    'M6 36 L58 36 C66 36 72 30 72 23 C72 15 66 10 59 10 C52 10 47 15 47 21 L57 21 '
      + 'C57 19 58 18 59 18 C62 18 64 20 64 23 C64 26 62 28 58 28 L6 28 Z '
      + 'M4 56 L76 56 C84 56 90 62 90 70 C90 79 83 85 75 85 C67 85 61 79 61 72 L70 72 '
      + 'C70 75 72 77 75 77 C79 77 82 74 82 70 C82 66 79 64 76 64 L4 64 Z '
      + 'M14 42 L48 42 L48 50 L14 50 Z',
  ],
};

/// A number for a path, short: two decimals at most.
const num = (v) => String(Math.round(v * 100) / 100);

/// Path data `d` (absolute M, L, C, A and Z only, as in EMBLEMS) scaled by `k` and moved by
/// (dx, dy).
function placePath(d, k, dx, dy) {
  const out = [];
  const re = /([MLCAZ])([^MLCAZ]*)/g;
  for (let m = re.exec(d); m; m = re.exec(d)) {
    const [cmd, rest] = [m[1], m[2].trim()];
    const n = rest ? rest.split(/[\s,]+/).map(Number) : [];
    if (cmd === 'A') {
      // rx ry rotation large-arc sweep x y
      out.push(`A${num(n[0] * k)} ${num(n[1] * k)} ${n[2]} ${n[3]} ${n[4]} ${num(n[5] * k + dx)} ${num(n[6] * k + dy)}`);
    } else {
      out.push(cmd + n.map((v, i) => num(v * k + (i % 2 ? dy : dx))).join(' '));
    }
  }
  return out.join('');
}

/// Emblem paths by element, place and size (drawn with the numbers in place: a transform would
/// cost the page a little on every frame, for every tile shown).
const placedEmblems = new Map();

/// An element's emblem: one path `size` units wide, centred on (x, y) (default: the 100-unit
/// box at the origin), with class `emblem`.
export function emblem(element, { x = 50, y = 50, size = 100, fill = PALETTE[element].color, class: cls = 'emblem', ...attrs } = {}) {
  const key = `${element} ${x} ${y} ${size}`;
  let d = placedEmblems.get(key);
  if (!d) {
    const k = size / 100;
    d = EMBLEMS[element].map((part) => placePath(part, k, x - 50 * k, y - 50 * k)).join('');
    placedEmblems.set(key, d);
  }
  return svg('path', { d, fill, 'fill-rule': 'evenodd', class: cls, ...attrs });
}

// ---- words ----

function tileWords(info) {
  return t('tile.name', { element: t(`element.${info.element}`), value: info.value });
}

function arrowWords(a) {
  return t(a.covered ? 'draw.arrow.covered' : 'draw.arrow', { element: t(`element.${a.element}`), direction: t(`draw.dir.${a.direction}`) });
}

/// Describes a tile for screen readers and tooltips: "Fire 10; arrows: …; 2 Sound discs …".
export function describeTile(info, arrows, flipped, { discs, cacophony = 0 } = {}) {
  if (flipped) return t('draw.tile.completed', { tile: tileWords(info) });
  const parts = [t('draw.tile.arrows', { tile: tileWords(info), arrows: arrows.map(arrowWords).join(', ') })];
  if (discs) {
    parts.push(t('draw.tile.discs', { count: discs }));
    const red = Math.min(cacophony, discs);
    if (red) parts.push(t('draw.tile.cacophony', { count: red }));
  }
  return parts.join(' ');
}

// ---- tiles ----

/// Where an arrow pointing `dir` sits on a tile (its middle) and the angle it points at.
function arrowSpot(dir) {
  const [dx, dy] = STEP[dir];
  const i = DIRS.indexOf(dir);
  const r = i % 2 ? 31 : 30; // along the diagonal for corners (×√2)
  return { x: 50 + dx * r, y: 50 + dy * r, angle: i * 45 };
}

/// A disc seen from above: a coin with a rim and a shine. Cacophony discs carry a jagged line.
function disc(cx, cy, r, color, { kind = 'sound', cls = 'disc' } = {}) {
  const g = svg('g', { class: cls, 'data-kind': kind });
  g.append(svg('circle', { cx, cy: cy + r * 0.18, r, fill: 'rgba(0,0,0,0.35)' }));
  g.append(svg('circle', { cx, cy, r, fill: color, stroke: '#fff', 'stroke-width': r * 0.16 }));
  g.append(svg('circle', { cx, cy, r: r * 0.62, fill: 'none', stroke: 'rgba(255,255,255,0.45)', 'stroke-width': r * 0.12 }));
  if (kind === 'cacophony') {
    const s = r * 0.5;
    g.append(svg('path', {
      d: `M${cx - s} ${cy - s * 0.1} L${cx - s * 0.4} ${cy - s * 0.6} L${cx} ${cy + s * 0.3} L${cx + s * 0.4} ${cy - s * 0.6} L${cx + s} ${cy - s * 0.1}`,
      fill: 'none', stroke: '#fff', 'stroke-width': r * 0.2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round',
    }));
  }
  return g;
}

/// Where n discs (at most 4: a tile has at most 4 arrows) lie in the vessel.
const HEAP = [[], [[0, 0]], [[-5.5, 1], [5.5, -1]], [[-5.5, 3], [5.5, 3], [0, -5.5]], [[-5.5, 5], [5.5, 5], [-5.5, -5.5], [5.5, -5.5]]];

/// The vessel: a round dish in the middle, with the discs still on it.
function vessel(info, discs, red, seatColor) {
  const e = PALETTE[info.element];
  const cx = 50, cy = 44.5;
  const g = svg('g', { class: 'vessel', 'data-discs': discs });
  g.append(svg('circle', { cx, cy: cy + 1.5, r: 15.5, fill: 'rgba(0,0,0,0.22)' }));
  g.append(svg('circle', { cx, cy, r: 15.5, fill: e.dark, class: 'vessel-rim' }));
  g.append(svg('circle', { cx, cy, r: 12.3, fill: '#fbf7ee', class: 'vessel-well' }));
  g.append(svg('circle', { cx, cy: cy + 1, r: 11.2, fill: 'none', stroke: 'rgba(0,0,0,0.12)', 'stroke-width': 2.4 }));
  if (discs === 0) g.append(emblem(info.element, { x: cx, y: cy, size: 15, fill: e.color, 'fill-opacity': 0.6 }));
  const heap = HEAP[Math.min(discs, 4)];
  heap.forEach(([dx, dy], i) => {
    // Cacophony discs lie lowest: they are the last to leave the vessel.
    const kind = i < red ? 'cacophony' : 'sound';
    const r = discs === 1 ? 8 : 6.6;
    g.append(disc(cx + dx, cy + dy, r, kind === 'cacophony' ? CACOPHONY_COLOR : seatColor, { kind, cls: 'vessel-disc' }));
  });
  return g;
}

/// The value plaque under the vessel: the element's letter and the tile's value.
function plaque(info) {
  const e = PALETTE[info.element];
  const g = svg('g', { class: 'plaque' });
  g.append(svg('rect', { x: 32.5, y: 58.5, width: 35, height: 14, rx: 7, fill: e.dark, stroke: '#fff', 'stroke-width': 1.3 }));
  g.append(text(40.5, 65.8, t(`element.${info.element}.letter`), { class: 'tile-letter', fill: '#fff', 'fill-opacity': 0.8, 'font-size': 9.5, 'font-weight': 700 }));
  g.append(svg('line', { x1: 47, y1: 61, x2: 47, y2: 70, stroke: 'rgba(255,255,255,0.45)', 'stroke-width': 1 }));
  g.append(text(57, 66, String(info.value), { class: 'tile-value', fill: '#fff', 'font-size': 13.5, 'font-weight': 800 }));
  return g;
}

/// An arrow: a big head in its element's colour with the element's letter, upright.
function arrowGroup(a, { disc: discColor, discKind = 'sound', will = false } = {}) {
  const spot = arrowSpot(a.direction);
  const ae = PALETTE[a.element];
  const g = svg('g', {
    class: 'arrow', 'data-direction': a.direction, 'data-element': a.element,
    'data-covered': a.covered ? 'true' : 'false',
  });
  // The head, turned to point its way and put in its place (in numbers, not by a transform: a
  // transform costs the page a little on every frame, for every arrow shown).
  const rad = (spot.angle * Math.PI) / 180;
  const cos = Math.cos(rad), sin = Math.sin(rad);
  const at = ([x, y]) => `${num(spot.x + x * cos - y * sin)} ${num(spot.y + x * sin + y * cos)}`;
  const d = `M${at([0, -14])} L${at([14.5, 8])} L${at([-14.5, 8])} Z`;
  const head = svg('path', { d, fill: ae.color, stroke: ae.dark, 'stroke-width': 2, 'stroke-linejoin': 'round', class: 'arrow-head' });
  const halo = svg('path', { d, fill: 'none', stroke: '#fff', 'stroke-width': 5, 'stroke-linejoin': 'round', 'stroke-opacity': 0.9 });
  // The letter sits on the head's widest part, upright whatever the arrow's angle.
  const lx = spot.x - sin * 1.2, ly = spot.y + cos * 1.2;
  const letter = text(num(lx), num(ly + 0.6), t(`element.${a.element}.letter`), { fill: ae.ink, 'font-size': 12.5, 'font-weight': 800, class: 'arrow-letter' });
  // The letter is the arrow's only text (tests read it).
  g.append(halo, head, letter);
  if (a.covered) g.append(disc(lx, ly, 9.5, discColor, { kind: discKind }));
  // Ringed: an arrow a placement would cover (a preview), or one a move just covered (a replay).
  if (will) g.append(svg('circle', { cx: lx, cy: ly, r: a.covered ? 13 : 12, class: 'will-cover', fill: 'none', stroke: '#ffb300', 'stroke-width': 4 }));
  return g;
}

/// The face of a tile: frame, emblem, arrows, vessel and plaque.
function face(info, arrows, { marks, seatColor, discs, cacophony }) {
  const e = PALETTE[info.element];
  const f = svg('g', { class: 'tile-face' });
  f.append(svg('rect', {
    x: PAD, y: PAD + 1.5, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10, fill: 'rgba(0,0,0,0.25)', class: 'tile-shadow',
  }));
  f.append(svg('rect', {
    x: PAD, y: PAD, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10,
    fill: e.tint, stroke: e.color, 'stroke-width': 4, class: 'tile-body',
  }));
  f.append(svg('rect', { x: PAD - 2, y: PAD - 2, width: 100 - 2 * PAD + 4, height: 100 - 2 * PAD + 4, rx: 12, fill: 'none', stroke: e.dark, 'stroke-width': 0.8, 'stroke-opacity': 0.7 }));
  // A soft frame and a lighter middle, as on printed cardboard.
  f.append(svg('rect', { x: PAD + 4, y: PAD + 4, width: 100 - 2 * PAD - 8, height: 100 - 2 * PAD - 8, rx: 7, fill: 'none', stroke: e.color, 'stroke-width': 6, 'stroke-opacity': 0.14 }));
  f.append(svg('circle', { cx: 50, cy: 48, r: 34, fill: '#fff', 'fill-opacity': 0.4 }));
  f.append(svg('rect', { x: PAD + 5, y: PAD + 5, width: 100 - 2 * PAD - 10, height: 100 - 2 * PAD - 10, rx: 6, fill: 'none', stroke: e.color, 'stroke-width': 1, 'stroke-opacity': 0.5 }));
  f.append(emblem(info.element, { x: 50, y: 50, size: 88, fill: e.wash[0], 'fill-opacity': e.wash[1], class: 'emblem watermark' }));
  // Cacophony discs beyond those on the vessel lie on covered arrows.
  let redOnArrows = Math.max(0, cacophony - discs);
  const covers = (marks && marks.covers) || new Set();
  for (const a of arrows) {
    let kind = 'sound';
    if (a.covered && redOnArrows > 0) {
      kind = 'cacophony';
      redOnArrows--;
    }
    f.append(arrowGroup(a, { disc: kind === 'cacophony' ? CACOPHONY_COLOR : seatColor, discKind: kind, will: covers.has(a.direction) }));
  }
  f.append(vessel(info, discs, Math.min(cacophony, discs), seatColor));
  f.append(plaque(info));
  return f;
}

/// The back of a tile: the element's colour, its emblem and the value, big.
function backFace(info) {
  const e = PALETTE[info.element];
  const f = svg('g', { class: 'tile-face back' });
  f.append(svg('rect', { x: PAD, y: PAD + 1.5, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10, fill: 'rgba(0,0,0,0.25)', class: 'tile-shadow' }));
  f.append(svg('rect', {
    x: PAD, y: PAD, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10,
    fill: e.color, stroke: e.dark, 'stroke-width': 3, class: 'tile-body',
  }));
  // Rings of sound around the emblem.
  for (const r of [24, 33, 42]) {
    f.append(svg('circle', { cx: 50, cy: 42, r, fill: 'none', stroke: e.ink, 'stroke-width': 1.6, 'stroke-opacity': 0.16 }));
  }
  f.append(svg('rect', { x: PAD + 4, y: PAD + 4, width: 100 - 2 * PAD - 8, height: 100 - 2 * PAD - 8, rx: 7, fill: 'none', stroke: e.ink, 'stroke-width': 1.2, 'stroke-opacity': 0.45 }));
  f.append(emblem(info.element, { x: 50, y: 40, size: 46, fill: e.ink, class: 'emblem' }));
  f.append(text(18, 19, t(`element.${info.element}.letter`), { class: 'tile-letter', fill: e.ink, 'fill-opacity': 0.85, 'font-size': 11, 'font-weight': 700 }));
  f.append(svg('circle', { cx: 50, cy: 76.5, r: 14, fill: e.dark, stroke: e.ink, 'stroke-width': 1.5 }));
  f.append(text(50, 77.5, String(info.value), { class: 'tile-value', fill: '#fff', 'font-size': info.value >= 10 ? 17 : 20, 'font-weight': 800 }));
  return f;
}

/// Drawn tiles by everything that shapes them: a tile drawn again (every redraw of a display,
/// the offer) is a copy of the first drawing, which is much cheaper than drawing it anew.
const drawnTiles = new Map();

/// Everything that shapes a tile's drawing.
function tileKey(info, { arrows = [], flipped = false, marks = null, back = false, seatColor = NEUTRAL_DISC, discs, cacophony = 0 }) {
  const covers = marks && marks.covers ? [...marks.covers].sort().join() : '';
  return [currentLang(), info.id, info.element, info.value, flipped, back, seatColor, discs, cacophony, covers,
    arrows.map((a) => `${a.direction}${a.element}${a.covered ? 1 : 0}`).join()].join('|');
}

/// A tile as an SVG group of 100×100 units at the origin (see the top of this file).
export function tileGroup(info, options = {}) {
  const { arrows = [], flipped = false, marks = null, back = false, seatColor = NEUTRAL_DISC, discs, cacophony = 0 } = options;
  const key = tileKey(info, options);
  let drawn = drawnTiles.get(key);
  if (!drawn) {
    if (drawnTiles.size > 3000) drawnTiles.clear();
    drawn = drawTileGroup(info, { arrows, flipped, marks, back, seatColor, discs, cacophony });
    drawnTiles.set(key, drawn);
  }
  return drawn.cloneNode(true);
}

function drawTileGroup(info, { arrows, flipped, marks, back, seatColor, discs, cacophony }) {
  const g = svg('g', { class: 'tile', 'data-tile': info.id, 'data-element': info.element });
  if (flipped || back) {
    g.classList.add('turned');
    g.append(backFace(info));
    titled(g, back ? t('draw.tile.back', { tile: tileWords(info) }) : describeTile(info, arrows, true));
    return g;
  }
  const onVessel = discs ?? arrows.filter((a) => !a.covered).length;
  const red = cacophony || 0;
  g.append(face(info, arrows, { marks, seatColor, discs: onVessel, cacophony: red }));
  titled(g, describeTile(info, arrows, false, { discs: onVessel, cacophony: red }));
  return g;
}

/// A tile on its own, for the offer, the intermezzo storage and the pile (`size` px). A tile not
/// yet placed has an empty vessel.
export function tileSvg(info, { rot = 0, size = 64, back = false, label, seatColor } = {}) {
  const arrows = back ? [] : info.rotations[rot].map((a) => ({ ...a, covered: false }));
  const words = label || (back ? t('draw.tile.back', { tile: tileWords(info) }) : describeTile(info, arrows, false));
  const s = svg('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'tile-svg art', role: 'img', 'aria-label': words });
  s.append(tileGroup(info, { arrows, back, discs: 0, seatColor }));
  return s;
}

// ---- displays ----

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
  // The engine's moves, on top of everything (they take no clicks).
  const done = () => {
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

// ---- the harmony track ----

/// The harmony track: numbered spaces from 0 (or the lowest score) to the goal (or the highest
/// score in solo-all), laid as a serpentine; each seat's marker is a disc in its colour with its
/// number. Markers on one space stack: the one that got there first (first in the engine's
/// ranking) lowest.
/// `into`: the track drawn before; when its spaces are the same, only the markers are drawn
/// again (the page need not restyle and lay out the spaces).
export function scoreTrack(view, names, into = null) {
  const scores = view.seats.map((s) => s.score);
  const target = view.target ?? null;
  const lo = Math.min(0, ...scores);
  const hi = Math.max(target ?? 20, ...scores);
  const n = hi - lo + 1;
  // At most 16 spaces a row (a space stays big enough to read in a side panel), rows filled evenly.
  const perRow = Math.max(10, Math.ceil(n / Math.ceil(n / 16)));
  const rowCount = Math.ceil(n / perRow);
  const width = 340, margin = 8;
  const step = (width - 2 * margin) / perRow;
  const rowH = Math.max(step * 1.5, 26);
  const top = 20; // room for stacked markers on the first row and the goal's flag
  const height = top + rowCount * rowH + 6;
  const at = (v) => {
    const i = v - lo;
    const row = Math.floor(i / perRow);
    const col = row % 2 ? perRow - 1 - (i % perRow) : i % perRow;
    return { x: margin + (col + 0.5) * step, y: top + row * rowH + rowH / 2, row };
  };
  const rank = new Map(view.ranking.map((seat, i) => [seat, i]));
  const label = t('draw.track.label', { list: view.ranking.map((p) => t('draw.track.entry', { name: names[p], score: scores[p] })).join(', ') });
  const spaces = [currentLang(), lo, hi, target].join('|');
  if (into && into.dataset.spaces === spaces) {
    into.setAttribute('aria-label', label);
    for (const m of into.querySelectorAll(':scope > g.marker')) m.remove();
    into.append(...markers(view, names, { scores, rank, at, step }));
    return into;
  }
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'track-svg art', role: 'img', 'aria-label': label, 'data-spaces': spaces });
  // The board.
  root.append(svg('rect', { x: 1, y: 1, width: width - 2, height: height - 2, rx: 12, class: 'track-board', fill: '#efe6d2', stroke: '#b9a884', 'stroke-width': 2 }));
  // The path joining the spaces.
  const pts = [];
  for (let v = lo; v <= hi; v++) {
    const p = at(v);
    pts.push(`${p.x.toFixed(1)} ${p.y.toFixed(1)}`);
  }
  root.append(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: '#cbb994', 'stroke-width': step * 0.9, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', class: 'track-path' }));
  const sr = step * 0.42;
  // The spaces: one path for all the spaces of a look (a long track has hundreds of spaces, and
  // a solo game's score below zero draws it anew on most moves: few elements are quick to draw).
  const looks = new Map();
  const numbers = [];
  let flag = null;
  for (let v = lo; v <= hi; v++) {
    const p = at(v);
    const goal = v === target;
    const five = v % 5 === 0;
    const fill = goal ? '#f2b705' : v < 0 ? '#e9c9c9' : five ? '#fffaf0' : '#f7efdc';
    const look = [fill, goal ? '#8a5a00' : five ? '#8a7a55' : '#b9a884', goal ? 2 : five ? 1.4 : 0.8].join(' ');
    if (!looks.has(look)) looks.set(look, []);
    looks.get(look).push(`M${+(p.x - sr).toFixed(2)} ${+p.y.toFixed(2)}a${+sr.toFixed(3)} ${+sr.toFixed(3)} 0 1 0 ${+(2 * sr).toFixed(3)} 0a${+sr.toFixed(3)} ${+sr.toFixed(3)} 0 1 0 ${-(2 * sr).toFixed(3)} 0Z`);
    if (five || goal || v === lo || v === hi) {
      numbers.push(text(p.x, p.y + 0.5, String(v), { 'font-size': Math.min(8.5, step * 0.5), 'font-weight': five || goal ? 700 : 400, fill: goal ? '#3b2800' : '#5b4d33', class: 'space-number' }));
    }
    if (goal) {
      // A flag above the goal space.
      const fx = p.x, fy = p.y - sr;
      flag = svg('g', { class: 'goal-flag' });
      flag.append(svg('line', { x1: fx, y1: fy, x2: fx, y2: fy - 15, stroke: '#5b4d33', 'stroke-width': 1.5 }));
      flag.append(svg('path', { d: `M${fx} ${fy - 15} L${fx + 11} ${fy - 11.5} L${fx} ${fy - 8} Z`, fill: '#c8102e' }));
      titled(flag, t('draw.track.goal', { target }));
    }
  }
  for (const [look, d] of looks) {
    const [fill, stroke, width] = look.split(' ');
    root.append(svg('path', { d: d.join(''), fill, stroke, 'stroke-width': width, class: 'spaces' }));
  }
  root.append(...numbers);
  if (flag) root.append(flag);
  root.append(...markers(view, names, { scores, rank, at, step }));
  return root;
}

/// The markers on the track: by score, and on one space by arrival (the engine's ranking), the
/// first lowest.
function markers(view, names, { scores, rank, at, step }) {
  const drawn = [];
  const order = view.seats.map((_, i) => i).sort((a, b) => scores[a] - scores[b] || rank.get(a) - rank.get(b));
  const heights = new Map();
  const mr = Math.max(7, step * 0.46);
  const ry = mr * 0.72, edge = 3, lift = edge + 1.6;
  for (const seat of order) {
    const v = scores[seat];
    const k = heights.get(v) || 0;
    heights.set(v, k + 1);
    const p = at(v);
    const cy = p.y - k * lift;
    // Where it stands, in the track's units: the page animates a move without measuring.
    const g = svg('g', { class: 'marker', 'data-seat': seat, 'data-stack': k, 'data-x': p.x.toFixed(1), 'data-y': cy.toFixed(1) });
    titled(g, t('draw.marker', { name: names[seat], count: v, rank: rank.get(seat) + 1 }));
    // A wooden disc seen from a little above: its edge shows, so a stack shows its layers.
    const c = SEAT_COLORS[seat];
    g.append(svg('path', {
      d: `M${p.x - mr} ${cy} v${edge} a${mr} ${ry} 0 0 0 ${2 * mr} 0 v${-edge} Z`,
      fill: c, stroke: 'rgba(0,0,0,0.55)', 'stroke-width': 0.8,
    }));
    g.append(svg('path', { d: `M${p.x - mr} ${cy} v${edge} a${mr} ${ry} 0 0 0 ${2 * mr} 0 v${-edge} Z`, fill: 'rgba(0,0,0,0.35)' }));
    g.append(svg('ellipse', { cx: p.x, cy, rx: mr, ry, fill: c, stroke: '#fff', 'stroke-width': 1.1 }));
    g.append(text(p.x, cy + 0.4, String(seat + 1), { 'font-size': mr * 1.1, fill: '#fff', 'font-weight': 800 }));
    drawn.push(g);
  }
  return drawn;
}

// ---- small pieces ----

/// The start player's token: a wooden disc with a leaf.
export function startMarker(size = 20) {
  const s = svg('svg', { viewBox: '0 0 40 40', width: size, height: size, class: 'start-marker art', role: 'img', 'aria-label': t('draw.start') });
  titled(s, t('draw.start'));
  s.append(svg('circle', { cx: 20, cy: 21, r: 18, fill: '#6b4a1f' }));
  s.append(svg('circle', { cx: 20, cy: 20, r: 18, fill: '#d9a441', stroke: '#6b4a1f', 'stroke-width': 2 }));
  s.append(svg('path', {
    d: 'M10 30 C10 18 18 9 31 9 C31 22 23 30 10 30 Z', fill: '#2a5a1e',
  }));
  s.append(svg('path', { d: 'M10 30 C15 24 20 19 27 13', fill: 'none', stroke: '#d9f0c4', 'stroke-width': 2, 'stroke-linecap': 'round' }));
  return s;
}

/// A magnifier icon (no emoji font needed).
export function magnifier() {
  return svg('svg', { viewBox: '0 0 20 20', width: 16, height: 16, 'aria-hidden': 'true' }, [
    svg('circle', { cx: 8, cy: 8, r: 5.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    svg('line', { x1: 12, y1: 12, x2: 18, y2: 18, stroke: 'currentColor', 'stroke-width': 2.5, 'stroke-linecap': 'round' }),
  ]);
}
