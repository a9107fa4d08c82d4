// Notices in the browser: Ann's page shows no count; Bob (another account, through the API)
// moves in their turn-based game, and once the page looks again (it asks every 45 seconds and
// when the tab comes back) the count shows in the site bar and the tab's title. The list at
// /notices words the notice, links to the game, and opening it marks it read. The account page
// says that this server (started without --smtp) sends no mail. In English and German, with
// axe-core finding nothing serious.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axe(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join('; ')}`);
}

/// An account made through the API: a fetch that sends its cookie (and an Origin as the page
/// would).
async function account(url, name) {
  const r = await fetch(`${url}/api/players`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ name, password: `${name}'s secret` }),
  });
  assert.equal(r.status, 201);
  const cookie = r.headers.get('set-cookie').split(';')[0];
  return async (method, path, body, token) => {
    const headers = { origin: url, cookie };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const a = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await a.json();
    assert.ok(a.status < 300, `${method} ${path}: ${a.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/// A turn-based game of Ann's and Bob's: its id and their tokens.
async function game(ann, bob) {
  const made = await ann('POST', '/api/games', { seats: [{ kind: 'human' }, { kind: 'human' }], clock: { kind: 'turn', days: 2 } });
  const a = await ann('POST', `/api/games/${made.game}/join`, { invite: made.invites[0].code });
  const b = await bob('POST', `/api/games/${made.game}/join`, { invite: made.invites[1].code });
  return { id: made.game, tokens: [a.token, b.token] };
}

/// Plays until `seat` has just got the turn from the other seat.
async function passTurnTo(api, g, seat) {
  for (;;) {
    const s = await api('GET', `/api/games/${g.id}`, undefined, g.tokens[0]);
    const next = s.view.next.player;
    const mine = await api('GET', `/api/games/${g.id}`, undefined, g.tokens[next]);
    await api('POST', `/api/games/${g.id}/moves`, { version: mine.version, move: mine.legal[0] }, g.tokens[next]);
    const after = await api('GET', `/api/games/${g.id}`, undefined, g.tokens[0]);
    if (next !== seat && after.view.next.player === seat) return;
  }
}

describe('notices', () => {
  let server;

  before(async () => {
    server = await startServer();
  });

  after(async () => {
    await server?.stop();
  });

  for (const [locale, lang, words] of [
    ['en-US', 'en', { kind: 'It is your turn in a game.', open: 'Open the game', off: 'This server sends no mail.', title: 'Notices · Sagani', unread: '1 unread notice' }],
    ['de-DE', 'de', { kind: 'Du bist in einer Partie am Zug.', open: 'Zur Partie', off: 'Dieser Server verschickt keine Mails.', title: 'Nachrichten · Sagani', unread: '1 ungelesene Nachricht' }],
  ]) {
    test(`the count after the other player's move, the list, read; mail off (${lang})`, async (t) => {
      const ann = await account(server.url, `Ann${lang}`);
      const bob = await account(server.url, `Bob${lang}`);
      const g = await game(ann, bob);
      // Ann's browser, logged in with her cookie; it is not Ann's turn yet.
      const annCookie = await (async () => {
        const r = await fetch(`${server.url}/api/session`, {
          method: 'POST', headers: { 'content-type': 'application/json', origin: server.url },
          body: JSON.stringify({ name: `Ann${lang}`, password: `Ann${lang}'s secret` }),
        });
        return r.headers.get('set-cookie').split(';')[0].split('=');
      })();
      await passTurnTo(ann, g, 1);
      // Whatever Ann got while the game began is read: nothing unread.
      await ann('POST', '/api/notices/read', { upto: Date.now() + 60_000 });
      const browser = await launchBrowser({ locale, bypassCSP: true, viewport: { width: 1200, height: 800 } });
      t.after(() => browser.close());
      await browser.addCookies([{ name: annCookie[0], value: annCookie[1], url: server.url }]);
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${server.url}/`);
      await page.waitForSelector('[data-testid=nav-notices]:not([hidden])');
      assert.ok(await page.isHidden('[data-testid=notices-count]'), 'nothing unread yet');
      assert.equal(await page.title(), 'Sagani');
      // Bob moves: it is Ann's turn. The page looks again when the tab is seen again.
      await passTurnTo(bob, g, 0);
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await page.waitForSelector('[data-testid=notices-count]:not([hidden])');
      assert.equal(await page.textContent('[data-testid=notices-count]'), '1');
      assert.ok((await page.getAttribute('[data-testid=nav-notices]', 'aria-label')).includes(words.unread));
      await page.waitForFunction(() => document.title === '(1) Sagani');
      await screenshot(page, `notices-bar-${lang}`);
      // The list: the notice in words, a link to the game; seen, it is read.
      await page.click('[data-testid=nav-notices]');
      await page.waitForSelector('[data-testid=notice]');
      assert.equal(await page.textContent('[data-testid=notice] .notice-text'), `${lang === 'en' ? 'new' : 'neu'}${words.kind}`);
      assert.equal(await page.getAttribute('[data-testid=notice-open]', 'href'), `/games/${g.id}`);
      assert.ok((await page.textContent('[data-testid=notice] .notice-meta')).startsWith(`${lang === 'en' ? 'with' : 'mit'} Bob${lang} · `));
      assert.equal(await page.textContent('[data-testid=notice-open]'), words.open);
      await page.waitForSelector('[data-testid=notices-count]', { state: 'hidden' });
      await page.waitForFunction((title) => document.title === title, words.title);
      await screenshot(page, `notices-list-${lang}`);
      assert.deepEqual(await axe(page), [], `${locale} /notices`);
      const left = await ann('GET', '/api/notices?count=1');
      assert.equal(left.unread, 0);
      // The link opens the game.
      await page.click('[data-testid=notice-open]');
      await page.waitForSelector('[data-testid=table]');
      assert.ok(await page.isVisible('[data-testid=nav-notices]'), 'the table\'s bar has the link too');
      // The account page: mail is off on this server.
      await page.goto(`${server.url}/account`);
      await page.waitForSelector('[data-testid=mail-off]');
      assert.equal(await page.textContent('[data-testid=mail-off]'), words.off);
      await page.locator('[data-testid=mail-settings]').scrollIntoViewIfNeeded();
      await screenshot(page, `notices-mail-off-${lang}`);
      assert.deepEqual(await axe(page), [], `${locale} /account`);
      assert.deepEqual(errors, []);
    });
  }
});

/// A mail server that keeps what it is given (enough SMTP for the server's mailer).
async function mailSink() {
  const mails = [];
  const server = createServer((socket) => {
    let buffer = '';
    let data = null;
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            mails.push(data.join('\n'));
            data = null;
            socket.write('250 kept\r\n');
          } else {
            data.push(line.startsWith('.') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = [];
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `smtp://127.0.0.1:${server.address().port}`, mails, close: () => server.close() };
}

describe('mail settings on a server that sends mail', () => {
  let server;
  let sink;

  before(async () => {
    sink = await mailSink();
    server = await startServer({ extraArgs: ['--smtp', sink.url] });
  });

  after(async () => {
    await server?.stop();
    sink?.close();
  });

  for (const [locale, lang, words] of [
    ['en-US', 'en', { sent: 'We sent a link to', confirmed: 'Your address is confirmed.', subject: 'Confirm your e-mail address for Sagani' }],
    ['de-DE', 'de', { sent: 'Wir haben einen Link an', confirmed: 'Deine Adresse ist bestätigt.', subject: 'Best' }],
  ]) {
    test(`an address, its link, the choices (${lang})`, async (t) => {
      await account(server.url, `Cleo${lang}`);
      const login = await fetch(`${server.url}/api/session`, {
        method: 'POST', headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ name: `Cleo${lang}`, password: `Cleo${lang}'s secret` }),
      });
      const [name, value] = login.headers.get('set-cookie').split(';')[0].split('=');
      const browser = await launchBrowser({ locale, bypassCSP: true, viewport: { width: 1200, height: 900 } });
      t.after(() => browser.close());
      await browser.addCookies([{ name, value, url: server.url }]);
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${server.url}/account`);
      await page.waitForSelector('[data-testid=mail-address]');
      // Not an address: said beside the form, in the page's words.
      await page.fill('[data-testid=mail-address]', 'not an address');
      await page.click('[data-testid=mail-save]');
      await page.waitForSelector('[data-testid=mail-error]:not([hidden])');
      const address = `cleo-${lang}@example.org`;
      await page.fill('[data-testid=mail-address]', address);
      await page.check('[data-testid=mail-your-turn]');
      const before = sink.mails.length;
      await page.click('[data-testid=mail-save]');
      await page.waitForFunction((w) => document.querySelector('[data-testid=mail-status]')?.textContent.startsWith(w), words.sent);
      await page.locator('[data-testid=mail-settings]').scrollIntoViewIfNeeded();
      await screenshot(page, `notices-mail-sent-${lang}`);
      assert.deepEqual(await axe(page), [], `${locale} /account with mail`);
      // The mail came, in the page's language; its link confirms the address.
      assert.equal(sink.mails.length, before + 1);
      const mail = sink.mails[before].replace(/=\n/g, '').replace(/=3D/g, '=');
      assert.ok(mail.includes(address), mail);
      const link = mail.match(/http:\/\/[^\s]+\/api\/mail\/verify\?token=[0-9a-f]+/)[0];
      await page.goto(link);
      await page.waitForSelector('[data-testid=mail-status]');
      assert.equal(await page.textContent('[data-testid=mail-status]'), words.confirmed);
      assert.ok(await page.isChecked('[data-testid=mail-your-turn]'));
      assert.ok(!(await page.isChecked('[data-testid=mail-challenges]')));
      await page.locator('[data-testid=mail-settings]').scrollIntoViewIfNeeded();
      await screenshot(page, `notices-mail-confirmed-${lang}`);
      const settings = await (await fetch(`${server.url}/api/me/email`, { headers: { cookie: `${name}=${value}` } })).json();
      assert.deepEqual(settings, { mail: true, address, verified: true, your_turn: true, challenges: false });
      assert.deepEqual(errors, []);
    });
  }
});
