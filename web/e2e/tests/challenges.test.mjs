// Challenges and follows in real Chromium browsers against a real `sagani serve`: Ada (English)
// follows Bea (German) on her profile and challenges her from the home page; Bea sees the
// challenge on her home page and accepts it; both land at the game's table, each in their own
// seat. Ada's own profile lists whom she follows, online. axe-core finds nothing serious on the
// home page with the card, nor on the profile with the follows list.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { showsSeat } from '../play.mjs';

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const EN = catalogue('en');
const DE = catalogue('de');
const fill = (m, params) => m.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const WIDE = { viewport: { width: 1300, height: 900 } };
const PASSWORD = 'a long enough secret';

async function signUp(page, url, name) {
  await page.goto(`${url}/account`);
  await page.fill('[data-testid=signup-name]', name);
  await page.fill('[data-testid=signup-password]', PASSWORD);
  await page.click('[data-testid=signup-submit]');
  await page.waitForSelector('[data-testid=who]');
}

/// The serious and critical findings of axe-core on the page as it is now.
async function axe(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join('; ')}`);
}

/// This browser's seat in `game` (the page keeps its token in localStorage), as the server
/// sees it.
async function seatOf(page, url, game) {
  const token = await page.evaluate((g) => (JSON.parse(localStorage.getItem('sagani.games')) || []).find((e) => e.game === g)?.token, game);
  assert.ok(token, `a token for ${game}`);
  const r = await fetch(`${url}/api/games/${game}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200);
  return (await r.json()).you;
}

describe('challenges and follows', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(async () => {
    await server?.stop();
  });

  test('Ada follows Bea and challenges her; Bea accepts on her home page; both sit at the table', async (t) => {
    // bypassCSP: the page's policy allows no inline script, and axe is injected as one.
    const ada = await launchBrowser({ ...WIDE, locale: 'en-US', bypassCSP: true });
    const bea = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => Promise.all([ada.close(), bea.close()]));
    const a = await ada.newPage();
    const b = await bea.newPage();
    const errors = [watchErrors(a), watchErrors(b)];
    await signUp(a, server.url, 'Ada');
    await signUp(b, server.url, 'Bea');

    // Ada follows Bea on her profile.
    await a.goto(`${server.url}/players/Bea`);
    const follow = a.locator('[data-testid=follow]');
    await follow.waitFor();
    assert.equal(await follow.textContent(), EN['follow.follow']);
    await follow.click();
    await a.waitForFunction((text) => document.querySelector('[data-testid=follow]').textContent === text, EN['follow.unfollow']);
    assert.equal(await follow.getAttribute('aria-pressed'), 'true');
    await screenshot(a, 'profile-follow-en');

    // Her own profile lists Bea, online (Bea's pages ask with her cookie).
    await a.goto(`${server.url}/players/Ada`);
    const bea_line = a.locator('[data-testid=follow-Bea]');
    await bea_line.waitFor();
    assert.match(await bea_line.textContent(), new RegExp(EN['follow.online']));
    assert.equal(await bea_line.locator('.online-dot.on').count(), 1);
    assert.deepEqual(await axe(a), []);
    await screenshot(a, 'follows-en');

    // Ada challenges Bea from the home page: 5+5, rated.
    await a.goto(`${server.url}/`);
    await a.click('[data-testid=challenges-card] [data-testid=challenge-new]');
    await a.fill('[data-testid=challenges-card] [data-testid=challenge-to]', 'bea');
    await a.selectOption('[data-testid=challenges-card] [data-testid=challenge-clock]', '5+5');
    await a.check('[data-testid=challenges-card] [data-testid=challenge-rated]');
    await a.click('[data-testid=challenges-card] [data-testid=challenge-send]');
    await a.waitForSelector('[data-testid=challenges-card] [data-testid=challenge-sent]:not([hidden])');
    assert.equal(await a.textContent('[data-testid=challenges-card] [data-testid=challenge-sent]'), fill(EN['challenge.sent'], { name: 'Bea' }));
    const out = a.locator('[data-testid=challenge-out-Bea]');
    await out.waitFor();
    assert.match(await out.textContent(), new RegExp(EN['challenge.status.open']));
    assert.deepEqual(await axe(a), []);
    await screenshot(a, 'home-challenges-en');

    // Bea sees it on her home page, in German, and accepts: her table opens.
    await b.goto(`${server.url}/`);
    const incoming = b.locator('[data-testid=challenge-in-Ada]');
    await incoming.waitFor();
    assert.match(await incoming.textContent(), new RegExp(fill(DE['challenge.terms.rated'], { clock: '.+' })));
    assert.equal(await b.textContent('#challenges-title'), DE['challenge.title']);
    await screenshot(b, 'home-challenges-de');
    await b.click('[data-testid=challenge-accept-Ada]');
    await b.waitForSelector('[data-testid=table]');
    const game = new URL(b.url()).pathname.split('/')[2];
    assert.equal(await seatOf(b, server.url, game), 1);

    // Ada's card learns of the answer by itself: "Go to the game" takes her seat there.
    const go = a.locator('[data-testid=challenge-go-Bea]');
    await go.waitFor({ timeout: 30_000 });
    assert.match(await out.textContent(), new RegExp(EN['challenge.status.accepted']));
    await go.click();
    await a.waitForSelector('[data-testid=table]');
    assert.equal(new URL(a.url()).pathname, `/games/${game}`);
    assert.equal(await seatOf(a, server.url, game), 0);
    // Both tables name both players: in the score strip, each seat's name, and in full in its
    // tooltip.
    await showsSeat(a, 1, 'Bea', fill(EN['seat.named'], { n: 2, name: 'Bea' }));
    await showsSeat(b, 0, 'Ada', fill(DE['seat.named'], { n: 1, name: 'Ada' }));
    await screenshot(b, 'challenge-table-de');

    // Bea's own profile in German: nobody followed, and the setting.
    await b.goto(`${server.url}/players/Bea`);
    await b.waitForSelector('[data-testid=follows-card]');
    await b.waitForSelector('[data-testid=follows] .empty');
    await screenshot(b, 'follows-de');
    assert.deepEqual(errors, [[], []]);
  });
});
