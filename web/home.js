// The home screen: a solo game, a game for 2 to 4 with any mix of people and bots, the games
// this browser plays in, and the public games with a free seat.

import { api, createGame, findGame, forgetGame, myGames, seatName } from './api.js';
import { copy, h } from './dom.js';
import { claimSeat } from './table.js';

const SEAT_CHOICES = [
  ['human', 'A person (invite link)'],
  ['bot:random', 'Bot: random'],
  ['bot:greedy', 'Bot: greedy'],
  ['bot:mcts:1', 'Bot: mcts, level 1 (quick)'],
  ['bot:mcts:2', 'Bot: mcts, level 2'],
  ['bot:mcts:3', 'Bot: mcts, level 3'],
  ['bot:mcts:4', 'Bot: mcts, level 4'],
  ['bot:mcts:5', 'Bot: mcts, level 5 (strongest)'],
];

export async function home(app) {
  document.title = 'Sagani';
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'error', hidden: true });
  const fail = (e) => {
    error.textContent = e.message;
    error.hidden = false;
  };
  const busy = async (button, work) => {
    button.disabled = true;
    error.hidden = true;
    try {
      const id = await work();
      // The player may have gone elsewhere meanwhile; the game is in "My games" all the same.
      if (location.pathname !== '/') return;
      history.pushState(null, '', `/games/${id}`);
      dispatchEvent(new PopStateEvent('popstate'));
    } catch (e) {
      fail(e);
      button.disabled = false;
    }
  };

  // Solo.
  const soloVariant = h('select', { id: 'solo-variant', 'data-testid': 'solo-variant' },
    h('option', { value: 'solo' }, 'Reach 75 points with as few tiles as you can'),
    h('option', { value: 'solo-all' }, 'Place all 72 tiles for the highest score'));
  const soloStart = h('button', { 'data-testid': 'solo-start', class: 'primary' }, 'Start a solo game');
  soloStart.addEventListener('click', () => busy(soloStart, () => createGame(['me'], { variant: soloVariant.value })));

  // A game for 2 to 4.
  const players = h('select', { id: 'players', 'data-testid': 'players' }, [2, 3, 4].map((n) => h('option', { value: n }, `${n} players`)));
  const seatRows = h('div', { class: 'seat-rows' });
  const seatSelects = [];
  const drawSeats = () => {
    const n = Number(players.value);
    while (seatSelects.length < 4) {
      const i = seatSelects.length;
      seatSelects.push(h('select', { id: `seat-${i}`, 'data-testid': `seat-${i}` },
        SEAT_CHOICES.map(([v, label]) => h('option', { value: v }, label))));
      seatSelects[i].value = 'bot:mcts:2';
    }
    seatRows.replaceChildren(
      h('div', { class: 'seat-row' }, h('span', {}, 'Seat 1'), h('strong', {}, 'You')),
      ...seatSelects.slice(1, n).map((s, i) => h('div', { class: 'seat-row' }, h('label', { for: s.id }, `Seat ${i + 2}`), s)));
  };
  players.addEventListener('change', drawSeats);
  drawSeats();
  const isPublic = h('input', { type: 'checkbox', id: 'public', 'data-testid': 'public' });
  const create = h('button', { 'data-testid': 'create', class: 'primary' }, 'Create the game');
  create.addEventListener('click', () => busy(create, () => {
    const choices = ['me', ...seatSelects.slice(1, Number(players.value)).map((s) => s.value)];
    return createGame(choices, { public: isPublic.checked });
  }));

  const mine = h('ul', { class: 'game-list', 'data-testid': 'my-games' });
  const open = h('ul', { class: 'game-list', 'data-testid': 'lobby' });

  app.replaceChildren(
    h('header', { class: 'home-head' }, h('h1', {}, 'Sagani'),
      h('p', {}, 'The tile-laying game of the Spirits of Nature, for 1 to 4 players.')),
    error,
    h('div', { class: 'home' },
      h('section', { class: 'card' }, h('h2', {}, 'Solo'),
        h('label', { for: 'solo-variant' }, 'Goal'), soloVariant, soloStart),
      h('section', { class: 'card' }, h('h2', {}, 'A game for 2 to 4'),
        h('label', { for: 'players' }, 'Players'), players, seatRows,
        h('label', { class: 'check' }, isPublic, ' List it in the open games, so anyone may take a free seat'),
        create,
        h('p', { class: 'hint' }, 'You get an invite link for each person to send them; bots play at once.')),
      h('section', { class: 'card' }, h('h2', {}, 'My games'), mine),
      h('section', { class: 'card' }, h('h2', {}, 'Open games'), open)),
  );

  drawMine(mine);
  drawLobby(open, fail);
}

