// The rules page (`/rules`), written for players and drawn with the page's own tiles, and the
// credits (`/about`). Both share the bar at the top (`siteBar`) with the home page.
//
// The pictures are examples made by hand: a few tiles from the server's tile table, laid out as
// a small display. They know no rules; which arrow is covered is written into each example.

import { tiles as loadTiles } from './api.js';
import { h } from './dom.js';
import * as draw from './draw.js';
import { displaySvg } from './draw-display.js';
import { num, t } from './i18n.js';
import { langSwitch } from './lang.js';
import { accountLinks } from './account.js';
import { noticesLink } from './notices.js';

/// The bar at the top of the home, rules and about pages: the name (a link home), the pages and
/// the language switch. `current`: 'home', 'rules' or 'about'.
export function siteBar(current) {
  const link = (page, href) => h('a', { href, 'aria-current': page === current ? 'page' : undefined, 'data-testid': `nav-${page}` }, t(`home.nav.${page}`));
  return h('header', { class: 'site-bar' },
    current === 'home'
      ? h('span', { class: 'brand', 'aria-hidden': 'true' })
      : h('a', { class: 'brand', href: '/', 'aria-label': t('home.nav.home') }, t('app.name')),
    h('nav', { class: 'site-nav', 'aria-label': t('home.nav.label') },
      link('rules', '/rules'), link('tutorial', '/tutorial'), link('daily', '/daily'), link('about', '/about'), noticesLink(current === 'notices'), accountLinks()),
    langSwitch());
}

/// The tile table, or null when the server cannot give it (the text stands without pictures).
async function tileTable() {
  try {
    return await loadTiles();
  } catch {
    return null;
  }
}

/// A picture that cannot be drawn is left out rather than breaking the page.
function picture(make) {
  try {
    return make();
  } catch (e) {
    console.warn('a picture of the rules page could not be drawn', e);
    return null;
  }
}

const tileName = (info) => t('tile.name', { element: t(`element.${info.element}`), value: info.value });

/// A tile as placed in an example display: `covered` lists the directions (as placed) covered.
function placed(info, x, y, rot, { covered = [], flipped = false, discs, cacophony } = {}) {
  const arrows = info.rotations[rot].map((a) => ({ ...a, covered: covered.includes(a.direction) }));
  const entry = { tile: info.id, x, y, rot, flipped, arrows };
  entry.discs = flipped ? 0 : (discs ?? arrows.filter((a) => !a.covered).length);
  if (cacophony) entry.cacophony = cacophony;
  return entry;
}

/// A small display of hand-placed tiles in a fixed frame of `cols`×`rows` cells from (x0, y0).
function exampleDisplay(table, tilesPlaced, { x0, y0, cols, rows, cellPx, label, fresh = [] }) {
  const root = displaySvg({ display: tilesPlaced }, table, { cellPx, seatColor: draw.SEAT_COLORS[0], fresh: new Set(fresh) });
  root.setAttribute('viewBox', `${x0 * draw.CELL} ${y0 * draw.CELL} ${cols * draw.CELL} ${rows * draw.CELL}`);
  root.setAttribute('width', cols * cellPx);
  root.setAttribute('height', rows * cellPx);
  // One picture with one description: the tiles' own titles are not read out one by one.
  root.setAttribute('role', 'img');
  root.setAttribute('aria-label', label);
  root.classList.add('example-display');
  return root;
}

/// A single tile with a line or two under it.
function tileWithCaption(svgEl, ...lines) {
  return h('div', { class: 'fig-tile' }, svgEl, ...lines.map((l) => h('span', {}, l)));
}

function figure(cls, content, caption) {
  return h('figure', { class: `fig ${cls}` }, h('div', { class: 'fig-body' }, content), caption ? h('figcaption', {}, caption) : null);
}

// ---- the pictures ----

