// Every text a person reads comes from a message catalogue. The page is shown in the
// pseudo-language `qps` (English with every message wrapped in ⟦ ⟧): any visible text, label or
// tooltip with a letter outside the brackets was written into the code, and fails the test.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';
import { playOut, playUntil } from '../api.mjs';

/// Texts on screen (text nodes and the labels people and screen readers get) that did not come
/// from the catalogue.
function unmarked() {
  const bad = [];
  const letter = /\p{L}/u;
  // Messages nest (a name inside a sentence): strip the innermost brackets until none are left.
  const marked = (s) => {
    let rest = s;
    for (let before = null; before !== rest;) {
      before = rest;
      rest = rest.replace(/⟦[^⟦⟧]*⟧/gu, '');
    }
    return !letter.test(rest);
  };
  const visible = (el) => el && el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  // Text pieces of one element are judged together: a message may be split by children.
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, noscript, title, [aria-hidden=true]') || !visible(el)) continue;
    const whole = [...el.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
    if (!marked(whole)) bad.push(`text "${whole.trim().slice(0, 80)}" in <${el.tagName.toLowerCase()} class="${el.getAttribute('class') || ''}">`);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (!visible(el) && !el.closest('svg')) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v && !marked(v)) bad.push(`${a} "${v.slice(0, 80)}" on <${el.tagName.toLowerCase()}>`);
    }
  }
  for (const t of document.querySelectorAll('svg title')) {
    if (!marked(t.textContent)) bad.push(`svg title "${t.textContent.slice(0, 80)}"`);
  }
  if (!marked(document.title)) bad.push(`document title "${document.title}"`);
  return [...new Set(bad)];
}

