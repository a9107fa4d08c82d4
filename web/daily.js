// The daily challenge: its card on the home page (today's date, the two variants, my streak and
// what I played), starting it, its part of the end of the game (my result, par, the day's
// leaderboard, the line to share), and a day's leaderboards at `/daily`. Every result, rank and
// par comes from the server (`/api/daily`, `/api/games/{id}/daily`); the page only words it.

import { api, myGames, saveGame, tiles as loadTiles } from './api.js';
import { tileSvg } from './draw.js';
import { copy, h } from './dom.js';
import { currentLang, num, t } from './i18n.js';
import { siteBar } from './rules.js';
import { profileLink } from './account.js';
import { refusalText } from './refusals.js';

const VARIANTS = ['solo', 'solo-all'];

/// A UTC day (`YYYY-MM-DD`) as the language writes dates: "3 December 2026".
export function dayText(day) {
  const lang = currentLang() === 'qps' ? 'en' : currentLang();
  return new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${day}T00:00:00Z`));
}

/// A result in words: "symphony in 22 tiles", "81 points in 30 tiles", "62 points, the pile
/// ran out"; in solo-all "96 points".
export function resultText(variant, r) {
  if (variant === 'solo-all') return t('daily.result.all', { score: num(r.score) });
  if (r.symphony) return t('daily.result.symphony', { count: r.tiles });
  if (r.reached) return t('daily.result.reached', { score: num(r.score), count: r.tiles });
  return t('daily.result.short', { score: num(r.score) });
}

/// The line to share: "Sagani daily 2026-12-03: symphony in 22 tiles".
export function shareText(day, variant, r) {
  return t(variant === 'solo-all' ? 'daily.share.all' : 'daily.share', { day, result: resultText(variant, r) });
}

/// Starts today's challenge in `variant` (an account's attempt, or a guest's under `name`),
/// remembers the seat, and gives the game's id.
export async function startDaily(variant, name) {
  const s = await api('POST', `/api/daily/${variant}/start`, { body: name ? { name } : {} });
  saveGame({ game: s.game, seat: s.seat, token: s.token, invite: s.invite || null, variant: s.variant, players: 1, daily: s.day });
  return s.game;
}

/// The daily challenge's card on the home page. `busy(button, work)` runs a start the way the
/// home page runs its other buttons; `name()` is the guest's display name.
export function dailyCard({ busy, name }) {
  const body = h('div', { class: 'daily-body' }, h('p', { class: 'hint' }, t('home.status.loading')));
  // Decoration: two tile backs under a leaf of a calendar with the day of the month.
  const art = h('div', { class: 'pile-art daily-art', 'aria-hidden': 'true' });
  const card = h('section', { class: 'card play-card daily-card', 'aria-labelledby': 'daily-title', 'data-testid': 'daily-card' },
    h('div', { class: 'card-head' },
      h('div', {}, h('h2', { id: 'daily-title' }, t('daily.title')), h('p', { class: 'card-lead', 'data-testid': 'daily-date' }, t('daily.lead.loading'))),
      art),
    body);
  fill();
  return card;

  async function drawArt(day) {
    let table;
    try {
      table = await loadTiles();
    } catch {
      return;
    }
    art.replaceChildren(...[44, 20].map((id, i) => {
      const svg = tileSvg(table[id], { size: 54, back: true });
      svg.style.setProperty('--i', i);
      return svg;
    }), h('span', { class: 'daily-leaf' }, String(Number(day.slice(8, 10)))));
  }

  async function fill() {
    let today;
    try {
      today = await api('GET', '/api/daily');
    } catch (e) {
      body.replaceChildren(h('p', { class: 'hint' }, t('daily.failed', { reason: refusalText(e) })));
      return;
    }
    card.querySelector('[data-testid=daily-date]').textContent = t('daily.lead', { date: dayText(today.day) });
    drawArt(today.day);
    const rows = today.variants.map((v) => row(today, v));
    const foot = [];
    if (today.account) {
      foot.push(h('p', { class: 'daily-streak', 'data-testid': 'daily-streak' }, t('daily.streak', { count: today.streak || 0 })));
    } else {
      foot.push(h('p', { class: 'hint', 'data-testid': 'daily-guest' }, t('daily.guest'), ' ',
        h('a', { href: '/account' }, t('home.who.login'))));
    }
    foot.push(h('p', { class: 'daily-links' }, h('a', { href: '/daily', 'data-testid': 'daily-board-link' }, t('daily.board.link'))));
    body.replaceChildren(h('ul', { class: 'daily-variants' }, rows), ...foot);
  }

  /// "Played: symphony in 22 tiles, place 3 of 12." and a link to the game.
  function played(v, result, rank, url) {
    return h('span', { class: 'daily-status done', 'data-testid': `daily-done-${v.variant}` },
      rank ? t('daily.played.rank', { result: resultText(v.variant, result), rank: num(rank), count: v.players }) : t('daily.played', { result: resultText(v.variant, result) }),
      ' ', h('a', { href: url }, t('daily.see')));
  }

  function row(today, v) {
    // My attempt: the account's (from the server), or one this browser started today.
    const here = myGames().find((g) => g.daily === today.day && g.variant === v.variant);
    const attempt = v.attempt || (here ? { game: here.game, url: `/games/${here.game}` } : null);
    const what = h('span', { class: 'daily-what' },
      h('strong', {}, t(`home.solo.variant.${v.variant}`)),
      h('span', { class: 'game-date' }, t('daily.players', { count: v.players })));
    let status;
    if (attempt && attempt.result) {
      status = played(v, attempt.result, attempt.rank, attempt.url);
    } else if (attempt) {
      // Begun (here, or by the account elsewhere): go on with it.
      status = h('a', { href: attempt.url, class: 'button', 'data-testid': `daily-continue-${v.variant}` }, t('daily.continue'));
      if (!v.attempt && here) {
        // A guest's attempt of this browser: its result, once it has one, from its card.
        api('GET', `/api/games/${here.game}/daily`, { token: here.token }).then((c) => {
          if (c.result) status.replaceWith(played(v, c.result, null, attempt.url));
        }, () => {});
      }
    } else {
      const go = h('button', { type: 'button', class: 'primary', 'data-testid': `daily-start-${v.variant}` }, t('daily.start'));
      go.addEventListener('click', () => busy(go, () => startDaily(v.variant, name())));
      status = go;
    }
    return h('li', { class: 'daily-variant', 'data-testid': `daily-${v.variant}` }, what, status);
  }
}

/// The daily part of a finished game's end card: my result and place, par, the day's best, the
/// line to share with a copy button. Filled in once the server has it (par may still be being
/// played by the bot: asked again then).
export function dailyResult(game, token) {
  const box = h('div', { class: 'daily-result', 'data-testid': 'daily-result' }, h('p', { class: 'hint' }, t('daily.end.loading')));
  let tries = 0;
  load();
  return box;

  async function load() {
    let card;
    try {
      card = await api('GET', `/api/games/${game}/daily`, { token });
    } catch (e) {
      box.replaceChildren(h('p', { class: 'hint' }, t('daily.failed', { reason: refusalText(e) })));
      return;
    }
    draw(card);
    // The bot plays the day's deck on the server; its result follows shortly.
    if (card.par_pending && tries++ < 60) setTimeout(load, 1000);
  }

  function draw(card) {
    const parts = [h('h3', {}, t('daily.end.title', { date: dayText(card.day) }))];
    let share = null;
    if (!card.ranked) {
      // A guest's game is on a deck of its own: no place, no par, nothing to share.
      parts.push(h('p', { 'data-testid': 'daily-rank' }, t('daily.end.guest')));
    } else if (card.result) {
      parts.push(h('p', { 'data-testid': 'daily-rank' }, t('daily.end.rank', { rank: num(card.rank), count: card.players })));
      const text = shareText(card.day, card.variant, card.result);
      // A text box that wraps: the whole line is in sight on a phone too, ready to select.
      const input = h('textarea', { readonly: true, value: text, rows: 2, 'data-testid': 'share-line', 'aria-label': t('daily.share.label') });
      const b = h('button', { type: 'button', class: 'small primary', 'data-testid': 'copy-share' }, t('daily.share.copy'));
      b.addEventListener('click', async () => {
        b.textContent = (await copy(text, input)) ? t('invites.copied') : t('invites.select');
      });
      share = h('div', { class: 'share' }, input, b);
    } else {
      parts.push(h('p', { 'data-testid': 'daily-rank' }, t('daily.end.none')));
    }
    // Par is the server's to give: only once my ranked attempt has its result (or the day is over).
    if (card.par) parts.push(h('p', { 'data-testid': 'daily-par' }, t('daily.par', { result: resultText(card.variant, card.par) })));
    else if (card.par_pending) parts.push(h('p', { class: 'hint', 'data-testid': 'daily-par-pending' }, t('daily.par.pending')));
    if (card.streak) parts.push(h('p', { class: 'daily-streak', 'data-testid': 'daily-end-streak' }, t('daily.streak', { count: card.streak })));
    parts.push(share);
    if (card.leaderboard.length) parts.push(boardTable(card.variant, card.leaderboard, 'daily-end-board', card.rank));
    parts.push(h('p', {}, h('a', { href: `/daily?day=${card.day}` }, t('daily.board.all'))));
    box.replaceChildren(...parts.filter(Boolean));
    box.dataset.ready = card.par_pending ? 'pending' : 'yes';
  }
}

/// A leaderboard as a table: rank, player, result (and the game once the day is over).
function boardTable(variant, entries, testid, mine) {
  return h('table', { class: 'leaderboard daily-board', 'data-testid': testid },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('leaderboard.rank')), h('th', { scope: 'col' }, t('leaderboard.player')),
      h('th', { scope: 'col' }, t('daily.board.result')))),
    h('tbody', {}, entries.map((e) => h('tr', { class: mine && e.rank === mine ? 'mine' : null, 'data-testid': `daily-entry-${e.name}` },
      h('td', {}, num(e.rank)), h('td', {}, profileLink(e.name)),
      h('td', {}, e.url ? h('a', { href: e.url }, resultText(variant, e)) : resultText(variant, e))))));
}

/// `/daily?day=YYYY-MM-DD`: a day's leaderboards, both variants (today's without a day).
export async function dailyPage(app) {
  document.title = t('daily.doc.title');
  const wanted = new URLSearchParams(location.search).get('day');
  const page = h('article', { class: 'page daily-page', 'data-testid': 'daily-page' });
  app.replaceChildren(siteBar('daily'), page);
  let today;
  try {
    today = await api('GET', '/api/daily');
  } catch (e) {
    page.append(h('p', { class: 'error', role: 'alert' }, t('daily.failed', { reason: refusalText(e) })));
    return;
  }
  const day = wanted || today.day;
  const boards = [];
  try {
    for (const v of VARIANTS) boards.push(await api('GET', `/api/daily/${v}/leaderboard?day=${encodeURIComponent(day)}`));
  } catch (e) {
    page.append(h('h1', {}, t('daily.title')), h('p', { class: 'error', role: 'alert', 'data-testid': 'daily-page-error' }, t('daily.failed', { reason: refusalText(e) })));
    return;
  }
  const shift = (n) => {
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  };
  const next = shift(1);
  page.append(
    h('header', { class: 'page-head' },
      h('h1', {}, t('daily.title')),
      h('p', { class: 'daily-on', 'data-testid': 'daily-page-date' }, t('daily.page.title', { date: dayText(day) })),
      h('p', { class: 'lead' }, t(day === today.day ? 'daily.page.lead.today' : 'daily.page.lead.past')),
      h('p', { class: 'daily-days' },
        h('a', { href: `/daily?day=${shift(-1)}`, 'data-testid': 'daily-prev' }, t('daily.page.prev')),
        day < today.day ? [' · ', h('a', { href: next === today.day ? '/daily' : `/daily?day=${next}`, 'data-testid': 'daily-next' }, t('daily.page.next'))] : null)),
    ...boards.map((b) => h('section', { 'data-testid': `daily-page-${b.variant}` },
      h('h2', {}, t(`home.solo.variant.${b.variant}`)),
      b.you ? h('p', { 'data-testid': 'daily-you' }, t('daily.page.you', { rank: num(b.you.rank), count: b.players, result: resultText(b.variant, b.you) })) : null,
      b.par ? h('p', { class: 'hint' }, t('daily.par', { result: resultText(b.variant, b.par) })) : null,
      b.entries.length ? boardTable(b.variant, b.entries, `daily-board-${b.variant}`, b.you && b.you.rank)
        : h('p', { class: 'hint', 'data-testid': `daily-empty-${b.variant}` }, t('daily.page.none')))));
}
