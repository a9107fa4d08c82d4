// Taking a seat: by an invite link (`/games/{id}/join/{code}`) or, in a public game, by number;
// the token the server gives is kept in this browser (api.js's list of my games).

import { api, findGame, saveGame } from './api.js';
import { announce, h } from './dom.js';
import { t } from './i18n.js';
import { claimName } from './account.js';
import { openTable } from './table.js';

/// Claims a seat (by invite or, in a public game, by number) and remembers its token.
export async function claimSeat(game, body) {
  // A guest's display name goes with the claim (an account's own name wins on the server).
  const joined = await api('POST', `/api/games/${game}/join`, { body: { ...body, name: claimName() } });
  saveGame({ game, seat: joined.seat, token: joined.token, invite: body.invite || null });
  return joined;
}

/// `/games/{id}/join/{code}`: claims the seat unless this browser already holds it, then opens
/// the table under the plain game link (so the invite does not stay in the address bar).
export async function joinByInvite(app, game, code) {
  const here = location.pathname;
  const mine = findGame(game);
  if (mine && mine.token && mine.invite !== code) {
    // This browser plays another seat of this game (the creator trying a link, say): taking
    // this one too would leave that seat without anyone to play it.
    const keep = h('a', { href: `/games/${game}`, class: 'button primary', 'data-testid': 'keep-seat' }, t('invite.keep', { n: mine.seat + 1 }));
    const take = h('button', { 'data-testid': 'take-seat' }, t('invite.take'));
    take.addEventListener('click', () => {
      take.disabled = true;
      claim();
    });
    document.title = t('invite.title');
    app.replaceChildren(h('h1', {}, t('app.name')),
      h('p', { class: 'notice', 'data-testid': 'other-seat' }, t('invite.other', { n: mine.seat + 1 })),
      h('p', { class: 'end-actions' }, keep, take));
    return;
  }
  if (mine && mine.token) {
    // This browser's own invite: its token still holds the seat, unless the seat was claimed
    // on another device since; then the invite takes it back.
    try {
      await api('GET', `/api/games/${game}`, { token: mine.token });
      return open();
    } catch (e) {
      if (e.status !== 403) return open();
    }
  }
  return claim();

  async function claim() {
    try {
      await claimSeat(game, { invite: code });
    } catch (e) {
      if (location.pathname !== here) return;
      document.title = t('invite.title');
      const why = e.code === 'network' ? t('error.network') : e.code === 'wrong_invite' ? t('invite.wrong') : e.code === 'seat_taken' ? t('invite.taken') : t('invite.unusable');
      app.replaceChildren(
        h('h1', {}, t('app.name')),
        h('p', { class: 'error', 'data-testid': 'error' }, why),
        h('p', {}, h('a', { href: `/games/${game}` }, t('invite.watch')), ' · ', h('a', { href: '/' }, t('invite.new'))),
      );
      announce(why);
      return;
    }
    return open();
  }

  function open() {
    // The player may have gone elsewhere while the seat was claimed.
    if (location.pathname !== here) return;
    history.replaceState(null, '', `/games/${game}`);
    return openTable(app, game);
  }
}
