// Drawing tiles and the small pieces as SVG: our own art, drawn here from paths (no pictures are
// fetched). No rules here: what is legal, covered or completed comes from the server (the
// engine); this file only shows it. Every word it shows or reads out comes from the message
// catalogues (i18n.js). A display is drawn by draw-display.js, the harmony track by
// draw-track.js, both from the pieces here.
//
// Exports (the table draws with these; the CSS for them is in art.css):
//   ELEMENTS[el]          {color, dark, tint, ink, name, letter} (colours.js) for 'fire' 'water' 'earth' 'air';
//                         `name` and `letter` are read from the catalogue when asked.
//   ELEMENT_ORDER         the four elements in the game's order.
//   SEAT_COLORS           a colour per seat (score markers, discs, names).
//   CACOPHONY_COLOR       the red of the Cacophony discs.
//   NEUTRAL_DISC          the colour of discs that belong to no seat.
//   CELL                  100: the units of one display cell (and of one tile).
//   PAD                   the gap between a tile and the edge of its cell, in those units.
//   svg(tag, attrs, children)
//   text(x, y, s, attrs)  an SVG <text> centred on (x, y).
//   titled(el, words)     `el` with a <title> (its tooltip and name).
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
//   tileKey(info, opts)   everything that shapes a tile's drawing (the same opts), as a string.
//   tileSvg(info, {rot, size, back, label, seatColor})   a tile on its own, `size` px
//   startMarker(size)     the start player's token, an <svg> of `size` px with its label.
//   magnifier()           a magnifier icon.
//   tileWords(info)       "Fire 10".
//   describeTile(info, arrows, flipped, {discs, cacophony})   words for screen readers.
// A face shows the element's colour at full strength, its texture (`.texture`, data-texture) and
// its spirit (`.spirit`, data-spirit) holding the vessel; arrows are shapes of their element
// (`g.arrow.arrow-flame|drop|flint|gust`, data-shape); a disc's body is `.disc-body` (round and
// wooden for Sound, a spiky star for Cacophony). The drawings themselves are in art-spirits.js.
// Classes for motion (art.css): a disc on an arrow is `.disc`, one on the vessel `.vessel-disc`
// (both with data-kind="sound|cacophony"); add `new` to a disc to drop it in, `flipping` to a
// `g.tile` to turn it over, `landed` to a `g.tile` just put down. Drawn SVGs carry class `art`.

import { currentLang, t } from './i18n.js';
import { CACOPHONY_COLOR, NEUTRAL_DISC, PALETTE } from './colours.js';
import { ARROW_SHAPES, FACE, SPIRITS, TEXTURES } from './art-spirits.js';

const SVG = 'http://www.w3.org/2000/svg';

export { SEAT_COLORS, CACOPHONY_COLOR, NEUTRAL_DISC } from './colours.js';
export const ELEMENT_ORDER = ['fire', 'water', 'earth', 'air'];
export const ELEMENTS = Object.fromEntries(ELEMENT_ORDER.map((el) => [el, {
  ...PALETTE[el],
  get name() { return t(`element.${el}`); },
  get letter() { return t(`element.${el}.letter`); },
}]));

const DIRS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];
const STEP = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };

/// One cell of a display is 100 units; tiles sit in it with a small gap.
export const CELL = 100;
export const PAD = 4;

export function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.append(c);
  return el;
}

export function text(x, y, s, attrs = {}) {
  const el = svg('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', ...attrs });
  el.textContent = s;
  return el;
}

