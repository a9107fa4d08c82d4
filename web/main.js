// The page: the home screen at `/`, a game at `/games/{id}`, an invite at `/games/{id}/join/{code}`,
// the rules at `/rules`, the tutorial at `/tutorial`, credits at `/about`, the account at
// `/account`, a profile at `/players/{name}`, the leaderboard at `/leaderboard`, the daily
// challenge's leaderboards at `/daily`, an account's notices at `/notices`, a finished game's
// replay at `/games/{id}/replay`, a record file's at `/replay`, the games to watch at `/watch`.
// Every page module exports
// one `async function (app)` that draws into `app`.

import { home } from './home.js';
import { leave, openTable } from './table.js';
import { joinByInvite } from './seat.js';
import { about, rules, siteBar } from './rules.js';
import { startTutorial } from './tutorial.js';
import { accountPage } from './account.js';
import { leaderboardPage, profilePage } from './players.js';
import { dailyPage } from './daily.js';
import { watchPage } from './watch.js';
import { noticesPage, refreshCount, startNotices } from './notices.js';
import { recordPage, replayPage, leaveReplay } from './replay.js';
import { h } from './dom.js';
import { loadLang, t } from './i18n.js';
import { offline, offlineBanner, offlineTutorial, registerWorker } from './install.js';

const main = document.getElementById('app');
// The service worker that keeps the page for offline use (install.js).
registerWorker();

function route() {
  // The table that was on screen stops listening before anything else is drawn.
  leave();
  leaveReplay();
  window.scrollTo(0, 0);
  // Each page draws into a box of its own: a page still loading when the player goes on draws
  // into a box no longer on screen, never over the next page.
  const app = h('div', { class: 'view' });
  main.replaceChildren(app);
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts[0] !== 'notices') refreshCount();
  if (parts.length === 0) return home(app);
  if (parts.length === 1 && parts[0] === 'rules') return rules(app);
  if (parts.length === 1 && parts[0] === 'about') return about(app);
  if (parts.length === 1 && parts[0] === 'tutorial') return offline() ? offlineTutorial(app) : startTutorial(app);
  if (parts.length === 1 && parts[0] === 'account') return accountPage(app);
  if (parts.length === 1 && parts[0] === 'leaderboard') return leaderboardPage(app);
  if (parts.length === 1 && parts[0] === 'daily') return dailyPage(app);
  if (parts.length === 1 && parts[0] === 'watch') return watchPage(app);
  if (parts.length === 1 && parts[0] === 'notices') return noticesPage(app);
  if (parts.length === 2 && parts[0] === 'players') return profilePage(app, decodeURIComponent(parts[1]));
  if (parts.length === 1 && parts[0] === 'replay') return recordPage(app);
  if (parts[0] === 'games' && parts.length === 2) return openTable(app, parts[1]);
  if (parts[0] === 'games' && parts.length === 3 && parts[2] === 'replay') return replayPage(app, parts[1]);
  if (parts[0] === 'games' && parts.length === 4 && parts[2] === 'join') return joinByInvite(app, parts[1], parts[3]);
  missing(app);
}

/// No page at this address: said like every other page, with the site's bar to go on from.
function missing(app) {
  document.title = t('page.missing.doc.title');
  app.replaceChildren(siteBar(''),
    h('article', { class: 'page missing-page', 'data-testid': 'no-such-page' },
      h('header', { class: 'page-head' }, h('h1', {}, t('page.missing.title')), h('p', { class: 'lead' }, t('page.missing'))),
      h('p', {}, h('a', { href: '/', class: 'button primary', 'data-testid': 'missing-home' }, t('page.missing.home')),
        ' ', h('a', { href: '/rules', class: 'button' }, t('home.nav.rules')))));
}

/// A failure nothing else caught: say so, rather than leave the page half drawn.
function broken(e) {
  leave();
  main.replaceChildren(h('h1', {}, t('app.name')),
    h('p', { class: 'error', role: 'alert', 'data-testid': 'broken' }, t('page.broken', { reason: e && e.message ? e.message : String(e) })),
    h('a', { href: '/' }, t('page.missing.home')));
}

/// Links inside the page change the view without loading the page again.
document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[href^="/"]');
  if (!a || a.hasAttribute('download') || a.target || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  if (a.getAttribute('href').startsWith('/api/')) return;
  ev.preventDefault();
  if (a.getAttribute('href') !== location.pathname) history.pushState(null, '', a.getAttribute('href'));
  shownPath = location.pathname;
  Promise.resolve().then(route).catch(broken);
});

// A change of the #hash alone (a link to a section of the rules) is no new page.
let shownPath = location.pathname;
window.addEventListener('popstate', (ev) => {
  if (location.pathname === shownPath && ev.isTrusted && location.hash) {
    // Go to the section at once (a smooth scroll still under way would carry the page past it).
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
    return;
  }
  shownPath = location.pathname;
  Promise.resolve().then(route).catch(broken);
});
window.addEventListener('unhandledrejection', (ev) => broken(ev.reason));
loadLang().then(() => {
  startNotices();
  offlineBanner();
  return route();
}).catch(broken);
