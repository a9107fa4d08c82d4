// Who plays here: an account (logged in with the session cookie, which the page never sees) or
// a guest with a display name kept on this device. And the account page (`/account`): sign up,
// log in, a guest's name; once logged in, a new password, log out (here or everywhere), delete
// the account.

import { api } from './api.js';
import { h } from './dom.js';
import { num, t } from './i18n.js';
import { checkDisplayName, checkName, checkPassword, DISPLAY_NAME_MAX, displayLength, length, NAME_MAX } from './names.js';
import { detailText, refusalText } from './refusals.js';
import { siteBar } from './rules.js';
import { mailSettings } from './notices.js';

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

/// What a field says while a person types: its rule (said before submit), a count of its
/// characters against the most it may have, and what is wrong (in words, never by cutting the
/// text short). `check(value)` gives a refusal's detail (`names.js`) or null; `typing` is true
/// while the person is still typing (a name too short is not wrong yet).
function watched(input, { rule, max, count, check }) {
  const id = input.id;
  const ruleEl = rule ? h('span', { class: 'hint field-rule', id: `${id}-rule`, 'data-testid': `${id}-rule` }, rule) : null;
  const counter = max ? h('span', { class: 'hint counter', id: `${id}-count`, 'data-testid': `${id}-count` }) : null;
  const problem = h('span', { class: 'field-error', id: `${id}-problem`, role: 'status', 'data-testid': `${id}-problem`, hidden: true });
  input.setAttribute('aria-describedby', [ruleEl && ruleEl.id, counter && counter.id, problem.id].filter(Boolean).join(' '));
  /// Shows what is wrong now; returns the detail (null when the value is fine).
  const show = (typing) => {
    const detail = check(input.value);
    const len = count(input.value);
    if (counter) {
      counter.textContent = t('account.name.count', { len: num(len), max: num(max) });
      counter.classList.toggle('over', len > max);
    }
    const say = detail && !(typing && (len === 0 || (detail.min !== undefined && len < detail.min)));
    problem.textContent = say ? detailText(detail) : '';
    problem.hidden = !say;
    input.setAttribute('aria-invalid', say ? 'true' : 'false');
    return detail;
  };
  input.addEventListener('input', () => show(true));
  show(true);
  return { parts: [ruleEl, counter, problem].filter(Boolean), check: () => show(false) };
}

/// A form of labelled fields with one button; `submit(values)` does the work and may throw. A
/// field with `watch` (see `watched`) is checked before anything is sent.
function form(id, fields, button, submit) {
  const error = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': `${id}-error` });
  const inputs = fields.map(([name, type, label, extra = {}, watch]) => {
    const input = h('input', { id: `${id}-${name}`, name, type, 'data-testid': `${id}-${name}`, required: true, ...extra });
    return { name, input, label, watch: watch && watched(input, watch) };
  });
  const go = h('button', { type: 'submit', class: 'primary', 'data-testid': `${id}-submit` }, button);
  const el = h('form', { class: 'account-form', 'data-testid': id, novalidate: true },
    inputs.map(({ input, label, watch }) => h('div', { class: 'field' }, h('label', { for: input.id }, label), input, watch ? watch.parts : [])),
    error, h('div', { class: 'card-actions' }, go));
  el.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    // The page's own checks first: a wrong field says why beside it, and nothing is sent.
    const wrong = inputs.filter((f) => f.watch && f.watch.check());
    const empty = inputs.find((f) => !f.watch && !f.input.value);
    if (wrong.length) return wrong[0].input.focus();
    if (empty) return empty.input.focus();
    go.disabled = true;
    try {
      await submit(Object.fromEntries(inputs.map(({ name, input }) => [name, input.value])));
    } catch (e) {
      error.textContent = accountError(e);
      error.hidden = false;
    } finally {
      go.disabled = false;
    }
  });
  return el;
}

/// A refusal in the player's words: the account page's own where it has them, else the
/// catalogue's by the refusal's code and detail.
function accountError(e) {
  const known = ['name_taken', 'wrong_login', 'rate_limited', 'not_logged_in', 'busy'];
  if (known.includes(e.code)) return t(`account.error.${e.code}`);
  return refusalText(e);
}

/// The name, the password and a new password: their rules as the server checks them.
const nameField = () => ({ rule: t('account.name.rule'), max: NAME_MAX, count: length, check: checkName });
const passwordField = () => ({ rule: t('account.password.rule'), count: (v) => [...v].length, check: checkPassword });

/// A guest's display name field, kept on this device once it is fine (`saved` says so). Its
/// count says the limit before anything is typed.
export function guestNameField(id, attrs = {}) {
  const input = h('input', { id, type: 'text', value: guestName(), 'data-testid': id, autocomplete: 'nickname', ...attrs });
  const saved = h('span', { class: 'hint', role: 'status', 'data-testid': `${id}-saved` });
  const watch = watched(input, { max: DISPLAY_NAME_MAX, count: displayLength, check: (v) => (v.trim() ? checkDisplayName(v) : null) });
  input.addEventListener('change', () => {
    if (input.value.trim() && watch.check()) {
      saved.textContent = '';
      return;
    }
    setGuestName(input.value.trim());
    saved.textContent = t('account.guest.saved');
  });
  return { input, parts: [...watch.parts, saved], saved };
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
          ['new_password', 'password', t('account.password.new'), { autocomplete: 'new-password' }, passwordField()],
        ], t('account.password.submit'), async (v) => {
          await api('PUT', '/api/me/password', { body: v });
          done.hidden = false;
        }), done),
      mailSettings(),
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
  const guest = guestNameField('guest-name');
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
        form('signup', [
          ['name', 'text', t('account.name'), { autocomplete: 'username' }, nameField()],
          ['password', 'password', t('account.password'), { autocomplete: 'new-password' }, passwordField()],
        ], t('account.signup.submit'), enter('new')))),
    h('section', { class: 'card' },
      h('h2', {}, t('account.guest.title')),
      h('p', {}, t('account.guest.text')),
      h('div', { class: 'field' }, h('label', { for: 'guest-name' }, t('account.guest.name')), guest.input, guest.parts)));
}
