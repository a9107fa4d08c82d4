// Sound at the table: off on a first visit, on with one tap on the bar's speaker and kept after a
// reload; with sound on, each event of the game is heard once (a tile put down, a tile
// completed, the final round, the end, my turn), from my own move and over the socket, never
// again on a reload; with sound off nothing sounds; without Web Audio nothing breaks.
//
// The page pushes the names of the sounds it plays to `window.saganiSounds` when a test set that
// array up; the notes that really start are counted by wrapping the Web Audio nodes.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer, watchErrors } from '../lib.mjs';
import { call, seatedGame } from '../api.mjs';
import { version, waitForVersion } from '../play.mjs';

/// Set up in the page before its scripts run, on every load: the sounds asked for, the notes
/// started and the AudioContexts made.
function listen() {
  window.saganiSounds = [];
  window.saganiNotes = 0;
  window.saganiContexts = 0;
  for (const Node of [window.OscillatorNode, window.AudioBufferSourceNode]) {
    if (!Node) continue;
    const start = Node.prototype.start;
    Node.prototype.start = function (...args) {
      window.saganiNotes++;
      return start.apply(this, args);
    };
  }
  if (window.AudioContext) {
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      constructor(...args) {
        super(...args);
        window.saganiContexts++;
      }
    };
  }
}

/// The same, in a browser without Web Audio.
function noWebAudio() {
  window.saganiSounds = [];
  delete window.AudioContext;
  delete window.webkitAudioContext;
}

const sounds = (page) => page.evaluate(() => window.saganiSounds.slice());

/// Opens game `game` in `page` as the holder of `token` (seat `seat`).
async function openAs(page, url, game, seat, token) {
  await page.goto(`${url}/`);
  await page.evaluate(([g, s, tk]) => localStorage.setItem('sagani.games', JSON.stringify([{ game: g, seat: s, token: tk, mark: null }])), [game, seat, token]);
  await page.goto(`${url}/games/${game}`);
  await page.waitForSelector('[data-testid=table][data-synced=true]');
}

/// Plays the next move by the API, for whoever is to act; returns [before, after] states.
async function apiMove(url, game, tokens) {
  const state = await call(url, 'GET', `/api/games/${game}`, { token: tokens[0] });
  const who = state.view.next.player;
  const mine = await call(url, 'GET', `/api/games/${game}`, { token: tokens[who] });
  // Passing on an intermezzo whenever it may keeps the game short; the cells vary, so tiles
  // get completed.
  const move = mine.legal.find((m) => m.action === 'pass') || mine.legal[(mine.version * 7) % mine.legal.length];
  const result = await call(url, 'POST', `/api/games/${game}/moves`, { token: tokens[who], body: { version: mine.version, move } });
  return [state, result.state];
}

/// What seat 0 should hear for the change from `a` to `b` (read from the states, not the page).
function expected(a, b) {
  const out = [];
  const tiles = (s) => s.view.seats.flatMap((p) => p.display.map((d) => d.tile));
  const flipped = (s) => s.view.seats.flatMap((p) => p.display.filter((d) => d.flipped).map((d) => d.tile));
  if (tiles(b).length > tiles(a).length) out.push('placed');
  if (flipped(b).length > flipped(a).length) out.push('completed');
  if (b.view.final_round && !a.view.final_round && b.status !== 'over') out.push('final');
  if (b.status === 'over') out.push('end');
  const mine = (s) => s.status === 'playing' && s.view.next && s.view.next.player === 0;
  if (mine(b) && !mine(a)) out.push('turn');
  return out;
}

/// Places the first offered tile on the first legal cell, by clicking.
async function clickMove(page) {
  const before = await version(page);
  await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
  await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
  await page.waitForSelector('[data-testid=preview-score]');
  await page.click('[data-testid=confirm]');
  await waitForVersion(page, before);
}

