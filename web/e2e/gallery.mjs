// The tile art on one page, screenshotted: `node gallery.mjs [PART...]` (from web/e2e) starts a
// real `sagani serve` (its debug build reads web/ from disk), serves gallery.html at /gallery
// through Playwright, and saves artifacts/gallery-<part>-<lang>[-deuteranopia].png. Parts:
// tiles, table (default: both), play (a real game against the greedy bot, some moves in, as the
// table shows it: gallery-play-*.png). Also screenshots a tile at 56 px, enlarged, to judge the
// smallest size. Prints console errors of the page, if any.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactsDir, launchBrowser, settled, startServer } from './lib.mjs';
import { createGame, playByClicking, waitForTurn } from './play.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const html = readFileSync(join(here, 'gallery.html'), 'utf8');
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ['tiles', 'table'];

const server = await startServer({ deckSeed: 8 });
const context = await launchBrowser({ viewport: { width: 1500, height: 900 } });
const errors = [];
try {
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route(`${server.url}/gallery*`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  for (const part of parts.filter((p) => p !== 'play')) {
    for (const [lang, cvd] of [['en', ''], ['de', ''], ['en', 'deuteranopia']]) {
      await page.goto(`${server.url}/gallery?part=${part}&lang=${lang}${cvd ? `&cvd=${cvd}` : ''}`);
      await page.waitForSelector('body[data-ready=true]');
      // Every word of the art comes from the catalogue: no missing key, a sample printed.
      const words = await page.evaluate(() => [...document.querySelectorAll('[aria-label], title')]
        .map((e) => e.getAttribute('aria-label') || e.textContent));
      for (const w of words.filter((x) => x.includes('⚠'))) errors.push(`missing message: ${w}`);
      if (!cvd) console.log(`${lang}: ${words.length} labels, e.g. ${[words[1], words.find((w) => w.includes(';')), words.at(-1)].join(' | ')}`);
      const name = `gallery-${part}-${lang}${cvd ? `-${cvd}` : ''}`;
      await page.screenshot({ path: join(artifactsDir(), `${name}.png`), fullPage: true });
      console.log(`artifacts/${name}.png`);
    }
  }
  if (parts.includes('play')) {
    const game = await context.newPage();
    game.on('pageerror', (e) => errors.push(String(e)));
    await createGame(game, server.url, ['bot:mcts:4']);
    for (let n = 0; n < 9; n++) {
      if ((await playByClicking(game, 0, n)) === 'over') break;
    }
    await playByClicking(game, 0, 3).catch(() => {});
    // The bot has answered and every animation has run out.
    await waitForTurn(game);
    await settled(game);
    await game.screenshot({ path: join(artifactsDir(), 'gallery-play-table.png') });
    console.log('artifacts/gallery-play-table.png');
    await game.locator('svg.track-svg').screenshot({ path: join(artifactsDir(), 'gallery-play-track.png') });
    await game.click('[data-testid=view-toggle]');
    await settled(game);
    await game.screenshot({ path: join(artifactsDir(), 'gallery-play-all.png') });
    console.log('artifacts/gallery-play-track.png artifacts/gallery-play-all.png');
  }
  // The smallest tiles at two device pixels per CSS pixel, to judge them closely.
  if (parts.some((p) => p !== 'play')) {
    const sharp = await launchBrowser({ viewport: { width: 620, height: 200 }, deviceScaleFactor: 2 });
    const zoom = await sharp.newPage();
    await zoom.route(`${server.url}/gallery*`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await zoom.goto(`${server.url}/gallery?part=tiles&lang=en`);
    await zoom.waitForSelector('body[data-ready=true]');
    await zoom.screenshot({ path: join(artifactsDir(), 'gallery-56px-zoom.png') });
    console.log('artifacts/gallery-56px-zoom.png');
    // The display and the tracks, close up.
    await zoom.setViewportSize({ width: 1500, height: 900 });
    await zoom.goto(`${server.url}/gallery?part=table&lang=en`);
    await zoom.waitForSelector('body[data-ready=true]');
    await zoom.locator('.felt').first().screenshot({ path: join(artifactsDir(), 'gallery-display-zoom.png') });
    await zoom.locator('.felt').nth(2).screenshot({ path: join(artifactsDir(), 'gallery-preview-zoom.png') });
    await zoom.locator('.felt').nth(3).screenshot({ path: join(artifactsDir(), 'gallery-motion-zoom.png') });
    await zoom.locator('.tracks').screenshot({ path: join(artifactsDir(), 'gallery-track-zoom.png') });
    console.log('artifacts/gallery-{display,preview,motion,track}-zoom.png');
    await sharp.close();
  }
} finally {
  await context.close();
  await server.stop();
}
if (errors.length) {
  console.log('page errors:');
  for (const e of errors) console.log(`  ${e}`);
  process.exitCode = 1;
}