describe('words', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer({ botThinkMs: 50, deckSeed: 8 });
    browser = await launchBrowser();
    await browser.addInitScript(() => localStorage.setItem('sagani.lang', 'qps'));
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const check = async (page, what) => {
    const bad = await page.evaluate(unmarked);
    assert.deepEqual(bad, [], `${what}: text not from a catalogue`);
  };

  test('the home, rules and about pages and a mistyped address', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page, { ignore: [/404 \(Not Found\)/] });
    for (const [path, ready] of [['/', '[data-testid=create]'], ['/rules', 'h1'], ['/about', 'h1'], ['/no/such/page', '[data-testid=no-such-page]']]) {
      await page.goto(`${server.url}${path}`);
      await page.waitForSelector(ready);
      await check(page, path);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the account, a profile with a rated game, the leaderboard, a guest\'s name and my games', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page, { ignore: [/404 \(Not Found\)/] });
    const path = async (p, ready) => {
      await page.goto(`${server.url}${p}`);
      await page.waitForSelector(ready);
      await check(page, p);
    };
    await path('/account', '[data-testid=signup]');
    await path('/leaderboard', '[data-testid=leaderboard-empty]');
    await path('/players/nobody', '[data-testid=profile-missing]');
    // Two accounts play a rated game (through the API, signed up in this page's context).
    const other = await launchBrowser();
    await other.addInitScript(() => localStorage.setItem('sagani.lang', 'qps'));
    const signUp = (p, name) => p.evaluate((n) => fetch('/api/players', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: 'secret words' }) }).then((r) => r.status), name);
    const bea = await other.newPage();
    await page.goto(`${server.url}/`);
    await bea.goto(`${server.url}/`);
    assert.equal(await signUp(page, 'Ada'), 201);
    assert.equal(await signUp(bea, 'Bea'), 201);
    const game = await page.evaluate(async () => {
      const post = (p, body) => fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
      const made = await post('/api/games', { seats: [{ kind: 'human' }, { kind: 'human' }], rated: true, public: true });
      const me = await post(`/api/games/${made.game}/join`, { invite: made.invites[0].code });
      localStorage.setItem('sagani.games', JSON.stringify([{ game: made.game, seat: 0, token: me.token }]));
      return made;
    });
    await path('/', `[data-testid=lobby-host-${game.game}]`);
    const beaToken = await bea.evaluate((code) => fetch(`/api/games/${code[0]}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite: code[1] }) }).then((r) => r.json()).then((j) => j.token), [game.game, game.invites[1].code]);
    const adaToken = await page.evaluate(() => JSON.parse(localStorage.getItem('sagani.games'))[0].token);
    await playUntil(server.url, game.game, [adaToken, beaToken], (s) => s.status === 'over');
    await path(`/games/${game.game}`, '[data-testid=end]');
    await path('/account', '[data-testid=log-out]');
    await path('/players/Ada', '[data-testid=rating-graph]');
    await path('/leaderboard', 'table.leaderboard');
    // A game of Ada's on another device: "my games" offers to play it here.
    await page.evaluate(() => localStorage.removeItem('sagani.games'));
    await path('/', '[data-testid=my-games] .game-item');
    await other.close();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a table in play, with a preview, the pile, all displays and the explanations', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.selectOption('[data-testid=players]', '3');
    await page.selectOption('[data-testid=seat-1]', 'bot:mcts:4');
    await page.selectOption('[data-testid=seat-2]', 'bot:random');
    await page.click('[data-testid=create]');
    await page.waitForSelector('[data-testid=table][data-my-turn=true]');
    await check(page, 'the table on my turn');
    await page.locator('[data-testid=offer-tile]:not([disabled])').first().click();
    await page.locator('[data-testid=display-0] rect.cell.legal').first().click();
    await page.waitForSelector('[data-testid=preview-score]');
    await check(page, 'a preview');
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('[data-testid=table][data-my-turn=true]');
    await check(page, 'the table after the others moved');
    await page.click('[data-testid=help-discs]');
    await check(page, 'an explanation');
    await page.click('[data-testid=pile-open]');
    await check(page, 'the pile');
    await page.click('[data-testid=pile-close]');
    await page.click('[data-testid=view-toggle]');
    await page.waitForSelector('[data-testid=display-2]');
    await check(page, 'all displays');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the end of a game, for a player and for a spectator', async () => {
    const { game, tokens } = await playOut(server.url, 2);
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.evaluate(([g, token]) => localStorage.setItem('sagani.games', JSON.stringify([{ game: g, seat: 0, token }])), [game, tokens[0]]);
    await page.goto(`${server.url}/games/${game}`);
    await page.waitForSelector('[data-testid=end]');
    await check(page, 'the end');
    await screenshot(page, 'qps-end');
    const watcher = await browser.newPage();
    await watcher.goto(`${server.url}/games/${game}`);
    await watcher.evaluate(() => localStorage.removeItem('sagani.games'));
    await watcher.reload();
    await watcher.waitForSelector('[data-testid=end]');
    await check(watcher, 'the end for a spectator');
    // The log's notes come from the server, so a spectator who opens the game later has them.
    assert.ok((await watcher.locator('[data-testid=log-note]').count()) > 0, 'the log has score notes');
    assert.deepEqual(errors, []);
    await page.close();
    await watcher.close();
  });

  test('the daily challenge: its card, a game\'s end with par and the line to share, the day\'s leaderboards', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=daily-start-solo]');
    await check(page, 'the daily card');
    await page.click('[data-testid=daily-start-solo]');
    await page.waitForSelector('[data-testid=table][data-my-turn=true]');
    await check(page, 'a daily game');
    // Played out by the API with the page's token, then shown at its end.
    const [game, token] = await page.evaluate(() => {
      const g = JSON.parse(localStorage.getItem('sagani.games'))[0];
      return [g.game, g.token];
    });
    await playUntil(server.url, game, [token], (s) => s.status === 'over');
    await page.reload();
    await page.waitForSelector('[data-testid=daily-result][data-ready=yes]', { timeout: 60_000 });
    await check(page, 'the end of a daily game');
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-testid=daily-done-solo]');
    await check(page, 'the daily card, played');
    await page.goto(`${server.url}/daily`);
    await page.waitForSelector('[data-testid=daily-page-solo]');
    await check(page, 'the daily leaderboards');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
