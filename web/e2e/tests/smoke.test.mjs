// Smoke test: the real server starts, answers /healthz through the browser, and serves the page
// at /; two players get separate, fresh browser profiles.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

describe('smoke', () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('GET /healthz answers {"status":"ok"}', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const response = await page.goto(`${server.url}/healthz`);
    assert.equal(response.status(), 200);
    const body = await response.json();
    assert.equal(body.status, 'ok', JSON.stringify(body));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('GET / serves the page', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const response = await page.goto(`${server.url}/`, { waitUntil: 'load' });
    // Give the page's script a moment to draw (best effort: a page that polls never idles).
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
    // Screenshot first, so that there is one to look at when an assertion fails.
    await screenshot(page, 'home');
    assert.equal(response.status(), 200, `GET / answered ${response.status()}: ${await response.text()}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('two players get separate fresh profiles', async () => {
    const other = await launchBrowser();
    try {
      assert.notEqual(other.userDataDir, browser.userDataDir);
      const [a, b] = [await browser.newPage(), await other.newPage()];
      await a.goto(`${server.url}/healthz`);
      await b.goto(`${server.url}/healthz`);
      // Chromium's own account of its profile: the dir made for this context.
      for (const ctx of [browser, other]) {
        const version = await ctx.newPage();
        await version.goto('chrome://version');
        const profile = await version.locator('#profile_path').innerText();
        assert.ok(profile.startsWith(ctx.userDataDir), `${profile} is not in ${ctx.userDataDir}`);
        await version.close();
      }
      // Nothing is shared between the two players.
      await a.evaluate(() => localStorage.setItem('seat', 'a'));
      await a.context().addCookies([{ name: 'who', value: 'a', url: server.url }]);
      assert.equal(await b.evaluate(() => localStorage.getItem('seat')), null);
      assert.deepEqual(await other.cookies(server.url), []);
      assert.equal(await a.evaluate(() => localStorage.getItem('seat')), 'a');
    } finally {
      await other.close();
    }
  });
});
