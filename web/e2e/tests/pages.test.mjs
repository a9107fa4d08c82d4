// The home, rules and about pages in a real Chromium against a real `sagani serve`: English by
// default, German by the browser's language and by the switch (kept after a reload), every word
// from the catalogues, no select cutting its text, a phone's width, a mistyped address, and
// axe-core finding nothing serious.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../i18n/${lang}.json`, import.meta.url), 'utf8'));
const EN = catalogue('en');
const DE = catalogue('de');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const WIDE = { viewport: { width: 1400, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/// The sections of the rules page, in order (their anchors).
const SECTIONS = ['aim', 'components', 'setup', 'turn', 'arrows', 'complete', 'cacophony', 'intermezzo', 'end', 'solo'];

/// Opens `path` and waits until the page has drawn it (the bar on top of these pages).
async function open(page, url, path, ready = '.site-bar') {
  const response = await page.goto(`${url}${path}`);
  await page.waitForSelector(ready);
  return response;
}

/// Texts of the options of every visible select that do not fit in it (the select's width less
/// its padding and the drop-down arrow).
function clippedOptions(page) {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const s of document.querySelectorAll('select')) {
      if (!s.offsetParent) continue;
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
      for (const o of s.options) {
        const w = ctx.measureText(o.text).width;
        if (w > room) out.push(`${s.id}: "${o.text}" needs ${Math.ceil(w)} px, has ${Math.floor(room)}`);
      }
    }
    return out;
  });
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/// The serious and critical findings of axe-core on the page as it is now.
async function axe(page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} (${n.failureSummary.replace(/\s+/g, ' ')})`).join('; ')}`);
}

