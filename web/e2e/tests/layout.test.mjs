// The table's layout as a player sees it, and what the page asks the server for: each page
// fetches the tiles and a table its moves once; the chat's error box shows only with a message;
// the small display of the last move sits beside the board, never over it, its title whole; on a
// phone the board's cells stay a fingertip wide (44 px: the board pans) unless the player zooms
// out. The board comes first: on a desktop it takes most of the window, the offer stands beside
// it like a market, the score strip shows every seat (and the final round) in one row, and the
// other panels fold, as the player left them; on a phone the board, the strip and the offer at
// the bottom fit the screen without scrolling.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifactsDir, launchBrowser, screenshot, settled, startServer, watchErrors } from '../lib.mjs';
import { createGame, playByClicking, table, version, waitForTurn, waitForVersion } from '../play.mjs';
import { playUntil, seatedGame } from '../api.mjs';

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

/// The game as seat `token` sees it, from the server.
async function stateOf(url, game, token) {
  const r = await fetch(`${url}/api/games/${game}`, { headers: { authorization: `Bearer ${token}` } });
  return r.json();
}

/// Opens game `game` in `page` as the holder of `token` (seat `seat`), at `version`.
async function openAs(page, url, game, seat, token, version) {
  await page.goto(`${url}/`);
  await page.evaluate(([g, s, tk]) => localStorage.setItem('sagani.games', JSON.stringify([{ game: g, seat: s, token: tk, mark: null }])), [game, seat, token]);
  await page.goto(`${url}/games/${game}`);
  await page.waitForSelector(`[data-testid=table][data-version="${version}"]`);
}

/// The last number in a text ("Score 12" -> 12: the words are for screen readers; a score below
/// zero may be written with a true minus sign).
const lastNumber = (text) => Number(text.match(/([-\u2212]?\d+)\s*$/)[1].replace('\u2212', '-'));

/// Checks that the strip shows every seat of `state` as the server has it, in sight of a
/// window `width`×`height`.
async function checkStrip(page, state, [width, height], what) {
  const v = state.view;
  const strip = page.locator('[data-testid=strip]');
  const box = await strip.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width + 1, `${what}: the strip ${JSON.stringify(box)} is in sight`);
  for (const [i, seat] of v.seats.entries()) {
    const chip = strip.locator(`[data-testid=tab-${i}]`);
    const at = await chip.boundingBox();
    assert.ok(at.x >= 0 && at.x + at.width <= width + 1 && at.y + at.height <= height, `${what}: seat ${i} ${JSON.stringify(at)} is in sight`);
    assert.equal(lastNumber(await chip.locator(`[data-testid=strip-score-${i}]`).innerText()), seat.score, `${what}: seat ${i}'s score`);
    assert.equal(lastNumber(await chip.locator(`[data-testid=strip-discs-${i}]`).innerText()), seat.supply, `${what}: seat ${i}'s discs`);
    assert.equal(lastNumber(await chip.locator(`[data-testid=strip-cacophony-${i}]`).innerText()), seat.cacophony, `${what}: seat ${i}'s Cacophony`);
    const acting = state.status === 'playing' && v.next && v.next.player === i;
    assert.equal(await chip.evaluate((el) => el.classList.contains('acting')), acting, `${what}: whether seat ${i} is to act`);
    assert.equal(await chip.locator('.acting-mark').count(), acting ? 1 : 0, `${what}: the turn's mark on seat ${i}`);
    assert.equal(await chip.locator('[data-testid=start-marker]').count(), i === v.start_player ? 1 : 0, `${what}: the start player's token on seat ${i}`);
  }
}

