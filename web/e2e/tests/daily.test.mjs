// The daily challenge in the browser: an account plays today's solo deck from the home page's
// card to its end, where its result, par, the day's leaderboard and the line to share (copied
// by the button) are the server's; the home page and the day's leaderboard page know it
// played, and its streak; par only once its ranked attempt is over. A guest in German plays the
// other variant, unranked, on a deck of its own (no place, no par); someone else cannot watch
// either game during the day.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { artifactsDir, launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playByClicking, waitForTurn } from '../play.mjs';

/// The words the page uses for a result (daily.js `resultText`), in English.
function words(variant, r) {
  if (variant === 'solo-all') return `${r.score} points`;
  if (r.symphony) return `symphony in ${r.tiles} tiles`;
  if (r.reached) return `${r.score} points in ${r.tiles} tiles`;
  return `${r.score} points, the pile ran out`;
}

/// The page's game and its seat's token, as this browser keeps them.
async function mine(page) {
  const id = new URL(page.url()).pathname.split('/')[2];
  const token = await page.evaluate((g) => JSON.parse(localStorage.getItem('sagani.games')).find((e) => e.game === g).token, id);
  return { id, token };
}

async function card(url, game, token) {
  const r = await fetch(`${url}/api/games/${game}/daily`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200);
  return r.json();
}

/// Plays the page's seat to the end by clicking.
async function playToTheEnd(page) {
  for (let n = 0; ; n++) {
    if ((await playByClicking(page, 0, n)) === 'over') return;
    assert.ok(n < 80, 'a solo game ends');
  }
}

