// The table as a board gamer meets it: what it says (start player, final round, the
// intermezzo), motion (and none when asked), a phone played by taps with pinch-zoom, all
// displays at once, a lost connection, accessibility (axe-core) and German.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { artifactsDir, launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playUntil, seatedGame } from '../api.mjs';
import { table, version, waitForTurn, waitForVersion } from '../play.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/// Serious and critical axe-core violations on the page as it is now.
async function axe(page) {
  // Evaluated over the DevTools protocol: the page's CSP forbids inline scripts, rightly.
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return { all: result, bad: result.filter((v) => v.impact === 'serious' || v.impact === 'critical') };
}

/// Opens game `game` in `page` as the holder of `token` (seat `seat`).
async function openAs(page, url, game, seat, token) {
  await page.goto(`${url}/`);
  await page.evaluate(([g, s, tk]) => localStorage.setItem('sagani.games', JSON.stringify([{ game: g, seat: s, token: tk, mark: null }])), [game, seat, token]);
  await page.goto(`${url}/games/${game}`);
  await page.waitForSelector('[data-testid=table]');
}

/// Everything the page sends or prints that could carry a seat token.
function watchTokens(page) {
  const seen = [];
  page.on('websocket', (ws) => seen.push(`websocket ${ws.url()}`));
  page.on('console', (m) => seen.push(`console ${m.text()}`));
  return seen;
}