/// The four values: 1, 2, 3 and 4 arrows, one tile of each element.
function valuesFigure(table) {
  const ids = [38, 58, 4, 28];
  return figure('values', ids.map((id) => {
    const info = table[id];
    const n = info.arrows.length;
    return tileWithCaption(
      draw.tileSvg(info, { size: 96, label: t('rules.fig.tile', { tile: tileName(info), count: n }) }),
      t('rules.fig.arrows', { count: n }), t('rules.fig.points', { count: info.value }));
  }), t('rules.fig.values'));
}

/// The four elements, by the backs of their tiles, and one tile's front beside its back.
function elementsFigure(table) {
  const backs = [9, 54, 28, 64].map((id) => {
    const info = table[id];
    return tileWithCaption(draw.tileSvg(info, { size: 64, back: true, label: t('rules.fig.back', { tile: tileName(info) }) }), t(`element.${info.element}`));
  });
  return figure('elements', backs, t('rules.fig.elements'));
}

/// One tile turned four ways.
function rotationFigure(table) {
  const info = table[26];
  return figure('rotation', [0, 1, 2, 3].map((rot) => tileWithCaption(
    draw.tileSvg(info, { size: 72, rot, label: t('rules.fig.turned.label', { tile: tileName(info), degrees: num(rot * 90) }) }),
    t('rules.fig.turned', { degrees: num(rot * 90) }))), t('rules.fig.rotation'));
}

/// A turn in three steps: an arrow covered from two cells away, then a tile completed (and the
/// new tile completing at once).
function turnFigure(table) {
  const a = table[26]; // Earth 3: Water and Earth arrows; turned once they point right and up-right.
  const b = table[2]; // Fire 1, its arrow up.
  const w = table[38]; // Water 1, its arrow up.
  const e = table[29]; // Earth 3; turned twice, it points down-left (Earth) and down-right (Water).
  const frame = { x0: 0, y0: -1, cols: 3, rows: 2, cellPx: 72 };
  const fresh = [[], [w.id], [e.id]]; // the tile just placed, outlined as the table outlines it
  const steps = [
    [placed(a, 0, 0, 1), placed(b, 1, 0, 0)],
    [placed(a, 0, 0, 1, { covered: ['E'] }), placed(b, 1, 0, 0), placed(w, 2, 0, 0)],
    [placed(a, 0, 0, 1, { flipped: true }), placed(b, 1, 0, 0), placed(w, 2, 0, 0), placed(e, 1, -1, 2, { flipped: true })],
  ];
  const panels = steps.map((display, i) => h('div', { class: 'fig-step' },
    h('span', { class: 'step-no', 'aria-hidden': 'true' }, num(i + 1)),
    exampleDisplay(table, display, { ...frame, fresh: fresh[i], label: t(`rules.fig.turn.${i + 1}`) }),
    h('p', {}, t(`rules.fig.turn.${i + 1}`))));
  return h('figure', { class: 'fig turn-steps' }, h('div', { class: 'fig-body' }, panels));
}

/// A disc as drawn for the pictures of the supply.
function discIcon(kind) {
  const color = kind === 'cacophony' ? (draw.CACOPHONY_COLOR || '#c8102e') : draw.SEAT_COLORS[0];
  const s = draw.svg('svg', { viewBox: '0 0 24 24', width: 28, height: 28, 'aria-hidden': 'true', class: `disc-icon ${kind}` });
  s.append(draw.svg('circle', { cx: 12, cy: 13, r: 10, fill: 'rgba(0,0,0,0.3)' }));
  s.append(draw.svg('circle', { cx: 12, cy: 12, r: 10, fill: color, stroke: '#fff', 'stroke-width': 1.6 }));
  if (kind === 'cacophony') {
    s.append(draw.svg('path', { d: 'M6 12 L9 9 L12 14 L15 9 L18 12', fill: 'none', stroke: '#fff', 'stroke-width': 2, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }));
  } else {
    s.append(draw.svg('circle', { cx: 12, cy: 12, r: 6, fill: 'none', stroke: 'rgba(255,255,255,0.5)', 'stroke-width': 1.4 }));
  }
  return s;
}

