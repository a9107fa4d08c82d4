// The installable page: registers the service worker (`/sw.js`) that keeps the page's shell,
// shows a banner on every page while the device is offline (what can still be read, what needs
// the server), and shows the tutorial's text to read while the guided game cannot start.

import { tiles as loadTiles } from './api.js';
import { h } from './dom.js';
import { currentLang, t } from './i18n.js';
import { siteBar } from './rules.js';
import { loadScript } from './tutorial.js';
import { tileName } from './words.js';

// A newer shell took over while this one was on screen: the next page is loaded whole, so this
// page's modules never run with the next version's files.
let stale = false;

/// Registers the worker. Without one (an old browser, a page not from a secure origin) the page
/// works as before, online only.
export function registerWorker() {
  if (!('serviceWorker' in navigator)) return;
  const hadWorker = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (hadWorker) stale = true;
  });
  // In the capture phase, so before main.js's handlers that draw the next page in place.
  document.addEventListener('click', (ev) => {
    if (!stale) return;
    const a = ev.target.closest && ev.target.closest('a[href^="/"]');
    if (!a || a.hasAttribute('download') || a.target || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    ev.stopPropagation();
    location.assign(a.getAttribute('href'));
  }, true);
  window.addEventListener('popstate', (ev) => {
    if (!stale) return;
    ev.stopImmediatePropagation();
    location.reload();
  }, true);
  navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch((e) => {
    // The page works without it; the console says why for whoever looks.
    console.warn('the page cannot be kept for offline use', e);
  });
}

/// The banner at the top of every page while the device is offline, said from the catalogue of
/// the language shown (drawn again when the page is, after a change of language).
export function offlineBanner() {
  const banner = h('div', { class: 'offline-banner', role: 'status', 'data-testid': 'offline-banner', hidden: true });
  const draw = () => {
    const offline = navigator.onLine === false;
    banner.hidden = !offline;
    banner.replaceChildren(...(offline
      ? [h('strong', {}, t('offline.banner.title')), ' ', t('offline.banner.text')]
      : []));
  };
  document.body.prepend(banner);
  window.addEventListener('online', draw);
  window.addEventListener('offline', draw);
  window.addEventListener('popstate', () => Promise.resolve().then(draw));
  draw();
  return banner;
}

/// Whether the device says it has no network: then the tutorial's text is shown to read,
/// since its guided game needs the server.
export function offline() {
  return navigator.onLine === false;
}

/// "Air 10, Earth 10 and Air 3", as the language lists things.
function listOf(names) {
  return new Intl.ListFormat(currentLang() === 'de' ? 'de' : 'en', { type: 'conjunction' }).format(names);
}

/// The words of a placement step as the guided game would show them to someone who followed
/// every step: `before` is the score and the supply after the step before.
function stepText(step, table, before) {
  const e = step.expect;
  const name = (id) => tileName(table, id);
  return t(step.text, {
    tile: name(step.tile),
    arrows: table[step.tile].arrows.length,
    covered: e.covered,
    completed: listOf(e.completed.map(name)),
    others: listOf(e.completed.filter((id) => id !== step.tile).map(name)),
    points: e.completed.reduce((sum, id) => sum + table[id].value, 0),
    cacophony: e.cacophony,
    count: e.cacophony,
    penalty: 2 * e.cacophony,
    score: e.score_after,
    supply: e.supply_after,
    score_now: before.score,
    supply_now: before.supply,
  });
}

/// `/tutorial` without a network: the tutorial's cards and steps, in order, to read; the guided
/// game starts from here once the device is online again.
export async function offlineTutorial(app) {
  document.title = `${t('tutorial.title')} · ${t('app.name')}`;
  const start = h('a', { href: '/tutorial', class: 'button primary', 'data-testid': 'offline-tutorial-start' }, t('offline.tutorial.start'));
  const head = h('header', { class: 'page-head' },
    h('h1', {}, t('tutorial.title')),
    h('p', { class: 'lead' }, t('offline.tutorial.lead')));
  app.replaceChildren(siteBar('tutorial'), h('article', { class: 'page offline-tutorial', 'data-testid': 'offline-tutorial' }, head,
    h('p', { class: 'loading', 'aria-busy': 'true' }, t('tutorial.loading'))));
  let script;
  let table;
  try {
    [script, table] = await Promise.all([loadScript(), loadTiles()]);
  } catch {
    app.querySelector('.loading').replaceWith(h('p', { class: 'error', role: 'alert', 'data-testid': 'error' }, t('offline.tutorial.missing')));
    return;
  }
  const before = { score: 0, supply: 24 };
  const items = script.steps.map((step) => {
    if (step.kind === 'card') return h('li', { class: 'offline-card' }, t(step.text));
    const text = stepText(step, table, before);
    before.score = step.expect.score_after;
    before.supply = step.expect.supply_after;
    return h('li', {}, text);
  });
  app.querySelector('.loading').replaceWith(
    h('ol', { class: 'offline-steps', 'data-testid': 'offline-steps' }, ...items),
    h('p', {}, start, ' ', h('a', { href: '/rules', class: 'button' }, t('home.nav.rules'))));
}