describe('the home, rules and about pages', () => {
  let server;

  before(async () => {
    server = await startServer();
  });

  after(async () => {
    await server?.stop();
  });

  test('home: English by default, with the tutorial first for a newcomer and every control', async (t) => {
    const browser = await launchBrowser({ ...WIDE, locale: 'en-US' });
    t.after(() => browser.close());
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await open(page, server.url, '/', '[data-testid=solo-variant]');
    await page.waitForSelector('.hero-tiles svg');
    await screenshot(page, 'home-en');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.title(), EN['app.name']);
    assert.equal(await page.textContent('h1'), EN['app.name']);
    assert.equal(await page.textContent('.tagline'), EN['home.tagline']);
    // A newcomer sees the tutorial before anything else to play.
    const tutorial = page.locator('[data-testid=tutorial-link]');
    assert.equal(await tutorial.textContent(), EN['home.tutorial.link']);
    assert.equal(await tutorial.getAttribute('href'), '/tutorial');
    const [cardTop, soloTop] = await Promise.all([
      page.locator('[data-testid=tutorial-card]').boundingBox(), page.locator('[data-testid=solo-start]').boundingBox()]);
    assert.ok(cardTop.y < soloTop.y, 'the tutorial comes first');
    assert.ok(cardTop.height > 80, 'and it is big');
    assert.equal(await page.getAttribute('[data-testid=nav-rules]', 'href'), '/rules');
    assert.equal(await page.getAttribute('[data-testid=nav-about]', 'href'), '/about');
    // The controls the other tests use, with words a player reads.
    for (const id of ['solo-variant', 'solo-start', 'players', 'seat-1', 'public', 'create', 'my-games', 'lobby']) {
      assert.equal(await page.locator(`[data-testid=${id}]`).count(), 1, id);
    }
    assert.equal(await page.locator('[data-testid=error]').isHidden(), true);
    await page.selectOption('[data-testid=players]', '4');
    for (const i of [1, 2, 3]) assert.ok(await page.locator(`[data-testid=seat-${i}]#seat-${i}`).isVisible(), `seat-${i}`);
    const choices = await page.locator('[data-testid=seat-1] option').allTextContents();
    assert.deepEqual(choices, ['human', 1, 2, 3, 4, 5, 6, 7, 8, 'random'].map((k) => EN[typeof k === 'number' ? `home.seat.level.${k}` : `home.seat.${k}`]));
    assert.equal(await page.textContent('[data-testid=my-games]'), EN['home.mine.none']);
    await page.waitForSelector(`[data-testid=lobby] >> text=${EN['home.open.none']}`);
    assert.deepEqual(await clippedOptions(page), []);
    assert.equal(await overflow(page), 0);
    assert.deepEqual(errors, []);
  });

  test('home: German by the browser language; the switch changes it and a reload keeps it', async (t) => {
    const german = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => german.close());
    const page = await german.newPage();
    const errors = watchErrors(page);
    await open(page, server.url, '/', '[data-testid=solo-variant]');
    await page.waitForSelector('.hero-tiles svg');
    await screenshot(page, 'home-de');
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await page.textContent('[data-testid=tutorial-link]'), DE['home.tutorial.link']);
    assert.equal(await page.textContent('[data-testid=solo-start]'), DE['home.solo.start']);
    assert.equal(await page.getAttribute('[data-testid=lang-de]', 'aria-pressed'), 'true');
    await page.selectOption('[data-testid=players]', '4');
    assert.deepEqual(await clippedOptions(page), []);
    assert.deepEqual(errors, []);

    // An English browser switches to German, and stays German after a reload.
    const english = await launchBrowser({ ...WIDE, locale: 'en-US' });
    t.after(() => english.close());
    const other = await english.newPage();
    const otherErrors = watchErrors(other);
    await open(other, server.url, '/', '[data-testid=solo-variant]');
    assert.equal(await other.textContent('[data-testid=tutorial-link]'), EN['home.tutorial.link']);
    await other.click('[data-testid=lang-de]');
    await other.waitForSelector(`[data-testid=tutorial-link] >> text=${DE['home.tutorial.link']}`);
    assert.equal(await other.getAttribute('html', 'lang'), 'de');
    assert.equal(new URL(other.url()).pathname, '/');
    await other.reload();
    await other.waitForSelector('[data-testid=solo-variant]');
    assert.equal(await other.textContent('[data-testid=tutorial-link]'), DE['home.tutorial.link']);
    assert.equal(await other.getAttribute('[data-testid=lang-de]', 'aria-pressed'), 'true');
    // On another page too, and back to English there.
    await open(other, server.url, '/rules', '[data-testid=rules]');
    assert.equal(await other.textContent('h1'), DE['rules.title']);
    await other.click('[data-testid=lang-en]');
    await other.waitForSelector(`h1 >> text=${EN['rules.title']}`);
    assert.equal(new URL(other.url()).pathname, '/rules');
    assert.deepEqual(otherErrors, []);
  });

  test('home: a returning player sees their games first and the tutorial small', async (t) => {
    const browser = await launchBrowser({ ...WIDE, locale: 'en-US' });
    t.after(() => browser.close());
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await open(page, server.url, '/', '[data-testid=solo-variant]');
    await page.click('[data-testid=solo-start]');
    await page.waitForURL(/\/games\//);
    await open(page, server.url, '/', '[data-testid=solo-variant]');
    await page.waitForSelector(`[data-testid=my-games] .status >> text=${EN['home.status.yours']}`);
    assert.equal(await page.textContent('[data-testid=my-games] .game-link'), EN['home.mine.solo']);
    const [mine, tutorial, solo] = await Promise.all(['[data-testid=my-games]', '[data-testid=tutorial-card]', '[data-testid=solo-start]']
      .map((s) => page.locator(s).boundingBox()));
    assert.ok(mine.y < solo.y, 'their games come first');
    assert.ok(tutorial.y > solo.y && tutorial.height < 60, 'the tutorial is a line further down');
    assert.equal(await page.getAttribute('[data-testid=tutorial-link]', 'href'), '/tutorial');
    await screenshot(page, 'home-returning-en');
    assert.deepEqual(errors, []);
  });

  test('the rules in English and German: contents, sections, pictures', async (t) => {
    for (const [locale, words] of [['en-US', EN], ['de-DE', DE]]) {
      const lang = locale.slice(0, 2);
      const browser = await launchBrowser({ ...WIDE, locale });
      t.after(() => browser.close());
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await open(page, server.url, '/rules', '[data-testid=rules] figure svg');
      await screenshot(page, `rules-${lang}`);
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      assert.equal(await page.title(), words['rules.doc.title']);
      assert.equal(await page.textContent('h1'), words['rules.title']);
      assert.equal(await page.getAttribute('[data-testid=nav-rules]', 'aria-current'), 'page');
      // The contents link every section, in order.
      const toc = await page.locator('.toc a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
      assert.deepEqual(toc, SECTIONS.map((id) => [`#${id}`, words[`rules.${id}.title`]]));
      for (const id of SECTIONS) assert.equal(await page.textContent(`section#${id} h2`), words[`rules.${id}.title`]);
      // Pictures drawn with the page's own tiles: values, elements, turning, a turn in three
      // steps, Cacophony, the intermezzo.
      assert.ok(await page.locator('figure').count() >= 6);
      assert.equal(await page.locator('.turn-steps .example-display').count(), 3);
      assert.ok(await page.locator('.turn-steps g.tile').count() >= 9);
      // The goals: 75, 60, 45.
      assert.deepEqual(await page.locator('table.goals td').allTextContents(), [75, 60, 45].map((n) => words['rules.fig.points'].other.replace('{count}', n)));
      // A contents link goes to its section without drawing the page anew.
      await page.evaluate(() => { document.querySelector('[data-testid=rules]').dataset.mark = 'same'; });
      await page.click('.toc a[href="#intermezzo"]');
      await page.waitForFunction(() => Math.abs(document.getElementById('intermezzo').getBoundingClientRect().top) < 40);
      assert.equal(await page.getAttribute('[data-testid=rules]', 'data-mark'), 'same');
      assert.equal(new URL(page.url()).hash, '#intermezzo');
      // An address with a section opens there.
      await page.goto(`${server.url}/rules#cacophony`);
      await page.waitForFunction(() => {
        const s = document.getElementById('cacophony');
        return s && Math.abs(s.getBoundingClientRect().top) < 40;
      });
      assert.deepEqual(errors, []);
    }
  });

  test('the German rules use the German edition\'s terms', async (t) => {
    const browser = await launchBrowser({ ...WIDE, locale: 'de-DE' });
    t.after(() => browser.close());
    const page = await browser.newPage();
    await open(page, server.url, '/rules', '[data-testid=rules]');
    const text = await page.textContent('[data-testid=rules]');
    for (const term of ['Naturgeistplättchen', 'Klangscheiben', 'Missklangscheiben', 'Harmonieleiste', 'Auslage', 'Angebot', 'Nachziehstapel', 'Intermezzo', 'Startspieler']) {
      assert.ok(text.includes(term), term);
    }
    // The offer is "das Angebot" throughout; "Auslage" is only a player's own.
    assert.doesNotMatch(text, /offene Auslage|der Auslage liegt|aus der Auslage/);
  });

  test('the about page in English and German', async (t) => {
    for (const [locale, words] of [['en-US', EN], ['de-DE', DE]]) {
      const lang = locale.slice(0, 2);
      const browser = await launchBrowser({ ...WIDE, locale });
      t.after(() => browser.close());
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await open(page, server.url, '/about', '[data-testid=about]');
      await page.waitForSelector('.emblems svg').catch(() => {});
      await screenshot(page, `about-${lang}`);
      assert.equal(await page.textContent('h1'), words['about.title']);
      assert.equal(await page.title(), words['about.doc.title']);
      const text = await page.textContent('[data-testid=about]');
      assert.ok(text.includes('Uwe Rosenberg'));
      assert.ok(text.includes(words['about.art.p1']));
      const api = page.locator('[data-testid=openapi-link]');
      assert.equal(await api.getAttribute('href'), '/api/openapi.json');
      assert.equal(await api.textContent(), words['about.code.api']);
      assert.deepEqual(errors, []);
    }
    // The API link leaves the page for the document itself.
    const browser = await launchBrowser(WIDE);
    t.after(() => browser.close());
    const page = await browser.newPage();
    await open(page, server.url, '/about', '[data-testid=about]');
    const [response] = await Promise.all([page.waitForNavigation(), page.click('[data-testid=openapi-link]')]);
    assert.equal(response.status(), 200);
    assert.equal(JSON.parse(await response.text()).openapi.split('.')[0], '3');
  });

  test('on a phone: no sideways scrolling, selects whole', async (t) => {
    for (const locale of ['en-US', 'de-DE']) {
      const lang = locale.slice(0, 2);
      const browser = await launchBrowser({ ...PHONE, locale });
      t.after(() => browser.close());
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await open(page, server.url, '/', '[data-testid=solo-variant]');
      await page.waitForSelector('.hero-tiles svg');
      await page.selectOption('[data-testid=players]', '4');
      await screenshot(page, `home-phone-${lang}`);
      assert.equal(await overflow(page), 0, 'home');
      assert.deepEqual(await clippedOptions(page), []);
      // The bar's links and the switch each stay on one line.
      const heights = await page.locator('.site-nav a, .lang-switch button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
      assert.ok(heights.every((hgt) => hgt < 45), JSON.stringify(heights));
      for (const path of ['/rules', '/about']) {
        await open(page, server.url, path, 'article');
        await page.waitForLoadState('networkidle');
        if (path === '/rules') await screenshot(page, `rules-phone-${lang}`);
        assert.equal(await overflow(page), 0, path);
      }
      assert.deepEqual(errors, []);
    }
  });

  test('every word on these pages comes from the catalogues', async (t) => {
    const browser = await launchBrowser(WIDE);
    t.after(() => browser.close());
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/healthz`);
    await page.evaluate(() => localStorage.setItem('sagani.lang', 'qps'));
    for (const [path, ready] of [['/', '.hero-tiles svg'], ['/rules', '[data-testid=rules] figure svg'], ['/about', '[data-testid=about]']]) {
      await open(page, server.url, path, ready);
      await page.waitForLoadState('networkidle');
      const loose = await page.evaluate(() => {
        const out = [];
        const ok = (s) => !s || /^[\s\d·.,:;()\-–—→°+−]*$/.test(s) || /^\s*⟦[^]*⟧\s*$/.test(s);
        const walker = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          // Inside a picture, only words matter (the tiles' values are numbers).
          if (!ok(n.textContent)) out.push(`text "${n.textContent}" in <${n.parentElement.tagName.toLowerCase()}>`);
        }
        for (const el of document.getElementById('app').querySelectorAll('[aria-label], [title], option')) {
          for (const attr of ['aria-label', 'title']) {
            const v = el.getAttribute(attr);
            if (v !== null && !ok(v)) out.push(`${attr} "${v}" on <${el.tagName.toLowerCase()}>`);
          }
        }
        return out;
      });
      // The name of the game and the languages' own names are the same in every language, but
      // they come from the catalogue too; the example tiles' titles are draw.js's.
      assert.deepEqual(loose.filter((s) => !/in <title>/.test(s)), [], path);
    }
    assert.deepEqual(errors, []);
  });

  test('a mistyped address shows "no such page"', async (t) => {
    const browser = await launchBrowser(WIDE);
    t.after(() => browser.close());
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/rulez`);
    assert.equal(response.status(), 404);
    if (!/text\/html/.test(response.headers()['content-type'] || '')) {
      t.skip('the server answers unknown paths with JSON, not yet with the page');
      return;
    }
    await page.waitForSelector('[data-testid=no-such-page]');
    assert.ok((await page.textContent('[data-testid=no-such-page]')).includes(EN['page.missing']));
    // Dressed like every other page: the site's bar, a heading of the page's type, a way home.
    assert.equal(await page.locator('header.site-bar').count(), 1);
    assert.equal(await page.textContent('.page h1'), EN['page.missing.title']);
    assert.equal(await page.title(), EN['page.missing.doc.title']);
    assert.equal(await page.getAttribute('[data-testid=missing-home]', 'href'), '/');
  });

  test('axe-core: nothing serious or critical on home, rules and about, in both languages', async (t) => {
    for (const locale of ['en-US', 'de-DE']) {
      // bypassCSP: the page's policy allows no inline script, and axe is injected as one.
      const browser = await launchBrowser({ ...WIDE, locale, bypassCSP: true });
      t.after(() => browser.close());
      const page = await browser.newPage();
      for (const [path, ready] of [['/', '.hero-tiles svg'], ['/rules', '[data-testid=rules] figure svg'], ['/about', '[data-testid=about]']]) {
        await open(page, server.url, path, ready);
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await axe(page), [], `${locale} ${path}`);
      }
      // A phone's layout too.
      const phone = await launchBrowser({ ...PHONE, locale, bypassCSP: true });
      t.after(() => phone.close());
      const small = await phone.newPage();
      for (const path of ['/', '/rules']) {
        await open(small, server.url, path, path === '/' ? '.hero-tiles svg' : '[data-testid=rules] figure svg');
        await small.waitForLoadState('networkidle');
        assert.deepEqual(await axe(small), [], `${locale} ${path} on a phone`);
      }
    }
  });
});
