// Drawing the harmony track as SVG: a serpentine of numbered spaces, the goal marked, a stacked
// disc per seat (the first to arrive lowest). The scores and the order on a space are the
// engine's.
//
// scoreTrack(view, names, into)   the track (`into`: the one drawn before, updated in place).

import { currentLang, t } from './i18n.js';
import { SEAT_COLORS, svg, text, titled } from './draw.js';

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

/// Whether a colour `#rrggbb` is light (dark text reads better on it).
function light(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45;
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
    // A turned wooden disc stained in the seat's colour, seen from a little above: its edge
    // shows (so a stack shows its layers), bare wood at the bevel, rings of grain on top.
    const c = SEAT_COLORS[seat];
    const side = `M${p.x - mr} ${cy} v${edge} a${mr} ${ry} 0 0 0 ${2 * mr} 0 v${-edge} Z`;
    g.append(svg('ellipse', { cx: p.x, cy: cy + edge + 1.2, rx: mr * 1.02, ry, fill: 'rgba(0,0,0,0.3)' }));
    g.append(svg('path', { d: side, fill: c, stroke: 'rgba(0,0,0,0.55)', 'stroke-width': 0.8 }));
    g.append(svg('path', { d: side, fill: 'rgba(0,0,0,0.35)' }));
    g.append(svg('ellipse', { cx: p.x, cy, rx: mr, ry, fill: c, stroke: '#efd6a4', 'stroke-width': 1.1, class: 'marker-top' }));
    const ring = (k, ox) => `M${(p.x + ox - mr * k).toFixed(2)} ${cy.toFixed(2)}a${(mr * k).toFixed(2)} ${(ry * k).toFixed(2)} 0 1 0 ${(2 * mr * k).toFixed(2)} 0a${(mr * k).toFixed(2)} ${(ry * k).toFixed(2)} 0 1 0 ${(-2 * mr * k).toFixed(2)} 0Z`;
    g.append(svg('path', { d: ring(0.78, mr * 0.05) + ring(0.5, mr * 0.08), fill: 'none', stroke: 'rgba(0,0,0,0.22)', 'stroke-width': 0.6 }));
    g.append(svg('path', {
      d: `M${(p.x - mr * 0.82).toFixed(2)} ${cy.toFixed(2)} A${(mr * 0.82).toFixed(2)} ${(ry * 0.82).toFixed(2)} 0 0 1 ${(p.x + mr * 0.2).toFixed(2)} ${(cy - ry * 0.8).toFixed(2)}`,
      fill: 'none', stroke: 'rgba(255,255,255,0.5)', 'stroke-width': 1, 'stroke-linecap': 'round',
    }));
    // The seat's number, dark on a light stain and light on a dark one.
    g.append(text(p.x, cy + 0.4, String(seat + 1), { 'font-size': mr * 1.1, fill: light(c) ? '#1b1208' : '#fff', 'font-weight': 800 }));
    drawn.push(g);
  }
  return drawn;
}
