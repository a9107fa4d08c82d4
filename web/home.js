// The home page: the name and what the game is, the tutorial for newcomers, a solo game, a game
// for 2 to 4 with any mix of people and bots, the games this browser plays in, and the public
// games with a free seat. Every word comes from the message catalogues.

import { api, createGame, findGame, forgetGame, myGames, tiles as loadTiles } from './api.js';
import { clockText, controlText } from './clock.js';
import { seatName } from './words.js';
import { copy, h } from './dom.js';
import * as draw from './draw.js';
import { currentLang, num, t } from './i18n.js';
import { siteBar } from './rules.js';
import { claimSeat } from './seat.js';
import { claimName, guestNameField, profileLink, whoAmI } from './account.js';
import { gameLine } from './players.js';
import { dailyCard, dayText } from './daily.js';
import { challengesCard } from './challenges.js';
import { refusalText } from './refusals.js';
import { playNowCard } from './play-now.js';
import { watchCard } from './watch.js';

/// The choices for a seat after mine: the select's values (as `seatRequest` in api.js reads
/// them) and their words.
const SEAT_CHOICES = [
  ['human', 'home.seat.human'],
  // The levels of docs/bots.md, one entry each (level 4 is the greedy bot: no second entry).
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`bot:mcts:${n}`, `home.seat.level.${n}`]),
  ['bot:random', 'home.seat.random'],
];

/// The tiles fanned out beside the name: a 10 of each element.
const HERO_TILES = [9, 54, 28, 64];
/// The draw pile on the solo card: backs, the top one a Water 6.
const PILE_TILES = [20, 3, 44];

/// The clocks a game may have: the page's choice, and what is sent (none: the server's default,
/// which is no clock, or 10+10 for an open game).
const CLOCKS = [
  ['none', null],
  ['3+2', { kind: 'realtime', initial_s: 180, increment_s: 2 }],
  ['5+5', { kind: 'realtime', initial_s: 300, increment_s: 5 }],
  ['10+10', { kind: 'realtime', initial_s: 600, increment_s: 10 }],
  ['turn1', { kind: 'turn', days: 1 }],
  ['turn3', { kind: 'turn', days: 3 }],
];

