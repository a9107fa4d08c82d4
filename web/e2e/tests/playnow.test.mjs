// Play now in the browser: a guest picks a preset and waits (the card says for what, and for
// how long); another guest, in German, sees one player waiting for that preset, picks it, and
// both are taken to the same game, each at their own seat. Stopping a search puts the presets
// back and frees the pool.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

const WIDE = { viewport: { width: 1300, height: 900 } };

/// The game and seat this page's browser keeps for the game it is at.
async function seatHere(page) {
  const id = new URL(page.url()).pathname.split('/')[2];
  const entry = await page.evaluate((g) => JSON.parse(localStorage.getItem('sagani.games')).find((e) => e.game === g), id);
  return { id, entry };
}

describe('play now', () => {
  let server;
  let ann;
  let bea;

  before(async () => {
    server = await startServer();
    ann = await launchBrowser({ ...WIDE, locale: 'en-US' });
    bea = await launchBrowser({ ...WIDE, locale: 'de-DE' });
  });

  after(async () => {
    await ann?.close();
    await bea?.close();
    await server?.stop();
  });

  test('two guests pick the same preset and sit at one game', async () => {
    const a = await ann.newPage();
    const aErrors = watchErrors(a);
    await a.goto(`${server.url}/`);
    const card = a.getByTestId('play-now');
    await card.waitFor();
    assert.match(await card.locator('h2').innerText(), /Play now/);
    await card.getByTestId('preset-count-2-10+5').filter({ hasText: 'nobody waiting yet' }).waitFor();
    await screenshot(a, 'playnow-home-en');
    await card.getByTestId('preset-2-10+5').click();
    const line = card.getByTestId('seek-line');
    await line.filter({ hasText: 'Looking for players: 2 players · 10 min + 5 s' }).waitFor();
    await card.getByTestId('seek-others').filter({ hasText: 'Nobody else is waiting yet' }).waitFor();
    // The wait's clock runs.
    await line.filter({ hasText: /0:0[1-9]/ }).waitFor();
    // Bots were not asked for: none are offered.
    assert.equal(await card.getByTestId('seek-take-bots').isVisible(), false);
    await screenshot(a, 'playnow-waiting-en');

    const b = await bea.newPage();
    const bErrors = watchErrors(b);
    await b.goto(`${server.url}/`);
    const bCard = b.getByTestId('play-now');
    assert.match(await bCard.locator('h2').innerText(), /Jetzt spielen/);
    await bCard.getByTestId('preset-count-2-10+5').filter({ hasText: '1 wartet' }).waitFor();
    assert.equal(await bCard.getByTestId('preset-count-2-5+3').innerText(), 'noch niemand wartet');
    await screenshot(b, 'playnow-home-de');
    await bCard.getByTestId('preset-2-10+5').click();

    // Both are taken to the same game's table, each with a seat of their own.
    await a.waitForURL(/\/games\/[0-9a-f]+$/);
    await b.waitForURL(/\/games\/[0-9a-f]+$/);
    const [mineA, mineB] = [await seatHere(a), await seatHere(b)];
    assert.equal(mineA.id, mineB.id);
    assert.notEqual(mineA.entry.seat, mineB.entry.seat);
    for (const [page, mine] of [[a, mineA], [b, mineB]]) {
      const state = await page.evaluate(async ({ id, token }) => (await fetch(`/api/games/${id}`, { headers: { authorization: `Bearer ${token}` } })).json(), { id: mine.id, token: mine.entry.token });
      assert.equal(state.you, mine.entry.seat);
      assert.equal(state.clock.control.initial_s, 600);
    }
    await a.getByTestId('table').waitFor();
    await b.getByTestId('table').waitFor();
    await screenshot(b, 'playnow-table-de');
    assert.deepEqual(aErrors, []);
    assert.deepEqual(bErrors, []);
  });

  test('stopping a search puts the presets back and nobody waits', async () => {
    const a = await ann.newPage();
    const errors = watchErrors(a);
    await a.goto(`${server.url}/`);
    const card = a.getByTestId('play-now');
    await card.getByTestId('preset-3-10+5').click();
    await card.getByTestId('seek-line').filter({ hasText: '3 players' }).waitFor();
    const waiting = await (await fetch(`${server.url}/api/seeks`)).json();
    assert.equal(waiting.pools.length, 1);
    assert.equal(waiting.pools[0].players, 3);
    await card.getByTestId('seek-cancel').click();
    await card.getByTestId('preset-3-10+5').waitFor({ state: 'visible' });
    assert.deepEqual((await (await fetch(`${server.url}/api/seeks`)).json()).pools, []);
    // A rated search needs an account: a guest cannot tick it.
    assert.equal(await card.getByTestId('seek-rated').isDisabled(), true);
    assert.deepEqual(errors, []);
  });
});
