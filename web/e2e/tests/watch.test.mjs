// The games to watch in real Chromium browsers against a real `sagani serve`: with no game
// between people the page says so kindly; two people play a public game, a third browser finds
// it on the home page's card and on /watch, opens it without a seat, and is counted as one
// watching (seen from another tab); a move by a player appears on the spectator's table live.
// The list in German too; axe-core finds nothing serious on /watch.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { artifactsDir, launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playByClicking, version, waitForVersion } from '../play.mjs';

const WIDE = { viewport: { width: 1300, height: 900 } };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axe(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join('; ')}`);
}

async function create(url, body) {
  const r = await fetch(`${url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(r.status, 201);
  return r.json();
}

/// Waits (60 s at most) until `/api/live` lists `game` with `n` spectators or more: the count
/// is written a moment after a socket opens.
async function untilWatched(url, game, n) {
  for (let i = 0; i < 600; i++) {
    const live = await (await fetch(`${url}/api/live`)).json();
    const g = live.games.find((x) => x.game === game);
    if (g && g.spectators >= n) return g;
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.fail(`${game} never had ${n} spectators`);
}

/// A browser whose guest name (kept on this device) is `name`, at the site's home page.
async function guest(url, name, options = {}) {
  const browser = await launchBrowser({ ...WIDE, locale: 'en-US', ...options });
  const page = await browser.newPage();
  await page.goto(`${url}/`);
  await page.evaluate((n) => localStorage.setItem('sagani.name', n), name);
  return { browser, page };
}

describe('games to watch', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(async () => {
    await server?.stop();
  });

  test('two people play, a third watches from /watch, is counted, and sees a move live; in English and German', async (t) => {
    const carol = await launchBrowser({ ...WIDE, locale: 'en-US', bypassCSP: true });
    t.after(() => carol.close());
    const c = await carol.newPage();
    const errors = [watchErrors(c)];

    // Nothing to watch yet: said kindly, with a way to start a game.
    await c.goto(`${server.url}/watch`);
    await c.waitForSelector('[data-testid=watch-none]');
    assert.equal(await c.textContent('[data-testid=watch-none]'), 'No games between people right now: start one');
    await screenshot(c, 'watch-empty-en');

    // Ann and Bob take the two seats of a public game by their invites.
    const made = await create(server.url, { seats: [{ kind: 'human' }, { kind: 'human' }], public: true, name: 'Ann' });
    const game = made.game;
    const ann = await guest(server.url, 'Ann');
    const bob = await guest(server.url, 'Bob');
    t.after(() => Promise.all([ann.browser.close(), bob.browser.close()]));
    errors.push(watchErrors(ann.page), watchErrors(bob.page));
    await ann.page.goto(`${server.url}${made.invites[0].url}`);
    await ann.page.waitForSelector('[data-testid=table]');
    await bob.page.goto(`${server.url}${made.invites[1].url}`);
    await bob.page.waitForSelector('[data-testid=table]');

    // The home page's card lists the game and links to all of them.
    await c.goto(`${server.url}/`);
    await c.waitForSelector(`[data-testid=watch-card] [data-testid=watch-${game}]`);
    assert.equal(await c.textContent(`[data-testid=watch-card] [data-testid=watch-${game}] .watch-players`), 'Ann – Bob');
    assert.equal(await c.getAttribute('[data-testid=watch-all]', 'href'), '/watch');
    await c.locator('[data-testid=watch-card]').screenshot({ path: `${artifactsDir()}/watch-card-en.png` });

    // /watch: the game with its clock and move; nobody watches yet.
    await c.click('[data-testid=watch-all]');
    await c.waitForSelector(`[data-testid=watch-list] [data-testid=watch-${game}]`);
    const line = await c.textContent(`[data-testid=watch-${game}]`);
    assert.ok(line.includes('10+10'), line);
    assert.ok(line.includes('move 1'), line);
    assert.equal(await c.locator(`[data-testid=watching-${game}]`).count(), 0);
    assert.deepEqual(await axe(c), [], 'axe on /watch');

    // Carol opens it: the table, without a seat.
    await c.click(`[data-testid=watch-open-${game}]`);
    await c.waitForSelector('[data-testid=table]');
    assert.equal(new URL(c.url()).pathname, `/games/${game}`);
    assert.equal(await c.getAttribute('[data-testid=table]', 'data-my-turn'), 'false');

    // Another tab sees one watching (Ann's and Bob's own sockets do not count).
    const listed = await untilWatched(server.url, game, 1);
    assert.equal(listed.spectators, 1);
    const other = await carol.newPage();
    errors.push(watchErrors(other));
    await other.goto(`${server.url}/watch`);
    await other.waitForSelector(`[data-testid=watching-${game}]`);
    assert.equal(await other.textContent(`[data-testid=watching-${game}]`), '1 watching');
    await screenshot(other, 'watch-en');
    await other.close();

    // A move by whoever is to act appears on Carol's table live.
    const first = (await (await fetch(`${server.url}/api/games/${game}`)).json()).view.next.player;
    const mover = first === 0 ? ann.page : bob.page;
    const before = await version(c);
    await playByClicking(mover, first, 0);
    await waitForVersion(c, before);
    assert.ok((await version(c)) > before);
    await screenshot(c, 'watch-spectator-en');

    // In German.
    const dora = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => dora.close());
    const d = await dora.newPage();
    errors.push(watchErrors(d));
    await d.goto(`${server.url}/watch`);
    await d.waitForSelector(`[data-testid=watching-${game}]`);
    assert.equal(await d.textContent('h1'), 'Partien zum Zuschauen');
    assert.equal(await d.textContent(`[data-testid=watching-${game}]`), '1 schaut zu');
    assert.match(await d.textContent(`[data-testid=watch-${game}]`), /Zug \d/);
    await screenshot(d, 'watch-de');
    await d.goto(`${server.url}/`);
    await d.waitForSelector(`[data-testid=watch-card] [data-testid=watch-${game}]`);
    await screenshot(d, 'watch-home-de');

    // On a phone: nothing wider than the screen.
    const phone = await launchBrowser({ viewport: { width: 360, height: 740 }, locale: 'de-DE' });
    t.after(() => phone.close());
    const p = await phone.newPage();
    errors.push(watchErrors(p));
    await p.goto(`${server.url}/watch`);
    await p.waitForSelector(`[data-testid=watch-${game}]`);
    assert.equal(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
    await screenshot(p, 'watch-phone-de');

    assert.deepEqual(errors.flat(), []);
  });
});
