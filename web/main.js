// The page: the home screen at `/`, a game at `/games/{id}`, an invite at `/games/{id}/join/{code}`.

import { home } from './home.js';
import { joinByInvite, leave, openTable } from './table.js';
import { h } from './dom.js';

const app = document.getElementById('app');

function route() {
  // The table that was on screen stops listening before anything else is drawn.
  leave();
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts.length === 0) return home(app);
  if (parts[0] === 'games' && parts.length === 2) return openTable(app, parts[1]);
  if (parts[0] === 'games' && parts.length === 4 && parts[2] === 'join') return joinByInvite(app, parts[1], parts[3]);
  app.replaceChildren(h('h1', {}, 'Sagani'), h('p', {}, 'There is no such page. ', h('a', { href: '/' }, 'Start or open a game')));
}

/// A failure nothing else caught: say so, rather than leave the page half drawn.
function broken(e) {
  app.replaceChildren(h('h1', {}, 'Sagani'),
    h('p', { class: 'error', role: 'alert', 'data-testid': 'broken' }, `Something went wrong: ${e && e.message ? e.message : e}. Reload the page to go on; your games are kept.`),
    h('a', { href: '/' }, 'Back to the start'));
}

window.addEventListener('popstate', () => Promise.resolve().then(route).catch(broken));
window.addEventListener('unhandledrejection', (ev) => broken(ev.reason));
Promise.resolve().then(route).catch(broken);
