// Time at the table in real Chromium browsers against a real `sagani serve`: the clocks count
// down and turn red under 30 seconds, a player who never moves runs out of time and the
// opponent sees it live, chat between two browsers (text stays text), the quick phrases in
// German, a refused chat line said in German, and resigning from the page.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const EN = catalogue('en');
const DE = catalogue('de');

const WIDE = { viewport: { width: 1300, height: 900 } };
const fill = (m, params) => m.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

async function create(url, body) {
  const r = await fetch(`${url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(r.status, 201);
  return r.json();
}

async function state(url, game) {
  return (await fetch(`${url}/api/games/${game}`)).json();
}

describe('time at the table', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(async () => {
    await server?.stop();
  });

  test('clocks count and turn red, a time-out is seen live, chat between two browsers, quick phrases in German', async (t) => {
    const ada = await launchBrowser({ ...WIDE, locale: 'en-US' });
    const bea = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => Promise.all([ada.close(), bea.close()]));
    const a = await ada.newPage();
    const b = await bea.newPage();
    const errors = [watchErrors(a), watchErrors(b)];
    // The shortest clock the API takes: 10 seconds, no increment.
    const created = await create(server.url, { seats: [{ kind: 'human' }, { kind: 'human' }], clock: { kind: 'realtime', initial_s: 10, increment_s: 0 } });
    const game = created.game;
    await a.goto(`${server.url}${created.invites[0].url}`);
    await a.waitForSelector('[data-testid=table]');
    await b.goto(`${server.url}${created.invites[1].url}`);
    await b.waitForSelector('[data-testid=table]');
    const first = (await state(server.url, game)).view.next.player;
    // Whoever is to act first never moves; the other watches.
    const [mover, watcher, moverLang] = first === 0 ? [a, b, EN] : [b, a, DE];
    const leaver = first;
    const clock = `[data-testid=clock-${leaver}]`;
    await watcher.waitForSelector(`${clock}.running`);
    // Under 30 s from the start: red, and counting.
    await watcher.waitForSelector(`${clock}.low`);
    const shown = await watcher.textContent(clock);
    assert.match(shown, /^0:(0\d|10)$/);
    await watcher.waitForFunction(([sel, was]) => document.querySelector(sel).textContent !== was, [clock, shown]);
    await screenshot(watcher, 'clock-low');
    assert.match(await mover.title(), /\d:\d\d/, 'the tab says how much time is left');

    // Chat while the clock runs: text stays text.
    const evil = 'Hello <b>there</b> & good luck';
    await a.fill('[data-testid=chat-input]', evil);
    await a.click('[data-testid=chat-send]');
    await b.waitForFunction((text) => [...document.querySelectorAll('[data-testid=chat-lines] li')].some((li) => li.textContent.includes(text)), evil);
    assert.equal(await b.locator('[data-testid=chat-lines] b').count(), 0, 'no markup from a message');
    // Bea's quick phrase, in German for her and in English for Ada.
    assert.equal(await b.textContent('[data-testid=phrase-good_game]'), DE['chat.phrase.good_game']);
    await b.click('[data-testid=phrase-good_game]');
    await a.waitForFunction((text) => document.querySelector('[data-testid=chat-lines]').textContent.includes(text), EN['chat.phrase.good_game']);
    await b.waitForFunction((text) => document.querySelector('[data-testid=chat-lines]').textContent.includes(text), DE['chat.phrase.good_game']);
    // Hidden on one device, and it stays hidden there.
    await a.click('[data-testid=chat-toggle]');
    assert.equal(await a.locator('[data-testid=chat-lines]').count(), 0);
    await a.click('[data-testid=chat-toggle]');
    await a.waitForSelector('[data-testid=chat-lines]');

    // The server runs the clock out; the opponent sees it without reloading.
    await watcher.waitForSelector(`[data-testid=left-banner-${leaver}]`, { timeout: 30_000 });
    await mover.waitForSelector(`[data-testid=left-banner-${leaver}]`);
    // About the player's own seat, a sentence of its own ("Your time ran out", "Deine Bedenkzeit …").
    assert.ok((await mover.textContent(`[data-testid=left-banner-${leaver}]`)).startsWith(moverLang['left.banner.timeout.you'].split(':')[0]));
    await watcher.waitForSelector(`[data-testid=left-${leaver}]`);
    await screenshot(watcher, 'timed-out');
    await screenshot(b, 'chat-de');
    const after = await state(server.url, game);
    assert.equal(after.seats[leaver].replaced.reason, 'timeout');
    assert.deepEqual(errors, [[], []]);
  });

  test('resign from the page: a bot plays on, the game ends', async (t) => {
    const ada = await launchBrowser({ ...WIDE, locale: 'en-US' });
    t.after(() => ada.close());
    const a = await ada.newPage();
    const errors = watchErrors(a);
    const created = await create(server.url, { seats: [{ kind: 'human' }, { kind: 'bot', bot: 'greedy' }] });
    await a.goto(`${server.url}${created.invites[0].url}`);
    await a.waitForSelector('[data-testid=table]');
    await a.click('[data-testid=resign]');
    await a.waitForSelector('[data-testid=resign-ask]');
    // Changed one's mind: nothing happens.
    await a.click('[data-testid=resign-no]');
    await a.waitForSelector('[data-testid=resign]');
    await a.click('[data-testid=resign]');
    await a.click('[data-testid=resign-yes]');
    // The bots may play the game out before the banner is seen: either says the seat is left.
    await a.waitForSelector('[data-testid=left-banner-0], [data-testid=end]');
    assert.equal(await a.locator('[data-testid=resign]').count(), 0, 'no second resignation');
    // Two bots play it out; the end card ranks the resigned seat last.
    await a.waitForSelector('[data-testid=end]', { timeout: 60_000 });
    await a.waitForSelector('[data-testid=end-left-0]');
    const ranking = await a.locator('[data-testid=ranking] li').allTextContents();
    assert.ok(ranking[1].includes(EN['end.left.resigned.seat'].split(' {')[0]), ranking[1]);
    // The seat that left wins nothing, whatever the bot scored for it.
    assert.equal(await a.textContent('#end-head'), EN['end.left.resigned']);
    assert.equal(await a.locator('.end-card.won').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('a refused chat line says why in the reader\'s words (German), not the server\'s English', async (t) => {
    const bea = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => bea.close());
    const b = await bea.newPage();
    // The refused lines are 400s the browser notes in its console.
    const errors = watchErrors(b, { ignore: [/400 \(Bad Request\) \(.*\/chat:0\)$/] });
    const created = await create(server.url, { seats: [{ kind: 'human' }, { kind: 'human' }] });
    await b.goto(`${server.url}${created.invites[0].url}`);
    await b.waitForSelector('[data-testid=chat-input]');
    const refused = async (text, detail) => {
      await b.fill('[data-testid=chat-input]', text);
      await b.click('[data-testid=chat-send]');
      const why = fill(DE['chat.refused.why'], { reason: detail });
      await b.waitForFunction((w) => document.querySelector('[data-testid=chat-error]').textContent === w, why);
    };
    await refused('Hallo\u200BWelt', fill(DE['error.detail.unseen'], { what: DE['error.unseen.invisible'], code_point: 'U+200B' }));
    await b.locator('[data-testid=chat-error]').scrollIntoViewIfNeeded();
    await screenshot(b, 'chat-refused-de');
    await refused('Hallo \u202Edlew', fill(DE['error.detail.unseen'], { what: DE['error.unseen.direction'], code_point: 'U+202E' }));
    assert.doesNotMatch(await b.textContent('[data-testid=chat-error]'), /invisible|direction|this text/);
    assert.deepEqual(errors, []);
  });
});
