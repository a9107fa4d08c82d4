// The page: the home screen at `/`, a game at `/games/{id}`, an invite at `/games/{id}/join/{code}`.

import { home } from './home.js';
import { joinByInvite, openTable } from './table.js';
import { h } from './dom.js';

const app = document.getElementById('app');

function route() {
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts.length === 0) return home(app);
  if (parts[0] === 'games' && parts.length === 2) return openTable(app, parts[1]);
  if (parts[0] === 'games' && parts.length === 4 && parts[2] === 'join') return joinByInvite(app, parts[1], parts[3]);
  app.replaceChildren(h('h1', {}, 'Sagani'), h('p', {}, 'There is no such page. ', h('a', { href: '/' }, 'Start or open a game')));
}

window.addEventListener('popstate', route);
Promise.resolve().then(route).catch((e) => {
  app.replaceChildren(h('h1', {}, 'Sagani'), h('p', { class: 'error', role: 'alert' }, `Something went wrong: ${e.message}`), h('a', { href: '/' }, 'Back to the start'));
});
