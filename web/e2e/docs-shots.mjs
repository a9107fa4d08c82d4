// The table's screenshots in docs/web.md, made again: `node docs-shots.mjs [OUT_DIR]` (default
// docs/img). A fresh server on a dealt deck, one game per picture against bots, played by
// clicking until the moment the picture shows: early (after a few moves, a tile chosen and its
// preview on the board) or late (the final round under way). Between them the pictures cover a
// desktop and a phone, English and German, 2 and 4 players, early and late.

import { join } from 'node:path';
import { launchBrowser, REPO_ROOT, settled, startServer } from './lib.mjs';
import { call } from './api.mjs';
import { createGame, version, waitForTurn, waitForVersion } from './play.mjs';

const out = process.argv[2] || join(REPO_ROOT, 'docs', 'img');

const DESKTOP = { viewport: { width: 1400, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/// Each picture: its file, the device, the language, the players and the moment.
const PICTURES = [
  { file: 'table-en.png', device: DESKTOP, locale: 'en-GB', players: 2, stage: 'early' },
  { file: 'table-4-late-de.png', device: DESKTOP, locale: 'de-DE', players: 4, stage: 'late' },
  { file: 'table-4-early-en.png', device: DESKTOP, locale: 'en-GB', players: 4, stage: 'early' },
  { file: 'table-late-en.png', device: DESKTOP, locale: 'en-GB', players: 2, stage: 'late' },
  { file: 'phone-en.png', device: PHONE, locale: 'en-GB', players: 4, stage: 'early' },
  { file: 'phone-late-de.png', device: PHONE, locale: 'de-DE', players: 2, stage: 'late' },
];

/// My move, as a fair player makes it: the legal move whose preview (the engine's) scores best.
/// Made through the API with this browser's seat token; the page sees it arrive live.
async function playWell(page, url, game) {
  const token = await page.evaluate((id) => JSON.parse(localStorage.getItem('sagani.games')).find((g) => g.game === id).token, game);
  const state = await call(url, 'GET', `/api/games/${game}`, { token });
  let best = state.legal[0];
  let bestScore = -Infinity;
  for (const move of state.legal) {
    if (move.action !== 'place') continue;
    const { preview } = await call(url, 'POST', `/api/games/${game}/preview`, { body: { move } });
    if (preview.score_change > bestScore) [best, bestScore] = [move, preview.score_change];
  }
  const before = await version(page);
  await call(url, 'POST', `/api/games/${game}/moves`, { token, body: { version: state.version, move: best } });
  await waitForVersion(page, before);
}

/// Plays until the picture's moment: for 'early' three of my moves, for 'late' the final round
/// (or close to it); then starts my decision, so the preview shows.
async function playTo(page, url, game, stage) {
  for (let n = 0; ; n++) {
    const expects = await waitForTurn(page);
    if (expects === 'over') return;
    const final = (await page.locator('[data-testid=final-round]').count()) > 0;
    // Late: the final round, or close to it (a supply of discs or the pile nearly used up).
    const { view } = await call(url, 'GET', `/api/games/${game}`);
    const near = view.draw_pile.count <= 8 || Math.min(...view.seats.map((s) => s.supply)) <= 4;
    if (stage === 'early' ? n >= 3 && expects === 'turn' : (final || near) && expects === 'turn') break;
    await playWell(page, url, game);
  }
  const expects = await waitForTurn(page);
  if (expects === 'turn') {
    const offer = page.locator('[data-testid=offer-tile]:not([disabled])');
    if ((await offer.count()) === 0) return;
    await offer.first().click();
  } else if (expects === 'intermezzo-pick') {
    await page.locator('[data-testid=intermezzo-tile]:not([disabled])').first().click();
  }
  await page.locator('[data-testid=display-0] .cell.legal').first().click();
  await page.waitForSelector('[data-testid=preview-score]');
}

const server = await startServer({ botThinkMs: 50, deckSeed: 8 });
try {
  for (const p of PICTURES.filter((q) => !process.env.ONLY || q.file === process.env.ONLY)) {
    const browser = await launchBrowser({ ...p.device, locale: p.locale });
    const page = browser.pages()[0];
    const game = await createGame(page, server.url, Array(p.players - 1).fill('bot:mcts:4'));
    await playTo(page, server.url, game, p.stage);
    await settled(page);
    const path = join(out, p.file);
    await page.screenshot({ path });
    console.log(path);
    await browser.close();
  }
} finally {
  await server.stop();
}