/// The games of this browser, each with its state as fetched now.
function drawMine(list) {
  const games = myGames();
  if (games.length === 0) {
    list.replaceChildren(h('li', { class: 'hint' }, 'No games yet on this device.'));
    return;
  }
  list.replaceChildren(...games.map((g) => {
    const status = h('span', { class: 'status' }, '…');
    const forget = h('button', { class: 'small', title: 'Remove from this list (the game goes on)' }, 'Forget');
    const item = h('li', {},
      h('a', { href: `/games/${g.game}` }, gameLabel(g)),
      ' ', h('code', {}, g.game.slice(0, 8)), ' ', status, ' ', forget);
    forget.addEventListener('click', () => {
      forgetGame(g.game);
      item.remove();
    });
    api('GET', `/api/games/${g.game}`, { token: g.token }).then((s) => {
      const v = s.view;
      if (s.status === 'over') status.textContent = 'over';
      else if (s.status === 'waiting') {
        status.textContent = 'waiting for players';
        // The invites of seats still free, to send again.
        for (const i of g.invites || []) {
          if (!s.seats[i.seat] || s.seats[i.seat].claimed) continue;
          const url = `${location.origin}/games/${g.game}/join/${i.code}`;
          const b = h('button', { class: 'small', 'data-testid': `copy-invite-${g.game}-${i.seat}`, 'data-url': url }, `Copy the invite for seat ${i.seat + 1}`);
          b.addEventListener('click', async () => {
            b.textContent = (await copy(url)) ? 'Copied' : url;
          });
          item.append(' ', b);
        }
      }
      else if (v.next && v.next.player === s.you) {
        status.textContent = 'your turn';
        status.classList.add('yours');
      } else status.textContent = 'playing';
    }, (e) => {
      status.textContent = e.status === 404 ? 'no longer on this server' : e.status === 403 ? 'your seat was claimed elsewhere' : 'unreachable';
    });
    return item;
  }));
}

function gameLabel(g) {
  const players = g.players || (g.choices && g.choices.length);
  if (g.variant === 'solo' || g.variant === 'solo-all') return g.variant === 'solo' ? 'Solo game' : 'Solo game, all 72 tiles';
  return players ? `${players}-player game` : 'Game';
}

/// Public games with a free seat.
async function drawLobby(list, fail) {
  let lobby;
  try {
    lobby = await api('GET', '/api/games');
  } catch (e) {
    list.replaceChildren(h('li', { class: 'hint' }, `The open games cannot be listed: ${e.message}`));
    return;
  }
  const open = lobby.games.filter((g) => g.seats.some((s) => !s.claimed));
  if (open.length === 0) {
    list.replaceChildren(h('li', { class: 'hint' }, 'No open games right now.'));
    return;
  }
  list.replaceChildren(...open.map((g) => {
    const state = { seats: g.seats };
    // A game this browser plays in already: open it rather than take a second seat.
    const free = findGame(g.game) ? [] : g.seats.filter((s) => !s.claimed);
    return h('li', {},
      `${g.players} players: `, g.seats.map((s) => seatName(state, s.seat)).join(', '), ' ',
      free.map((s) => {
        const b = h('button', { class: 'small' }, `Take seat ${s.seat + 1}`);
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
      ' ', h('a', { href: `/games/${g.game}` }, findGame(g.game) ? 'open (you play here)' : 'watch'));
  }));
}
