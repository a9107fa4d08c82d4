// Players in real Chromium browsers against a real `sagani serve`: signing up (names of any
// letters, their rules said before submit, refusals in the reader's words), a rated game
// between two accounts in two browsers (English and German) that both profiles then show, the
// leaderboard, a guest's display name at the table and in the lobby, and logging in on a second
// browser where "My games" follows the account and a seat is taken again.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playUntil } from '../api.mjs';
import { showsSeat } from '../play.mjs';

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const EN = catalogue('en');
const DE = catalogue('de');
const fill = (m, params) => m.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

const WIDE = { viewport: { width: 1300, height: 900 } };
const PASSWORD = 'a long enough secret';

/// Signs up on the account page; the page then goes home.
async function signUp(page, url, name) {
  await page.goto(`${url}/account`);
  await page.fill('[data-testid=signup-name]', name);
  await page.fill('[data-testid=signup-password]', PASSWORD);
  await page.click('[data-testid=signup-submit]');
  await page.waitForSelector('[data-testid=who]');
}

/// This browser's seat token for `game` (the page keeps it in localStorage).
const tokenOf = (page, game) => page.evaluate((g) => JSON.parse(localStorage.getItem('sagani.games')).find((e) => e.game === g).token, game);

describe('players: accounts, names, a rated game, profiles', () => {
  let server;
  before(async () => {
    server = await startServer({ botThinkMs: 50 });
  });
  after(async () => {
    await server?.stop();
  });

  test('sign up, a rated game between two accounts in two browsers, both profiles and the leaderboard show it', async (t) => {
    const ada = await launchBrowser({ ...WIDE, locale: 'en-US' });
    const bea = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => Promise.all([ada.close(), bea.close()]));
    const a = await ada.newPage();
    const b = await bea.newPage();
    // The name refused below is a 400 the browser notes in its console.
    const errors = [watchErrors(a, { ignore: [/400 \(Bad Request\) \(.*\/api\/players:0\)$/] }), watchErrors(b)];

    await a.goto(`${server.url}/account`);
    await a.waitForSelector('[data-testid=signup]');
    await screenshot(a, 'account-guest-en');
    // A name that passes for a bot is refused, in words.
    await a.fill('[data-testid=signup-name]', 'mcts-bot');
    await a.fill('[data-testid=signup-password]', PASSWORD);
    await a.click('[data-testid=signup-submit]');
    await a.waitForSelector('[data-testid=signup-error]:not([hidden])');
    assert.equal(await a.textContent('[data-testid=signup-error]'), EN['error.detail.name_reserved']);
    await signUp(a, server.url, 'Ada');
    assert.equal(await a.textContent('[data-testid=who]'), `${fill(EN['home.who.account'], { name: 'Ada' })} ${EN['account.profile']}`);
    assert.equal(await a.textContent('[data-testid=nav-account]'), 'Ada');

    // Ada starts a rated, public game: the seats become people's.
    await a.selectOption('[data-testid=players]', '2');
    await a.check('[data-testid=rated]');
    assert.equal(await a.inputValue('[data-testid=seat-1]'), 'human');
    assert.equal(await a.isDisabled('[data-testid=seat-1]'), true);
    await a.check('[data-testid=public]');
    await a.click('[data-testid=create]');
    await a.waitForSelector('[data-testid=table]');
    const game = new URL(a.url()).pathname.split('/')[2];

    // Bea, in German, signs up and finds it in the lobby with its host, age and mark.
    await signUp(b, server.url, 'Bea');
    assert.equal(await b.textContent('[data-testid=who]'), `${fill(DE['home.who.account'], { name: 'Bea' })} ${DE['account.profile']}`);
    const host = b.locator(`[data-testid=lobby-host-${game}]`);
    await host.waitFor();
    assert.equal(await host.textContent(), fill(DE['home.open.by'], { name: 'Ada', age: DE['home.open.age.now'] }));
    await screenshot(b, 'home-account-de');
    await b.click(`[data-testid=lobby] >> text=${fill(DE['home.open.take'], { n: 2 })}`);
    await b.waitForSelector('[data-testid=table]');
    // Both tables name both players: in the score strip, each seat's name, and in full in its
    // tooltip.
    await showsSeat(a, 1, 'Bea', fill(EN['seat.named'], { n: 2, name: 'Bea' }));
    await showsSeat(b, 0, 'Ada', fill(DE['seat.named'], { n: 1, name: 'Ada' }));
    assert.equal(await a.textContent('[data-testid=rated]'), EN['profile.rated']);
    assert.equal(await b.textContent('[data-testid=rated]'), DE['profile.rated']);
    await screenshot(a, 'table-names-en');

    // The game is played out through the API with the browsers' own tokens.
    const tokens = [await tokenOf(a, game), await tokenOf(b, game)];
    const end = await playUntil(server.url, game, tokens, (s) => s.status === 'over');
    const winner = end.outcome.ranking[0];
    await a.waitForSelector('[data-testid=end]');
    await b.waitForSelector('[data-testid=end]');
    assert.match(await a.textContent('[data-testid=end]'), /Bea/);

    // Both profiles show the rated game, in either browser.
    for (const [page, name, cat] of [[a, 'Bea', EN], [b, 'Ada', DE]]) {
      await page.goto(`${server.url}/players/${name}`);
      await page.waitForSelector('[data-testid=profile-rating]');
      assert.equal(await page.textContent('[data-testid=profile-name]'), name);
      assert.match(await page.textContent('[data-testid=profile-rating]'), new RegExp(cat['profile.rating.provisional'].replace('{rating}', '\\d[\\d.,]*').replace(/[()]/g, '\\$&')));
      assert.equal(await page.textContent('[data-testid=profile-rated-games] .stat-value'), '1');
      assert.equal(await page.locator('[data-testid=rating-graph] circle').count(), 1);
      const line = page.locator(`[data-testid=game-${game}]`);
      assert.match(await line.textContent(), new RegExp(cat['profile.rated']));
      assert.equal(await line.locator('a[download]').getAttribute('href'), `/api/games/${game}/record`);
    }
    await screenshot(b, 'profile-de');
    // Bea's other screens speak German too.
    await b.goto(`${server.url}/leaderboard`);
    await b.waitForSelector('table.leaderboard');
    assert.equal(await b.textContent('h1'), DE['leaderboard.title']);
    await b.goto(`${server.url}/account`);
    await b.waitForSelector('[data-testid=log-out]');
    assert.equal(await b.textContent('h1'), fill(DE['account.title.me'], { name: 'Bea' }));
    assert.equal(await b.textContent('[data-testid=log-out-everywhere]'), DE['account.logout.everywhere']);
    await screenshot(b, 'account-de');
    await a.goto(`${server.url}/leaderboard`);
    await a.waitForSelector('table.leaderboard');
    const names = await a.locator('table.leaderboard tbody td:nth-child(2)').allTextContents();
    assert.deepEqual(names, winner === 0 ? ['Ada', 'Bea'] : ['Bea', 'Ada']);
    await screenshot(a, 'leaderboard-en');
    assert.deepEqual(errors, [[], []]);
  });

  test('names of any letters: the rule said before submit, a name too long said so (not cut), refusals in German words', async (t) => {
    const browser = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => browser.close());
    const p = await browser.newPage();
    // The refusals below are 400s the browser notes in its console.
    const errors = [watchErrors(p, { ignore: [/400 \(Bad Request\) \(.*\/api\/players:0\)$/] })];
    let sent = 0;
    p.on('request', (r) => { if (new URL(r.url()).pathname === '/api/players') sent += 1; });

    // A guest's name at the table: too long is said beside the field, kept whole and not saved.
    await p.goto(`${server.url}/`);
    await p.waitForSelector('[data-testid=my-name]');
    assert.equal(await p.textContent('[data-testid=my-name-count]'), fill(DE['account.name.count'], { len: 0, max: 24 }));
    const tooLong = 'Kunigunde von Hohenzollern-Sigmaringen';
    await p.fill('[data-testid=my-name]', tooLong);
    assert.equal(await p.textContent('[data-testid=my-name-count]'), fill(DE['account.name.count'], { len: tooLong.length, max: 24 }));
    await p.dispatchEvent('[data-testid=my-name]', 'change');
    assert.equal(await p.inputValue('[data-testid=my-name]'), tooLong);
    assert.equal(await p.textContent('[data-testid=my-name-problem]'), fill(DE['error.detail.display_name_length'], { min: 1, max: 24, len: tooLong.length }));
    assert.equal(await p.evaluate(() => localStorage.getItem('sagani.name')), null);

    await p.goto(`${server.url}/account`);
    await p.waitForSelector('[data-testid=signup]');
    // The rule stands beside the field before anything is typed.
    assert.equal(await p.textContent('[data-testid=signup-name-rule]'), DE['account.name.rule']);
    assert.equal(await p.textContent('[data-testid=signup-password-rule]'), DE['account.password.rule']);
    // 300 characters stay 300: the count and the message say what is wrong, nothing is sent.
    await p.fill('[data-testid=signup-name]', 'x'.repeat(300));
    assert.equal((await p.inputValue('[data-testid=signup-name]')).length, 300);
    assert.equal(await p.textContent('[data-testid=signup-name-count]'), fill(DE['account.name.count'], { len: 300, max: 20 }));
    assert.equal(await p.textContent('[data-testid=signup-name-problem]'), fill(DE['error.detail.name_length'], { min: 3, max: 20, len: 300 }));
    await p.fill('[data-testid=signup-password]', PASSWORD);
    await p.click('[data-testid=signup-submit]');
    assert.equal(await p.evaluate(() => document.activeElement.dataset.testid), 'signup-name');
    // A character no name has is named, in German.
    await p.fill('[data-testid=signup-name]', 'Jürgen!');
    assert.equal(await p.textContent('[data-testid=signup-name-problem]'), fill(DE['error.detail.name_character'], { char: fill(DE['error.char'], { character: '!', code_point: 'U+0021' }) }));
    await p.click('[data-testid=signup-submit]');
    assert.equal(sent, 0, 'the page checked the name before sending it');

    // Refusals only the server can tell come back as German words, not the server's English.
    for (const [name, password, key] of [['Robot', PASSWORD, 'error.detail.name_reserved'], ['Gertrud', 'GERTRUD', 'error.detail.password_length'], ['Gertrud9', 'gertrud9', 'error.detail.password_is_name']]) {
      await p.fill('[data-testid=signup-name]', name);
      await p.fill('[data-testid=signup-password]', password);
      await p.click('[data-testid=signup-submit]');
      if (key === 'error.detail.password_length') {
        // The page knows this one itself: said beside the field, not sent.
        assert.equal(await p.textContent('[data-testid=signup-password-problem]'), fill(DE[key], { min: 8, max: 200 }));
        continue;
      }
      await p.waitForFunction((k) => document.querySelector('[data-testid=signup-error]').textContent === k, DE[key]);
      assert.doesNotMatch(await p.textContent('[data-testid=signup-error]'), /would pass|password must/);
      if (key === 'error.detail.name_reserved') await screenshot(p, 'refusal-de');
    }
    assert.equal(sent, 2);

    // "Jürgen" signs up, and is Jürgen everywhere.
    await signUp(p, server.url, 'Jürgen');
    assert.equal(await p.textContent('[data-testid=nav-account]'), 'Jürgen');
    await p.goto(`${server.url}/players/${encodeURIComponent('JÜRGEN')}`);
    await p.waitForSelector('[data-testid=profile-name]');
    assert.equal(await p.textContent('[data-testid=profile-name]'), 'Jürgen');
    assert.deepEqual(errors, [[]]);
  });

  test('a guest plays under a display name; a rated seat asks a guest to log in', async (t) => {
    const guest = await launchBrowser({ ...WIDE, locale: 'en-US' });
    const other = await launchBrowser({ ...WIDE, locale: 'en-US' });
    t.after(() => Promise.all([guest.close(), other.close()]));
    const g = await guest.newPage();
    const o = await other.newPage();
    const errors = [watchErrors(g), watchErrors(o)];
    await g.goto(`${server.url}/`);
    await g.fill('[data-testid=my-name]', 'Cat');
    await g.dispatchEvent('[data-testid=my-name]', 'change');
    assert.equal(await g.isDisabled('[data-testid=rated]'), true, 'a guest starts no rated game');
    await g.selectOption('[data-testid=players]', '2');
    await g.selectOption('[data-testid=seat-1]', 'human');
    await g.check('[data-testid=public]');
    await g.click('[data-testid=create]');
    await g.waitForSelector('[data-testid=table]');
    const game = new URL(g.url()).pathname.split('/')[2];
    // Another browser sees the guest's name, marked as a guest's, in the lobby and at the table.
    await o.goto(`${server.url}/`);
    const host = o.locator(`[data-testid=lobby-host-${game}]`);
    await host.waitFor();
    assert.match(await host.textContent(), /^by Cat, /);
    assert.match(await o.textContent(`[data-testid=lobby] li:has([data-testid=lobby-host-${game}])`), new RegExp(fill(EN['seat.guest'], { n: 1, name: 'Cat' }).replace(/[()]/g, '\\$&')));
    // A rated game in the lobby: a guest is asked to log in instead of taking a seat.
    const rated = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seats: [{ kind: 'human' }, { kind: 'human' }], rated: true, public: true }) }).then((r) => r.json());
    await o.reload();
    await o.waitForSelector(`[data-testid=lobby-host-${rated.game}]`);
    const row = o.locator(`[data-testid=lobby] li:has([data-testid=lobby-host-${rated.game}])`);
    assert.equal(await row.locator(`a[href="/account"]`).textContent(), EN['home.open.login']);
    assert.equal(await row.locator('button').count(), 0);
    assert.deepEqual(errors, [[], []]);
  });

  test('logged in on a second browser, "My games" follows the account and a seat is taken here', async (t) => {
    const first = await launchBrowser({ ...WIDE, locale: 'en-US' });
    const second = await launchBrowser({ ...WIDE, locale: 'en-US' });
    t.after(() => Promise.all([first.close(), second.close()]));
    const p1 = await first.newPage();
    // Its table hears that the seat went to the other browser (403 for its old token).
    const errors = [watchErrors(p1, { ignore: [/403 \(Forbidden\)/] })];
    await signUp(p1, server.url, 'Dora');
    await p1.selectOption('[data-testid=players]', '2');
    await p1.selectOption('[data-testid=seat-1]', 'bot:mcts:4');
    await p1.click('[data-testid=create]');
    await p1.waitForSelector('[data-testid=table][data-my-turn=true]');
    const game = new URL(p1.url()).pathname.split('/')[2];
    const oldToken = await tokenOf(p1, game);

    const p2 = await second.newPage();
    errors.push(watchErrors(p2));
    await p2.goto(`${server.url}/account`);
    await p2.fill('[data-testid=login-name]', 'dora');
    await p2.fill('[data-testid=login-password]', PASSWORD);
    await p2.click('[data-testid=login-submit]');
    await p2.waitForSelector(`[data-testid=play-here-${game}]`);
    // Held on the other device, it is still known to be Dora's turn, and listed first.
    assert.equal(await p2.textContent(`[data-testid=game-${game}] .status`), EN['home.status.yours']);
    assert.equal(await p2.getAttribute('[data-testid=my-games] li.game-item >> nth=0', 'data-testid'), `game-${game}`);
    await screenshot(p2, 'my-games-second-browser');
    await p2.click(`[data-testid=play-here-${game}]`);
    await p2.waitForSelector('[data-testid=table][data-my-turn=true]');
    assert.equal(new URL(p2.url()).pathname, `/games/${game}`);
    // The first browser's token no longer holds the seat.
    const r = await fetch(`${server.url}/api/games/${game}`, { headers: { authorization: `Bearer ${oldToken}` } });
    assert.equal(r.status, 403);
    // Logging out everywhere logs the first browser out too.
    await p2.goto(`${server.url}/account`);
    await p2.click('[data-testid=log-out-everywhere]');
    await p2.waitForSelector('[data-testid=login]');
    await p1.goto(`${server.url}/`);
    await p1.waitForSelector('[data-testid=who-login]');
    assert.deepEqual(errors, [[], []]);
  });
});
