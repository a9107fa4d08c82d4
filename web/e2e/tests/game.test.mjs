// Whole games in a real Chromium against a real `sagani serve`: a 2-player game against a bot
// by clicking, a solo game by keyboard, two browsers joining one game by invite, an illegal
// placement, and the page's layout from a narrow window to a wide one.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { artifactsDir, launchBrowser, saganiBin, screenshot, startServer, watchErrors } from '../lib.mjs';
import { createGame, playByClicking, table, tilesOn, version, waitForTurn, waitForVersion } from '../play.mjs';

const run = promisify(execFile);

describe('playing in the browser', () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a whole 2-player game against a bot, by clicking, to the end, the record and a rematch', async (t) => {
    // A dealt deck (`--deck-seed`) and the greedy bot (seeded too) make the game the same every
    // time; seed 8 is one where this player makes every kind of decision at least once.
    const server = await startServer({ deckSeed: 8 });
    t.after(() => server.stop());
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const game = await createGame(page, server.url, ['bot:mcts:4']);
    let shot = false;
    const done = new Map();
    let intermezzoShot = false;
    for (let n = 0; ; n++) {
      if (!intermezzoShot && (await waitForTurn(page)) === 'intermezzo-pick') {
        intermezzoShot = true;
        await screenshot(page, 'intermezzo');
      }
      const did = await playByClicking(page, 0, n, {
        check: server.url,
        shots: shot || n < 6 ? null : async () => {
          shot = true;
          await screenshot(page, 'preview');
        },
      });
      if (did === 'over') break;
      done.set(did, (done.get(did) || 0) + 1);
      if (n === 8) await screenshot(page, 'table');
      assert.ok(n < 200, 'the game ends');
    }
    for (const kind of ['turn', 'intermezzo', 'place-drawn', 'intermezzo-pick', 'pass']) {
      assert.ok(done.get(kind) > 0, `no ${kind} among ${JSON.stringify([...done])}`);
    }
    await page.waitForSelector('[data-testid=end]');
    await screenshot(page, 'end');
    // The bot's placements say why, from what each did (the arrows it covered, the discs it
    // kept); a person's moves have no such line.
    assert.equal(await page.locator('[data-testid=log] li[data-seat="0"] [data-testid=log-why]').count(), 0);
    const whys = await page.locator('[data-testid=log] li[data-seat="1"] [data-testid=log-why]').allTextContents();
    assert.ok(whys.length > 5, `the bot's moves have reasons: ${whys.length}`);
    for (const why of whys) assert.match(why, /^Why: .*\b\d+ discs? kept$/, why);
    assert.ok(whys.some((w) => /arrows? covered on (Fire|Water|Earth|Air) \d+/.test(w)), whys.join(' | '));
    // What the page measured over the whole game (for the closing note; no time is asserted).
    const timings = await page.evaluate(() => window.saganiTimings);
    const stats = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return { count: s.length, median: s.length ? Math.round(s[Math.floor(s.length / 2)] * 10) / 10 : null, max: s.length ? Math.round(s[s.length - 1] * 10) / 10 : null };
    };
    await writeFile(join(artifactsDir(), 'timings.json'), `${JSON.stringify({
      firstRender: Math.round(timings.firstRender), moves: stats(timings.moves), previews: stats(timings.previews), renders: stats(timings.renders),
    }, null, 1)}\n`);
    assert.ok(timings.moves.length > 10, 'every move was timed');

    // The page shows what the server says.
    const state = await (await fetch(`${server.url}/api/games/${game}`)).json();
    assert.equal(state.status, 'over');
    assert.equal(await page.locator('[data-testid=ranking] li').count(), 2);
    const first = await page.locator('[data-testid=ranking] li').first().textContent();
    assert.ok(first.includes(`${state.view.seats[state.view.ranking[0]].score} points`), first);
    for (const seat of [0, 1]) {
      assert.equal(Number(await page.textContent(`[data-testid=score-${seat}]`)), state.view.seats[seat].score);
    }
    assert.equal(await tilesOn(page, 0), state.view.seats[0].display.length);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log] li[data-version]').length === n, state.version);

    // The record downloads, and `sagani replay` reaches the same scores.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-record]')]);
    const record = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(record.moves.length, state.version);
    const file = join(artifactsDir(), 'record.json');
    await writeFile(file, JSON.stringify(record));
    const { stdout } = await run(await saganiBin(), ['replay', file]);
    const replayed = JSON.parse(stdout);
    assert.deepEqual(replayed.players.map((p) => p.score), state.view.seats.map((s) => s.score));

    // A rematch: a new game with the same seats, named by the old one.
    await page.click('[data-testid=rematch]');
    await page.waitForURL((u) => u.pathname.startsWith('/games/') && !u.pathname.includes(game));
    await page.waitForSelector('[data-testid=table][data-status=playing]');
    const next = new URL(page.url()).pathname.split('/')[2];
    const again = await (await fetch(`${server.url}/api/games/${next}`)).json();
    assert.deepEqual(again.seats.map((s) => s.bot || s.kind), ['human', 'mcts']);
    assert.equal((await (await fetch(`${server.url}/api/games/${game}`)).json()).rematch, next);
    assert.equal(await page.locator('[data-testid=watching]').count(), 0, 'the same seat, with the same token');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a solo game to its end, with the keyboard only', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.selectOption('[data-testid=solo-variant]', 'solo');
    await page.click('[data-testid=solo-start]');
    let moves = 0;
    for (;;) {
      const expects = await waitForTurn(page);
      if (expects === 'over') break;
      assert.equal(expects, 'place-revealed');
      const before = await version(page);
      // The revealed tile is chosen and the first legal cell has the focus.
      await page.waitForFunction(() => document.activeElement?.classList.contains('legal'));
      if (moves % 2 === 1) await page.keyboard.press('Tab');
      if (moves % 3 === 0) await page.keyboard.press('e');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=preview-score]');
      await page.keyboard.press('Enter');
      await waitForVersion(page, before);
      moves++;
      assert.ok(moves <= 72);
    }
    const result = await page.textContent('[data-testid=solo-result]');
    assert.ok(result.includes(`${moves} tiles`), result);
    const state = await (await fetch(`${server.url}${new URL(page.url()).pathname.replace('/games/', '/api/games/')}`)).json();
    const o = state.outcome;
    assert.equal(o.kind, 'solo');
    assert.equal(o.tiles_used, moves);
    assert.ok(result.includes(`${o.score} points`), result);
    assert.equal(result.startsWith('You reached'), o.reached, result);
    assert.equal(result.includes('A magical symphony!'), o.symphony, result);
    await screenshot(page, 'solo-end');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('two browsers join one game by invite link and see each other move live', async (t) => {
    const a = await browser.newPage();
    const other = await launchBrowser({ viewport: { width: 1280, height: 860 } });
    try {
      const b = await other.newPage();
      // B's tab is in the background and allowed to notify: its notifications are recorded.
      await b.addInitScript(() => {
        window.notes = [];
        window.Notification = class {
          static permission = 'granted';
          static requestPermission() {
            return Promise.resolve('granted');
          }
          constructor(title, options) {
            window.notes.push({ title, body: options && options.body });
          }
        };
        Object.defineProperty(document, 'hidden', { get: () => true });
      });
      const errors = [watchErrors(a), watchErrors(b)];
      const game = await createGame(a, server.url, ['human']);
      await a.waitForSelector('[data-testid=table][data-status=waiting]');
      const link = await a.inputValue('[data-testid=invite-link-1]');
      assert.match(link, new RegExp(`/games/${game}/join/[0-9a-f]+$`));
      // The creator opening the invite link is warned and keeps the seat; the invite stays
      // good for the one it is meant for.
      await a.goto(link);
      await a.waitForSelector('[data-testid=other-seat]');
      await a.click('[data-testid=keep-seat]');
      await a.waitForSelector('[data-testid=table][data-status=waiting]');
      assert.equal(new URL(a.url()).pathname, `/games/${game}`);
      assert.equal(await a.locator('[data-testid=watching]').count(), 0);
      // The copy button puts the link on the clipboard; the home page has it too.
      await a.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await a.click('[data-testid=copy-invite-1]');
      assert.equal(await a.evaluate(() => navigator.clipboard.readText()), link);
      await a.goto(`${server.url}/`);
      await a.evaluate(() => navigator.clipboard.writeText(''));
      await a.click(`[data-testid=copy-invite-${game}-1]`);
      assert.equal(await a.evaluate(() => navigator.clipboard.readText()), link);
      await a.goto(`${server.url}/games/${game}`);
      await a.waitForSelector('[data-testid=table][data-status=waiting]');
      // Someone without a seat watches through the plain game link.
      const third = await launchBrowser({ viewport: { width: 1280, height: 860 } });
      t.after(() => third.close());
      const spectator = await third.newPage();
      errors.push(watchErrors(spectator));
      await spectator.goto(`${server.url}/games/${game}`);
      await spectator.waitForSelector('[data-testid=watching]');
      await b.goto(link);
      await b.waitForSelector('[data-testid=table][data-status=playing]');
      assert.equal(new URL(b.url()).pathname, `/games/${game}`, 'the invite leaves the address bar');
      // A learns live that the seat was taken.
      await a.waitForSelector('[data-testid=table][data-status=playing]');
      assert.equal(await a.locator('[data-testid=invites]').count(), 0);

      const seatOf = new Map([[a, 0], [b, 1]]);
      for (let n = 0; n < 4; n++) {
        const mover = (await table(a).getAttribute('data-my-turn')) === 'true' ? a : b;
        const watcher = mover === a ? b : a;
        assert.match(await mover.title(), /^▶ Your turn/);
        assert.doesNotMatch(await watcher.title(), /Your turn/);
        const seen = await version(watcher);
        const logBefore = await watcher.locator('[data-testid=log] li[data-version]').count();
        await playByClicking(mover, seatOf.get(mover), n);
        await waitForVersion(watcher, seen);
        assert.equal(await watcher.locator('[data-testid=log] li[data-version]').count(), logBefore + 1);
        // The one who watched sees the new tile outlined on the mover's display.
        if ((await table(watcher).getAttribute('data-my-turn')) === 'true') {
          await watcher.click('[data-testid=view-toggle]');
          await watcher.waitForSelector(`[data-testid=display-${seatOf.get(mover)}] g.tile.fresh`);
          if (n === 1) await screenshot(watcher, 'all-displays');
          await watcher.click(`[data-testid=magnify-display-${seatOf.get(watcher)}]`);
        }
      }
      // The spectator saw every move live, and B was notified of each of its turns.
      await waitForVersion(spectator, 3);
      assert.equal(await spectator.locator('[data-testid=log] li[data-version]').count(), 4);
      const notes = await b.evaluate(() => window.notes);
      assert.ok(notes.length >= 2 && notes.every((n) => n.title === 'Sagani: your turn'), JSON.stringify(notes));
      // A's home page lists the game, and its link leads back to the table.
      await a.goto(`${server.url}/`);
      const mine = a.locator(`[data-testid=my-games] a[href="/games/${game}"]`);
      await mine.click();
      await a.waitForSelector('[data-testid=table][data-status=playing]');
      assert.equal(await a.locator('[data-testid=watching]').count(), 0);
      // A reload keeps the seat: the token stays in this browser.
      await b.reload();
      await b.waitForSelector('[data-testid=table]');
      assert.equal(await b.locator('[data-testid=watching]').count(), 0);
      assert.equal(await b.locator('[data-testid=log] li[data-version]').count(), 4);

      // They play on to the end; A asks for a rematch, and B is offered it live.
      const whoseTurn = async () => {
        for (let tries = 0; tries < 600; tries++) {
          if ((await table(a).getAttribute('data-status')) === 'over') return null;
          for (const p of [a, b]) if ((await table(p).getAttribute('data-my-turn')) === 'true') return p;
          await a.waitForTimeout(50);
        }
        throw new Error('nobody is to act');
      };
      for (let n = 4; ; n++) {
        const mover = await whoseTurn();
        if (!mover) break;
        const before = await version(mover === a ? b : a);
        await playByClicking(mover, seatOf.get(mover), n);
        await waitForVersion(mover === a ? b : a, before);
        assert.ok(n < 200);
      }
      await b.waitForSelector('[data-testid=end]');
      assert.equal(await b.textContent('[data-testid=rematch]'), 'Rematch');
      await a.click('[data-testid=rematch]');
      await a.waitForURL((u) => !u.pathname.includes(game));
      await b.waitForSelector('[data-testid=rematch-ready]');
      assert.equal(await b.textContent('[data-testid=rematch]'), 'Go to the rematch');
      await b.click('[data-testid=rematch]');
      await b.waitForURL(a.url());
      for (const [p, seat] of seatOf) {
        await p.waitForSelector('[data-testid=table][data-status=playing]');
        assert.equal(await p.locator('[data-testid=watching]').count(), 0);
        assert.equal(await p.locator(`[data-testid=players-table] tr[data-seat="${seat}"] th .name`).textContent(), `${seat + 1} · You`);
      }
      for (const e of errors) assert.deepEqual(e, []);
    } finally {
      await other.close();
      await a.close();
    }
  });

  test('the page carries on through a server crash, and gives way when its seat is claimed elsewhere', async (t) => {
    const own = await startServer();
    t.after(() => own.stop());
    const second = await launchBrowser();
    const third = await launchBrowser();
    t.after(() => Promise.all([second.close(), third.close()]));
    const a = await browser.newPage();
    t.after(() => a.close());
    const b = await second.newPage();
    const errors = [watchErrors(a), watchErrors(b)];
    const game = await createGame(a, own.url, ['human']);
    const link = await a.inputValue('[data-testid=invite-link-1]');
    await b.goto(link);
    await a.waitForSelector('[data-testid=table][data-status=playing]');
    const seatOf = new Map([[a, 0], [b, 1]]);
    const moverNow = async () => ((await table(a).getAttribute('data-my-turn')) === 'true' ? a : b);
    let mover = await moverNow();
    await playByClicking(mover, seatOf.get(mover), 0);

    // kill -9 and a restart: both pages say they are reconnecting, then carry on live.
    const offline = [a, b].map((p) => p.waitForSelector('[data-testid=offline]', { timeout: 20_000 }));
    await own.restart();
    await Promise.all(offline);
    for (const p of [a, b]) await p.waitForSelector('[data-testid=table][data-live=true]', { timeout: 20_000 });
    assert.equal(await version(a), 1);
    mover = await moverNow();
    const other = mover === a ? b : a;
    await playByClicking(mover, seatOf.get(mover), 1);
    await waitForVersion(other, 1);

    // B's invite used again in another browser: that browser has the seat, B's page watches.
    const c = await third.newPage();
    errors.push(watchErrors(c));
    await c.goto(link);
    await c.waitForSelector('[data-testid=table][data-status=playing]');
    assert.equal(await c.locator('[data-testid=watching]').count(), 0);
    await b.waitForSelector('[data-testid=watching]', { timeout: 20_000 });
    assert.match(await b.textContent('[data-testid=notice]'), /claimed on another device/);
    // B opens its own invite again: the seat comes back to B, and C watches.
    await b.goto(link);
    await b.waitForSelector('[data-testid=table][data-status=playing]');
    assert.equal(await b.locator('[data-testid=watching]').count(), 0);
    await c.waitForSelector('[data-testid=watching]', { timeout: 20_000 });
    // The browser console reports the refused reconnections, a request cut by the kill (when one
    // was in flight: reset, or the socket gone before the request was sent) and the refused
    // token; nothing else.
    const expected = /WebSocket|ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_SOCKET_NOT_CONNECTED|403 \(Forbidden\)/;
    for (const e of errors) assert.deepEqual(e.filter((line) => !expected.test(line)), []);
  });

  test('an illegal placement is shown as an error and changes nothing', async () => {
    const page = await browser.newPage();
    // The browser reports the refused preview (422) on its console: that one is expected.
    const errors = watchErrors(page, { ignore: [/422 \(Unprocessable Entity\).*\/preview/] });
    await createGame(page, server.url, ['bot:random']);
    // Play until my display has a tile, so the cells around it include illegal ones.
    for (let n = 0; (await tilesOn(page, 0)) === 0; n++) await playByClicking(page, 0, n);
    assert.equal(await waitForTurn(page), 'turn');
    const before = await version(page);
    const tilesBefore = await tilesOn(page, 0);
    await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
    const illegal = page.locator('[data-testid=display-0] .cell:not(.legal)');
    assert.ok((await illegal.count()) > 0, 'the display shows cells that are not legal');
    await illegal.first().click();
    const error = await page.waitForSelector('[data-testid=error]');
    const text = await error.textContent();
    // The engine's reason, in the player's words: no grid coordinates, no "player 0".
    assert.match(text, /not allowed: a tile must go next to one of your tiles/, text);
    assert.doesNotMatch(text, /\(-?\d+, ?-?\d+\)|player 0/, text);
    await screenshot(page, 'illegal');
    assert.equal(await version(page), before);
    assert.equal(await tilesOn(page, 0), tilesBefore);
    assert.equal(await page.locator('[data-testid=display-0] g.chosen').count(), 0);
    const state = await (await fetch(`${server.url}${new URL(page.url()).pathname.replace('/games/', '/api/games/')}`)).json();
    assert.equal(state.version, before, 'the server has no new move');
    // A legal cell then works, and the error goes.
    await page.locator('[data-testid=display-0] .cell.legal').first().click();
    await page.waitForSelector('[data-testid=preview-score]');
    assert.equal(await page.locator('[data-testid=error]').count(), 0);
    await page.click('[data-testid=confirm]');
    await waitForVersion(page, before);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the table fits a narrow window and a wide one; pile, sizes and views work', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const tooWide = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    for (const width of [360, 800]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${server.url}/`);
      await page.waitForSelector('[data-testid=create]');
      assert.ok((await tooWide()) <= 0, `the home page is too wide at ${width} px`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await createGame(page, server.url, ['bot:random', 'bot:mcts:4']);
    // A few moves, until it is a turn with at least two tiles on offer.
    const ready = async () => (await waitForTurn(page)) === 'turn'
      && (await page.locator('[data-testid=offer-tile]:not([disabled])').count()) >= 2;
    for (let n = 0; n < 3 || !(await ready()); n++) {
      await playByClicking(page, 0, n);
      assert.ok(n < 40);
    }
    for (const width of [800, 1100, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await tooWide();
      assert.ok(overflow <= 0, `at ${width} px the page is ${overflow} px too wide`);
      await screenshot(page, `table-${width}`);
    }
    // The keyboard: 2 takes the second offer tile and puts the focus on a legal cell; Q turns
    // the tile; Enter shows the preview, Enter again places it.
    const before = await version(page);
    await page.keyboard.press('2');
    const second = page.locator('[data-testid=offer-tile]').nth(1);
    assert.equal(await second.getAttribute('aria-pressed'), 'true');
    assert.ok(await page.evaluate(() => document.activeElement.classList.contains('legal')));
    // The focused cell, and then a hovered one, shows the tile there.
    const ghost = page.locator('[data-testid=display-0] g.ghost');
    const shownAt = async (cell) => {
      assert.equal(await ghost.getAttribute('visibility'), 'visible');
      const [x, y] = (await cell.getAttribute('data-cell')).split(',').map(Number);
      assert.equal(await ghost.getAttribute('transform'), `translate(${x * 100} ${y * 100})`);
    };
    const legal = page.locator('[data-testid=display-0] .cell.legal');
    assert.ok((await legal.count()) > 1);
    await shownAt(legal.first());
    await legal.last().hover();
    await shownAt(legal.last());
    await legal.first().focus();
    await page.keyboard.press('q');
    assert.equal(await page.locator('[data-testid=rotate-left]').count(), 1);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=preview-score]');
    await page.keyboard.press('Enter');
    await waitForVersion(page, before);
    await waitForTurn(page);
    // Without colour: every arrow and every tile carries its element's letter.
    const unlettered = await page.evaluate(() => {
      const letter = { fire: 'F', water: 'W', earth: 'E', air: 'A' };
      const bad = [];
      for (const a of document.querySelectorAll('g.arrow')) {
        if (a.querySelector('text').textContent !== letter[a.dataset.element]) bad.push(a.outerHTML);
      }
      for (const t of document.querySelectorAll('g.tile')) {
        if (t.querySelector('.tile-letter').textContent !== letter[t.dataset.element]) bad.push(t.dataset.tile);
      }
      return [bad, document.querySelectorAll('g.arrow').length];
    });
    assert.deepEqual(unlettered[0], []);
    assert.ok(unlettered[1] > 10, 'arrows are drawn');
    // The pile dialog lists every tile still in the pile.
    const count = Number((await page.textContent('[data-testid=pile-count]')).match(/\d+/)[0]);
    await page.click('[data-testid=pile-open]');
    const dialog = page.locator('[data-testid=pile-dialog]');
    assert.equal(await dialog.locator('svg.tile-svg').count(), count);
    await page.click('[data-testid=pile-close]');
    await dialog.waitFor({ state: 'detached' });
    // Zoom: + makes the display larger than its frame, Fit brings it back.
    const width = async () => Number(await page.getAttribute('[data-testid=display-0] svg', 'width'));
    const usual = await width();
    await page.click('[data-testid=zoom-in]');
    assert.ok((await width()) > usual);
    await page.click('[data-testid=zoom-fit]');
    assert.equal(await width(), usual);
    // A display larger than its frame pans with the mouse, even from a cell while placing,
    // and the drag chooses no cell.
    await page.setViewportSize({ width: 800, height: 420 });
    for (let i = 0; i < 6; i++) await page.click('[data-testid=zoom-in]');
    await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
    assert.equal(await page.locator('[data-testid=offer-tile][aria-pressed=true]').count(), 1);
    assert.ok((await page.locator('[data-testid=display-0] .cell.legal').count()) > 0);
    const wrap = page.locator('[data-testid=display-0]');
    await wrap.scrollIntoViewIfNeeded();
    const frame = await wrap.boundingBox();
    // The part of the frame on screen.
    const top = Math.max(frame.y, 0);
    const box = { x: frame.x, y: top, width: frame.width, height: Math.min(frame.y + frame.height, 420) - top };
    const at = () => wrap.evaluate((w) => [w.scrollLeft, w.scrollTop, w.scrollHeight - w.clientHeight]);
    const [left0, top0, room] = await at();
    assert.ok(room > 0, 'the display is taller than its frame');
    // Dragging up by 30 px scrolls down by 30 px, where there is room (else the other way).
    const dy = top0 + 30 <= room ? -30 : 30;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + dy, { steps: 5 });
    await page.mouse.up();
    const [left1, top1] = await at();
    assert.deepEqual([left1, top1], [left0, top0 - dy], `panning by ${dy} px: ${[left0, top0]} -> ${[left1, top1]}`);
    assert.equal(await page.locator('[data-testid=display-0] g.chosen').count(), 0, 'a drag is not a click');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-testid=placing]').count(), 0);
    await page.click('[data-testid=zoom-fit]');
    // All displays side by side; the magnifier goes back to one.
    await page.click('[data-testid=view-toggle]');
    for (const seat of [0, 1, 2]) await page.waitForSelector(`[data-testid=display-${seat}]`);
    await page.click('[data-testid=magnify-2]');
    assert.equal(await page.locator('[data-testid^=display-]').count(), 1);
    await page.waitForSelector('[data-testid=display-2]');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
