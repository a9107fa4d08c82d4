// The games to watch: games in progress between people, strongest first, as a card on the home
// page (the first few) and the page `/watch` (all of them). Each opens the table without a seat,
// which then follows the game live. Both lists are fetched again every 20 seconds while on screen.

import { api } from './api.js';
import { controlText } from './clock.js';
import { h } from './dom.js';
import { num, t } from './i18n.js';
import { siteBar } from './rules.js';
import { botName } from './words.js';
import { refusalText } from './refusals.js';

/// How often a list on screen is fetched again.
const REFRESH_MS = 20000;
/// Games on the home page's card.
const ON_HOME = 3;

/// The home page's card: the strongest few games, and a link to all of them.
export function watchCard() {
  const list = h('ul', { class: 'game-list watch-list', 'data-testid': 'watch-card-list' },
    h('li', { class: 'hint empty' }, t('home.status.loading')));
  const card = h('section', { class: 'card list-card watch-card', 'aria-labelledby': 'watch-card-title', 'data-testid': 'watch-card' },
    h('div', { class: 'watch-head' },
      h('h2', { id: 'watch-card-title' }, t('watch.title')),
      h('a', { href: '/watch', class: 'small-link', 'data-testid': 'watch-all' }, t('watch.all'))),
    list);
  keepFresh(list, () => fill(list, ON_HOME, '#multi-title'));
  return card;
}

/// `/watch`: every game to watch.
export async function watchPage(app) {
  document.title = t('watch.doc.title');
  const list = h('ul', { class: 'game-list watch-list', 'data-testid': 'watch-list' },
    h('li', { class: 'hint empty' }, t('home.status.loading')));
  app.replaceChildren(siteBar('watch'),
    h('article', { class: 'page watch-page', 'data-testid': 'watch-page' },
      h('header', { class: 'page-head' }, h('h1', {}, t('watch.title')), h('p', { class: 'lead' }, t('watch.lead'))),
      list));
  await keepFresh(list, () => fill(list, Infinity, '/'));
}

/// Draws `list` now and again every `REFRESH_MS` until it leaves the screen (a list on a hidden
/// tab waits for the tab to be seen).
function keepFresh(list, draw) {
  const timer = setInterval(() => {
    if (!list.isConnected) clearInterval(timer);
    else if (!document.hidden) draw();
  }, REFRESH_MS);
  return draw();
}

async function fill(list, most, startHref) {
  let live;
  try {
    live = await api('GET', '/api/live');
  } catch (e) {
    list.replaceChildren(h('li', { class: 'hint empty' }, t('watch.failed', { reason: refusalText(e) })));
    return;
  }
  const games = live.games.slice(0, most);
  if (games.length === 0) {
    list.replaceChildren(h('li', { class: 'hint empty', 'data-testid': 'watch-none' },
      t('watch.none'), ' ', h('a', { href: startHref }, t('watch.none.start'))));
    return;
  }
  list.replaceChildren(...games.map(item));
}

/// A player as the list names them: "Ada (1043)", "Guest name", "level 4 bot".
function player(p) {
  if (p.kind === 'bot') return botName(p.name, p.level, true);
  const name = p.name || t('watch.guest');
  return p.rating === undefined ? name : t('watch.player.rated', { name, rating: num(p.rating) });
}

function item(g) {
  const details = [controlText(g.clock), t('watch.move', { n: num(g.moves + 1) })];
  if (g.rated) details.push(t('profile.rated'));
  return h('li', { class: 'game-item', 'data-testid': `watch-${g.game}` },
    h('span', { class: 'game-main' },
      h('strong', { class: 'watch-players' }, g.players.map(player).join(' – ')),
      h('span', { class: 'game-date' }, details.join(' · '),
        g.spectators > 0 ? ' · ' : null,
        g.spectators > 0
          ? h('span', { class: 'watching', 'data-testid': `watching-${g.game}` }, t('watch.spectators', { count: g.spectators, n: num(g.spectators) }))
          : null)),
    h('span', { class: 'game-actions' },
      h('a', { href: g.url, class: 'button small', 'data-testid': `watch-open-${g.game}` }, t('watch.open'))));
}