export async function home(app) {
  document.title = t('app.name');
  const games = myGames();
  const newcomer = games.length === 0;
  const who = await whoAmI();
  const account = who.kind === 'account';

  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'error', hidden: true });
  const fail = (e) => {
    error.textContent = t('home.error', { reason: refusalText(e) });
    error.hidden = false;
  };
  const busy = async (button, work) => {
    button.disabled = true;
    error.hidden = true;
    try {
      const id = await work();
      // The player may have gone elsewhere meanwhile; the game is in "Your games" all the same.
      if (location.pathname !== '/') return;
      history.pushState(null, '', `/games/${id}`);
      dispatchEvent(new PopStateEvent('popstate'));
    } catch (e) {
      fail(e);
      button.disabled = false;
    }
  };

  // The name, a line about the game, and a fan of tiles (drawn once the tile table is here).
  const fan = h('div', { class: 'hero-tiles', 'aria-hidden': 'true' });
  const hero = h('header', { class: 'hero' },
    h('div', { class: 'hero-text' },
      h('h1', {}, t('app.name')),
      h('p', { class: 'tagline' }, t('home.tagline'))),
    fan);

  // The tutorial: a big invitation for newcomers, a line for everyone else.
  const tutorialLink = h('a', { href: '/tutorial', class: newcomer ? 'button primary big' : 'tutorial-small', 'data-testid': 'tutorial-link' }, t('home.tutorial.link'));
  const tutorial = newcomer
    ? h('section', { class: 'tutorial-card', 'aria-labelledby': 'tutorial-title', 'data-testid': 'tutorial-card' },
      h('div', {},
        h('h2', { id: 'tutorial-title' }, t('home.tutorial.title')),
        h('p', {}, t('home.tutorial.text'))),
      h('div', { class: 'tutorial-actions' }, tutorialLink,
        h('a', { href: '/rules', class: 'rules-link' }, t('home.tutorial.rules'))))
    : h('p', { class: 'tutorial-line', 'data-testid': 'tutorial-card' },
      t('home.tutorial.again'), ' ',
      tutorialLink, ' · ',
      h('a', { href: '/rules' }, t('home.nav.rules')));

  // Solo.
  const soloVariant = h('select', { id: 'solo-variant', 'data-testid': 'solo-variant', 'aria-describedby': 'solo-hint' },
    h('option', { value: 'solo' }, t('home.solo.variant.solo')),
    h('option', { value: 'solo-all' }, t('home.solo.variant.solo-all')));
  const soloHint = h('p', { class: 'hint', id: 'solo-hint' });
  const explain = () => { soloHint.textContent = t(`home.solo.hint.${soloVariant.value}`); };
  soloVariant.addEventListener('change', explain);
  explain();
  const soloStart = h('button', { type: 'button', 'data-testid': 'solo-start', class: 'primary' }, t('home.solo.start'));
  soloStart.addEventListener('click', () => busy(soloStart, () => createGame(['me'], { variant: soloVariant.value, name: claimName() })));
  // Practice: the same solo game, unrated, with the engine's hints at every decision.
  const soloPractice = h('button', { type: 'button', 'data-testid': 'solo-practice', 'aria-describedby': 'practice-hint' }, t('home.solo.practice'));
  soloPractice.addEventListener('click', () => busy(soloPractice, () => createGame(['me'], { variant: soloVariant.value, name: claimName(), practice: true })));

  // Who plays: the account, or a guest under a display name kept on this device.
  const guest = account ? null : guestNameField('my-name', { placeholder: t('home.who.placeholder') });
  const whoLine = account
    ? h('p', { class: 'who-line', 'data-testid': 'who' }, t('home.who.account', { name: who.name }), ' ',
      profileLink(who.name, { class: 'small-link' }, t('account.profile')))
    : h('div', { class: 'who-line', 'data-testid': 'who' },
      h('label', { for: 'my-name' }, t('home.who.guest')), ' ', guest.input, ' ', guest.parts, ' ',
      h('a', { href: '/account', class: 'small-link', 'data-testid': 'who-login' }, t('home.who.login')));

  // A game for 2 to 4.
  const players = h('select', { id: 'players', 'data-testid': 'players' },
    [2, 3, 4].map((n) => h('option', { value: n }, t('home.multi.count', { count: n, n: num(n) }))));
  const seatRows = h('div', { class: 'seat-rows' });
  const seatSelects = [];
  const drawSeats = () => {
    const n = Number(players.value);
    while (seatSelects.length < 4) {
      const i = seatSelects.length;
      seatSelects.push(h('select', { id: `seat-${i}`, 'data-testid': `seat-${i}` },
        SEAT_CHOICES.map(([v, key]) => h('option', { value: v }, t(key)))));
      seatSelects[i].value = 'bot:mcts:2';
    }
    seatRows.replaceChildren(
      h('div', { class: 'seat-row' }, h('span', { class: 'seat-label' }, t('seat.number', { n: num(1) })), h('strong', { class: 'seat-you' }, t('home.multi.you'))),
      ...seatSelects.slice(1, n).map((s, i) => h('div', { class: 'seat-row' },
        h('label', { for: s.id, class: 'seat-label' }, t('seat.number', { n: num(i + 2) })), s)));
  };
  players.addEventListener('change', drawSeats);
  drawSeats();
  // The clock: none among friends; an open game gets 10+10 unless another is chosen.
  const clock = h('select', { id: 'clock', 'data-testid': 'clock' },
    CLOCKS.map(([key]) => h('option', { value: key }, t(`home.multi.clock.${key}`))));
  const clockHint = h('p', { class: 'hint', hidden: true }, t('home.multi.clock.public'));
  const isPublic = h('input', { type: 'checkbox', id: 'public', 'data-testid': 'public' });
  isPublic.addEventListener('change', () => {
    clockHint.hidden = !(isPublic.checked && clock.value === 'none');
  });
  clock.addEventListener('change', () => {
    clockHint.hidden = !(isPublic.checked && clock.value === 'none');
  });
  // A rated game: people only, each with an account; only an account can start one.
  const isRated = h('input', { type: 'checkbox', id: 'rated', 'data-testid': 'rated', disabled: !account });
  isRated.addEventListener('change', () => {
    for (const s of seatSelects) {
      if (isRated.checked) s.value = 'human';
      s.disabled = isRated.checked;
    }
  });
  const create = h('button', { type: 'button', 'data-testid': 'create', class: 'primary' }, t('home.multi.create'));
  create.addEventListener('click', () => busy(create, () => {
    const choices = ['me', ...seatSelects.slice(1, Number(players.value)).map((s) => s.value)];
    const control = CLOCKS.find(([key]) => key === clock.value)[1];
    return createGame(choices, { public: isPublic.checked, rated: isRated.checked, name: claimName(), clock: control });
  }));

  const mine = h('ul', { class: 'game-list', 'data-testid': 'my-games' });
  const open = h('ul', { class: 'game-list', 'data-testid': 'lobby' });

  const pile = h('div', { class: 'pile-art', 'aria-hidden': 'true' });
  const soloCard = h('section', { class: 'card play-card solo-card', 'aria-labelledby': 'solo-title' },
    h('div', { class: 'card-head' },
      h('div', {}, h('h2', { id: 'solo-title' }, t('home.solo.title')), h('p', { class: 'card-lead' }, t('home.solo.text'))),
      pile),
    h('div', { class: 'field' }, h('label', { for: 'solo-variant' }, t('home.solo.goal')), soloVariant, soloHint),
    h('div', { class: 'card-actions' }, soloStart, soloPractice),
    h('p', { class: 'hint', id: 'practice-hint' }, t('home.solo.practice.hint')));
  const multiCard = h('section', { class: 'card play-card multi-card', 'aria-labelledby': 'multi-title' },
    h('h2', { id: 'multi-title' }, t('home.multi.title')),
    h('p', { class: 'card-lead' }, t('home.multi.text')),
    h('div', { class: 'field' }, h('label', { for: 'players' }, t('home.multi.players')), players),
    seatRows,
    h('div', { class: 'field' }, h('label', { for: 'clock' }, t('home.multi.clock')), clock),
    h('label', { class: 'check' }, isPublic, h('span', {}, t('home.multi.public'))),
    clockHint,
    h('label', { class: 'check' }, isRated, h('span', {}, t(account ? 'home.multi.rated' : 'home.multi.rated.login'))),
    h('div', { class: 'card-actions' }, create),
    h('p', { class: 'hint' }, t('home.multi.hint')));
  const mineCard = h('section', { class: 'card list-card', 'aria-labelledby': 'mine-title' },
    h('h2', { id: 'mine-title' }, t('home.mine.title')), mine);
  const openCard = h('section', { class: 'card list-card', 'aria-labelledby': 'open-title' },
    h('h2', { id: 'open-title' }, t('home.open.title')), open);

  app.replaceChildren(
    siteBar('home'),
    h('div', { class: 'home-page' },
      hero,
      whoLine,
      error,
      newcomer ? tutorial : null,
      newcomer ? null : mineCard,
      playNowCard({ account, name: claimName, fail }),
      account ? challengesCard() : null,
      dailyCard({ busy, name: claimName }),
      h('div', { class: 'play-grid' }, soloCard, multiCard),
      newcomer ? null : tutorial,
      h('div', { class: 'list-grid' }, openCard, newcomer ? mineCard : null),
      watchCard(),
      h('footer', { class: 'home-foot' },
        h('a', { href: '/rules' }, t('home.nav.rules')), ' · ',
        h('a', { href: '/about' }, t('home.nav.about')), ' · ',
        h('a', { href: '/api/openapi.json' }, t('home.foot.api')))),
  );

  drawMine(mine, games);
  if (account) drawAccountGames(mine, games, fail);
  drawLobby(open, fail, account);
  drawArt(fan, pile);
}

