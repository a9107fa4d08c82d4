// What a cold load costs: every byte the browser fetches for the home page and for a table in
// play, compressed as it came over the wire and as the page uses it. Under 250 KB compressed.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactsDir, launchBrowser, startServer, watchErrors } from '../lib.mjs';
import { seatedGame } from '../api.mjs';

const LIMIT = 250 * 1024;

/// Loads `path` in a fresh browser (nothing cached) and counts what came over the network.
async function coldLoad(url, path, ready, init) {
  const browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
  const page = browser.pages()[0];
  const errors = watchErrors(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const responses = new Map();
  cdp.on('Network.responseReceived', (e) => responses.set(e.requestId, { url: e.response.url, encoding: e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '' }));
  const sizes = new Map();
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
  cdp.on('Network.dataReceived', (e) => {
    const r = responses.get(e.requestId);
    if (r) r.decoded = (r.decoded || 0) + e.dataLength;
  });
  if (init) await init(page);
  await page.goto(`${url}${path}`);
  await page.waitForSelector(ready);
  // The page is drawn: everything it needed has arrived (the socket is no download).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  const files = [...responses.entries()].filter(([id]) => sizes.has(id)).map(([id, r]) => ({
    path: new URL(r.url).pathname, wire: sizes.get(id), bytes: r.decoded || 0, encoding: r.encoding,
  }));
  assert.deepEqual(errors, []);
  await browser.close();
  return { wire: files.reduce((a, f) => a + f.wire, 0), bytes: files.reduce((a, f) => a + f.bytes, 0), files };
}

describe('page weight', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(() => server?.stop());

  test('a cold load of the home page and of a table stays under 250 KB, compressed', async () => {
    const home = await coldLoad(server.url, '/', '[data-testid=create]');
    const { game, tokens } = await seatedGame(server.url, 2);
    const tableLoad = await coldLoad(server.url, `/games/${game}`, '[data-testid=offer-tile] svg', async (page) => {
      await page.addInitScript(([g, tk]) => localStorage.setItem('sagani.games', JSON.stringify([{ game: g, seat: 0, token: tk }])), [game, tokens[0]]);
    });
    writeFileSync(join(artifactsDir(), 'weight.json'), `${JSON.stringify({ home, table: tableLoad }, null, 1)}\n`);
    for (const [what, load] of [['home', home], ['table', tableLoad]]) {
      assert.ok(load.files.length > 10, `${what}: the files were counted`);
      assert.ok(load.wire < LIMIT, `${what}: ${load.wire} bytes over the wire`);
      // Scripts, styles and messages come compressed.
      for (const f of load.files) {
        if (/\.(js|css|json)$/.test(f.path) && f.bytes > 1024) assert.ok(f.encoding, `${f.path} is compressed`);
      }
    }
  });
});