/// A tile with 4 arrows placed from a supply of 2 discs: 2 Cacophony discs make up the rest.
function cacophonyFigure(table) {
  const info = table[28];
  const tile = exampleDisplay(table, [placed(info, 0, 0, 0, { discs: 4, cacophony: 2 })],
    { x0: 0, y0: 0, cols: 1, rows: 1, cellPx: 110, label: t('rules.fig.cacophony.tile', { tile: tileName(info) }) });
  const supply = h('div', { class: 'fig-supply' },
    h('span', { class: 'supply-label' }, t('rules.fig.supply')),
    h('span', { class: 'discs' }, discIcon('sound'), discIcon('sound')),
    h('span', { class: 'supply-label' }, t('rules.fig.cacophony.taken')),
    h('span', { class: 'discs' }, discIcon('cacophony'), discIcon('cacophony')),
    h('strong', { class: 'penalty' }, t('rules.fig.cacophony.points', { count: 4 })));
  return figure('cacophony-fig', [supply, h('span', { class: 'fig-arrow', 'aria-hidden': 'true' }, '→'), tile], t('rules.fig.cacophony'));
}

/// The intermezzo storage with its 4 tiles.
function intermezzoFigure(table) {
  const ids = [3, 44, 21, 63];
  return figure('intermezzo-fig', h('div', { class: 'fig-storage' },
    ids.map((id) => draw.tileSvg(table[id], { size: 60, label: tileName(table[id]) }))), t('rules.fig.intermezzo'));
}

/// The goal per number of players.
function goalTable() {
  return h('table', { class: 'goals' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('rules.end.players')), h('th', { scope: 'col' }, t('rules.end.goal')))),
    h('tbody', {}, [[2, 75], [3, 60], [4, 45]].map(([n, goal]) =>
      h('tr', {}, h('th', { scope: 'row' }, num(n)), h('td', {}, t('rules.fig.points', { count: goal }))))));
}

// ---- the page ----

const p = (key) => h('p', {}, t(key));
const list = (tag, keys) => h(tag, {}, keys.map((k) => h('li', {}, t(k))));

/// The sections: id (the anchor), and what is in each, pictures where the tiles could be had.
function sections(table) {
  const pic = (make) => (table ? picture(() => make(table)) : null);
  return [
    ['aim', [p('rules.aim.p1'), p('rules.aim.p2')]],
    ['components', [
      list('ul', ['rules.components.tiles', 'rules.components.arrows', 'rules.components.values',
        'rules.components.discs', 'rules.components.cacophony', 'rules.components.track']),
      pic(valuesFigure), pic(elementsFigure), p('rules.components.legend')]],
    ['setup', [p('rules.setup.p1'), p('rules.setup.p2')]],
    ['turn', [p('rules.turn.intro'),
      list('ol', ['rules.turn.step1', 'rules.turn.step2', 'rules.turn.step3', 'rules.turn.step4']),
      pic(rotationFigure), p('rules.turn.refill')]],
    ['arrows', [p('rules.arrows.p1'), p('rules.arrows.p2'), pic(turnFigure)]],
    ['complete', [p('rules.complete.p1'), p('rules.complete.p2')]],
    ['cacophony', [p('rules.cacophony.p1'), p('rules.cacophony.p2'), pic(cacophonyFigure), h('p', { class: 'tip' }, t('rules.cacophony.tip'))]],
    ['intermezzo', [p('rules.intermezzo.p1'), p('rules.intermezzo.p2'), p('rules.intermezzo.p3'), pic(intermezzoFigure)]],
    ['end', [p('rules.end.p1'), goalTable(), p('rules.end.p2'), p('rules.end.p3')]],
    ['solo', [p('rules.solo.p1'), p('rules.solo.p2'), p('rules.solo.p3')]],
  ];
}

