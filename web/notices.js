// An account's notices: the unread count in the site bar and the table's bar on every page and
// in the tab's title ("(2) Sagani"), asked for every 45 seconds and when the tab comes back;
// the list at `/notices` (opening it marks them read); and the mail settings of the account page.

import { api } from './api.js';
import { h } from './dom.js';
import { currentLang, num, t } from './i18n.js';
import { refusalText } from './refusals.js';
import { siteBar } from './rules.js';
import { whoAmI } from './account.js';

const POLL_MS = 45_000;
let unread = 0;
let asking = null;
let started = false;

/// The unread count in the tab's title, kept there whatever title a page sets.
function applyTitle() {
  const base = document.title.replace(/^\(\d+\) /, '');
  const want = unread > 0 ? `(${unread}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

/// Every notices link on screen shows the count.
function showCount() {
  for (const link of document.querySelectorAll('[data-notices-link]')) paint(link);
  applyTitle();
}

function paint(link) {
  const badge = link.querySelector('.notices-count');
  badge.hidden = unread === 0;
  badge.textContent = num(unread);
  link.setAttribute('aria-label', unread > 0 ? `${t('notices.bar')}: ${t('notices.bar.unread', { count: unread })}` : t('notices.bar'));
  link.classList.toggle('has-unread', unread > 0);
}

/// Asks the server for the unread count (the count alone: one cheap request), for an account.
export function refreshCount() {
  if (asking) return asking;
  asking = (async () => {
    const who = await whoAmI();
    if (who.kind !== 'account') {
      unread = 0;
    } else {
      try {
        unread = (await api('GET', '/api/notices?count=1')).unread;
      } catch {
        // Kept as it was: the next round asks again.
      }
    }
    showCount();
  })().finally(() => {
    asking = null;
  });
  return asking;
}

/// Starts asking for the count: now, every 45 seconds while the tab is seen, and when it is
/// seen again.
export function startNotices() {
  if (started) return;
  started = true;
  const title = document.querySelector('title');
  if (title) new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
  refreshCount();
  setInterval(() => {
    if (document.visibilityState === 'visible') refreshCount();
  }, POLL_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refreshCount();
  });
  window.addEventListener('focus', () => refreshCount());
}

/// The bar's link to the notices with the unread count; shown for an account only.
export function noticesLink(current = false) {
  const link = h('a', {
    href: '/notices', class: 'notices-link', 'data-notices-link': '', 'data-testid': 'nav-notices', hidden: true,
    'aria-current': current ? 'page' : undefined,
  }, h('span', { class: 'notices-label' }, t('notices.bar')), ' ',
  h('span', { class: 'notices-count', 'data-testid': 'notices-count', 'aria-hidden': 'true', hidden: true }));
  paint(link);
  whoAmI().then((who) => {
    link.hidden = who.kind !== 'account';
  });
  return link;
}

function when(ms) {
  const lang = currentLang() === 'qps' ? 'en' : currentLang();
  return new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(ms));
}

/// "with Bea and Cem" in the page's language.
function withWhom(names) {
  if (!names || names.length === 0) return null;
  const lang = currentLang() === 'qps' ? 'en' : currentLang();
  const list = typeof Intl.ListFormat === 'function' ? new Intl.ListFormat(lang, { type: 'conjunction' }).format(names) : names.join(', ');
  return t('notices.with', { names: list });
}

function item(n) {
  const href = n.kind === 'challenge' ? '/' : n.game ? `/games/${encodeURIComponent(n.game)}` : null;
  const open = href && h('a', { href, 'data-testid': 'notice-open' }, t(n.kind === 'challenge' ? 'notices.open.challenges' : 'notices.open.game'));
  return h('li', { class: `notice-item${n.read ? '' : ' unread'}`, 'data-testid': 'notice', 'data-kind': n.kind },
    h('p', { class: 'notice-text' },
      n.read ? null : h('span', { class: 'notice-new', 'data-testid': 'notice-new' }, t('notices.new')),
      t(`notices.kind.${n.kind}`)),
    h('p', { class: 'notice-meta' },
      withWhom(n.players), n.players && n.players.length ? ' · ' : null,
      h('time', { datetime: new Date(n.at).toISOString() }, when(n.at)), open ? ' · ' : null, open));
}

/// `/notices`: the account's notices, newest first; seeing them marks them read.
export async function noticesPage(app) {
  document.title = t('notices.doc.title');
  const page = h('article', { class: 'page notices-page', 'data-testid': 'notices-page' },
    h('header', { class: 'page-head' }, h('h1', {}, t('notices.title')), h('p', { class: 'lead' }, t('notices.lead'))));
  app.replaceChildren(siteBar('notices'), page);
  const who = await whoAmI();
  if (who.kind !== 'account') {
    page.append(h('p', { 'data-testid': 'notices-guest' }, t('notices.guest'), ' ', h('a', { href: '/account' }, t('account.nav.login'))));
    return;
  }
  let list;
  try {
    list = await api('GET', '/api/notices');
  } catch {
    page.append(h('p', { class: 'error', role: 'alert', 'data-testid': 'notices-error' }, t('notices.error')));
    return;
  }
  page.append(list.notices.length === 0
    ? h('p', { class: 'notices-empty', 'data-testid': 'notices-empty' }, t('notices.empty'))
    : h('ul', { class: 'notice-list', 'data-testid': 'notice-list' }, list.notices.map(item)));
  const newest = list.notices.find((n) => !n.read);
  if (newest) {
    // The newest notice is first: everything up to it has been seen.
    const upto = Math.max(...list.notices.map((n) => n.at));
    try {
      unread = (await api('POST', '/api/notices/read', { body: { upto } })).unread;
      showCount();
    } catch {
      // Still unread: shown again next time.
    }
  }
}

/// The account page's mail settings: the address (confirmed by a mailed link), what to mail,
/// or that this server sends no mail.
export function mailSettings() {
  const box = h('section', { class: 'card mail-card', 'data-testid': 'mail-settings' }, h('h2', {}, t('notices.mail.title')));
  const params = new URLSearchParams(location.search);
  const arrived = params.get('mail');
  // Said once: a reload of the page does not say it again.
  if (arrived) history.replaceState(history.state, '', location.pathname);
  api('GET', '/api/me/email').then((s) => draw(box, s, arrived)).catch((e) => {
    box.append(h('p', { class: 'error', role: 'alert' }, refusalText(e)));
  });
  return box;
}

function draw(box, s, arrived) {
  const head = box.firstChild;
  if (!s.mail) {
    box.replaceChildren(head, h('p', { 'data-testid': 'mail-off' }, t('notices.mail.off')));
    return;
  }
  const said = h('p', { class: 'notice', role: 'status', 'data-testid': 'mail-status' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'mail-error' });
  const address = h('input', { id: 'mail-address', type: 'email', autocomplete: 'email', value: s.address || '', 'data-testid': 'mail-address' });
  const check = (id, on, label) => {
    const input = h('input', { id, type: 'checkbox', checked: on, 'data-testid': id });
    return [input, h('label', { class: 'check' }, input, ' ', label)];
  };
  const [yourTurn, yourTurnLabel] = check('mail-your-turn', s.your_turn, t('notices.mail.your_turn'));
  const [challenges, challengesLabel] = check('mail-challenges', s.challenges, t('notices.mail.challenges'));
  if (arrived === 'verified') said.textContent = t('notices.mail.just_verified');
  else if (arrived === 'expired') said.textContent = t('notices.mail.expired');
  else if (s.address) said.textContent = t(s.verified ? 'notices.mail.verified' : 'notices.mail.unverified', { address: s.address });
  said.hidden = !said.textContent;
  const save = h('button', { type: 'submit', class: 'primary', 'data-testid': 'mail-save' }, t('notices.mail.save'));
  const remove = s.address ? h('button', { type: 'button', 'data-testid': 'mail-remove' }, t('notices.mail.remove')) : null;
  const send = async (body) => {
    error.hidden = true;
    save.disabled = true;
    try {
      const now = await api('PUT', '/api/me/email', { body });
      draw(box, now, null);
      const status = box.querySelector('[data-testid=mail-status]');
      if (!status.textContent) status.textContent = t('notices.mail.saved');
      status.hidden = false;
    } catch (e) {
      error.textContent = refusalText(e);
      error.hidden = false;
    } finally {
      save.disabled = false;
    }
  };
  const form = h('form', { class: 'account-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'mail-address' }, t('notices.mail.address')), address),
    h('div', { class: 'field checks' }, yourTurnLabel, challengesLabel),
    error, h('div', { class: 'card-actions' }, save, remove));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const a = address.value.trim();
    // What the server would refuse is said at once, without asking it.
    if (a && (a.length > 254 || !/^[^\s@]+@[^\s@.][^\s@]*\.[^\s@]*[^\s@.]$/.test(a))) {
      error.textContent = t('error.detail.mail_address');
      error.hidden = false;
      address.focus();
      return;
    }
    send(a ? { address: a, lang: currentLang() === 'de' ? 'de' : 'en', your_turn: yourTurn.checked, challenges: challenges.checked } : { address: null });
  });
  if (remove) remove.addEventListener('click', () => send({ address: null }));
  box.replaceChildren(head, h('p', {}, t('notices.mail.lead')), said, form);
}
