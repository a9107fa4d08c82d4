// Driving the server's HTTP API directly, for tests that need a game in some state without
// clicking all the way there.

/// One API request: the answer's JSON, or an error naming the request, its status and answer.
export async function call(url, method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

/// Creates a game of `players` people (no bots) and claims every seat: {game, tokens}.
export async function seatedGame(url, players, extra = {}) {
  const created = await call(url, 'POST', '/api/games', { body: { seats: Array.from({ length: players }, () => ({ kind: 'human' })), ...extra } });
  const tokens = [];
  for (const inv of created.invites) {
    tokens[inv.seat] = (await call(url, 'POST', `/api/games/${created.game}/join`, { body: { invite: inv.code } })).token;
  }
  return { game: created.game, tokens };
}

/// Plays moves for whoever is to act (`choose(state)` picks one of its legal moves, the first by
/// default) while `until(state)` is false; returns the last state.
export async function playUntil(url, game, tokens, until, choose = (s) => s.legal[0]) {
  let state = await call(url, 'GET', `/api/games/${game}`, { token: tokens[0] });
  for (let guard = 0; guard < 500; guard++) {
    if (until(state) || state.status === 'over') return state;
    const who = state.view.next.player;
    const mine = await call(url, 'GET', `/api/games/${game}`, { token: tokens[who] });
    const result = await call(url, 'POST', `/api/games/${game}/moves`, { token: tokens[who], body: { version: mine.version, move: choose(mine) } });
    state = result.state;
  }
  throw new Error('the game did not get there in 500 moves');
}

/// A game of `players` people played to its end by the API: {game, tokens, state}.
export async function playOut(url, players) {
  const { game, tokens } = await seatedGame(url, players);
  const state = await playUntil(url, game, tokens, (s) => s.status === 'over');
  return { game, tokens, state };
}
