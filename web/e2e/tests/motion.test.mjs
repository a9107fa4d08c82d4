// Motion that explains a move, on real moves (an opponent's over the socket, then mine by
// clicking), each completing a tile: the taken tile flies from the offer to the display, the
// covered arrows get their discs, the completed tile turns over, the score marker moves; every
// animation is over within 400 ms (its delay included). With reduced motion nothing moves.
//
// The page's animations are collected while they run, by looking at document.getAnimations()
// on every frame (CSS animations and transitions too).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, settled, startServer, watchErrors } from '../lib.mjs';
import { call, seatedGame } from '../api.mjs';
import { version, waitForVersion } from '../play.mjs';

/// In the page before its scripts: every animation seen on any frame, once, with its kind and
/// its delay + duration.
function collect() {
  window.motions = [];
  const seen = new WeakSet();
  const kindOf = (a) => {
    if (a.animationName) return a.animationName;
    if (a.transitionProperty) return `transition ${a.transitionProperty}`;
    const el = a.effect && a.effect.target;
    const cls = el ? el.getAttribute('class') || '' : '';
    if (cls.includes('points')) return 'points';
    if (cls.includes('flight')) return 'fly';
    if (cls.includes('marker')) return 'marker';
    return `other ${el ? el.tagName : ''}.${cls}`;
  };
  const poll = () => {
    for (const a of document.getAnimations()) {
      if (seen.has(a)) continue;
      seen.add(a);
      const timing = a.effect.getTiming();
      window.motions.push({ kind: kindOf(a), total: Number(timing.duration) + Number(timing.delay || 0), iterations: timing.iterations });
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/// Plays by the API until `seat` is to take a tile from the offer and can complete a tile with
/// it (gaining points) while covering an arrow of a tile that stays face up (a completed tile
/// shows its back, without discs); returns that move.
async function completingMove(url, game, tokens, seat) {
  for (let guard = 0; guard < 300; guard++) {
    const state = await call(url, 'GET', `/api/games/${game}`, { token: tokens[0] });
    assert.equal(state.status, 'playing', 'the game goes on until a tile can be completed');
    const who = state.view.next.player;
    const mine = await call(url, 'GET', `/api/games/${game}`, { token: tokens[who] });
    if (who === seat && mine.view.next.expects === 'turn') {
      for (const move of mine.legal.filter((m) => m.action === 'place' && mine.view.offer.includes(m.tile))) {
        const { preview } = await call(url, 'POST', `/api/games/${game}/preview`, { token: tokens[who], body: { move } });
        const discShown = preview.covered.some((c) => !preview.completed.includes(c.tile));
        if (preview.completed.length > 0 && preview.score_change > 0 && discShown) return move;
      }
    }
    const move = mine.legal.find((m) => m.action === 'pass') || mine.legal[(mine.version * 7) % mine.legal.length];
    await call(url, 'POST', `/api/games/${game}/moves`, { token: tokens[who], body: { version: mine.version, move } });
  }
  throw new Error('no tile to complete in 300 moves');
}

/// Opens game `game` in `page` as the holder of `token` (seat `seat`).
async function openAs(page, url, game, seat, token) {
  await page.goto(`${url}/`);
  await page.evaluate(([g, s, tk]) => localStorage.setItem('sagani.games', JSON.stringify([{ game: g, seat: s, token: tk, mark: null }])), [game, seat, token]);
  await page.goto(`${url}/games/${game}`);
  await page.waitForSelector('[data-testid=table][data-synced=true]');
}

/// The animations seen since the last call, once they have all run out.
async function motions(page) {
  await settled(page);
  return page.evaluate(() => window.motions.splice(0));
}

/// Shows the page the game's current version, at rest, with nothing collected yet.
async function atRest(page, url, game, token) {
  const state = await call(url, 'GET', `/api/games/${game}`, { token });
  await page.waitForSelector(`[data-testid=table][data-version="${state.version}"]`);
  await motions(page);
}

describe('motion', () => {
  let server;
  before(async () => {
    server = await startServer({ deckSeed: 8 });
  });
  after(async () => {
    await server?.stop();
  });

  for (const reducedMotion of ['no-preference', 'reduce']) {
    test(`an opponent's move and mine, each completing a tile (${reducedMotion} motion)`, async () => {
      const { game, tokens } = await seatedGame(server.url, 2);
      const theirs = await completingMove(server.url, game, tokens, 1);
      const browser = await launchBrowser({ reducedMotion, viewport: { width: 1300, height: 850 } });
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.addInitScript(collect);
      await openAs(page, server.url, game, 0, tokens[0]);
      await atRest(page, server.url, game, tokens[0]);

      // The opponent's move, over the socket.
      let seen = await version(page);
      const state = await call(server.url, 'GET', `/api/games/${game}`, { token: tokens[1] });
      await call(server.url, 'POST', `/api/games/${game}/moves`, { token: tokens[1], body: { version: state.version, move: theirs } });
      await waitForVersion(page, seen);
      const opponent = await motions(page);

      // My move, by clicking: the tile, its turn, the cell, the confirmation.
      const mine = await completingMove(server.url, game, tokens, 0);
      await atRest(page, server.url, game, tokens[0]);
      seen = await version(page);
      await page.click(`[data-testid=offer-tile][data-tile="${mine.tile}"]`);
      for (let r = 0; r < mine.rot; r++) await page.click('[data-testid=rotate-right]');
      await page.click(`[data-testid=display-0] rect.cell.legal[data-cell="${mine.x},${mine.y}"]`);
      await page.waitForSelector('[data-testid=preview-score]');
      assert.deepEqual(JSON.parse(await page.getAttribute('[data-testid=preview]', 'data-move')), mine);
      await page.click('[data-testid=confirm]');
      await waitForVersion(page, seen);
      const own = await motions(page);

      for (const [who, list] of [['the opponent\'s move', opponent], ['my move', own]]) {
        if (reducedMotion === 'reduce') {
          assert.deepEqual(list, [], `${who}: nothing moves with reduced motion`);
          continue;
        }
        const kinds = new Set(list.map((m) => m.kind));
        for (const k of ['fly', 'art-disc-drop', 'art-flip', 'marker']) assert.ok(kinds.has(k), `${who}: ${k} runs (${[...kinds]})`);
        for (const m of list) {
          assert.ok(m.total <= 400, `${who}: ${m.kind} takes ${m.total} ms`);
          assert.equal(m.iterations, 1, `${who}: ${m.kind} runs once`);
        }
      }
      assert.deepEqual(errors, []);
      await browser.close();
    });
  }
});