/// A picture of what a phone's screen shows (the window, not the whole page), in artifacts/.
async function screen(page, name) {
  await settled(page);
  await page.screenshot({ path: join(artifactsDir(), `${name}.png`) });
}

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

  test('on a desktop the board takes most of the window, the offer stands beside it, the scores in one strip', async () => {
    for (const [players, lang, locale, width, height] of [[2, 'en', 'en-GB', 1400, 900], [4, 'de', 'de-DE', 1400, 900], [2, 'de', 'de-DE', 1920, 1080], [4, 'en', 'en-GB', 1920, 1080]]) {
      const what = `${players} players, ${lang}, ${width}×${height}`;
      const { game, tokens } = await seatedGame(server.url, players);
      // A few moves, so that the scores and supplies differ.
      let state = await playUntil(server.url, game, tokens, (s) => s.view.placements >= 2 * players && s.view.next.player === 0 && s.view.next.expects === 'turn');
      state = await stateOf(server.url, game, tokens[0]);
      const browser = await launchBrowser({ locale, viewport: { width, height } });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await openAs(page, server.url, game, 0, tokens[0], state.version);
      await page.waitForSelector('[data-testid=offer-tile]:not([disabled])');
      const board = await page.locator('[data-testid=displays]').boundingBox();
      assert.ok(board.width >= 0.65 * width, `${what}: the board is ${board.width} px wide, ${Math.round((100 * board.width) / width)}% of the window`);
      assert.ok(board.height >= 0.75 * height, `${what}: the board is ${board.height} px high, ${Math.round((100 * board.height) / height)}% of the window`);
      // The offer beside the board, every tile in the window, large enough to read its arrows.
      const offer = await page.locator('[data-testid=offer]').boundingBox();
      assert.ok(offer.x >= board.x + board.width && offer.x - (board.x + board.width) < 40, `${what}: the offer ${JSON.stringify(offer)} stands right beside the board ${JSON.stringify(board)}`);
      assert.ok(offer.y < board.y + board.height / 3, `${what}: the offer starts level with the board's top`);
      const tiles = page.locator('[data-testid=offer] [data-testid=offer-tile]');
      assert.equal(await tiles.count(), state.view.offer.length);
      for (const tile of await tiles.all()) {
        const b = await tile.boundingBox();
        assert.ok(b.width >= 96 && b.height >= 96, `${what}: an offered tile is ${b.width}×${b.height} px`);
        assert.ok(b.y >= 0 && b.y + b.height <= height, `${what}: an offered tile ${JSON.stringify(b)} is in the window`);
      }
      // The page itself does not scroll: the strip, the board and the offer are all in sight.
      assert.ok(await page.evaluate(() => document.scrollingElement.scrollHeight <= innerHeight + 1 && document.scrollingElement.scrollWidth <= innerWidth + 1), `${what}: the page does not scroll`);
      await checkStrip(page, state, [width, height], what);
      // The strip is one row.
      const tops = await page.locator('[data-testid=strip] .seat-chip').evaluateAll((chips) => chips.map((c) => Math.round(c.getBoundingClientRect().top)));
      assert.equal(new Set(tops).size, 1, `${what}: the seats stand in one row (${tops})`);
      // Taking an offered tile still works from the market, and the scores follow a move.
      await tiles.first().click();
      await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
      await page.waitForSelector('[data-testid=preview-score]');
      await screenshot(page, `layout-${width}-${players}p-${lang}`);
      await page.click('[data-testid=confirm]');
      await waitForVersion(page, state.version);
      state = await playUntil(server.url, game, tokens, (s) => s.view.next.player === 0 && s.view.next.expects === 'turn');
      await page.waitForSelector(`[data-testid=table][data-version="${state.version}"]`);
      await checkStrip(page, await stateOf(server.url, game, tokens[0]), [width, height], `${what}, later`);
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });

  test('the final round is in the strip', async () => {
    const { game, tokens } = await seatedGame(server.url, 3);
    const state = await playUntil(server.url, game, tokens, (s) => s.view.final_round && s.view.turns_left > 0);
    for (const [locale, width, height, phone] of [['en-GB', 1400, 900, false], ['de-DE', 390, 844, true]]) {
      const browser = await launchBrowser({ locale, viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await openAs(page, server.url, game, 0, tokens[0], state.version);
      const note = page.locator('[data-testid=strip] [data-testid=final-round]');
      assert.equal(await note.getAttribute('data-turns-left'), String(state.view.turns_left));
      assert.match(await note.textContent(), phone ? /Letzte Runde/ : new RegExp(`${state.view.turns_left} turns? left`));
      const box = await note.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= height && box.x + box.width <= width + 1, `${width}px: the final round ${JSON.stringify(box)} is in sight`);
      await checkStrip(page, await stateOf(server.url, game, tokens[0]), [width, height], `${width}px, the final round`);
      await screen(page, `layout-final-${width}`);
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });

  test('the panels fold and stay as the player left them; the intermezzo storage opens itself when needed', async () => {
    const { game, tokens } = await seatedGame(server.url, 2);
    // Both players take the intermezzo whenever they may, so that one comes soon.
    const storing = (s) => s.legal.find((m) => m.action === 'intermezzo') || s.legal[0];
    let state = await playUntil(server.url, game, tokens, (s) => s.view.intermezzo.length > 0 && s.view.next.expects === 'turn', storing);
    const browser = await launchBrowser({ locale: 'en-GB', viewport: { width: 1400, height: 900 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await openAs(page, server.url, game, 0, tokens[0], state.version);
    const head = (id) => page.locator(`[data-testid=fold-${id}]`);
    const isOpen = async (id) => (await head(id).getAttribute('aria-expanded')) === 'true';
    // As they come: the storage, the track and the log folded; the pile and the players open.
    assert.deepEqual([await isOpen('storage'), await isOpen('pile'), await isOpen('players'), await isOpen('track'), await isOpen('log')], [false, true, true, false, false]);
    assert.equal(await page.locator('[data-testid=log]').isVisible(), false, 'the folded log is hidden');
    assert.equal(await page.locator('[data-testid=intermezzo]').isVisible(), false, 'the folded storage is hidden');
    // Open the log, fold the pile: so they stay after a reload.
    await head('log').click();
    await head('pile').click();
    assert.equal(await page.locator('[data-testid=log]').isVisible(), true, 'the log opens');
    assert.equal(await page.locator('[data-testid=pile-count]').isVisible(), false, 'the pile folds');
    await page.reload();
    await page.waitForSelector(`[data-testid=table][data-version="${state.version}"]`);
    assert.deepEqual([await isOpen('pile'), await isOpen('log'), await isOpen('storage')], [false, true, false], 'after a reload');
    assert.equal(await page.locator('[data-testid=log]').isVisible(), true);
    // The keyboard folds too (the heading is a button).
    await head('log').focus();
    await page.keyboard.press('Enter');
    assert.equal(await isOpen('log'), false, 'Enter folds the log');
    // The intermezzo begins: the storage opens by itself on my pick, its tiles ready to take.
    state = await playUntil(server.url, game, tokens, (s) => s.view.next.expects === 'intermezzo-pick' && s.view.next.player === 0, storing);
    await page.waitForSelector(`[data-testid=table][data-version="${state.version}"]`);
    assert.equal(await isOpen('storage'), true, 'the storage opened itself');
    const pick = page.locator('[data-testid=intermezzo-tile]:not([disabled])').first();
    const box = await pick.boundingBox();
    assert.ok(box && box.y + box.height <= 900, `a tile of the storage ${JSON.stringify(box)} is in sight`);
    await screenshot(page, 'layout-intermezzo-1400');
    // On a phone the storage comes to the bar at the bottom while I must choose from it.
    const phone = await launchBrowser({ locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const handy = phone.pages()[0];
    const phoneErrors = watchErrors(handy);
    await openAs(handy, server.url, game, 0, tokens[0], state.version);
    const dock = await handy.locator('[data-testid=dock]').boundingBox();
    for (const tile of await handy.locator('[data-testid=intermezzo-tile]').all()) {
      const b = await tile.boundingBox();
      assert.ok(b && b.y >= dock.y && b.y + b.height <= 844 && b.x + b.width <= 390, `on a phone a stored tile ${JSON.stringify(b)} is in the bar at the bottom ${JSON.stringify(dock)}`);
    }
    await handy.waitForSelector('[data-testid=pass]');
    await screen(handy, 'layout-intermezzo-phone');
    assert.deepEqual(phoneErrors, []);
    await phone.close();
    await pick.click();
    await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
    await page.waitForSelector('[data-testid=preview-score]');
    await page.click('[data-testid=confirm]');
    await waitForVersion(page, state.version);
    // The intermezzo over, the storage is as the player left it: folded.
    state = await playUntil(server.url, game, tokens, (s) => s.view.next.expects === 'turn');
    await page.waitForSelector(`[data-testid=table][data-version="${state.version}"]`);
    assert.equal(await isOpen('storage'), false, 'the storage folds again');
    assert.equal(await page.evaluate(() => localStorage.getItem('sagani.fold.storage')), null, 'opening by itself is not the player\'s choice');
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('on a phone the board, the strip and the offer fit the screen; cells stay 44 px', async () => {
    for (const [players, locale] of [[2, 'en-GB'], [4, 'de-DE']]) {
      const what = `${players} players, ${locale}`;
      const { game, tokens } = await seatedGame(server.url, players);
      const state = await playUntil(server.url, game, tokens, (s) => s.view.placements >= players && s.view.next.player === 0 && s.view.next.expects === 'turn');
      const browser = await launchBrowser({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await openAs(page, server.url, game, 0, tokens[0], state.version);
      await page.waitForSelector('[data-testid=offer-tile]:not([disabled])');
      assert.equal(await page.evaluate(() => scrollY), 0);
      // The board first, then the offer at the bottom, every tile within the screen.
      const board = await page.locator('[data-testid=displays]').boundingBox();
      const dock = await page.locator('[data-testid=dock]').boundingBox();
      assert.ok(board.y < dock.y && board.y + board.height <= dock.y + 1, `${what}: the board ${JSON.stringify(board)} is above the controls ${JSON.stringify(dock)}`);
      assert.ok(board.height >= 0.4 * 844, `${what}: the board is ${board.height} px high`);
      assert.ok(dock.y + dock.height <= 844 + 1, `${what}: the controls are at the bottom`);
      for (const tile of await page.locator('[data-testid=offer-tile]').all()) {
        const b = await tile.boundingBox();
        assert.ok(b.y >= dock.y && b.y + b.height <= 844 && b.x >= 0 && b.x + b.width <= 390, `${what}: an offered tile ${JSON.stringify(b)} is within the screen`);
        assert.ok(b.width >= 44, `${what}: an offered tile is ${b.width} px wide`);
      }
      await checkStrip(page, state, [390, 844], what);
      const px = await cellPx(page);
      assert.ok(px >= 44 - 0.5, `${what}: the cells are ${px.toFixed(1)} px`);
      // A tile taken with the thumb.
      await page.locator('[data-testid=offer-tile]:not([disabled])').first().tap();
      await page.waitForSelector('[data-testid=display-0] rect.cell.legal');
      await screen(page, `layout-phone-${players}p-${locale.slice(0, 2)}`);
      assert.deepEqual(errors, []);
      await browser.close();
    }
  });
});