describe('sound', () => {
  let server;
  before(async () => {
    server = await startServer({ deckSeed: 8 });
  });
  after(async () => {
    await server?.stop();
  });

  test('the speaker is off at first, on with one click, and kept after a reload', async () => {
    const { game, tokens } = await seatedGame(server.url, 2);
    for (const [locale, label] of [['en-GB', 'Sound effects'], ['de-DE', 'Töne']]) {
      const browser = await launchBrowser({ locale });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.addInitScript(listen);
      await openAs(page, server.url, game, 0, tokens[0]);
      const toggle = page.locator('[data-testid=sound-toggle]');
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      assert.equal(await toggle.getAttribute('aria-label'), label);
      assert.equal(await page.evaluate(() => window.saganiContexts), 0, 'no AudioContext before the tap');
      // Every sound is short and quiet: its notes end before 0.6 s, none louder than half scale.
      const sizes = await page.evaluate(async () => {
        const { SOUNDS } = await import('/assets/sound.js');
        return Object.entries(SOUNDS).map(([name, notes]) => [name, Math.max(...notes.map((n) => n.at + n.dur)), Math.max(...notes.map((n) => n.gain))]);
      });
      assert.deepEqual(sizes.map(([name]) => name).sort(), ['completed', 'end', 'final', 'placed', 'turn']);
      for (const [name, length, gain] of sizes) assert.ok(length < 0.6 && gain <= 0.5, `${name}: ${length} s, gain ${gain}`);
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      assert.equal(await page.evaluate(() => window.saganiContexts), 1, 'the tap makes the AudioContext');
      await page.reload();
      await page.waitForSelector('[data-testid=table][data-synced=true]');
      assert.equal(await page.locator('[data-testid=sound-toggle]').getAttribute('aria-pressed'), 'true');
      assert.equal(await page.evaluate(() => window.saganiContexts), 0, 'a reload makes no AudioContext before a tap');
      // Off again with one more click, and kept so.
      await page.click('[data-testid=sound-toggle]');
      assert.equal(await page.locator('[data-testid=sound-toggle]').getAttribute('aria-pressed'), 'false');
      await page.reload();
      await page.waitForSelector('[data-testid=table][data-synced=true]');
      assert.equal(await page.locator('[data-testid=sound-toggle]').getAttribute('aria-pressed'), 'false');
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });

  test('with sound on, every event of a game is heard once, and nothing again on a reload', async () => {
    const { game, tokens } = await seatedGame(server.url, 2);
    const browser = await launchBrowser();
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.addInitScript(listen);
    await openAs(page, server.url, game, 0, tokens[0]);
    await page.click('[data-testid=sound-toggle]');
    const heard = new Set();
    let had = 0;
    /// The sounds played since the last call.
    const fresh = async () => {
      const all = await sounds(page);
      const out = all.slice(had);
      had = all.length;
      return out;
    };
    const state = await call(server.url, 'GET', `/api/games/${game}`, { token: tokens[0] });
    if (state.view.next.player !== 0) {
      const [a, b] = await apiMove(server.url, game, tokens);
      await waitForVersion(page, a.version);
      assert.deepEqual(await fresh(), expected(a, b));
    }
    // My own move, by clicking: the knock of a tile put down, and nothing else.
    await clickMove(page);
    assert.deepEqual(await fresh(), ['placed']);
    heard.add('placed');
    // The rest of the game by the API, move by move, heard over the socket.
    for (let guard = 0; guard < 400; guard++) {
      const [a, b] = await apiMove(server.url, game, tokens);
      await waitForVersion(page, a.version);
      const now = await fresh();
      assert.deepEqual(now, expected(a, b), `version ${b.version}`);
      for (const n of now) heard.add(n);
      if (b.status === 'over') break;
    }
    assert.deepEqual([...heard].sort(), ['completed', 'end', 'final', 'placed', 'turn']);
    assert.ok(await page.evaluate(() => window.saganiNotes) > 0, 'the notes were synthesized');
    // A reload shows the end again, silently.
    await page.reload();
    await page.waitForSelector('[data-testid=table][data-synced=true][data-status=over]');
    assert.deepEqual(await sounds(page), []);
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('with sound off nothing sounds; without Web Audio nothing breaks', async () => {
    for (const [name, setup, on] of [['off', listen, false], ['no Web Audio', noWebAudio, true]]) {
      const { game, tokens } = await seatedGame(server.url, 2);
      const browser = await launchBrowser();
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.addInitScript(setup);
      await openAs(page, server.url, game, 0, tokens[0]);
      if (on) await page.click('[data-testid=sound-toggle]');
      const state = await call(server.url, 'GET', `/api/games/${game}`, { token: tokens[0] });
      if (state.view.next.player !== 0) {
        const [a] = await apiMove(server.url, game, tokens);
        await waitForVersion(page, a.version);
        await page.evaluate(() => window.saganiSounds.splice(0));
      }
      await clickMove(page);
      const [a] = await apiMove(server.url, game, tokens);
      await waitForVersion(page, a.version);
      if (on) {
        assert.deepEqual(await sounds(page), ['placed', 'placed', 'turn'], `${name}: my tile, then theirs and my turn`);
      } else {
        assert.deepEqual(await sounds(page), [], name);
        assert.equal(await page.evaluate(() => window.saganiNotes + window.saganiContexts), 0, 'no note, no AudioContext');
      }
      assert.deepEqual(errors, [], name);
      await browser.close();
    }
  });
});
