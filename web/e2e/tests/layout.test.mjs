// The table's layout as a player sees it, and what the page asks the server for: each page
// fetches the tiles and a table its moves once; the chat's error box shows only with a message;
// the small display of the last move sits beside the board, never over it, its title whole; on a
// phone the board's cells stay a fingertip wide (the board pans) unless the player zooms out.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { createGame, playByClicking, table, version, waitForTurn, waitForVersion } from '../play.mjs';

/// The API requests `page` makes, as "METHOD /path" (ids kept).
function watchApi(page) {
  const seen = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/') || u.pathname === '/assets/tiles.json') seen.push(`${r.method()} ${u.pathname}`);
  });
  return seen;
}

const count = (seen, line) => seen.filter((s) => s === line).length;

/// The size in px of one cell of the display shown alone (100 units of the picture a cell).
const cellPx = (page) => page.evaluate(() => {
  const svg = document.querySelector('.displays.one svg.display-svg');
  return svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width / 100);
});

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the table\'s layout', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50, deckSeed: 8 });
  });
  after(async () => {
    await server?.stop();
  });

  test('each page fetches the tiles once, and a table its moves once', async () => {
    const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    const seen = watchApi(page);
    await page.goto(`${server.url}/`);
    // Both pictures that need the tiles are drawn: every request for them has been made.
    await page.waitForSelector('.hero-tiles svg');
    await page.waitForSelector('.daily-art svg');
    assert.equal(count(seen, 'GET /assets/tiles.json'), 1, `the home page: ${seen.join(', ')}`);
    // A table, opened by its address: it is drawn from the state, the log and the socket.
    const game = await createGame(page, server.url, ['bot:mcts:4']);
    seen.length = 0;
    await page.reload();
    await page.waitForSelector('[data-testid=table][data-synced=true]');
    assert.equal(count(seen, 'GET /assets/tiles.json'), 1, `a table: ${seen.join(', ')}`);
    assert.equal(count(seen, `GET /api/games/${game}/moves`), 1, `a table: ${seen.join(', ')}`);
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('the chat\'s error box shows only with a message', async () => {
    const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page, { ignore: [/status of 400/] });
    await createGame(page, server.url, ['bot:mcts:4']);
    await waitForTurn(page);
    const box = page.locator('[data-testid=chat-error]');
    assert.equal(await box.count(), 1);
    assert.equal(await box.isVisible(), false, 'an empty error box is not shown');
    // A line the server refuses (a direction control inside): the reason shows.
    await page.fill('[data-testid=chat-input]', 'hello \u202e world');
    await page.click('[data-testid=chat-send]');
    await page.waitForSelector('[data-testid=chat-error]:not(:empty)');
    assert.equal(await box.isVisible(), true, 'the error is shown');
    // The next line is taken: the error goes again.
    await page.fill('[data-testid=chat-input]', 'hello');
    await page.click('[data-testid=chat-send]');
    await page.waitForSelector('[data-testid=chat-lines] li[data-seat]');
    assert.equal(await box.isVisible(), false, 'the error is gone');
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('the last move\'s display sits beside the board, never over it, with its whole title', async () => {
    for (const [lang, locale, width, height] of [['en', 'en-GB', 1400, 900], ['de', 'de-DE', 1100, 800], ['en', 'en-GB', 390, 844], ['de', 'de-DE', 390, 844]]) {
      const phone = width < 500;
      const browser = await launchBrowser({ locale, viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await createGame(page, server.url, ['bot:mcts:4']);
      // The bot has moved: its display is in the corner while mine is on the board.
      for (let n = 0; n < 4; n++) await playByClicking(page, 0, n);
      await waitForTurn(page);
      const inset = page.locator('[data-testid=inset-1]');
      await inset.waitFor();
      const mine = await page.locator('[data-testid=display-0]').boundingBox();
      const corner = await inset.boundingBox();
      assert.ok(!overlap(mine, corner), `${lang} ${width}px: the last move's display ${JSON.stringify(corner)} is off my board ${JSON.stringify(mine)}`);
      // In sight: in the window, and on a phone above the controls at the bottom.
      const dock = phone ? await page.locator('[data-testid=dock]').boundingBox() : { y: height };
      assert.ok(corner.y >= 0 && corner.y + corner.height <= dock.y + 1, `${lang} ${width}px: the last move's display ${JSON.stringify(corner)} is in sight (above ${dock.y})`);
      // Its title is whole (it wraps), and the button's tooltip names the seat in full.
      const title = inset.locator('.inset-title');
      const cut = await title.evaluate((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
      assert.equal(cut, false, `${lang} ${width}px: the title "${await title.innerText()}" is cut`);
      assert.match(await inset.getAttribute('title'), lang === 'en' ? /level 4 bot/ : /Bot Stufe 4/);
      await screenshot(page, `inset-${lang}-${width}`);
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });

  test('a phone\'s cells stay a fingertip wide as the display grows; zooming out may shrink them', async () => {
    const browser = await launchBrowser({ locale: 'en-GB', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.tap('[data-testid=solo-start]');
    const sizes = [];
    let panned = false;
    for (let n = 0; n < 12; n++) {
      const expects = await waitForTurn(page);
      if (expects === 'over') break;
      const before = await version(page);
      // Cells along one edge, so the display grows wide: the hardest case for a phone.
      const cells = page.locator('[data-testid=display-0] rect.cell.legal');
      await cells.nth(n % 2 ? 0 : (await cells.count()) - 1).tap();
      await page.waitForSelector('[data-testid=preview-score]');
      await page.tap('[data-testid=confirm]');
      await waitForVersion(page, before);
      await waitForTurn(page);
      const px = await cellPx(page);
      sizes.push(Math.round(px));
      assert.ok(px >= 44 - 0.5, `after move ${n + 1} the cells are ${px.toFixed(1)} px (${sizes.join(', ')})`);
      panned ||= await page.locator('[data-testid=display-0]').evaluate((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight);
    }
    assert.ok(panned, `the display outgrew the phone and pans (cells: ${sizes.join(', ')})`);
    await screenshot(page, 'phone-cells');
    // Fit, on purpose: the whole display in its frame, smaller cells.
    await page.tap('[data-testid=zoom-fit]');
    const fitted = await cellPx(page);
    assert.ok(fitted < 44, `Fit shows the whole display (${fitted.toFixed(1)} px)`);
    assert.ok(await page.locator('[data-testid=display-0]').evaluate((w) => w.scrollWidth <= w.clientWidth + 1 && w.scrollHeight <= w.clientHeight + 1), 'nothing to pan after Fit');
    await screenshot(page, 'phone-cells-fit');
    assert.equal(await table(page).getAttribute('data-status'), 'playing');
    assert.deepEqual(errors, []);
    await browser.close();
  });
});
