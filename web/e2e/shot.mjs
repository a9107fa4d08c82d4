// A quick look at the table while developing: node shot.mjs URL OUT [players] [moves] [locale] [w] [h] [mobile]
import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settled } from './lib.mjs';

const [url, out, players = '2', moves = '3', locale = 'en-GB', w = '1400', hgt = '900', mobile = ''] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'shot-'));
const ctx = await chromium.launchPersistentContext(dir, {
  executablePath: '/usr/bin/chromium', headless: true, locale,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: Number(w), height: Number(hgt) }, isMobile: !!mobile, hasTouch: !!mobile, deviceScaleFactor: mobile ? 2 : 1,
});
const page = ctx.pages()[0] || await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(url + '/');
await page.waitForSelector('[data-testid=create], [data-testid=solo-start]');
const n = Number(players);
if (n === 1) {
  await page.click('[data-testid=solo-start]');
} else {
  await page.selectOption('[data-testid=players]', String(n));
  for (let i = 1; i < n; i++) await page.selectOption(`[data-testid=seat-${i}]`, 'bot:mcts:4');
  await page.click('[data-testid=create]');
}
await page.waitForSelector('[data-testid=table]');
for (let k = 0; k < Number(moves); k++) {
  await page.waitForSelector('[data-testid=table][data-my-turn=true], [data-testid=table][data-status=over]', { timeout: 30000 });
  if (await page.$('[data-testid=table][data-status=over]')) break;
  const ex = await page.getAttribute('[data-testid=table]', 'data-expects');
  const v = Number(await page.getAttribute('[data-testid=table]', 'data-version'));
  if (ex === 'turn') await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
  if (ex === 'intermezzo-pick') await page.locator('[data-testid=intermezzo-tile]:not([disabled])').first().click();
  const cells = page.locator('rect.cell.legal');
  await cells.nth(k % (await cells.count())).click();
  await page.waitForSelector('[data-testid=preview-score]');
  await page.click('[data-testid=confirm]');
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v, v);
}
await page.waitForSelector('[data-testid=table][data-my-turn=true], [data-testid=table][data-status=over]', { timeout: 30000 });
if ((await page.getAttribute('[data-testid=table]', 'data-expects')) === 'turn') {
  await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
  await page.locator('rect.cell.legal').first().click();
  await page.waitForSelector('[data-testid=preview-score]');
}
// Every animation has run out, and the next frame is painted.
await settled(page);
await page.screenshot({ path: out });
console.log(JSON.stringify(await page.evaluate(() => window.saganiTimings)));
await ctx.close();
