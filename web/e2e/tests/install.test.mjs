// The installable page in Chromium: the manifest parses and the page meets the browser's
// installability criteria (asked through CDP, as Lighthouse does); the service worker keeps the
// shell and controls the page after a reload; offline, a reload still opens the home page with
// the offline banner, the rules and the tutorial's text can be read, and the banner goes when
// the network is back. Screenshots of the banner in English and German.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { artifactsDir, launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const EN = catalogue('en');
const DE = catalogue('de');
const SCRIPT = JSON.parse(readFileSync(new URL('../../tutorial.json', import.meta.url), 'utf8'));

// Offline, the page's own requests to the API fail, and Chromium says so in the console.
const OFFLINE = [/net::ERR_INTERNET_DISCONNECTED/];

/// Waits until a service worker controls `page` (after the page was loaded once, it takes
/// over by itself: `clients.claim`).
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });

describe('the installable page', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(() => server?.stop());

  test('the manifest parses and the page is installable, as the browser judges it', async () => {
    const browser = await launchBrowser({ viewport: { width: 1200, height: 850 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=create]');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const cdp = await page.context().newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.equal(new URL(manifest.url).pathname, '/manifest.webmanifest');
    assert.deepEqual(manifest.errors, [], 'the manifest parses with no errors');
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.display, 'standalone');
    // The installability criteria (manifest, icons, worker, secure origin) are met.
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('the worker keeps the shell, controls the page after a reload, and offline the page still opens', async () => {
    const browser = await launchBrowser({ viewport: { width: 1200, height: 850 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page, { ignore: OFFLINE });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=create]');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();
    await page.waitForSelector('[data-testid=create]');
    await controlled(page);
    // One cache, of this server's shell, holding every path the worker lists.
    const shell = await (await fetch(`${server.url}/sw.js`)).headers.get('sagani-shell');
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const keys = names.length === 1 ? await (await caches.open(names[0])).keys() : [];
      return { names, paths: keys.map((r) => new URL(r.url).pathname) };
    });
    assert.deepEqual(cached.names, [`sagani-${shell}`]);
    for (const path of ['/', '/assets/main.js', '/assets/i18n/de.json', '/assets/tiles.json', '/assets/icons/icon-512.png']) {
      assert.ok(cached.paths.includes(path), `${path} is kept: ${cached.paths.join(' ')}`);
    }
    assert.ok(!cached.paths.some((p) => p.startsWith('/api/')), 'no API answer is kept');
    // Online: no banner.
    assert.equal(await page.locator('[data-testid=offline-banner]').isVisible(), false);

    await browser.setOffline(true);
    await page.reload();
    const banner = page.locator('[data-testid=offline-banner]');
    await banner.waitFor();
    // The home page, from the kept shell.
    await page.waitForSelector('.hero h1');
    assert.equal(await banner.textContent(), `${EN['offline.banner.title']} ${EN['offline.banner.text']}`);
    assert.equal(await banner.getAttribute('role'), 'status');
    await screenshot(page, 'install-offline-home-en');

    // The rules, with their pictures (the tile table is kept).
    await page.click('[data-testid=nav-rules]');
    await page.waitForSelector('.fig svg');
    assert.ok(await banner.isVisible(), 'the banner stays on every page');
    // The tutorial's text, in order, since its guided game needs the server.
    await page.click('[data-testid=nav-tutorial]');
    const steps = page.locator('[data-testid=offline-steps] li');
    await page.waitForSelector('[data-testid=offline-steps]');
    assert.equal(await steps.count(), SCRIPT.steps.length);
    const first = await steps.nth(0).textContent();
    assert.equal(first, EN[SCRIPT.steps[0].text]);
    const texts = await steps.allTextContents();
    assert.ok(!texts.some((s) => /[{}⚠]/.test(s)), `every step filled in: ${texts.join('\n')}`);
    await screenshot(page, 'install-offline-tutorial-en');

    // In German, the banner in German.
    await page.click('[data-testid=lang-de]');
    await page.waitForFunction((text) => document.querySelector('[data-testid=offline-banner]').textContent === text,
      `${DE['offline.banner.title']} ${DE['offline.banner.text']}`);
    await page.waitForSelector('[data-testid=offline-steps]');
    await page.click('[data-testid=nav-rules]');
    await page.waitForSelector('.fig svg');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'install-offline-rules-de');
    await page.click('[data-testid=offline-banner] ~ main a.brand');
    await page.waitForSelector('.hero h1');
    await screenshot(page, 'install-offline-home-de');
    // As a phone shows it, the top of the page (docs/img/offline-de.png).
    await page.setViewportSize({ width: 390, height: 720 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(artifactsDir(), 'install-offline-phone-de.png') });
    await page.setViewportSize({ width: 1200, height: 850 });

    // Back online: the banner goes, and the page plays again.
    await browser.setOffline(false);
    await banner.waitFor({ state: 'hidden' });
    await page.click('[data-testid=nav-tutorial]');
    await page.waitForSelector('[data-testid=coach]');
    assert.deepEqual(errors, []);
    await browser.close();
  });
  test('a server with another shell: the worker takes it whole or not at all, and the next page is loaded whole', async () => {
    // The browser talks to a proxy in front of the server that can play a server of another
    // version: its worker (`/sw.js` with another version written in), and the files of either.
    const shell = (await fetch(`${server.url}/sw.js`)).headers.get('sagani-shell');
    const next = 'f'.repeat(16);
    assert.notEqual(shell, next);
    let mode = 'same';
    const proxy = createServer((req, res) => {
      const headers = { ...req.headers };
      // Whole answers, never 304s: the proxy rewrites what it passes on.
      for (const h of ['accept-encoding', 'if-none-match', 'if-modified-since']) delete headers[h];
      const upstream = request(`${server.url}${req.url}`, { method: req.method, headers }, (answer) => {
        const chunks = [];
        answer.on('data', (c) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const out = { ...answer.headers };
          const path = req.url.split('?')[0];
          if (mode !== 'same' && path === '/sw.js') {
            body = Buffer.from(body.toString('utf8').replace(`const VERSION = '${shell}';`, `const VERSION = '${next}';`));
            out.etag = `"${next}"`;
          }
          if (out['sagani-shell'] && (mode === 'all' || (mode === 'worker' && path === '/sw.js'))) out['sagani-shell'] = next;
          if (answer.statusCode === 200) out['content-length'] = String(body.length);
          res.writeHead(answer.statusCode, out);
          res.end(body);
        });
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise((done) => proxy.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${proxy.address().port}`;

    const browser = await launchBrowser({ viewport: { width: 1200, height: 850 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${url}/`);
    await page.waitForSelector('[data-testid=create]');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();
    await page.waitForSelector('[data-testid=create]');
    await controlled(page);
    const cacheNames = () => page.evaluate(() => caches.keys());
    /// Asks for the worker again; what became of the new one ('activated', 'redundant').
    const update = () => page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      const found = new Promise((done) => reg.addEventListener('updatefound', () => done(reg.installing), { once: true }));
      await reg.update();
      const w = await found;
      return new Promise((done) => {
        const check = () => {
          if (w.state === 'activated' || w.state === 'redundant') done(w.state);
        };
        w.addEventListener('statechange', check);
        check();
      });
    });
    assert.deepEqual(await cacheNames(), [`sagani-${shell}`]);
    // A new server's worker while the files still come from an old one (two servers behind a
    // balancer): it is not installed, and the old shell stays whole and alone.
    mode = 'worker';
    assert.equal(await update(), 'redundant');
    assert.deepEqual(await cacheNames(), [`sagani-${shell}`]);
    // Every file of the new version: the new shell takes over and the old cache goes.
    mode = 'all';
    assert.equal(await update(), 'activated');
    assert.deepEqual(await cacheNames(), [`sagani-${next}`]);
    // The page on screen is of the old shell: the next page is loaded whole, not drawn by it.
    await page.evaluate(() => {
      window.oldShell = true;
    });
    await page.click('[data-testid=nav-rules]');
    await page.waitForSelector('.fig svg');
    assert.equal(await page.evaluate(() => window.oldShell), undefined, 'the rules page was loaded anew');
    assert.deepEqual(errors, []);
    await browser.close();
    proxy.closeAllConnections();
    await new Promise((done) => proxy.close(done));
  });
});
