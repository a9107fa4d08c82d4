// Who plays here: an account (logged in with the session cookie, which the page never sees) or
// a guest with a display name kept on this device. And the account page (`/account`): sign up,
// log in, a guest's name; once logged in, a new password, log out (here or everywhere), delete
// the account.

import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { siteBar } from './rules.js';

const NAME_KEY = 'sagani.name';

let me = null;

/// Who the server says this browser is: `{kind: 'account', name}` or `{kind: 'guest'}` (asked
/// once per page load, and again after a log-in or log-out).
export function whoAmI() {
  if (!me) me = api('GET', '/api/me').catch(() => ({ kind: 'guest' }));
  return me;
}

function known(answer) {
  me = Promise.resolve(answer);
  return answer;
}

/// The guest's display name on this device ('' when none was given).
export function guestName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

export function setGuestName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  } catch {
    // A browser that keeps nothing plays without a name.
  }
}

/// The name to send when claiming a seat or creating a game: a guest's display name (the
/// server uses the account's name when logged in).
export function claimName() {
  return guestName().trim() || undefined;
}

/// A link to a player's profile.
export function profileLink(name, attrs = {}, text = t('player.name', { name })) {
  return h('a', { href: `/players/${encodeURIComponent(name)}`, ...attrs }, text);
}

/// The account's part of the site bar: "Ada" (the profile) or "Log in".
export function accountLinks() {
  const box = h('span', { class: 'account-links', 'data-testid': 'account-links' });
  whoAmI().then((who) => {
    box.replaceChildren(
      h('a', { href: '/leaderboard', 'data-testid': 'nav-leaderboard' }, t('account.nav.leaderboard')),
      who.kind === 'account'
        ? h('a', { href: '/account', 'data-testid': 'nav-account' }, t('account.nav.me', { name: who.name }))
        : h('a', { href: '/account', 'data-testid': 'nav-account' }, t('account.nav.login')));
  });
  return box;
}

/// A form of labelled fields with one button; `submit(values)` does the work and may throw.
function form(id, fields, button, submit) {
  const error = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': `${id}-error` });
  const inputs = fields.map(([name, type, label, extra = {}]) => [name, h('input', { id: `${id}-${name}`, name, type, 'data-testid': `${id}-${name}`, required: true, ...extra }), label]);
  const go = h('button', { type: 'submit', class: 'primary', 'data-testid': `${id}-submit` }, button);
  const el = h('form', { class: 'account-form', 'data-testid': id },
    inputs.map(([, input, label]) => h('div', { class: 'field' }, h('label', { for: input.id }, label), input)),
    error, h('div', { class: 'card-actions' }, go));
  el.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    go.disabled = true;
    error.hidden = true;
    try {
      await submit(Object.fromEntries(inputs.map(([name, input]) => [name, input.value])));
    } catch (e) {
      error.textContent = accountError(e);
      error.hidden = false;
    } finally {
      go.disabled = false;
    }
  });
  return el;
}

/// A refusal in the player's words.
function accountError(e) {
  const known = ['name_taken', 'wrong_login', 'rate_limited', 'not_logged_in', 'busy'];
  if (known.includes(e.code)) return t(`account.error.${e.code}`);
  // The server's sentence says what is wrong with a name or a password (in English).
  if (e.code === 'bad_request') return t('account.error.bad_request', { reason: e.message });
  return t('account.error.other', { reason: e.message });
}

/// `/account`.
export async function accountPage(app) {
  document.title = t('account.doc.title');
  const who = await whoAmI();
  const page = h('article', { class: 'page account-page', 'data-testid': 'account-page' });
  app.replaceChildren(siteBar('account'), page);
  const reload = () => accountPage(app);
  if (who.kind === 'account') {
    const done = h('p', { class: 'notice', role: 'status', hidden: true, 'data-testid': 'password-changed' }, t('account.password.done'));
    const logOut = h('button', { type: 'button', 'data-testid': 'log-out' }, t('account.logout'));
    logOut.addEventListener('click', async () => {
      known(await api('DELETE', '/api/session'));
      reload();
    });
    const everywhere = h('button', { type: 'button', 'data-testid': 'log-out-everywhere' }, t('account.logout.everywhere'));
    everywhere.addEventListener('click', async () => {
      known(await api('DELETE', '/api/sessions'));
      reload();
    });
    page.append(
      h('header', { class: 'page-head' },
        h('h1', {}, t('account.title.me', { name: who.name })),
        h('p', { class: 'lead' }, profileLink(who.name, { 'data-testid': 'my-profile' }, t('account.profile')))),
      h('p', { class: 'card-actions' }, logOut, everywhere),
      h('section', { class: 'card' },
        h('h2', {}, t('account.password.title')),
        form('password', [
          ['password', 'password', t('account.password.old'), { autocomplete: 'current-password' }],
          ['new_password', 'password', t('account.password.new'), { autocomplete: 'new-password', minlength: 8 }],
        ], t('account.password.submit'), async (v) => {
          await api('PUT', '/api/me/password', { body: v });
          done.hidden = false;
        }), done),
      h('section', { class: 'card danger-card' },
        h('h2', {}, t('account.delete.title')),
        h('p', {}, t('account.delete.text')),
        form('delete', [['password', 'password', t('account.password.old'), { autocomplete: 'current-password' }]],
          t('account.delete.submit'), async (v) => {
            known(await api('DELETE', '/api/me', { body: v }));
            reload();
          })));
    return;
  }
  const nameInput = h('input', { id: 'guest-name', type: 'text', maxlength: 24, value: guestName(), 'data-testid': 'guest-name', autocomplete: 'nickname' });
  const saved = h('span', { class: 'hint', role: 'status', 'data-testid': 'guest-name-saved' });
  nameInput.addEventListener('change', () => {
    setGuestName(nameInput.value.trim());
    saved.textContent = t('account.guest.saved');
  });
  const enter = (status) => async (v) => {
    const answer = await api('POST', status === 'new' ? '/api/players' : '/api/session', { body: { name: v.name, password: v.password } });
    known(answer);
    history.pushState(null, '', '/');
    dispatchEvent(new PopStateEvent('popstate'));
  };
  page.append(
    h('header', { class: 'page-head' }, h('h1', {}, t('account.title')), h('p', { class: 'lead' }, t('account.lead'))),
    h('div', { class: 'play-grid' },
      h('section', { class: 'card' },
        h('h2', {}, t('account.login.title')),
        form('login', [
          ['name', 'text', t('account.name'), { autocomplete: 'username' }],
          ['password', 'password', t('account.password'), { autocomplete: 'current-password' }],
        ], t('account.login.submit'), enter('old'))),
      h('section', { class: 'card' },
        h('h2', {}, t('account.signup.title')),
        h('p', { class: 'hint' }, t('account.signup.rules')),
        form('signup', [
          ['name', 'text', t('account.name'), { autocomplete: 'username', minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' }],
          ['password', 'password', t('account.password'), { autocomplete: 'new-password', minlength: 8 }],
        ], t('account.signup.submit'), enter('new')))),
    h('section', { class: 'card' },
      h('h2', {}, t('account.guest.title')),
      h('p', {}, t('account.guest.text')),
      h('div', { class: 'field' }, h('label', { for: 'guest-name' }, t('account.guest.name')), nameInput, saved)));
}