/// Moves to the section of the address's #fragment, if any, as a fresh page load would.
function toFragment() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (target) target.scrollIntoView();
}

export async function rules(app) {
  document.title = t('rules.doc.title');
  const table = await tileTable();
  const parts = sections(table);
  const toc = h('nav', { class: 'toc', 'aria-labelledby': 'toc-title' },
    h('h2', { id: 'toc-title' }, t('rules.toc')),
    h('ol', {}, parts.map(([id]) => h('li', {}, h('a', { href: `#${id}`, 'data-toc': id }, t(`rules.${id}.title`))))));
  // The contents jump within the page without a new history entry for each section, which
  // would draw the page anew on the way back.
  toc.addEventListener('click', (ev) => {
    const a = ev.target.closest('a[data-toc]');
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    const target = document.getElementById(a.dataset.toc);
    history.replaceState(null, '', `#${a.dataset.toc}`);
    target.scrollIntoView({ behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    target.querySelector('h2').focus({ preventScroll: true });
  });
  app.replaceChildren(
    siteBar('rules'),
    h('article', { class: 'page rules-page', 'data-testid': 'rules' },
      h('header', { class: 'page-head' },
        h('h1', {}, t('rules.title')),
        h('p', { class: 'lead' }, t('rules.lead'), ' ', h('a', { href: '/tutorial' }, t('rules.lead.tutorial')))),
      toc,
      parts.map(([id, body]) => h('section', { id, class: `rules-section rules-${id}`, 'aria-labelledby': `${id}-title` },
        h('h2', { id: `${id}-title`, tabindex: '-1' }, t(`rules.${id}.title`)), body)),
      h('p', { class: 'page-foot' }, h('a', { href: '#', 'data-top': '' }, t('rules.top')), ' · ', h('a', { href: '/' }, t('page.missing.home')))),
  );
  app.querySelector('[data-top]').addEventListener('click', (ev) => {
    ev.preventDefault();
    history.replaceState(null, '', location.pathname);
    window.scrollTo(0, 0);
  });
  if (location.hash) requestAnimationFrame(toFragment);
}

/// The four emblems, drawn for this project.
function emblemsFigure() {
  const order = draw.ELEMENT_ORDER || ['fire', 'water', 'earth', 'air'];
  return figure('emblems', order.map((el) => {
    const s = draw.svg('svg', { viewBox: '0 0 100 100', width: 64, height: 64, 'aria-hidden': 'true' });
    s.append(draw.emblem(el, { size: 84 }));
    return h('div', { class: 'fig-tile' }, s, h('span', {}, t(`element.${el}`)));
  }), t('about.art.emblems'));
}

export async function about(app) {
  document.title = t('about.doc.title');
  const section = (id, ...body) => h('section', { class: 'about-section', 'aria-labelledby': `about-${id}` },
    h('h2', { id: `about-${id}` }, t(`about.${id}.title`)), ...body);
  app.replaceChildren(
    siteBar('about'),
    h('article', { class: 'page about-page', 'data-testid': 'about' },
      h('header', { class: 'page-head' }, h('h1', {}, t('about.title')), h('p', { class: 'lead' }, t('about.lead'))),
      section('what', p('about.what.p1'), p('about.what.p2')),
      section('art', p('about.art.p1'), picture(emblemsFigure)),
      section('rules', p('about.rules.p1'), h('p', {}, h('a', { href: '/rules' }, t('about.rules.link')))),
      section('code', p('about.code.p1'),
        h('p', {}, h('a', { href: '/api/openapi.json', 'data-testid': 'openapi-link' }, t('about.code.api'))),
        p('about.code.p2')),
      h('p', { class: 'page-foot' }, h('a', { href: '/' }, t('page.missing.home')))),
  );
}
