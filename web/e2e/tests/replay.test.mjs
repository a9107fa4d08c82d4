// Looking back at a game: a finished 3-player game replayed to its end and back (keys, buttons,
// the slider), each position as the server says it was, the score graph ending at the outcome,
// the engine's moves drawn on the board, a record file dropped in, the links to the replay, a
// phone, axe-core in both languages; and a practice game's hints.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playOut } from '../api.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/// Serious and critical axe-core violations on the page as it is now.
async function axe(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

async function json(url, path) {
  const r = await fetch(`${url}${path}`);
  assert.equal(r.status, 200, `${path}: ${r.status}`);
  return r.json();
}

/// The position the page shows: its number, the pile's count, every seat's score in the players'
/// table and on the graph.
async function shown(page) {
  return page.evaluate(() => {
    const root = document.querySelector('[data-testid=replay]');
    const seats = [...document.querySelectorAll('[data-testid=players-table] tbody tr')].map((tr) => Number(tr.querySelector('td').textContent));
    return {
      at: Number(root.dataset.at),
      pile: document.querySelector('[data-testid=pile-count]').textContent,
      scores: seats,
      graph: [...document.querySelectorAll('[data-testid^=graph-point-]')].map((c) => Number(c.dataset.score)),
      cursor: Number(document.querySelector('[data-testid=graph-at]').dataset.at),
      move: document.querySelector('[data-testid=replay-move-text]').textContent,
    };
  });
}

/// The page shows position `at` of `replay` (the server's answer) as it was.
async function showsPosition(page, replay, at) {
  await page.waitForSelector(`[data-testid=replay][data-at="${at}"]`);
  const s = await shown(page);
  const v = replay.positions[at];
  assert.equal(s.at, at);
  assert.match(s.pile, new RegExp(`\\b${v.draw_pile.count}\\b`), `position ${at}: the pile's count`);
  assert.deepEqual(s.scores, v.seats.map((p) => p.score), `position ${at}: the scores`);
  assert.deepEqual(s.graph, replay.scores[at], `position ${at}: the graph's points`);
  assert.equal(s.cursor, at);
  assert.ok(s.move.length > 0, `position ${at}: the move in words`);
}

describe('the replay', () => {
  let server;
  let finished;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
    finished = await playOut(server.url, 3);
  });
  after(async () => {
    await server?.stop();
  });

  test('a finished 3-player game to its end and back, its score graph, the engine on the board', async () => {
    const { game, state } = finished;
    const replay = await json(server.url, `/api/games/${game}/replay`);
    const count = replay.moves.length;
    const { tiles } = await json(server.url, '/api/tiles');
    const names = Object.fromEntries(tiles.map((x) => [x.id, `${x.element[0].toUpperCase()}${x.element.slice(1)} ${x.value}`]));
    assert.equal(count, state.version);
    const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${server.url}/games/${game}/replay`);
    await showsPosition(page, replay, 0);
    assert.equal(Number(await page.getAttribute('[data-testid=replay]', 'data-count')), count);
    // To the end a move at a time with the keyboard, each position as the server has it.
    for (let at = 1; at <= count; at++) {
      await page.keyboard.press('ArrowRight');
      await showsPosition(page, replay, at);
      // The move in words names its tile ("Fire 10") and its player.
      const words = await page.textContent('[data-testid=replay-move-text]');
      const m = replay.moves[at - 1];
      if (m.move.action !== 'pass') assert.ok(words.includes(names[m.move.tile]), `${words}: ${names[m.move.tile]}`);
      assert.ok(words.includes(`Seat ${m.seat + 1}`), words);
    }
    // One more step stays at the end, which says how the game ended.
    await page.keyboard.press('ArrowRight');
    await showsPosition(page, replay, count);
    assert.ok(await page.isDisabled('[data-testid=replay-next]'));
    await page.waitForSelector('[data-testid=replay-end]');
    // The graph's last points are the outcome.
    const last = await page.$$eval('[data-testid^=graph-seat-]', (lines) => lines.map((l) => {
      const pts = l.getAttribute('points').trim().split(' ');
      return { seat: Number(l.dataset.seat), last: Number(l.dataset.last), y: Number(pts[pts.length - 1].split(',')[1]), points: pts.length };
    }));
    assert.deepEqual(last.map((l) => l.last), state.outcome.scores, 'the graph ends at the outcome');
    assert.ok(last.every((l) => l.points === count + 1), 'a point a position');
    // The lines end in the outcome's order: a higher score is drawn higher.
    for (const a of last) {
      for (const b of last) if (state.outcome.scores[a.seat] > state.outcome.scores[b.seat]) assert.ok(a.y < b.y, `seat ${a.seat + 1} ends above seat ${b.seat + 1}`);
    }
    await screenshot(page, 'replay-end-en');
    // And back, a move at a time.
    for (let at = count - 1; at >= 0; at--) {
      await page.keyboard.press('ArrowLeft');
      await showsPosition(page, replay, at);
    }
    assert.ok(await page.isDisabled('[data-testid=replay-prev]'));
    // End and Home jump; the buttons and the slider step.
    await page.keyboard.press('End');
    await showsPosition(page, replay, count);
    await page.keyboard.press('Home');
    await showsPosition(page, replay, 0);
    await page.click('[data-testid=replay-next]');
    await page.click('[data-testid=replay-next]');
    await showsPosition(page, replay, 2);
    await page.click('[data-testid=replay-prev]');
    await showsPosition(page, replay, 1);
    await page.click('[data-testid=replay-last]');
    await showsPosition(page, replay, count);
    await page.click('[data-testid=replay-first]');
    await showsPosition(page, replay, 0);
    const at = 12;
    await page.$eval('[data-testid=replay-slider]', (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, at);
    await showsPosition(page, replay, at);
    // The position stays in the address: a reload comes back to it.
    await page.reload();
    await showsPosition(page, replay, at);

    // The last move's tile is outlined on its display, the arrows it covered ringed.
    const moved = replay.moves[at - 1];
    const display = page.locator(`[data-testid=display-${moved.seat}]`);
    if (moved.move.action === 'place') {
      await display.locator(`g.tile.fresh[data-tile="${moved.move.tile}"]`).waitFor();
      assert.equal(await display.locator('.will-cover').count(), moved.effect.covered.length);
    }
    // What would the engine do? Its moves, numbered on the acting seat's display.
    const acting = replay.positions[at].next.player;
    await page.click('[data-testid=engine-ask]');
    await page.waitForSelector('[data-testid=engine-moves]');
    const listed = await page.$$eval('[data-testid=engine-move]', (items) => items.map((li) => ({ move: JSON.parse(li.dataset.move), value: Number(li.dataset.value), visits: Number(li.dataset.visits), text: li.textContent })));
    assert.ok(listed.length >= 1 && listed.length <= 5, `${listed.length} moves`);
    // Best first as the search ranks them: by its playouts through each (a value can be a
    // little higher on a move it looked at less).
    for (let i = 1; i < listed.length; i++) assert.ok(listed[i - 1].visits >= listed[i].visits, 'best first');
    const board = page.locator(`[data-testid=display-${acting}]`);
    await board.waitFor();
    const marks = await board.locator('g.hint-mark').evaluateAll((gs) => gs.map((g) => ({ cell: g.dataset.hintCell, n: g.dataset.hints.split(',').map(Number) })));
    const wanted = new Map();
    listed.forEach((m, i) => {
      if (m.move.action !== 'place') return;
      const cell = `${m.move.x},${m.move.y}`;
      wanted.set(cell, [...(wanted.get(cell) || []), i + 1]);
    });
    assert.deepEqual(new Map(marks.map((m) => [m.cell, m.n])), wanted, 'every suggested placement marked on its cell, by its rank');
    if (listed[0].move.action === 'place') assert.equal(await board.locator('g.hint-mark.best .ghost').count(), 1, 'the best move\'s tile shown faintly');
    for (const m of listed) assert.match(m.text, /\d+%/);
    await screenshot(page, 'replay-engine-en');
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('a record file dropped on the page, a bad file refused, and the links to the replay', async () => {
    const { game, state } = finished;
    const record = await json(server.url, `/api/games/${game}/record`);
    const browser = await launchBrowser({ viewport: { width: 1100, height: 800 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page, { ignore: [/400 \(Bad Request\)/] });
    await page.goto(`${server.url}/replay`);
    await page.waitForSelector('[data-testid=record-page]');
    // Not JSON: said so, nothing replayed.
    await page.setInputFiles('[data-testid=record-file]', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a record') });
    await page.waitForSelector('[data-testid=record-error]:not([hidden])');
    // A record whose move is illegal: the server's first fault.
    const bad = structuredClone(record);
    bad.moves[2].x = 40;
    await page.setInputFiles('[data-testid=record-file]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
    // RECORD.md: a fault names its move counted from 0.
    await page.waitForFunction(() => /move 2 \(counting from 0\)/.test(document.querySelector('[data-testid=record-error]').textContent));
    assert.equal(await page.$('[data-testid=replay]'), null);
    // Dropped (a drop event carrying the file), the record replays as the stored game.
    const text = JSON.stringify(record);
    await page.evaluate((body) => {
      const data = new DataTransfer();
      data.items.add(new File([body], 'sagani.json', { type: 'application/json' }));
      document.querySelector('[data-testid=drop-zone]').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForSelector('[data-testid=replay][data-at="0"]');
    assert.equal(Number(await page.getAttribute('[data-testid=replay]', 'data-count')), state.version);
    await page.keyboard.press('End');
    await page.waitForSelector(`[data-testid=replay][data-at="${state.version}"]`);
    const ends = await page.$$eval('[data-testid^=graph-seat-]', (lines) => lines.map((l) => Number(l.dataset.last)));
    assert.deepEqual(ends, state.outcome.scores);
    // The engine answers for a record too.
    await page.keyboard.press('Home');
    await page.waitForSelector('[data-testid=replay][data-at="0"]');
    await page.click('[data-testid=engine-ask]');
    await page.waitForSelector('[data-testid=engine-moves]');

    // The end card of the table opens the replay.
    await page.goto(`${server.url}/games/${game}`);
    await page.click('[data-testid=end-replay]');
    await page.waitForSelector('[data-testid=replay][data-at="0"]');
    assert.equal(new URL(page.url()).pathname, `/games/${game}/replay`);
    // A game in progress has none yet, and says so.
    const made = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'human' }] }) }).then((r) => r.json());
    await page.goto(`${server.url}/games/${made.game}/replay`);
    await page.waitForSelector('[data-testid=replay-refused]');
    assert.deepEqual(errors.filter((e) => !/409 \(Conflict\)/.test(e)), []);
    await browser.close();
  });

  test('a phone, and axe-core in English and German', async () => {
    const { game } = finished;
    for (const locale of ['en-GB', 'de-DE']) {
      const browser = await launchBrowser({ locale, viewport: { width: 1100, height: 800 } });
      const page = browser.pages()[0];
      await page.goto(`${server.url}/games/${game}/replay?at=9`);
      await page.waitForSelector('[data-testid=replay][data-at="9"]');
      await page.click('[data-testid=engine-ask]');
      await page.waitForSelector('[data-testid=engine-moves]');
      assert.deepEqual(await axe(page), [], `axe-core on the replay (${locale})`);
      await page.click('[data-testid=view-toggle]');
      await page.waitForSelector('[data-testid=replay][data-mode=all]');
      assert.deepEqual(await axe(page), [], `axe-core on the replay, all displays (${locale})`);
      await browser.close();
    }
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = phone.pages()[0];
    await page.goto(`${server.url}/games/${game}/replay`);
    await page.waitForSelector('[data-testid=replay][data-at="0"]');
    await page.tap('[data-testid=replay-next]');
    await page.waitForSelector('[data-testid=replay][data-at="1"]');
    const layout = await page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      return { width: document.documentElement.scrollWidth, board: box('[data-testid=displays]'), dock: box('[data-testid=dock]'), keys: !!document.querySelector('.steps .keys') };
    });
    assert.ok(layout.width <= 390, `no sideways scrolling (${layout.width} px)`);
    assert.ok(layout.board.top < 844 && layout.board.height > 200, 'the board is in view');
    assert.ok(layout.dock.bottom <= 844 + 1 && layout.dock.top > layout.board.top, 'the steps at the bottom, within thumb reach');
    assert.equal(layout.keys, false, 'no word about keys on a touch screen');
    await screenshot(page, 'replay-phone-en');
    await phone.close();
  });
});

describe('practice', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(async () => {
    await server?.stop();
  });

  test('a practice game from the home page: the Hint button shows the engine\'s top moves on the board, and one is tried', async () => {
    const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.click('[data-testid=solo-practice]');
    await page.waitForSelector('[data-testid=table][data-my-turn=true]');
    await page.waitForSelector('[data-testid=practice]');
    const game = new URL(page.url()).pathname.split('/')[2];
    for (let k = 0; k < 3; k++) {
      const version = Number(await page.getAttribute('[data-testid=table]', 'data-version'));
      await page.click('[data-testid=hint]');
      await page.waitForSelector('[data-testid=hints] [data-testid=engine-moves]');
      const listed = await page.$$eval('[data-testid=hints] [data-testid=engine-move]', (items) => items.map((li) => JSON.parse(li.dataset.move)));
      assert.ok(listed.length >= 1 && listed.length <= 5);
      // Every hint is a legal move of this decision, and each placement is marked on my display.
      const state = await page.evaluate(async (g) => {
        const entry = JSON.parse(localStorage.getItem('sagani.games')).find((e) => e.game === g);
        return (await fetch(`/api/games/${g}`, { headers: { authorization: `Bearer ${entry.token}` } })).json();
      }, game);
      const legal = new Set(state.legal.map((m) => JSON.stringify(m)));
      for (const m of listed) assert.ok(legal.has(JSON.stringify(m)), `${JSON.stringify(m)} is legal`);
      const cells = await page.locator('[data-testid=display-0] g.hint-mark').evaluateAll((gs) => gs.map((g) => g.dataset.hintCell).sort());
      assert.deepEqual(cells, [...new Set(listed.filter((m) => m.action === 'place').map((m) => `${m.x},${m.y}`))].sort());
      if (k === 0) await screenshot(page, 'practice-hint-en');
      // "Try it" puts the best move's tile on its cell with the engine's preview; ✓ places it.
      await page.locator('[data-testid=engine-try]').first().click();
      await page.waitForSelector('[data-testid=preview-score]');
      const preview = JSON.parse(await page.getAttribute('[data-testid=preview]', 'data-move'));
      assert.deepEqual(preview, listed[0]);
      await page.click('[data-testid=confirm]');
      await page.waitForFunction((v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v, version);
      await page.waitForSelector('[data-testid=table][data-my-turn=true]');
      // The next decision starts without hints.
      assert.equal(await page.locator('[data-testid=display-0] g.hint-mark').count(), 0);
    }
    assert.deepEqual(errors, []);
    await browser.close();
  });
});
