// The German page as a German player reads it: the catalogue's words that a test can check
// (the same messages as English, seats as "Sitz", sentences of their own about "du", bots by
// their level, the German edition's terms), and in Chromium the end card after a time-out and
// a rated game's rating change.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playUntil, seatedGame } from '../api.mjs';

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const EN = catalogue('en');
const DE = catalogue('de');

/// Every text of a message: a plain one, or each plural form.
const texts = (m) => (typeof m === 'string' ? [m] : Object.values(m));
/// The `{name}`s a message fills in, sorted.
const holes = (m) => [...new Set(texts(m).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1])))].sort();
/// The German messages whose text matches `re`, as "key: text".
const german = (re) => Object.entries(DE).flatMap(([k, m]) => texts(m).filter((s) => re.test(s)).map((s) => `${k}: ${s}`));

describe('the German catalogue', () => {
  test('has every English message, with the same names to fill in', () => {
    assert.deepEqual(Object.keys(DE).sort(), Object.keys(EN).sort());
    const differ = Object.keys(EN).filter((k) => holes(EN[k]).join() !== holes(DE[k]).join());
    assert.deepEqual(differ, [], 'messages whose {names} differ between en and de');
  });

  test('says "du" with the verbs of "du", never a name\'s', () => {
    // A name's verb after "Du" ("Du hat"), or "Du" put where a name goes ("Für Du").
    assert.deepEqual(german(/\bDu (hat|ist|spielt|gewinnt|wählt|legt|lagert|nimmt)\b|\b(Für|für|von|auf) Du\b/), []);
    // Names are never filled with "you": no message is only "Du" but the label of my own seat
    // in the new game's list.
    assert.deepEqual(german(/^\S+: Du$/).filter((s) => !s.startsWith('home.multi.you:')), []);
    // The sentences about the player's own seat are their own messages.
    for (const k of ['left.banner.timeout.you', 'left.banner.resigned.you', 'final.turns.you', 'storage.first.you', 'storage.now.you']) {
      assert.ok(DE[k] && holes(DE[k]).every((h) => h !== 'who' && h !== 'last'), `${k} names nobody`);
    }
  });

  test('names no bot by the server\'s id', () => {
    assert.deepEqual(german(/\b(greedy|Greedy|mcts|MCTS|random)\b/), []);
    assert.deepEqual(Object.entries(EN).flatMap(([k, m]) => texts(m).filter((s) => /\b(greedy|mcts)\b/i.test(s)).map((s) => `${k}: ${s}`)), []);
  });

  test('calls a seat "Sitz" and keeps "Platz" for a rank', () => {
    const seats = Object.keys(DE).filter((k) => k.startsWith('seat.') && !k.startsWith('seat.short.'));
    assert.ok(seats.length >= 7);
    for (const k of seats) assert.match(DE[k], /^Sitz \{n\}/, k);
    // Every "Platz" is a place in a ranking: "Platz {rank}", "Platz {n} von", "Platz {place}".
    const platz = german(/Platz/).filter((s) => !/Platz \{(rank|place|n)\}( von|,|\.|$)/.test(s.split(': ').slice(1).join(': ')));
    assert.deepEqual(platz, []);
    assert.deepEqual(german(/Plätze|Lagerplatz \{n\} ·/), []);
  });

  test('uses the German edition\'s words', () => {
    // "Einführung", not "Tutorial"; "Bedenkzeit", not a clock ("Uhr"); players are "Spieler",
    // not "Spielende" (which is the game's end); "die wenigsten Punkte".
    assert.deepEqual(german(/Tutorial/), []);
    assert.deepEqual(german(/\bUhr\b(?! UTC)/).filter((s) => !/Mitternacht UTC/.test(s)), []);
    assert.deepEqual(german(/Spielende (haben|hat|sind)|Mitspielende|der Spielenden/), []);
    assert.deepEqual(german(/am wenigsten Punkte/), []);
    assert.deepEqual(german(/Mensch\b(?! \()/).filter((s) => s.startsWith('seat.')), []);
    assert.equal(DE['seat.short.person'], 'Spieler {n}');
    assert.equal(EN['seat.short.person'], 'Player {n}');
    for (const k of ['help.discs.what', 'rules.cacophony.title', 'pile.title', 'track.title']) assert.ok(DE[k], k);
    assert.match(DE['help.discs.what'], /Klangscheiben/);
    assert.match(DE['rules.cacophony.title'], /Missklang/);
    // A game for two is not "for several".
    assert.ok(!Object.values(EN).some((m) => texts(m).some((s) => /for several/.test(s))));
  });
});

describe('the German end card', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(async () => {
    await server?.stop();
  });

  test('after a time-out says what happened: no win and no confetti for a seat that left', async (t) => {
    const browser = await launchBrowser({ viewport: { width: 1300, height: 900 }, locale: 'de-DE' });
    t.after(() => browser.close());
    const page = await browser.newPage();
    const errors = watchErrors(page);
    // The shortest clock the API takes: 10 seconds, no increment.
    const post = (path, body, token) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then(async (r) => {
      assert.ok(r.ok, `${path}: ${r.status}`);
      return r.json();
    });
    const created = await post('/api/games', { seats: [{ kind: 'human' }, { kind: 'human' }], clock: { kind: 'realtime', initial_s: 10, increment_s: 0 } });
    const game = created.game;
    // Seat 2 is the other player, by the API; seat 1 is this page, which never moves.
    const other = (await post(`/api/games/${game}/join`, { invite: created.invites[1].code })).token;
    await page.goto(`${server.url}${created.invites[0].url}`);
    await page.waitForSelector('[data-testid=table]');
    const first = (await (await fetch(`${server.url}/api/games/${game}`)).json()).view.next.player;
    if (first === 1) await playUntil(server.url, game, [undefined, other], (s) => s.view.next.player === 0);
    // The server runs this seat's clock out: the banner is a sentence about "du".
    await page.waitForSelector('[data-testid=left-banner-0]', { timeout: 40_000 });
    const banner = await page.textContent('[data-testid=left-banner-0]');
    assert.ok(banner.startsWith('Deine Bedenkzeit ist abgelaufen:'), banner);
    assert.ok(!/greedy|Für Du|Du hat/.test(banner), banner);
    assert.match(banner, /Bot Stufe 4 \(solide\)/);
    await screenshot(page, 'de-timeout');
    // The other player resigns too: bots play both seats to the end.
    await post(`/api/games/${game}/resign`, {}, other);
    await page.waitForSelector('[data-testid=end]', { timeout: 120_000 });
    assert.equal(await page.textContent('#end-head'), DE['end.left.timeout']);
    const told = await page.textContent('[data-testid=end-you-left]');
    assert.match(told, /^Ab Zug \d+ hat Bot Stufe 4 \(solide\) deinen Sitz gespielt/);
    assert.equal(await page.locator('.end-card.won').count(), 0, 'no win for a seat that left');
    assert.equal(await page.locator('.confetti').count(), 0, 'no confetti');
    // Each seat in the ranking says it left, and when.
    for (const seat of [0, 1]) assert.match(await page.textContent(`[data-testid=end-left-${seat}]`), /(Bedenkzeit|aufgegeben|bei) Zug \d+/);
    await screenshot(page, 'de-end-timeout');
    assert.deepEqual(errors, []);
  });

  test('of a rated game shows each player\'s rating change', async (t) => {
    const browser = await launchBrowser({ viewport: { width: 1300, height: 900 }, locale: 'de-DE' });
    t.after(() => browser.close());
    const page = await browser.newPage();
    const errors = watchErrors(page, { ignore: [/404 \(Not Found\)/] });
    await page.goto(`${server.url}/`);
    const signUp = (name) => page.evaluate((n) => fetch('/api/players', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'geheime Worte' }) }).then((r) => r.status), name);
    // Bea's account, then Ada's (the page stays logged in as Ada).
    assert.equal(await signUp('Bea'), 201);
    const bea = await page.evaluate(async () => {
      const made = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'human' }], rated: true }) }).then((r) => r.json());
      const joined = await fetch(`/api/games/${made.game}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite: made.invites[1].code }) }).then((r) => r.json());
      await fetch('/api/session', { method: 'DELETE' });
      return { made, token: joined.token };
    });
    assert.equal(await signUp('Ada'), 201);
    const ada = await page.evaluate(async (made) => {
      const joined = await fetch(`/api/games/${made.game}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite: made.invites[0].code }) }).then((r) => r.json());
      localStorage.setItem('sagani.games', JSON.stringify([{ game: made.game, seat: 0, token: joined.token }]));
      return joined.token;
    }, bea.made);
    const game = bea.made.game;
    const end = await playUntil(server.url, game, [ada, bea.token], (s) => s.status === 'over');
    const state = await (await fetch(`${server.url}/api/games/${game}`)).json();
    assert.equal(state.ratings.length, 2, JSON.stringify(state));
    await page.goto(`${server.url}/games/${game}`);
    await page.waitForSelector('[data-testid=end]');
    const de = new Intl.NumberFormat('de');
    for (const r of state.ratings) {
      const d = r.after - r.before;
      const change = d > 0 ? `+${de.format(d)}` : d < 0 ? `−${de.format(-d)}` : '±0';
      assert.equal(await page.textContent(`[data-testid=end-rating-${r.seat}]`), ` · Wertung ${de.format(r.before)} → ${de.format(r.after)} (${change})`);
    }
    // Both were newcomers: "1.000 → …", the winner up and the other down.
    assert.match(await page.textContent(`[data-testid=end-rating-${end.standings[0]}]`), /Wertung 1\.000 → 1\.\d{3} \(\+\d+\)/);
    await screenshot(page, 'de-end-rated');
    // Ada's profile: the game by its number of players, its seats as "Sitz", her rank as "Platz".
    await page.goto(`${server.url}/players/Ada`);
    const line = await page.waitForSelector(`[data-testid=game-${game}]`);
    const text = await line.textContent();
    assert.match(text, /Partie zu zweit/);
    assert.match(text, /Sitz 1 · Ada, Sitz 2 · Bea/);
    assert.match(text, new RegExp(`Platz ${end.standings.indexOf(0) + 1}, `));
    await screenshot(page, 'de-profile');
    assert.deepEqual(errors, []);
  });
});