describe('the daily challenge', () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser({ viewport: { width: 1300, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('an account plays today\'s deck to its end: result, par, leaderboard, the line to share, streak', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    const signed = await page.evaluate(() => fetch('/api/players', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', password: 'secret words' }) }).then((r) => r.status));
    assert.equal(signed, 201);
    await page.reload();
    const today = await (await fetch(`${server.url}/api/daily`)).json();
    // The card: today's date, both variants to play, the streak.
    await page.waitForSelector('[data-testid=daily-start-solo]');
    const date = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${today.day}T00:00:00Z`));
    assert.ok((await page.textContent('[data-testid=daily-date]')).includes(date));
    assert.ok(await page.isVisible('[data-testid=daily-start-solo-all]'));
    assert.equal(await page.textContent('[data-testid=daily-streak]'), 'Your streak: 0 days in a row');
    await screenshot(page, 'daily-home-en');
    // Before the ranked attempt: the day's page shows no par (it would tell how the deck goes).
    await page.goto(`${server.url}/daily`);
    await page.waitForSelector('[data-testid=daily-page-solo]');
    assert.ok(!(await page.textContent('[data-testid=daily-page]')).includes('Par'), 'no par before playing');
    await screenshot(page, 'daily-page-before-en');
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=daily-start-solo]');
    await page.click('[data-testid=daily-start-solo]');
    await page.waitForSelector('[data-testid=table]');
    assert.ok((await page.textContent('[data-testid=daily-badge]')).includes(date));
    await playToTheEnd(page);
    // The end: the server's result, rank and par, the day's leaderboard, the line to share.
    await page.waitForSelector('[data-testid=daily-result][data-ready=yes]', { timeout: 60_000 });
    const { id, token } = await mine(page);
    const c = await card(server.url, id, token);
    assert.equal(c.rank, 1);
    assert.equal(await page.textContent('[data-testid=daily-rank]'), 'Place 1 of 1 today.');
    assert.equal(await page.textContent('[data-testid=daily-par]'), `Par (a level 4 bot on the same deck): ${words('solo', c.par)}`);
    assert.ok((await page.textContent('[data-testid=daily-end-board]')).includes('Ada'));
    const share = `Sagani daily ${today.day}: ${words('solo', c.result)}`;
    assert.equal(await page.inputValue('[data-testid=share-line]'), share);
    // The line is whole in its box (it wraps), on this screen and on a phone's.
    const whole = () => page.locator('[data-testid=share-line]').evaluate((el) => {
      const box = el.getBoundingClientRect();
      const card = el.closest('.end-card').getBoundingClientRect();
      return el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1 && box.left >= card.left && box.right <= card.right;
    });
    assert.ok(await whole(), 'the line to share fits its box');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.ok(await whole(), 'the line to share fits its box on a phone');
    await page.locator('[data-testid=end]').screenshot({ path: `${artifactsDir()}/daily-end-card-phone-en.png` });
    await page.setViewportSize({ width: 1300, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.click('[data-testid=copy-share]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), share);
    assert.equal(await page.textContent('[data-testid=daily-end-streak]'), 'Your streak: 1 day in a row');
    // No rematch of a daily challenge; its record (it holds the day's deck) waits for the day's
    // end, even for its player; the replay is there now.
    assert.equal(await page.locator('[data-testid=rematch]').count(), 0);
    assert.equal(await page.locator('[data-testid=download-record]').count(), 0);
    await page.waitForSelector('[data-testid=record-later]');
    const r = await fetch(`${server.url}/api/games/${id}/record`, { headers: { authorization: `Bearer ${token}` } });
    const hidden = [r.status, (await r.json()).error];
    assert.deepEqual(hidden, [403, 'history_hidden']);
    assert.equal(await page.locator('[data-testid=end-replay]').count(), 1);
    await screenshot(page, 'daily-end-en');
    await page.locator('[data-testid=end]').screenshot({ path: `${artifactsDir()}/daily-end-card-en.png` });
    // Home again: played, with its place; the streak counts today.
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=daily-done-solo]');
    assert.equal(await page.textContent('[data-testid=daily-streak]'), 'Your streak: 1 day in a row');
    const done = await page.textContent('[data-testid=daily-done-solo]');
    assert.ok(done.startsWith(`Played: ${words('solo', c.result)}, place 1 of 1.`), done);
    await screenshot(page, 'daily-home-played-en');
    // A phone: the card fits without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 800 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling at 390 px');
    await page.locator('[data-testid=daily-card]').screenshot({ path: `${artifactsDir()}/daily-phone-en.png` });
    await page.setViewportSize({ width: 1300, height: 900 });
    // The day's leaderboard page, with par now that Ada has played.
    await page.click('[data-testid=daily-board-link]');
    await page.waitForSelector('[data-testid=daily-board-solo]');
    assert.ok((await page.textContent('[data-testid=daily-you]')).startsWith('You: place 1 of 1'));
    assert.ok(await page.isVisible('[data-testid=daily-empty-solo-all]'));
    await screenshot(page, 'daily-page-en');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a guest plays the other variant in German, unranked; nobody else may watch it today', async () => {
    const guest = await launchBrowser({ locale: 'de-DE', viewport: { width: 1300, height: 900 } });
    const page = await guest.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=daily-guest]');
    assert.equal(await page.textContent('[data-testid=daily-guest]'), 'Gäste üben mit einem eigenen Nachziehstapel: Der Stapel des Tages ist für Konten, einmal je Konto. Anmelden oder registrieren');
    await screenshot(page, 'daily-home-guest-de');
    await page.click('[data-testid=daily-start-solo-all]');
    await page.waitForSelector('[data-testid=table]');
    await playToTheEnd(page);
    await page.waitForSelector('[data-testid=daily-result][data-ready=yes]', { timeout: 60_000 });
    const { id, token } = await mine(page);
    const c = await card(server.url, id, token);
    // A guest plays a deck of its own: no place among the day's results, no par, nothing to share.
    assert.equal(c.ranked, false);
    assert.equal(c.place, undefined);
    assert.equal(c.par, undefined);
    assert.equal(await page.textContent('[data-testid=daily-rank]'), 'Übung als Gast mit einem eigenen Nachziehstapel: Den Stapel des Tages spielt jedes Konto einmal, und vorher sieht ihn niemand. Melde dich an, um ihn zu spielen und in die Bestenliste zu kommen.');
    assert.equal(await page.locator('[data-testid=daily-par]').count(), 0);
    assert.equal(await page.locator('[data-testid=daily-par-pending]').count(), 0);
    assert.equal(await page.locator('[data-testid=share-line]').count(), 0);
    await screenshot(page, 'daily-end-de');
    // Home again: the card says what I played (unranked: no place), my games list the game.
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=daily-done-solo-all]');
    assert.equal(await page.textContent('[data-testid=daily-done-solo-all]'), `Gespielt: ${c.result.score} Punkte. Zur Partie`);
    assert.ok((await page.textContent('[data-testid=my-games]')).includes('Tagesaufgabe vom'));
    // Someone else opening the game's link is told why it cannot be watched yet.
    const other = await browser.newPage();
    await other.goto(`${server.url}/games/${id}`);
    await other.waitForSelector('[data-testid=error]');
    assert.ok((await other.textContent('[data-testid=error]')).includes('once the day is over'));
    await other.close();
    assert.deepEqual(errors, []);
    await guest.close();
  });
});
