// A player's profile (`/players/{name}`): rating with its graph, results, solo records and
// recent games with links to each table and record; and the leaderboard (`/leaderboard`).
// Everything comes from the server; the page adds only words and the graph.

import { api } from './api.js';
import { profileLink, whoAmI } from './account.js';
import { followsCard, profileActions } from './challenges.js';
import { h } from './dom.js';
import { svg } from './draw.js';
import { currentLang, num, t } from './i18n.js';
import { siteBar } from './rules.js';
import { seatName } from './words.js';
import { refusalText } from './refusals.js';

function date(seconds) {
  const lang = currentLang() === 'qps' ? 'en' : currentLang();
  return new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(seconds * 1000));
}

/// The rating after each rated game, as a line over the games (SVG, 100 units per game step).
export function ratingGraph(history) {
  const W = 560, H = 180, PAD = 34, LEFT = 64;
  const values = history.map((p) => p.rating);
  const lo = Math.min(...values, 1000) - 20, hi = Math.max(...values, 1000) + 20;
  const x = (i) => LEFT + (history.length === 1 ? (W - LEFT - PAD) / 2 : (i * (W - LEFT - PAD)) / (history.length - 1));
  const y = (v) => H - PAD + 10 - ((v - lo) * (H - 2 * PAD)) / (hi - lo);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-graph', role: 'img', 'data-testid': 'rating-graph',
    'aria-label': t('profile.graph.label', { count: history.length, first: num(values[0]), last: num(values[values.length - 1]) }) });
  // The start (1000) as a dashed line, with the lowest and highest values on the side.
  root.append(svg('line', { x1: LEFT, x2: W - PAD, y1: y(1000), y2: y(1000), stroke: '#b9ad95', 'stroke-dasharray': '4 4' }));
  for (const v of [Math.round(lo + 20), Math.round(hi - 20)]) {
    const label = svg('text', { x: LEFT - 8, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#5f574a' });
    label.textContent = num(v);
    root.append(label);
  }
  root.append(svg('polyline', { points: values.map((v, i) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: '#1f6f8b', 'stroke-width': 3, 'stroke-linejoin': 'round' }));
  values.forEach((v, i) => {
    const dot = svg('circle', { cx: x(i), cy: y(v), r: 4.5, fill: '#1f6f8b', class: 'rating-point' });
    const title = svg('title');
    title.textContent = t('profile.graph.point', { rating: num(v), date: date(history[i].at) });
    dot.append(title);
    root.append(dot);
  });
  return root;
}

/// "Ada, mcts level 3": who sat at a game, by the same words as the table.
function table(g) {
  const state = { seats: g.seats, you: null };
  return g.seats.map((s) => seatName(state, s.seat)).join(', ');
}

/// One game of a profile or of "my games".
export function gameLine(g, { actions = [] } = {}) {
  const result = g.status !== 'over'
    ? t(`home.status.${g.status === 'waiting' ? 'waiting' : 'playing'}`)
    : g.place ? t('profile.game.place', { place: g.place, score: g.score ?? 0 })
      : t('profile.game.score', { score: g.score ?? 0 });
  return h('li', { class: 'game-item', 'data-testid': `game-${g.game}` },
    h('span', { class: 'game-main' },
      h('a', { href: g.url, class: 'game-link' }, t(g.variant === 'standard' ? `profile.variant.standard.${g.seats.length}` : `profile.variant.${g.variant}`), g.rated ? ` · ${t('profile.rated')}` : '',
        g.not_rated ? ` · ${t(`profile.not-rated.${g.not_rated}`)}` : ''),
      h('span', { class: 'seats' }, table(g)),
      h('span', { class: 'game-date' }, t('profile.game.date', { date: date(g.ended_at || g.created_at) }))),
    h('span', { class: 'status' }, result),
    h('span', { class: 'game-actions' }, ...actions,
      g.status === 'over' ? h('a', { href: `/games/${g.game}/replay`, class: 'small-link', 'data-testid': `replay-${g.game}`, title: t('replay.link.title') }, t('replay.link')) : null,
      g.record_url ? h('a', { href: g.record_url, class: 'small-link', download: `sagani-${g.game}.json` }, t('profile.record')) : null));
}

function stat(label, value, testid) {
  return h('div', { class: 'stat', 'data-testid': testid }, h('span', { class: 'stat-value' }, value), h('span', { class: 'stat-label' }, label));
}

/// `/players/{name}`.
export async function profilePage(app, name) {
  document.title = t('profile.doc.title', { name });
  const page = h('article', { class: 'page profile-page', 'data-testid': 'profile' });
  app.replaceChildren(siteBar('profile'), page);
  let p;
  try {
    p = await api('GET', `/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    page.append(h('h1', {}, t('player.name', { name })), h('p', { class: 'error', role: 'alert', 'data-testid': 'profile-missing' },
      e.status === 404 ? t('profile.missing') : t('profile.failed', { reason: refusalText(e) })));
    return;
  }
  document.title = t('profile.doc.title', { name: p.name });
  const rating = p.rating === undefined
    ? t('profile.rating.none')
    : p.provisional ? t('profile.rating.provisional', { rating: num(p.rating) }) : num(p.rating);
  const solo = p.solo;
  // A part a profile does not have is left out (`append` would write "null").
  page.append(...[
    h('header', { class: 'page-head' }, h('h1', { 'data-testid': 'profile-name' }, t('player.name', { name: p.name }))),
    profileActions(p),
    h('div', { class: 'stats' },
      stat(t('profile.rating'), rating, 'profile-rating'),
      stat(t('profile.rated-games'), num(p.rated_games), 'profile-rated-games'),
      stat(t('profile.games'), num(p.games), 'profile-games'),
      stat(t('profile.wins'), num(p.wins), 'profile-wins')),
    p.history.length ? h('section', {}, h('h2', {}, t('profile.graph.title')), ratingGraph(p.history)) : null,
    h('section', {}, h('h2', {}, t('profile.solo.title')),
      solo.games === 0 ? h('p', { class: 'hint' }, t('profile.solo.none'))
        : h('div', { class: 'stats' },
          stat(t('profile.solo.games'), num(solo.games), 'solo-games'),
          stat(t('profile.solo.best'), solo.best_tiles ? t('profile.solo.tiles', { count: solo.best_tiles }) : '—', 'solo-best'),
          stat(t('profile.solo.symphonies'), num(solo.symphonies), 'solo-symphonies'),
          stat(t('profile.solo.all'), solo.best_solo_all === undefined ? '—' : num(solo.best_solo_all), 'solo-all'))),
    h('section', {}, h('h2', {}, t('profile.recent')),
      p.recent.length ? h('ul', { class: 'game-list', 'data-testid': 'profile-games-list' }, p.recent.map((g) => gameLine(g)))
        : h('p', { class: 'hint' }, t('profile.recent.none')))].filter(Boolean));
  // One's own profile: whom one follows, and whom one takes challenges from.
  if (p.following === undefined) {
    const who = await whoAmI();
    if (who.kind === 'account' && who.name === p.name) page.querySelector('.stats').after(followsCard());
  }
}

/// `/leaderboard`.
export async function leaderboardPage(app) {
  document.title = t('leaderboard.doc.title');
  const page = h('article', { class: 'page', 'data-testid': 'leaderboard' },
    h('header', { class: 'page-head' }, h('h1', {}, t('leaderboard.title')), h('p', { class: 'lead' }, t('leaderboard.lead'))));
  app.replaceChildren(siteBar('leaderboard'), page);
  let board;
  try {
    board = await api('GET', '/api/leaderboard');
  } catch (e) {
    page.append(h('p', { class: 'error', role: 'alert' }, t('profile.failed', { reason: refusalText(e) })));
    return;
  }
  if (!board.players.length) {
    page.append(h('p', { class: 'hint', 'data-testid': 'leaderboard-empty' }, t('leaderboard.none')));
    return;
  }
  page.append(h('table', { class: 'leaderboard' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('leaderboard.rank')), h('th', { scope: 'col' }, t('leaderboard.player')),
      h('th', { scope: 'col' }, t('profile.rating')), h('th', { scope: 'col' }, t('profile.rated-games')))),
    h('tbody', {}, board.players.map((p) => h('tr', { 'data-testid': `leader-${p.name}` },
      h('td', {}, num(p.rank)), h('td', {}, profileLink(p.name)),
      h('td', {}, p.provisional ? t('profile.rating.provisional', { rating: num(p.rating) }) : num(p.rating)),
      h('td', {}, num(p.rated_games)))))));
}
