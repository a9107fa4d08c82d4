// Every player's score over a game, as a line chart (SVG): moves on x, the score on y, a line a
// seat in its colour (and its own dash, for players who tell colours apart badly), the position
// shown marked. From the server's `scores` (one row a position); the page adds no rules.

import { h } from './dom.js';
import { SEAT_COLORS, svg } from './draw.js';
import { num, t } from './i18n.js';

/// Dashes by seat: a line tells its seat without its colour too.
const DASHES = ['', '9 5', '2 5', '12 4 3 4'];

/// The chart of `scores` (`scores[k][seat]`: the score after k moves); `at`: the position shown;
/// `onPick(k)`: a click on the chart goes to the nearest position.
export function scoreGraph(scores, names, at, onPick) {
  const W = 560, H = 210, LEFT = 42, RIGHT = 14, TOP = 12, BOTTOM = 30;
  const n = scores.length - 1;
  const seats = scores[0].length;
  const all = scores.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(10, ...all);
  const x = (k) => LEFT + (k * (W - LEFT - RIGHT)) / Math.max(1, n);
  const y = (v) => TOP + ((hi - v) * (H - TOP - BOTTOM)) / Math.max(1, hi - lo);
  const last = scores[n];
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'score-graph', role: 'img', 'data-testid': 'score-graph',
    'aria-label': t('replay.graph.label', { count: n, list: last.map((v, s) => t('replay.graph.seat', { who: names[s], score: num(v) })).join(', ') }),
  });
  const label = (tx, ty, s, anchor = 'end') => {
    const el = svg('text', { x: tx, y: ty, 'text-anchor': anchor, 'font-size': 12, fill: '#5f574a' });
    el.textContent = s;
    return el;
  };
  // The frame: zero, the lowest and highest scores, the first and last move.
  root.append(svg('line', { x1: LEFT, x2: W - RIGHT, y1: y(0), y2: y(0), stroke: '#b9ad95' }));
  for (const v of new Set([lo, 0, hi])) root.append(label(LEFT - 6, y(v) + 4, num(v)));
  root.append(label(x(0), H - 10, num(0), 'middle'), label(x(n), H - 10, num(n), 'middle'),
    label((LEFT + W - RIGHT) / 2, H - 10, t('replay.graph.moves'), 'middle'));
  // The position shown.
  root.append(svg('line', { x1: x(at), x2: x(at), y1: TOP - 4, y2: H - BOTTOM + 4, class: 'graph-at', 'data-testid': 'graph-at', 'data-at': at }));
  for (let s = 0; s < seats; s++) {
    const points = scores.map((row, k) => `${Math.round(x(k) * 10) / 10},${Math.round(y(row[s]) * 10) / 10}`).join(' ');
    root.append(svg('polyline', {
      points, fill: 'none', stroke: SEAT_COLORS[s], 'stroke-width': 3, 'stroke-linejoin': 'round', 'stroke-dasharray': DASHES[s] || undefined,
      class: 'graph-line', 'data-testid': `graph-seat-${s}`, 'data-seat': s, 'data-last': last[s],
    }));
    root.append(svg('circle', { cx: x(at), cy: y(scores[at][s]), r: 5, fill: SEAT_COLORS[s], stroke: '#fff', 'stroke-width': 1.5, 'data-testid': `graph-point-${s}`, 'data-score': scores[at][s] }));
  }
  root.addEventListener('click', (ev) => {
    const box = root.getBoundingClientRect();
    const ux = ((ev.clientX - box.left) / Math.max(1, box.width)) * W;
    onPick(Math.max(0, Math.min(n, Math.round(((ux - LEFT) / (W - LEFT - RIGHT)) * n))));
  });
  // The key: a seat's colour and dash beside its name (and its score at the position shown).
  const key = h('ul', { class: 'graph-key' }, names.map((name, s) => {
    const sample = svg('svg', { viewBox: '0 0 30 10', width: 30, height: 10, 'aria-hidden': 'true' },
      [svg('line', { x1: 1, x2: 29, y1: 5, y2: 5, stroke: SEAT_COLORS[s], 'stroke-width': 3, 'stroke-dasharray': DASHES[s] || undefined })]);
    return h('li', {}, sample, ' ', t('replay.graph.seat', { who: name, score: num(scores[at][s]) }));
  }));
  return h('div', { class: 'graph-box' }, root, key);
}
