import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settled } from './lib.mjs';
const url = 'http://127.0.0.1:9201';
async function open(w, hgt, locale = 'en-GB', mobile = false) {
  const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'shot-')), {
    executablePath: '/usr/bin/chromium', headless: true, locale, args: ['--no-sandbox', '--disable-gpu'],
    viewport: { width: w, height: hgt }, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: mobile ? 2 : 1 });
  const page = ctx.pages()[0];
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
  return { ctx, page };
}
// All displays, 4 players
{
  const { ctx, page } = await open(1400, 900);
  await page.goto(url + '/');
  await page.selectOption('[data-testid=players]', '4');
  for (let i = 1; i < 4; i++) await page.selectOption(`[data-testid=seat-${i}]`, 'bot:mcts:4');
  await page.click('[data-testid=create]');
  await page.waitForSelector('[data-testid=table][data-my-turn=true]');
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=display-3]');
  await settled(page);
  await page.screenshot({ path: '/work/wt/shots/layout-all-displays-1400-4p-en.png' });
  // A spectator of the same game
  const game = new URL(page.url()).pathname.split('/')[2];
  const s = await open(1400, 900, 'de-DE');
  await s.page.goto(`${url}/games/${game}`);
  await s.page.waitForSelector('[data-testid=watching]');
  await settled(s.page);
  await s.page.screenshot({ path: '/work/wt/shots/layout-spectator-1400-4p-de.png' });
  await s.ctx.close();
  await ctx.close();
}
// The tutorial's coach at 1400 and on a phone
for (const [w, hh, mobile, name] of [[1400, 900, false, 'layout-tutorial-1400-en.png'], [390, 844, true, 'layout-tutorial-phone-en.png']]) {
  const { ctx, page } = await open(w, hh, 'en-GB', mobile);
  await page.goto(url + '/');
  await page.click('[data-testid=tutorial-link]');
  await page.click('[data-testid=tutorial-play]').catch(() => {});
  await page.waitForSelector('[data-testid=coach]', { timeout: 20000 });
  await settled(page);
  await page.screenshot({ path: `/work/wt/shots/${name}` });
  await ctx.close();
}
