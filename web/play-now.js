// Play now: a few presets, each with how many wait for it; a click seeks a game with strangers,
// the seek's socket says when it is paired, and the page takes the player to their seat. Every
// word comes from the message catalogues.

import { api, saveGame } from './api.js';
import { h } from './dom.js';
import { num, t } from './i18n.js';

/// The presets: their catalogue key, players and clock.
export const PRESETS = [
  ['2-5+3', 2, { kind: 'realtime', initial_s: 300, increment_s: 3 }],
  ['2-10+5', 2, { kind: 'realtime', initial_s: 600, increment_s: 5 }],
  ['2-day', 2, { kind: 'turn', days: 1 }],
  ['3-10+5', 3, { kind: 'realtime', initial_s: 600, increment_s: 5 }],
  ['4-10+5', 4, { kind: 'realtime', initial_s: 600, increment_s: 5 }],
];

/// How long an unrated seek waits before bots are offered, when the player asks for them.
const BOTS_AFTER_S = 60;
/// How often the counts of who waits are asked for while the card is shown.
const COUNTS_EVERY_MS = 10_000;

const sameClock = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/// The "Play now" card. `account`: logged in (rated seeks need it); `name()`: a guest's display
/// name; `fail(e)`: shows a refusal.
export function playNowCard({ account, name, fail }) {
  const counts = new Map();
  const buttons = PRESETS.map(([key, players, clock]) => {
    const count = h('span', { class: 'preset-count', 'data-testid': `preset-count-${key}` });
    const b = h('button', { type: 'button', class: 'preset', 'data-testid': `preset-${key}` },
      h('span', { class: 'preset-name' }, t('home.multi.count', { count: players, n: num(players) })),
      h('span', { class: 'preset-clock' }, t(`playnow.clock.${key.split('-')[1]}`)),
      count);
    b.addEventListener('click', () => start(players, clock, key));
    counts.set(key, { count, players, clock });
    return b;
  });
  const rated = h('input', { type: 'checkbox', id: 'seek-rated', 'data-testid': 'seek-rated', disabled: !account });
  const bots = h('input', { type: 'checkbox', id: 'seek-bots', 'data-testid': 'seek-bots' });
  rated.addEventListener('change', () => {
    bots.disabled = rated.checked;
    if (rated.checked) bots.checked = false;
  });

  const line = h('p', { class: 'seek-line', 'data-testid': 'seek-line', role: 'status' });
  const others = h('p', { class: 'hint', 'data-testid': 'seek-others' });
  const cancel = h('button', { type: 'button', 'data-testid': 'seek-cancel' }, t('playnow.cancel'));
  const takeBots = h('button', { type: 'button', class: 'primary', 'data-testid': 'seek-take-bots', hidden: true }, t('playnow.bots.take'));
  const status = h('div', { class: 'seek-status', 'data-testid': 'seek-status', hidden: true },
    line, others, h('div', { class: 'card-actions' }, takeBots, cancel));
  const choose = h('div', { class: 'seek-choose' },
    h('div', { class: 'preset-grid' }, buttons),
    h('label', { class: 'check' }, rated, h('span', {}, t(account ? 'playnow.rated' : 'playnow.rated.login'))),
    h('label', { class: 'check' }, bots, h('span', {}, t('playnow.bots', { n: num(BOTS_AFTER_S) }))));
  const card = h('section', { class: 'card play-now-card', 'aria-labelledby': 'play-now-title', 'data-testid': 'play-now' },
    h('h2', { id: 'play-now-title' }, t('playnow.title')),
    h('p', { class: 'card-lead' }, t('playnow.lead')),
    choose, status);

  let seeking = null;

  const drawCounts = async () => {
    let pools;
    try {
      pools = (await api('GET', '/api/seeks')).pools;
    } catch {
      return; // The counts wait for the next try; the presets work without them.
    }
    const isRated = rated.checked;
    for (const [key, { count, players, clock }] of counts) {
      const pool = pools.find((p) => p.players === players && p.rated === isRated && sameClock(p.clock, clock));
      const n = pool ? pool.waiting : 0;
      count.textContent = n ? t('playnow.waiting', { count: n, n: num(n) }) : t('playnow.nobody');
      count.classList.toggle('some', n > 0);
    }
  };
  rated.addEventListener('change', drawCounts);
  drawCounts();
  const countsTimer = setInterval(() => {
    // The card is gone once the player left the home page.
    if (!card.isConnected) clearInterval(countsTimer);
    else drawCounts();
  }, COUNTS_EVERY_MS);

  const show = (s, key) => {
    choose.hidden = true;
    status.hidden = false;
    const clockWord = t(`playnow.preset.${key}`);
    if (s.status === 'waiting') {
      const m = Math.floor(s.waited_s / 60);
      const sec = String(s.waited_s % 60).padStart(2, '0');
      line.textContent = t('playnow.seeking', { game: clockWord, time: `${m}:${sec}` });
      others.textContent = s.others_waiting
        ? t('playnow.others', { count: s.others_waiting, n: num(s.others_waiting) })
        : t('playnow.others.none');
      takeBots.hidden = !s.bots_offered;
    } else if (s.status === 'paired') {
      line.textContent = t('playnow.paired');
      others.textContent = '';
      takeBots.hidden = true;
      cancel.hidden = true;
    }
  };

  const back = (said) => {
    choose.hidden = false;
    status.hidden = true;
    cancel.hidden = false;
    takeBots.hidden = true;
    if (said) fail(said);
    drawCounts();
  };

  const toTable = (s, key) => {
    const preset = PRESETS.find(([k]) => k === key);
    saveGame({
      game: s.game,
      seat: s.seat,
      token: s.seat_token,
      choices: Array.from({ length: preset[1] }, (_, i) => (i === s.seat ? 'me' : 'human')),
      variant: 'standard',
      public: true,
    });
    if (location.pathname !== '/') return;
    history.pushState(null, '', `/games/${s.game}`);
    dispatchEvent(new PopStateEvent('popstate'));
  };

  async function start(players, clock, key) {
    if (seeking) return;
    const body = { players, clock, rated: rated.checked };
    const guestName = name();
    if (guestName && !account) body.name = guestName;
    if (bots.checked && !rated.checked) body.bots_after_s = BOTS_AFTER_S;
    let made;
    try {
      made = await api('POST', '/api/seeks', { body });
    } catch (e) {
      back(e);
      return;
    }
    seeking = { id: made.seek, token: made.token, key, socket: null, poll: null, tick: null, last: null };
    show({ status: 'waiting', waited_s: 0, others_waiting: 0, bots_offered: false }, key);
    listen(seeking);
  }

  /// Hears the seek's state by its socket; polls if the socket cannot be kept.
  function listen(s) {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/api/seeks/${s.id}/ws?token=${encodeURIComponent(s.token)}`);
    s.socket = socket;
    socket.addEventListener('message', (event) => heard(s, JSON.parse(event.data)));
    socket.addEventListener('close', () => {
      if (seeking !== s || (s.last && s.last.status !== 'waiting')) return;
      // The socket went (a server restarting): a poll keeps the seek and reads it.
      s.poll = setInterval(() => poll(s), 3000);
    });
    // The wait's clock ticks here between messages.
    s.tick = setInterval(() => {
      if (seeking !== s || !s.last || s.last.status !== 'waiting') return;
      s.last = { ...s.last, waited_s: s.last.waited_s + 1 };
      show(s.last, s.key);
    }, 1000);
  }

  async function poll(s) {
    try {
      heard(s, await api('GET', `/api/seeks/${s.id}`, { token: s.token }));
    } catch (e) {
      stop(s);
      back(e);
    }
  }

  function stop(s) {
    clearInterval(s.poll);
    clearInterval(s.tick);
    if (s.socket && s.socket.readyState <= 1) s.socket.close();
    if (seeking === s) seeking = null;
  }

  function heard(s, state) {
    if (seeking !== s) return;
    s.last = state;
    if (state.status === 'paired') {
      show(state, s.key);
      stop(s);
      toTable(state, s.key);
    } else if (state.status === 'cancelled') {
      stop(s);
      back(null);
      line.textContent = t('playnow.cancelled');
    } else {
      show(state, s.key);
    }
  }

  cancel.addEventListener('click', async () => {
    const s = seeking;
    if (!s) return;
    cancel.disabled = true;
    try {
      const state = await api('DELETE', `/api/seeks/${s.id}`, { token: s.token });
      if (state.status === 'paired') {
        heard(s, state);
        return;
      }
      stop(s);
      back(null);
    } catch (e) {
      stop(s);
      back(e);
    } finally {
      cancel.disabled = false;
    }
  });

  takeBots.addEventListener('click', async () => {
    const s = seeking;
    if (!s) return;
    takeBots.disabled = true;
    try {
      heard(s, await api('POST', `/api/seeks/${s.id}/bots`, { token: s.token, body: {} }));
    } catch (e) {
      stop(s);
      back(e);
    } finally {
      takeBots.disabled = false;
    }
  });

  // Leaving the page ends the seek with its socket; the counts stop with the card.
  addEventListener('popstate', () => {
    if (seeking && location.pathname !== '/') stop(seeking);
  });
  return card;
}

