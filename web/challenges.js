// Challenges and follows between accounts: the home page's "Challenges" card (challenges to me
// to accept or decline, mine to withdraw or, once accepted, to go to; a form to challenge
// someone by name), the Follow and Challenge buttons of a profile, and the account page's list
// of whom I follow (online or not) with whom I take challenges from.

import { api, findGame, saveGame } from './api.js';
import { controlText } from './clock.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { claimSeat } from './seat.js';
import { profileLink } from './account.js';
import { refusalText } from './refusals.js';

/// The clocks a challenge may have (the home page's choices, in its words).
const CLOCKS = [
  ['none', null],
  ['3+2', { kind: 'realtime', initial_s: 180, increment_s: 2 }],
  ['5+5', { kind: 'realtime', initial_s: 300, increment_s: 5 }],
  ['10+10', { kind: 'realtime', initial_s: 600, increment_s: 10 }],
  ['turn1', { kind: 'turn', days: 1 }],
  ['turn3', { kind: 'turn', days: 3 }],
];

/// How often the card asks for the answers to my challenges while it is on screen.
const POLL_MS = 5000;

let formCount = 0;

function go(game) {
  history.pushState(null, '', `/games/${game}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

/// The seat of an accepted challenge of mine: this browser's token if it has one, else the
/// account's seat taken here; then the table.
async function goToGame(c) {
  const mine = findGame(c.game);
  if (!mine || !mine.token) await claimSeat(c.game, { seat: c.seat });
  go(c.game);
}

/// "5 minutes + 5 seconds per move · rated": what a challenge offers.
function terms(c) {
  return c.rated ? t('challenge.terms.rated', { clock: controlText(c.clock) }) : controlText(c.clock);
}

/// A form to challenge someone: a name field unless `to` names them, a clock, rated. `sent(c)`
/// runs with the challenge sent.
export function challengeForm({ to = null, sent = () => {} } = {}) {
  const n = ++formCount;
  const id = (part) => `challenge-${part}-${n}`;
  const error = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'challenge-error' });
  const done = h('p', { class: 'notice', role: 'status', hidden: true, 'data-testid': 'challenge-sent' });
  const name = to ? null : h('input', { id: id('to'), type: 'text', autocomplete: 'off', required: true, 'data-testid': 'challenge-to', maxlength: 60 });
  const clock = h('select', { id: id('clock'), 'data-testid': 'challenge-clock' },
    CLOCKS.map(([key]) => h('option', { value: key }, t(`home.multi.clock.${key}`))));
  const rated = h('input', { type: 'checkbox', id: id('rated'), 'data-testid': 'challenge-rated' });
  const send = h('button', { type: 'submit', class: 'primary', 'data-testid': 'challenge-send' }, t('challenge.send'));
  const form = h('form', { class: 'challenge-form', 'data-testid': 'challenge-form' },
    name ? h('div', { class: 'field' }, h('label', { for: name.id }, t('challenge.to')), name) : null,
    h('div', { class: 'field' }, h('label', { for: clock.id }, t('challenge.clock')), clock),
    h('label', { class: 'check' }, rated, h('span', {}, t('challenge.rated'))),
    h('div', { class: 'card-actions' }, send),
    error, done);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const who = to || name.value.trim();
    if (!who) {
      name.focus();
      return;
    }
    send.disabled = true;
    error.hidden = true;
    done.hidden = true;
    try {
      const body = { to: who, rated: rated.checked };
      const control = CLOCKS.find(([key]) => key === clock.value)[1];
      if (control) body.clock = control;
      const c = await api('POST', '/api/challenges', { body });
      done.textContent = t('challenge.sent', { name: c.to });
      done.hidden = false;
      if (name) name.value = '';
      sent(c);
    } catch (e) {
      error.textContent = e.status === 404 ? t('challenge.error.nobody', { name: who }) : refusalText(e);
      error.hidden = false;
    } finally {
      send.disabled = false;
    }
  });
  return form;
}

/// One challenge to me: who, what, Accept and Decline.
function incomingItem(c, redraw, fail) {
  const accept = h('button', { type: 'button', class: 'small primary', 'data-testid': `challenge-accept-${c.from}` }, t('challenge.accept'));
  const decline = h('button', { type: 'button', class: 'small', 'data-testid': `challenge-decline-${c.from}` }, t('challenge.decline'));
  accept.addEventListener('click', async () => {
    accept.disabled = decline.disabled = true;
    try {
      const a = await api('POST', `/api/challenges/${c.challenge}/accept`);
      saveGame({ game: a.game, seat: a.seat, token: a.token, variant: c.variant });
      go(a.game);
    } catch (e) {
      fail(e);
      redraw();
    }
  });
  decline.addEventListener('click', async () => {
    accept.disabled = decline.disabled = true;
    try {
      await api('POST', `/api/challenges/${c.challenge}/decline`);
    } catch (e) {
      fail(e);
    }
    redraw();
  });
  return h('li', { class: 'game-item challenge-item', 'data-testid': `challenge-in-${c.from}` },
    h('span', { class: 'game-main' },
      h('span', { class: 'challenge-who' }, profileLink(c.from)),
      h('span', { class: 'seats' }, terms(c))),
    h('span', { class: 'game-actions' }, accept, decline));
}

/// One challenge of mine: to whom, what, and where it stands.
function outgoingItem(c, redraw, fail) {
  const actions = [];
  if (c.status === 'open') {
    const withdraw = h('button', { type: 'button', class: 'small quiet', 'data-testid': `challenge-withdraw-${c.to}` }, t('challenge.withdraw'));
    withdraw.addEventListener('click', async () => {
      withdraw.disabled = true;
      try {
        await api('DELETE', `/api/challenges/${c.challenge}`);
      } catch (e) {
        fail(e);
      }
      redraw();
    });
    actions.push(withdraw);
  } else if (c.status === 'accepted' && c.game) {
    const play = h('button', { type: 'button', class: 'small primary', 'data-testid': `challenge-go-${c.to}` }, t('challenge.go'));
    play.addEventListener('click', async () => {
      play.disabled = true;
      try {
        await goToGame(c);
      } catch (e) {
        fail(e);
        play.disabled = false;
      }
    });
    actions.push(play);
  }
  return h('li', { class: 'game-item challenge-item', 'data-testid': `challenge-out-${c.to}` },
    h('span', { class: 'game-main' },
      h('span', { class: 'challenge-who' }, profileLink(c.to)),
      h('span', { class: 'seats' }, terms(c))),
    h('span', { class: `status challenge-${c.status}` }, t(`challenge.status.${c.status}`)),
    h('span', { class: 'game-actions' }, ...actions));
}

/// The home page's "Challenges" card, for a logged-in player. It asks again for answers while
/// it is on screen.
export function challengesCard() {
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const fail = (e) => {
    error.textContent = refusalText(e);
    error.hidden = false;
  };
  const incoming = h('ul', { class: 'game-list', 'data-testid': 'challenges-incoming', 'aria-labelledby': 'challenges-in-title' });
  const outgoing = h('ul', { class: 'game-list', 'data-testid': 'challenges-outgoing', 'aria-labelledby': 'challenges-out-title' });
  const none = h('p', { class: 'hint challenges-none', 'data-testid': 'challenges-none', hidden: true }, t('challenge.none'));
  const inPart = h('div', { hidden: true }, h('h3', { id: 'challenges-in-title' }, t('challenge.incoming')), incoming);
  const outPart = h('div', { hidden: true }, h('h3', { id: 'challenges-out-title' }, t('challenge.outgoing')), outgoing);
  const card = h('section', { class: 'card list-card challenges-card', 'aria-labelledby': 'challenges-title', 'data-testid': 'challenges-card' },
    h('h2', { id: 'challenges-title' }, t('challenge.title')),
    error, none, inPart, outPart,
    h('details', { class: 'challenge-new' },
      h('summary', { 'data-testid': 'challenge-new' }, t('challenge.new')),
      challengeForm({ sent: () => redraw() })));
  let shown = '';
  async function redraw() {
    let list;
    try {
      list = await api('GET', '/api/challenges');
    } catch {
      return; // The last list stands; the next turn asks again.
    }
    // Drawn again only when something changed (a button being pressed stays put otherwise).
    const now = JSON.stringify(list);
    if (now === shown) return;
    shown = now;
    // A list is shown only with something in it; with nothing at all, one line says so.
    incoming.replaceChildren(...list.incoming.map((c) => incomingItem(c, redraw, fail)));
    outgoing.replaceChildren(...list.outgoing.map((c) => outgoingItem(c, redraw, fail)));
    inPart.hidden = !list.incoming.length;
    outPart.hidden = !list.outgoing.length;
    none.hidden = Boolean(list.incoming.length || list.outgoing.length);
  }
  redraw();
  const timer = setInterval(() => {
    if (!card.isConnected) {
      clearInterval(timer);
      return;
    }
    if (!document.hidden) redraw();
  }, POLL_MS);
  return card;
}

/// A profile's Follow/Unfollow and Challenge buttons (`p` is the profile as the server gave it
/// to a logged-in viewer: `following` is there unless it is the viewer's own).
export function profileActions(p) {
  if (p.following === undefined) return null;
  let following = p.following;
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const follow = h('button', { type: 'button', 'data-testid': 'follow', 'aria-pressed': String(following) });
  const label = () => {
    follow.textContent = t(following ? 'follow.unfollow' : 'follow.follow');
    follow.setAttribute('aria-pressed', String(following));
  };
  label();
  follow.addEventListener('click', async () => {
    follow.disabled = true;
    error.hidden = true;
    try {
      await api(following ? 'DELETE' : 'PUT', `/api/follows/${encodeURIComponent(p.name)}`);
      following = !following;
      label();
    } catch (e) {
      error.textContent = refusalText(e);
      error.hidden = false;
    } finally {
      follow.disabled = false;
    }
  });
  const form = challengeForm({ to: p.name });
  const open = h('details', { class: 'challenge-new' },
    h('summary', { 'data-testid': 'profile-challenge' }, t('challenge.challenge', { name: p.name })), form);
  return h('div', { class: 'profile-actions', 'data-testid': 'profile-actions' },
    h('p', { class: 'card-actions' }, follow), error, open);
}

/// The account page's card: whom I follow, each with an online dot and a challenge button;
/// whom I take challenges from.
export function followsCard() {
  const list = h('ul', { class: 'follow-list', 'data-testid': 'follows' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const from = h('select', { id: 'challenges-from', 'data-testid': 'challenges-from' },
    h('option', { value: 'everyone' }, t('follow.from.everyone')),
    h('option', { value: 'followed' }, t('follow.from.followed')));
  const saved = h('span', { class: 'hint', role: 'status', 'data-testid': 'challenges-from-saved' });
  from.addEventListener('change', async () => {
    saved.textContent = '';
    error.hidden = true;
    try {
      await api('PUT', '/api/me/challenges', { body: { from: from.value } });
      saved.textContent = t('follow.from.saved');
    } catch (e) {
      error.textContent = refusalText(e);
      error.hidden = false;
    }
  });
  const draw = (answer) => {
    from.value = answer.challenges_from;
    if (!answer.follows.length) {
      list.replaceChildren(h('li', { class: 'hint empty' }, t('follow.none')));
      return;
    }
    list.replaceChildren(...answer.follows.map((f) => {
      const dot = h('span', { class: `online-dot${f.online ? ' on' : ''}`, 'aria-hidden': 'true' });
      const form = challengeForm({ to: f.name });
      return h('li', { class: 'follow-item', 'data-testid': `follow-${f.name}` },
        h('span', { class: 'follow-who' }, dot, profileLink(f.name), ' ',
          h('span', { class: 'hint' }, t(f.online ? 'follow.online' : 'follow.offline'))),
        h('details', { class: 'challenge-new' },
          h('summary', { 'data-testid': `follow-challenge-${f.name}` }, t('challenge.challenge', { name: f.name })), form));
    }));
  };
  api('GET', '/api/follows').then(draw, (e) => {
    error.textContent = refusalText(e);
    error.hidden = false;
  });
  return h('section', { class: 'card follows-card', 'aria-labelledby': 'follows-title', 'data-testid': 'follows-card' },
    h('h2', { id: 'follows-title' }, t('follow.title')),
    list,
    h('div', { class: 'field' }, h('label', { for: 'challenges-from' }, t('follow.from')), from, ' ', saved),
    error);
}