/// A 10 of each element fanned like a hand of cards beside the name, and a draw pile (tile
/// backs) on the solo card. Decoration only.
async function drawArt(fan, pile) {
  let table;
  try {
    table = await loadTiles();
  } catch {
    return; // No tiles, no pictures: the page stands without them.
  }
  fan.replaceChildren(...HERO_TILES.map((id, i) => {
    const s = draw.tileSvg(table[id], { size: 92, rot: 0 });
    s.style.setProperty('--i', i);
    return s;
  }));
  pile.replaceChildren(...PILE_TILES.map((id, i) => {
    const s = draw.tileSvg(table[id], { size: 58, back: true });
    s.style.setProperty('--i', i);
    return s;
  }));
}

/// The day a game was started, as the language writes dates.
function startedOn(g) {
  if (!g.created) return null;
  const lang = currentLang() === 'qps' ? 'en' : currentLang();
  return t('home.mine.started', { date: new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short' }).format(new Date(g.created)) });
}

/// Puts the games where it is my turn first, the least time left first; the rest keep their
/// order.
function urgent(list) {
  const items = [...list.children];
  const key = (li) => (li.dataset.urgency === undefined ? Infinity : Number(li.dataset.urgency));
  const sorted = items.map((li, i) => [li, i]).sort(([a, i], [b, j]) => key(a) - key(b) || i - j).map(([li]) => li);
  sorted.forEach((li, i) => {
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
}

/// The games of this browser, each with its state as fetched now.
function drawMine(list, games) {
  if (games.length === 0) {
    list.replaceChildren(h('li', { class: 'hint empty' }, t('home.mine.none')));
    return;
  }
  list.replaceChildren(...games.map((g) => {
    const status = h('span', { class: 'status' }, t('home.status.loading'));
    const forget = h('button', { type: 'button', class: 'small quiet', title: t('home.mine.forget.title') }, t('home.mine.forget'));
    const started = startedOn(g);
    const actions = h('span', { class: 'game-actions' }, forget);
    const item = h('li', { class: 'game-item' },
      h('span', { class: 'game-main' },
        h('a', { href: `/games/${g.game}`, class: 'game-link' }, gameLabel(g)),
        started ? h('span', { class: 'game-date' }, started) : null),
      status, actions);
    forget.addEventListener('click', () => {
      forgetGame(g.game);
      item.remove();
      if (!list.children.length) list.replaceChildren(h('li', { class: 'hint empty' }, t('home.mine.none')));
    });
    api('GET', `/api/games/${g.game}`, { token: g.token }).then((s) => {
      const v = s.view;
      if (s.status === 'over') {
        status.textContent = t('home.status.over');
        status.classList.add('over');
        actions.prepend(h('a', { href: `/games/${g.game}/replay`, class: 'small-link', 'data-testid': `replay-${g.game}`, title: t('replay.link.title') }, t('replay.link')));
      } else if (s.status === 'waiting') {
        status.textContent = t('home.status.waiting');
        // The invites of seats still free, to send again.
        for (const i of g.invites || []) {
          if (!s.seats[i.seat] || s.seats[i.seat].claimed) continue;
          const url = `${location.origin}/games/${g.game}/join/${i.code}`;
          const b = h('button', { type: 'button', class: 'small', 'data-testid': `copy-invite-${g.game}-${i.seat}`, 'data-url': url },
            t('home.invite.copy', { n: num(i.seat + 1) }));
          b.addEventListener('click', async () => {
            b.textContent = (await copy(url)) ? t('home.invite.copied') : url;
          });
          actions.prepend(b);
        }
      } else if (v.next && v.next.player === s.you && !s.seats[s.you].replaced) {
        const left = s.clock ? s.clock.left_ms[s.you] : null;
        status.textContent = left === null || left === undefined ? t('home.status.yours') : t('home.status.yours.time', { time: clockText(left) });
        status.classList.add('yours');
        // Most urgent first: my turn, the least time left.
        item.dataset.urgency = String(left === null || left === undefined ? 1e15 : left);
        urgent(list);
      } else status.textContent = t('home.status.playing');
    }, (e) => {
      status.textContent = t(e.status === 404 ? 'home.status.gone' : e.status === 403 ? 'home.status.claimed' : 'home.status.unreachable');
      status.classList.add('gone');
    });
    return item;
  }));
}

/// The account's games that this browser does not hold (played on another device): each can be
/// taken here, which moves the seat to this browser.
async function drawAccountGames(list, games, fail) {
  let answer;
  try {
    answer = await api('GET', '/api/me/games');
  } catch {
    return; // The browser's own list stands.
  }
  const here = new Set(games.map((g) => g.game));
  const others = answer.games.filter((g) => !here.has(g.game));
  if (!others.length) return;
  list.querySelector('.empty')?.remove();
  for (const g of others) {
    const actions = [];
    if (g.status !== 'over') {
      const take = h('button', { type: 'button', class: 'small', 'data-testid': `play-here-${g.game}` }, t('home.mine.here'));
      take.addEventListener('click', async () => {
        take.disabled = true;
        try {
          await claimSeat(g.game, { seat: g.seat });
          history.pushState(null, '', `/games/${g.game}`);
          dispatchEvent(new PopStateEvent('popstate'));
        } catch (e) {
          fail(e);
          take.disabled = false;
        }
      });
      actions.push(take);
    }
    const item = gameLine(g, { actions });
    if (g.your_turn) {
      // Its turn and time come from the server: the same order as on the device that holds it.
      const status = item.querySelector('.status');
      status.textContent = g.left_ms === undefined ? t('home.status.yours') : t('home.status.yours.time', { time: clockText(g.left_ms) });
      status.classList.add('yours');
      item.dataset.urgency = String(g.left_ms === undefined ? 1e15 : g.left_ms);
    }
    list.append(item);
  }
  urgent(list);
}

/// "5 minutes ago": how long ago a game was made.
function age(createdAt) {
  const minutes = Math.max(0, Math.floor((Date.now() / 1000 - createdAt) / 60));
  if (minutes < 1) return t('home.open.age.now');
  if (minutes < 60) return t('home.open.age.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('home.open.age.hours', { count: hours });
  return t('home.open.age.days', { count: Math.floor(hours / 24) });
}

function gameLabel(g) {
  const players = g.players || (g.choices && g.choices.length);
  if (g.daily) return t('home.mine.daily', { variant: t(`home.solo.variant.${g.variant}`), date: dayText(g.daily) });
  if (g.practice) return t('home.mine.practice');
  if (g.variant === 'solo') return t('home.mine.solo');
  if (g.variant === 'solo-all') return t('home.mine.solo-all');
  return players ? t('home.mine.players', { count: players, n: num(players) }) : t('home.mine.game');
}

/// Public games with a free seat.
async function drawLobby(list, fail, account) {
  let lobby;
  try {
    lobby = await api('GET', '/api/games');
  } catch (e) {
    list.replaceChildren(h('li', { class: 'hint empty' }, t('home.open.failed', { reason: refusalText(e) })));
    return;
  }
  const open = lobby.games.filter((g) => g.seats.some((s) => !s.claimed));
  if (open.length === 0) {
    list.replaceChildren(h('li', { class: 'hint empty' }, t('home.open.none')));
    return;
  }
  list.replaceChildren(...open.map((g) => {
    const state = { seats: g.seats };
    const mineToo = Boolean(findGame(g.game));
    // A game this browser plays in already: open it rather than take a second seat.
    const free = mineToo ? [] : g.seats.filter((s) => !s.claimed);
    // A rated game's seats are for accounts.
    const loginFirst = g.rated && !account && free.length
      ? h('a', { href: '/account', class: 'small-link' }, t('home.open.login')) : null;
    return h('li', { class: 'game-item' },
      h('span', { class: 'game-main' },
        h('strong', {}, t('home.mine.players', { count: g.players, n: num(g.players) }), g.rated ? ` · ${t('profile.rated')}` : '',
          g.clock ? h('span', { 'data-testid': `lobby-clock-${g.game}` }, ` · ${controlText(g.clock)}`) : null),
        h('span', { class: 'game-date', 'data-testid': `lobby-host-${g.game}` },
          g.host ? t('home.open.by', { name: g.host, age: age(g.created_at) }) : age(g.created_at)),
        h('span', { class: 'seats' }, g.seats.map((s) => seatName(state, s.seat)).join(', '))),
      h('span', { class: 'game-actions' },
        loginFirst,
        (loginFirst ? [] : free).map((s) => {
          const b = h('button', { type: 'button', class: 'small' }, t('home.open.take', { n: num(s.seat + 1) }));
          b.addEventListener('click', async () => {
            b.disabled = true;
            try {
              await claimSeat(g.game, { seat: s.seat });
              history.pushState(null, '', `/games/${g.game}`);
              dispatchEvent(new PopStateEvent('popstate'));
            } catch (e) {
              fail(e);
              b.disabled = false;
            }
          });
          return b;
        }),
        h('a', { href: `/games/${g.game}`, class: 'small-link' }, t(mineToo ? 'home.open.yours' : 'home.open.watch'))));
  }));
}