export function titled(el, words) {
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

export function tileWords(info) {
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

/// Where an arrow pointing `dir` sits on a tile (its middle) and the angle it points at. The
/// arrows sit far enough out that none of them, halo included, touches the value plaque (a
/// downward arrow's base, at most 8 units below its middle, clears the plaque's bottom edge by
/// 1.3 units; e2e/tests/art.test.mjs checks every tile and turn).
function arrowSpot(dir) {
  const [dx, dy] = STEP[dir];
  const i = DIRS.indexOf(dir);
  const r = 31; // along the diagonal for corners (×√2)
  return { x: 50 + dx * r, y: 50 + dy * r, angle: i * 45 };
}

/// The face of an unfinished tile: the element's colour at full strength (the tile's state is
/// told by its discs, not by paleness), as the colour check (scripts/colours.mjs) measures it.
const FACE_COLORS = Object.fromEntries(Object.entries(PALETTE).map(([el, p]) => [el, p.color]));
/// Raw wood, as on the edge of a painted wooden disc.
const WOOD_EDGE = '#efd6a4';

/// The outline of a Cacophony disc: a star of `spikes` points between radii r and 0.74 r.
function spikyOutline(cx, cy, r, spikes = 11) {
  const pts = [];
  for (let i = 0; i < spikes * 2; i++) {
    const a = (i * Math.PI) / spikes - Math.PI / 2;
    const rr = i % 2 ? r * 0.74 : r;
    pts.push(`${num(cx + rr * Math.cos(a))} ${num(cy + rr * Math.sin(a))}`);
  }
  return `M${pts.join('L')}Z`;
}

/// A disc seen from above: a turned wooden disc stained in the seat's colour (grain rings, a
/// bevelled edge of bare wood, a soft shadow). A Cacophony disc is another shape altogether: a
/// spiky red star with a white edge and a jagged crack, told from a Sound disc without colour.
/// Its body (class `disc-body`) is a circle for Sound, a path for Cacophony.
function disc(cx, cy, r, color, { kind = 'sound', cls = 'disc' } = {}) {
  const g = svg('g', { class: cls, 'data-kind': kind });
  if (kind === 'cacophony') {
    g.append(svg('path', { d: spikyOutline(cx, cy + r * 0.18, r), fill: 'rgba(0,0,0,0.4)' }));
    g.append(svg('path', {
      d: spikyOutline(cx, cy, r), fill: color, stroke: '#fff', 'stroke-width': r * 0.12, 'stroke-linejoin': 'round', class: 'disc-body',
    }));
    const s = r * 0.48;
    g.append(svg('path', {
      d: `M${num(cx - s)} ${num(cy - s * 0.1)} L${num(cx - s * 0.4)} ${num(cy - s * 0.7)} L${num(cx)} ${num(cy + s * 0.4)} L${num(cx + s * 0.4)} ${num(cy - s * 0.7)} L${num(cx + s)} ${num(cy - s * 0.1)}`,
      fill: 'none', stroke: '#fff', 'stroke-width': r * 0.2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', class: 'disc-crack',
    }));
    return g;
  }
  g.append(svg('circle', { cx, cy: cy + r * 0.18, r, fill: 'rgba(0,0,0,0.38)' }));
  g.append(svg('circle', { cx, cy, r, fill: color, stroke: WOOD_EDGE, 'stroke-width': r * 0.16, class: 'disc-body' }));
  // Growth rings of the wood through the stain, a little off the middle as in a turned disc.
  const ring = (rr, ox) => `M${num(cx + ox - rr)} ${num(cy)}a${num(rr)} ${num(rr * 0.92)} 0 1 0 ${num(2 * rr)} 0a${num(rr)} ${num(rr * 0.92)} 0 1 0 ${num(-2 * rr)} 0Z`;
  g.append(svg('path', { d: ring(r * 0.58, r * 0.06) + ring(r * 0.3, r * 0.1), fill: 'none', stroke: 'rgba(0,0,0,0.24)', 'stroke-width': r * 0.07 }));
  // The bevel: lit on the upper left, shaded on the lower right.
  const b = r * 0.8;
  g.append(svg('path', {
    d: `M${num(cx - b)} ${num(cy + b * 0.15)} A${num(b)} ${num(b)} 0 0 1 ${num(cx + b * 0.15)} ${num(cy - b)}`,
    fill: 'none', stroke: 'rgba(255,255,255,0.55)', 'stroke-width': r * 0.13, 'stroke-linecap': 'round',
  }));
  return g;
}

/// Where n discs (at most 4: a tile has at most 4 arrows) lie in the vessel.
const HEAP = [[], [[0, 0]], [[-4.5, 0.8], [4.5, -0.8]], [[-4.5, 2.4], [4.5, 2.4], [0, -4.5]], [[-4.4, 4.2], [4.4, 4.2], [-4.4, -4.4], [4.4, -4.4]]];

/// The spirit of the tile's element, holding the vessel over its belly: body, extra (sprout,
/// splash, curl, inner flame) and its face.
function spirit(element) {
  const sp = SPIRITS[element];
  const g = svg('g', { class: `spirit spirit-${element}`, 'data-spirit': element });
  g.append(svg('path', { d: sp.body, fill: sp.fill, stroke: sp.line, 'stroke-width': 1.6, 'stroke-linejoin': 'round', class: 'spirit-body' }));
  g.append(svg('path', { d: sp.extra, fill: sp.extraFill, stroke: sp.extraLine ?? sp.line, 'stroke-width': 1.3, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', class: 'spirit-extra' }));
  g.append(svg('path', { d: FACE.cheeks, fill: '#ff6f6f', 'fill-opacity': 0.5 }));
  g.append(svg('path', { d: FACE.eyes, fill: '#2b1608', class: 'spirit-eyes' }));
  g.append(svg('path', { d: FACE.glints, fill: '#fff' }));
  g.append(svg('path', { d: FACE.smile, fill: 'none', stroke: '#2b1608', 'stroke-width': 1.2, 'stroke-linecap': 'round' }));
  return g;
}

/// The vessel: a bowl the spirit holds, with the discs still on it.
function vessel(info, discs, red, seatColor) {
  const e = PALETTE[info.element];
  const cx = 50, cy = 49;
  const g = svg('g', { class: 'vessel', 'data-discs': discs });
  g.append(svg('circle', { cx, cy: cy + 1.3, r: 11.8, fill: 'rgba(0,0,0,0.25)' }));
  g.append(svg('circle', { cx, cy, r: 11.8, fill: e.dark, class: 'vessel-rim' }));
  g.append(svg('circle', { cx, cy, r: 9.9, fill: '#fbf3e0', class: 'vessel-well' }));
  g.append(svg('circle', { cx, cy: cy + 0.8, r: 9, fill: 'none', stroke: 'rgba(0,0,0,0.12)', 'stroke-width': 2 }));
  if (discs === 0) g.append(emblem(info.element, { x: cx, y: cy, size: 12, fill: FACE_COLORS[info.element], 'fill-opacity': 0.7 }));
  const heap = HEAP[Math.min(discs, 4)];
  heap.forEach(([dx, dy], i) => {
    // Cacophony discs lie lowest: they are the last to leave the vessel.
    const kind = i < red ? 'cacophony' : 'sound';
    const r = discs === 1 ? 7.4 : 5.9;
    g.append(disc(cx + dx, cy + dy, r, kind === 'cacophony' ? CACOPHONY_COLOR : seatColor, { kind, cls: 'vessel-disc' }));
  });
  return g;
}

/// The value plaque under the vessel: the element's letter and the tile's value.
function plaque(info) {
  const e = PALETTE[info.element];
  const g = svg('g', { class: 'plaque' });
  g.append(svg('rect', { x: 33, y: 58.5, width: 34, height: 10, rx: 5, fill: e.dark, stroke: '#fff', 'stroke-width': 1.3, class: 'plaque-body' }));
  g.append(text(40.5, 63.8, t(`element.${info.element}.letter`), { class: 'tile-letter', fill: '#fff', 'fill-opacity': 0.85, 'font-size': 8, 'font-weight': 700 }));
  g.append(svg('line', { x1: 46.5, y1: 60.5, x2: 46.5, y2: 66.5, stroke: 'rgba(255,255,255,0.45)', 'stroke-width': 1 }));
  g.append(text(56.5, 64, String(info.value), { class: 'tile-value', fill: '#fff', 'font-size': 11.5, 'font-weight': 800 }));
  return g;
}

/// An arrow drawn as a shape of its element (flame, drop, flint, gust) pointing its way, with the
/// element's letter upright on it.
function arrowGroup(a, { disc: discColor, discKind = 'sound', will = false } = {}) {
  const spot = arrowSpot(a.direction);
  const ae = PALETTE[a.element];
  const shape = ARROW_SHAPES[a.element];
  const g = svg('g', {
    class: `arrow arrow-${shape.name}`, 'data-direction': a.direction, 'data-element': a.element, 'data-shape': shape.name,
    'data-covered': a.covered ? 'true' : 'false',
  });
  // The shape, turned to point its way and put in its place (in numbers, not by a transform: a
  // transform costs the page a little on every frame, for every arrow shown).
  const rad = (spot.angle * Math.PI) / 180;
  const cos = Math.cos(rad), sin = Math.sin(rad);
  const turn = (d) => d.replace(/(-?[\d.]+)[ ,]+(-?[\d.]+)/g, (_, x, y) => `${num(spot.x + x * cos - y * sin)} ${num(spot.y + x * sin + y * cos)}`);
  const d = turn(shape.d);
  const head = svg('path', { d, fill: ae.color, stroke: ae.dark, 'stroke-width': 1.8, 'stroke-linejoin': 'round', class: `arrow-head shape-${shape.name}` });
  const halo = svg('path', { d, fill: 'none', stroke: '#fff', 'stroke-width': 5, 'stroke-linejoin': 'round', 'stroke-opacity': 0.9, class: 'arrow-halo' });
  g.append(halo, head);
  if (shape.detail) {
    g.append(svg('path', { d: turn(shape.detail), fill: 'none', stroke: ae.ink, 'stroke-opacity': 0.45, 'stroke-width': 1, 'stroke-linecap': 'round' }));
  }
  // The letter sits on the shape's widest part, upright whatever the arrow's angle.
  const lx = spot.x - sin * 1.2, ly = spot.y + cos * 1.2;
  // The letter is the arrow's only text (tests read it).
  g.append(text(num(lx), num(ly + 0.6), t(`element.${a.element}.letter`), { fill: ae.ink, 'font-size': 12, 'font-weight': 800, class: 'arrow-letter' }));
  if (a.covered) g.append(disc(lx, ly, 9.5, discColor, { kind: discKind }));
  // Ringed: an arrow a placement would cover (a preview), or one a move just covered (a replay).
  if (will) g.append(svg('circle', { cx: lx, cy: ly, r: a.covered ? 13 : 12, class: 'will-cover', fill: 'none', stroke: '#ffb300', 'stroke-width': 4 }));
  return g;
}

/// The face of a tile: the element's colour and texture, its spirit holding the vessel, the
/// arrows and the plaque.
function face(info, arrows, { marks, seatColor, discs, cacophony }) {
  const e = PALETTE[info.element];
  const tex = TEXTURES[info.element];
  const f = svg('g', { class: 'tile-face' });
  f.append(svg('rect', {
    x: PAD, y: PAD + 1.5, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10, fill: 'rgba(0,0,0,0.3)', class: 'tile-shadow',
  }));
  f.append(svg('rect', {
    x: PAD, y: PAD, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10,
    fill: FACE_COLORS[info.element], stroke: e.dark, 'stroke-width': 2.5, class: 'tile-body',
  }));
  f.append(svg('path', {
    d: tex.d, class: `texture texture-${info.element}`, 'data-texture': info.element,
    fill: tex.fill || 'none', 'fill-opacity': tex.fill ? tex.opacity : undefined,
    stroke: tex.stroke, 'stroke-opacity': tex.stroke ? tex.opacity : undefined, 'stroke-width': tex.width, 'stroke-linecap': tex.stroke ? 'round' : undefined,
  }));
  f.append(svg('rect', { x: PAD + 3, y: PAD + 3, width: 100 - 2 * PAD - 6, height: 100 - 2 * PAD - 6, rx: 7.5, fill: 'none', stroke: '#fff', 'stroke-width': 1, 'stroke-opacity': 0.4 }));
  // A soft light behind the spirit.
  f.append(svg('circle', { cx: 50, cy: 44, r: 25, fill: '#fff', 'fill-opacity': 0.16 }));
  f.append(spirit(info.element));
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

/// The back of a tile (a finished tile, turned over, and the draw pile): dark where the face is
/// bright, with rings of sound around the emblem and the value, big.
function backFace(info) {
  const e = PALETTE[info.element];
  const light = SPIRITS[info.element].fill;
  const f = svg('g', { class: 'tile-face back' });
  f.append(svg('rect', { x: PAD, y: PAD + 1.5, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10, fill: 'rgba(0,0,0,0.3)', class: 'tile-shadow' }));
  f.append(svg('rect', {
    x: PAD, y: PAD, width: 100 - 2 * PAD, height: 100 - 2 * PAD, rx: 10,
    fill: e.dark, stroke: FACE_COLORS[info.element], 'stroke-width': 3, class: 'tile-body',
  }));
  // Rings of sound around the emblem.
  for (const r of [24, 33, 42]) {
    f.append(svg('circle', { cx: 50, cy: 42, r, fill: 'none', stroke: light, 'stroke-width': 1.6, 'stroke-opacity': 0.22 }));
  }
  f.append(svg('rect', { x: PAD + 4, y: PAD + 4, width: 100 - 2 * PAD - 8, height: 100 - 2 * PAD - 8, rx: 7, fill: 'none', stroke: light, 'stroke-width': 1.2, 'stroke-opacity': 0.55 }));
  f.append(emblem(info.element, { x: 50, y: 40, size: 46, fill: light, class: 'emblem' }));
  f.append(text(18, 19, t(`element.${info.element}.letter`), { class: 'tile-letter', fill: light, 'font-size': 11, 'font-weight': 700 }));
  f.append(svg('circle', { cx: 50, cy: 76.5, r: 14, fill: FACE_COLORS[info.element], stroke: light, 'stroke-width': 1.5 }));
  f.append(text(50, 77.5, String(info.value), { class: 'tile-value', fill: e.ink, 'font-size': info.value >= 10 ? 17 : 20, 'font-weight': 800 }));
  return f;
}

/// Drawn tiles by everything that shapes them: a tile drawn again (every redraw of a display,
/// the offer) is a copy of the first drawing, which is much cheaper than drawing it anew.
const drawnTiles = new Map();

/// Everything that shapes a tile's drawing.
export function tileKey(info, { arrows = [], flipped = false, marks = null, back = false, seatColor = NEUTRAL_DISC, discs, cacophony = 0 }) {
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
