// Talking to the server, and the games this browser holds a seat in.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `the server answered ${status}`);
    this.status = status;
    this.code = (body && body.error) || 'http';
    this.version = body && body.version;
    // The engine's reason for an illegal move, for the page to word (`{kind, …}`).
    this.reason = (body && body.reason) || null;
    // What a person got wrong in a request (`{kind, …}`), worded by `refusals.js`.
    this.detail = (body && body.detail) || null;
  }
}

/// One API call: JSON in, JSON out; every refusal becomes an `ApiError` with the server's code
/// (`refusals.js` puts it in words).
export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { error: 'network', message: 'the server cannot be reached; check your connection' });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

let tileTable = null;

/// The 72 tiles as printed, by id (from the engine's table). Parts of a page that ask at once
/// share one request (the promise is kept, not only its answer); a failed one is asked again.
/// Asked among the page's files (the same table as `/api/tiles`): the service worker keeps it,
/// so the tiles are drawn offline too.
export function tiles() {
  if (!tileTable) {
    tileTable = api('GET', '/assets/tiles.json').then(({ tiles: list }) => {
      const byId = {};
      for (const t of list) byId[t.id] = t;
      return byId;
    });
    tileTable.catch(() => {
      tileTable = null;
    });
  }
  return tileTable;
}

// The games of this browser: seat tokens and invites stay in localStorage, on this device only.
const KEY = 'sagani.games';

export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function store(list) {
  localStorage.setItem(KEY, JSON.stringify(list));
}

export function findGame(id) {
  return myGames().find((g) => g.game === id) || null;
}

/// Adds or updates the entry of game `entry.game` (fields merge).
export function saveGame(entry) {
  const list = myGames();
  const i = list.findIndex((g) => g.game === entry.game);
  if (i >= 0) list[i] = { ...list[i], ...entry };
  else list.unshift({ created: Date.now(), ...entry });
  store(list);
}

export function forgetGame(id) {
  store(myGames().filter((g) => g.game !== id));
}

/// A seat request as the API takes it, from a choice like `me`, `human`, `bot:mcts:3`.
export function seatRequest(choice) {
  if (choice === 'me' || choice === 'human') return { kind: 'human' };
  const [, bot, level] = choice.split(':');
  return level ? { kind: 'bot', bot, level: Number(level) } : { kind: 'bot', bot };
}

/// Creates a game from seat choices (exactly one `me`), claims my seat, and remembers it.
/// `name`: a guest's display name (a logged-in player is named by the account); `rated`: a rated
/// game (people only, accounts only).
/// `practice`: a solo game with the engine's hints, unrated and in no account's records.
export async function createGame(choices, { variant, public: isPublic = false, tutorial = false, rated = false, practice = false, name, clock } = {}) {
  const body = { seats: choices.map(seatRequest), public: isPublic };
  if (clock) body.clock = clock;
  if (variant) body.variant = variant;
  // The tutorial's fixed deck (a solo game for one person).
  if (tutorial) body.tutorial = true;
  if (rated) body.rated = true;
  if (practice) body.practice = true;
  if (name) body.name = name;
  const created = await api('POST', '/api/games', { body });
  const mine = choices.indexOf('me');
  const invite = created.invites.find((i) => i.seat === mine);
  const joined = await api('POST', `/api/games/${created.game}/join`, { body: { invite: invite.code, name } });
  saveGame({
    game: created.game,
    seat: joined.seat,
    token: joined.token,
    invite: invite.code,
    choices,
    variant: variant || (choices.length === 1 ? 'solo' : 'standard'),
    public: isPublic,
    practice,
    invites: created.invites.filter((i) => i.seat !== mine).map((i) => ({ seat: i.seat, code: i.code })),
  });
  return created.game;
}