describe('the table', () => {
  let server;
  const axeCounts = {};
  before(async () => {
    server = await startServer({ botThinkMs: 50, deckSeed: 8 });
  });
  after(async () => {
    writeFileSync(join(artifactsDir(), 'axe.json'), `${JSON.stringify(axeCounts, null, 1)}\n`);
    await server?.stop();
  });

  test('the start player, the final round with its turns left, and axe-core on a table in play', async () => {
    const { game, tokens } = await seatedGame(server.url, 3);
    for (const [lang, locale] of [['en', 'en-GB'], ['de', 'de-DE']]) {
      const browser = await launchBrowser({ locale, viewport: { width: 1400, height: 900 } });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      const seen = watchTokens(page);
      const state = await (await fetch(`${server.url}/api/games/${game}`)).json();
      const acting = state.view.next.player;
      await openAs(page, server.url, game, acting, tokens[acting]);
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      // The start player carries the marker, on its tab and in the players' list.
      const start = state.view.start_player;
      await page.waitForSelector(`[data-testid=tab-${start}] [data-testid=start-marker]`);
      assert.equal(await page.locator(`[data-testid=players-table] tr[data-seat="${start}"] [data-testid=start-marker]`).count(), 1);
      assert.equal(await page.locator('[data-testid=players-table] [data-testid=start-marker]').count(), 1);
      const { bad, all } = await axe(page);
      axeCounts[`table-${lang}`] = all;
      assert.deepEqual(bad, [], `axe-core on a table in play (${lang})`);
      await screenshot(page, `table-${lang}`);
      // A placement's preview, in this language (nothing is played).
      await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
      await page.locator(`[data-testid=display-${acting}] rect.cell.legal`).first().click();
      await page.waitForSelector('[data-testid=preview-score]');
      await screenshot(page, `preview-${lang}`);
      assert.ok(!seen.some((s) => s.includes(tokens[acting])), 'the token is never in an address or on the console');
      assert.deepEqual(errors, []);
      await browser.close();
    }
    // Play on by the API until the final round starts, then follow it to the end on the page.
    let state = await playUntil(server.url, game, tokens, (s) => s.view.final_round);
    const browser = await launchBrowser({ locale: 'en-GB', viewport: { width: 1400, height: 900 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await openAs(page, server.url, game, 0, tokens[0]);
    let turns = 0;
    const promised = state.view.turns_left;
    while (state.status !== 'over') {
      const banner = page.locator('[data-testid=final-round]');
      await page.waitForSelector(`[data-testid=table][data-version="${state.version}"]`);
      const left = state.view.turns_left;
      assert.equal(await banner.getAttribute('data-turns-left'), String(left));
      if (left > 0) {
        assert.match(await banner.textContent(), new RegExp(`${left} turns? left`));
        assert.match(await banner.textContent(), new RegExp(`Seat ${state.view.last_player + 1}`));
      }
      if (turns === 0) {
        await screenshot(page, 'final-round-en');
        const german = await launchBrowser({ locale: 'de-DE', viewport: { width: 1400, height: 900 } });
        const seite = german.pages()[0];
        await openAs(seite, server.url, game, 0, tokens[0]);
        await seite.waitForSelector('[data-testid=final-round]');
        assert.match(await seite.textContent('[data-testid=final-round]'), /Letzte Runde/);
        await screenshot(seite, 'final-round-de');
        await german.close();
      }
      const before = state.view.placements;
      const wasTurn = state.view.next.expects === 'turn';
      state = await playUntil(server.url, game, tokens, (s) => s.version > state.version);
      if (wasTurn) turns += 1;
      assert.ok(state.view.placements >= before);
    }
    // The last banner said how many turns were left, and that many were played.
    await page.waitForSelector('[data-testid=end]');
    assert.equal(turns, promised, 'as many turns were played as the banner said at the start of the final round');
    assert.equal(await page.locator('[data-testid=final-round]').count(), 0);
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('an opponent\'s move is animated and stays outlined in sight; nothing moves with reduced motion', async () => {
    for (const reducedMotion of ['no-preference', 'reduce']) {
      const browser = await launchBrowser({ reducedMotion, viewport: { width: 1300, height: 850 } });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.goto(`${server.url}/`);
      await page.selectOption('[data-testid=players]', '2');
      await page.selectOption('[data-testid=seat-1]', 'bot:mcts:4');
      await page.click('[data-testid=create]');
      await waitForTurn(page);
      // Every flight that starts, from now on.
      await page.evaluate(() => {
        window.flights = [];
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.addedNodes) if (n.classList && n.classList.contains('flight')) window.flights.push(n.className);
        }).observe(document.body, { childList: true, subtree: true });
      });
      const seen = await version(page);
      await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
      await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
      await page.waitForSelector('[data-testid=preview-score]');
      await page.click('[data-testid=confirm]');
      // The bot's move arrives: its tile flies in, and its display is in sight with the tile
      // outlined, while my own display stays on the board.
      await waitForVersion(page, seen + 1);
      const state = await (await fetch(`${server.url}/api/games/${new URL(page.url()).pathname.split('/')[2]}`)).json();
      const botTile = state.last_move.move.tile;
      await page.waitForSelector(`[data-testid=inset-1] g.tile.fresh[data-tile="${botTile}"]`);
      const flights = await page.evaluate(() => window.flights.length);
      if (reducedMotion === 'reduce') assert.equal(flights, 0, 'nothing flies with reduced motion');
      else {
        assert.ok(flights >= 2, `my tile and the bot's tile fly (${flights})`);
        await screenshot(page, 'opponent-move');
      }
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });

  test('all displays of a four-player game fit the window at 1100 px', async () => {
    const browser = await launchBrowser({ viewport: { width: 1100, height: 800 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    const { game, tokens } = await seatedGame(server.url, 4);
    await playUntil(server.url, game, tokens, (s) => s.view.placements >= 24);
    await openAs(page, server.url, game, 0, tokens[0]);
    await page.click('[data-testid=view-toggle]');
    for (const seat of [0, 1, 2, 3]) await page.waitForSelector(`[data-testid=display-${seat}] svg`);
    const boxes = await page.evaluate(() => [0, 1, 2, 3].map((seat) => {
      const wrap = document.querySelector(`[data-testid=display-${seat}]`);
      const w = wrap.getBoundingClientRect();
      const tiles = [...wrap.querySelectorAll('g.tile')].map((g) => g.getBoundingClientRect());
      return { w: [w.left, w.top, w.right, w.bottom], tiles: tiles.map((r) => [r.left, r.top, r.right, r.bottom]), scroll: [wrap.scrollWidth - wrap.clientWidth, wrap.scrollHeight - wrap.clientHeight] };
    }));
    for (const [seat, b] of boxes.entries()) {
      assert.ok(b.tiles.length >= 6, `display ${seat} has its tiles`);
      assert.ok(b.w[2] <= 1100 && b.w[3] <= 800 && b.w[0] >= 0 && b.w[1] >= 0, `display ${seat} is in the window: ${b.w}`);
      for (const r of b.tiles) {
        assert.ok(r[0] >= b.w[0] - 1 && r[1] >= b.w[1] - 1 && r[2] <= b.w[2] + 1 && r[3] <= b.w[3] + 1, `a tile of display ${seat} sticks out: ${r} of ${b.w}`);
      }
      assert.deepEqual(b.scroll.map((x) => x <= 1), [true, true], `display ${seat} needs no scrolling`);
    }
    await screenshot(page, 'all-displays-1100');
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('the intermezzo says why this player picks now; axe-core there in both languages', async () => {
    const { game, tokens } = await seatedGame(server.url, 2);
    const state = await playUntil(server.url, game, tokens, (s) => s.view.next?.expects === 'intermezzo-pick',
      (s) => s.legal.find((m) => m.action === 'intermezzo') || s.legal[0]);
    assert.equal(state.view.next.expects, 'intermezzo-pick');
    const seat = state.view.next.player;
    for (const [lang, locale] of [['en', 'en-GB'], ['de', 'de-DE']]) {
      const browser = await launchBrowser({ locale, viewport: { width: 1400, height: 900 } });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await openAs(page, server.url, game, seat, tokens[seat]);
      await page.waitForSelector('[data-testid=table][data-expects=intermezzo-pick]');
      const why = await page.textContent('[data-testid=intermezzo-why]');
      assert.match(why, lang === 'en' ? /fewest points when it began chooses first/ : /wenigsten Punkte hatte, wählt zuerst/);
      // The first to choose is told so (nobody chose before).
      assert.match(why, lang === 'en' ? /you choose first/ : /wählst du zuerst/);
      assert.ok((await page.locator('[data-testid=intermezzo-tile]:not([disabled])').count()) > 0);
      const { bad, all } = await axe(page);
      axeCounts[`intermezzo-${lang}`] = all;
      assert.deepEqual(bad, [], `axe-core in the intermezzo (${lang})`);
      await screenshot(page, `intermezzo-${lang}`);
      assert.deepEqual(errors, []);
      await browser.close();
    }
    // The first passes: the second is told who chose before and that it is their choice now,
    // not that they had the fewest points.
    const r = await fetch(`${server.url}/api/games/${game}/moves`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[seat]}` }, body: JSON.stringify({ version: state.version, move: { action: 'pass' } }) });
    assert.equal(r.status, 200);
    const next = (await r.json()).state.view.next;
    assert.equal(next.expects, 'intermezzo-pick', 'two players: the other chooses next');
    {
      const browser = await launchBrowser({ locale: 'de-DE', viewport: { width: 1400, height: 900 } });
      const page = browser.pages()[0];
      await openAs(page, server.url, game, next.player, tokens[next.player]);
      await page.waitForSelector('[data-testid=table][data-expects=intermezzo-pick]');
      const why = await page.textContent('[data-testid=intermezzo-why]');
      assert.match(why, /Vor dir dran: Sitz \d/);
      assert.match(why, /Jetzt wählst du\./);
      assert.doesNotMatch(why, /wählst du zuerst/);
      await screenshot(page, 'intermezzo-second-de');
      await browser.close();
    }
  });

  test('the end screen, in both languages, passes axe-core', async () => {
    const { game, tokens } = await seatedGame(server.url, 2);
    await playUntil(server.url, game, tokens, (s) => s.status === 'over');
    for (const [lang, locale] of [['en', 'en-GB'], ['de', 'de-DE']]) {
      const browser = await launchBrowser({ locale, viewport: { width: 1400, height: 900 } });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await openAs(page, server.url, game, 0, tokens[0]);
      await page.waitForSelector('[data-testid=end] [data-testid=ranking]');
      const { bad, all } = await axe(page);
      axeCounts[`end-${lang}`] = all;
      assert.deepEqual(bad, [], `axe-core on the end screen (${lang})`);
      await screenshot(page, `end-${lang}`);
      // The card can be put aside to look at the table, and brought back.
      await page.click('[data-testid=end-hide]');
      await page.click('[data-testid=show-result]');
      await page.waitForSelector('[data-testid=end]');
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });

  test('a lost connection is never called an illegal move, and its error clears when the server is back', async () => {
    const browser = await launchBrowser({ viewport: { width: 1300, height: 850 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page, { ignore: [/net::ERR_CONNECTION_FAILED.*\/preview/] });
    const { game, tokens } = await seatedGame(server.url, 2);
    const state = await playUntil(server.url, game, tokens, (s) => s.view.next.player === 0 && s.view.next.expects === 'turn' && s.view.placements >= 2);
    await openAs(page, server.url, game, 0, tokens[0]);
    await page.waitForSelector(`[data-testid=table][data-version="${state.version}"][data-my-turn=true]`);
    await page.route('**/api/games/*/preview', (route) => route.abort('connectionfailed'));
    await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
    await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
    const error = page.locator('[data-testid=error]');
    await error.waitFor();
    assert.equal(await error.getAttribute('data-kind'), 'network');
    assert.doesNotMatch(await error.textContent(), /not allowed|refused|illegal/i);
    await screenshot(page, 'lost-connection');
    await page.unroute('**/api/games/*/preview');
    await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
    await page.waitForSelector('[data-testid=preview-score]');
    assert.equal(await error.count(), 0, 'the error is gone once the server answers again');
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('a phone plays a solo game by taps, with pinch and double-tap zoom, and never mentions keys', async () => {
    for (const [lang, locale] of [['en', 'en-GB'], ['de', 'de-DE']]) {
      const browser = await launchBrowser({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.goto(`${server.url}/`);
      await page.tap('[data-testid=solo-start]');
      await waitForTurn(page);
      // The board is in view from the start, and the controls sit at the bottom.
      const board = await page.locator('[data-testid=display-0]').boundingBox();
      assert.ok(board.y < 200 && board.height > 300, `the board is in view: ${JSON.stringify(board)}`);
      const noKeys = async () => {
        const text = await page.evaluate(() => document.body.innerText + [...document.querySelectorAll('[title],[aria-label]')].map((e) => `${e.title} ${e.getAttribute('aria-label') || ''}`).join(' '));
        assert.doesNotMatch(text, /\b(Enter|Esc|Tab|Q and E|Q und E|\(Q\)|\(E\))\b/, 'a phone player reads nothing about keys');
      };
      // Pinch out on the board: the display grows.
      const cdp = await page.context().newCDPSession(page);
      const mid = { x: board.x + board.width / 2, y: board.y + board.height / 2 };
      const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', {
        type, touchPoints: type === 'touchEnd' ? [] : [{ x: mid.x - d, y: mid.y, id: 1 }, { x: mid.x + d, y: mid.y, id: 2 }],
      });
      await touch('touchStart', 30);
      for (const d of [50, 70, 90, 110]) await touch('touchMove', d);
      await touch('touchEnd', 0);
      const zoom = Number(await page.getAttribute('[data-testid=display-0]', 'data-zoom'));
      assert.ok(zoom > 1.5, `pinching zooms in (${zoom})`);
      // A double tap goes back to the whole display.
      await page.touchscreen.tap(mid.x, mid.y);
      await page.touchscreen.tap(mid.x, mid.y);
      await page.waitForSelector('[data-testid=display-0][data-zoom="1"]');
      await screenshot(page, `phone-${lang}`);
      await noKeys();
      // Play by tapping: a legal cell, then ✓; in English to the end (German: a few moves).
      for (let n = 0; n < (lang === 'en' ? 80 : 3); n++) {
        const expects = await waitForTurn(page);
        if (expects === 'over') break;
        const before = await version(page);
        const cells = page.locator('[data-testid=display-0] rect.cell.legal');
        await cells.nth(n % (await cells.count())).tap();
        await page.waitForSelector('[data-testid=preview-score]');
        if (n === 1) {
          await noKeys();
          await screenshot(page, `phone-preview-${lang}`);
        }
        await page.tap('[data-testid=confirm]');
        await waitForVersion(page, before);
      }
      if (lang === 'en') {
        // The end appears where the player is looking.
        const end = await page.locator('[data-testid=end]').boundingBox();
        assert.ok(end && end.y >= 0 && end.y + end.height <= 844, `the end is on screen: ${JSON.stringify(end)}`);
        await screenshot(page, `phone-end-${lang}`);
        assert.equal(await table(page).getAttribute('data-status'), 'over');
      }
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });
});
