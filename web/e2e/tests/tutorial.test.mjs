// The interactive tutorial: played to its end by following the coach, in English and in German;
// a placement off the script; and the coach on its own (called in the page, without the table),
// so that its part is tested even while the table changes.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, launchBrowser, screenshot, startServer, watchErrors } from '../lib.mjs';

const SCRIPT = JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'tutorial.json'), 'utf8'));
const CATALOGUE = {
  en: JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'i18n', 'en.json'), 'utf8')),
  de: JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'i18n', 'de.json'), 'utf8')),
};
const PLACES = SCRIPT.steps.filter((s) => s.kind === 'place');
const LAST = PLACES[PLACES.length - 1].expect;

/// The words a step's message starts with, before its first parameter.
function opening(lang, key, count = 1) {
  let m = CATALOGUE[lang][key];
  assert.ok(m, `${key} is in ${lang}.json`);
  if (typeof m === 'object') m = count === 1 ? m.one : m.other;
  return m.split('{')[0];
}

const coachStep = async (page) => page.getAttribute('[data-testid=coach]', 'data-step');
const tableVersion = async (page) => Number(await page.getAttribute('[data-testid=table]', 'data-version'));

/// Places the tile where the coach says, as a person does: the highlighted cell, turns, ✓.
async function placeAsCoached(page, step) {
  const before = await tableVersion(page);
  const cell = page.locator(`[data-testid=display-0] rect.cell[data-cell="${step.x},${step.y}"]`);
  await cell.waitFor();
  assert.ok((await cell.getAttribute('class')).includes('coach-target'), `the table highlights ${step.x},${step.y}`);
  await cell.click();
  const move = async () => JSON.parse((await page.getAttribute('[data-testid=preview]', 'data-move')) || 'null');
  await page.waitForFunction(() => document.querySelector('[data-testid=preview]')?.dataset.move);
  for (let turns = 0; (await move()).rot !== step.rot; turns++) {
    assert.ok(turns < 4, 'four turns come back to the start');
    const rot = (await move()).rot;
    await page.click('[data-testid=rotate-right]');
    await page.waitForFunction((r) => {
      const m = document.querySelector('[data-testid=preview]')?.dataset.move;
      return m && JSON.parse(m).rot !== r;
    }, rot);
  }
  assert.deepEqual(await move(), { action: 'place', tile: step.tile, x: step.x, y: step.y, rot: step.rot });
  await page.click('[data-testid=confirm]');
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid=table]')?.dataset.version) > v, before);
}

/// Plays the tutorial at `page` (already at its table) to its end; checks the coach's words.
async function followTheCoach(page, lang) {
  const seen = new Set();
  for (let guard = 0; guard < SCRIPT.steps.length + 2; guard++) {
    await page.waitForSelector('[data-testid=coach]:not([data-kind=loading])');
    if (await page.locator('[data-testid=tutorial-done]').count()) return seen;
    const index = Number(await coachStep(page));
    const step = SCRIPT.steps[index];
    assert.ok(step, `the coach is at step ${index}`);
    const text = await page.textContent('[data-testid=coach-text]');
    assert.ok(!seen.has(text), `step ${index} says something new: ${text}`);
    seen.add(text);
    if (step.kind === 'card') {
      assert.equal(text, CATALOGUE[lang][step.text], `card ${step.text} in ${lang}`);
      await page.click('[data-testid=coach-next]');
    } else {
      assert.ok(text.startsWith(opening(lang, step.text, step.expect.cacophony)), `${step.text} in ${lang}: ${text}`);
      assert.ok(!/\{\w+\}|⚠/.test(text), `every parameter filled in: ${text}`);
      if (step.expect.cacophony) await screenshot(page, `tutorial-cacophony-${lang}`);
      const outcome = await page.textContent('[data-testid=coach-outcome]');
      assert.ok(outcome.includes(String(step.expect.score_after)), outcome);
      await placeAsCoached(page, step);
    }
    await page.waitForFunction((i) => document.querySelector('[data-testid=coach]')?.dataset.step !== String(i), index);
  }
  assert.fail('the tutorial did not end');
}

describe('the tutorial', () => {
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  for (const [lang, locale] of [['en', 'en-GB'], ['de', 'de-DE']]) {
    test(`played to its end by following the coach (${lang})`, async () => {
      const browser = await launchBrowser({ locale, viewport: { width: 1400, height: 900 } });
      try {
        const page = browser.pages()[0];
        const errors = watchErrors(page);
        await page.goto(`${server.url}/tutorial`);
        await page.waitForSelector('[data-testid=table]');
        assert.match(new URL(page.url()).pathname, /^\/games\/[0-9a-f]+$/);
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        const game = new URL(page.url()).pathname.split('/')[2];
        const entry = await page.evaluate((g) => JSON.parse(localStorage.getItem('sagani.games')).find((e) => e.game === g), game);
        assert.equal(entry.tutorial, true);

        const seen = await followTheCoach(page, lang);
        assert.equal(seen.size, SCRIPT.steps.length, 'every step was shown once');
        if (lang === 'en') await screenshot(page, 'tutorial-done');
        assert.equal(await page.textContent('[data-testid=coach] .coach-title'), CATALOGUE[lang]['tutorial.done.title']);
        for (const [testid, href] of [['tutorial-home', '/'], ['tutorial-rules', '/rules']]) {
          assert.equal(await page.getAttribute(`[data-testid=${testid}]`, 'href'), href);
        }
        assert.equal(await page.locator('[data-testid=tutorial-play]').count(), 1);
        const state = await (await fetch(`${server.url}/api/games/${game}`)).json();
        assert.equal(state.version, PLACES.length);
        assert.equal(state.view.seats[0].score, LAST.score_after);
        assert.equal(state.view.seats[0].cacophony, PLACES.reduce((n, s) => n + s.expect.cacophony, 0));
        assert.equal(state.status, 'playing', 'the game goes on after the tutorial');
        if (lang === 'en') {
          // A real game from here: a new solo game, without a coach.
          await page.click('[data-testid=tutorial-play]');
          await page.waitForFunction((g) => /^\/games\/[0-9a-f]+$/.test(location.pathname) && !location.pathname.endsWith(g), game);
          await page.waitForSelector('[data-testid=table][data-my-turn=true]');
          assert.equal(await page.locator('[data-testid=coach]').count(), 0);
        } else {
          // Hidden, the coach stays away, also after a reload.
          await page.click('[data-testid=coach-hide]');
          await page.waitForSelector('[data-testid=coach]', { state: 'detached' });
          await page.reload();
          await page.waitForSelector('[data-testid=table][data-my-turn=true]');
          assert.equal(await page.locator('[data-testid=coach]').count(), 0);
        }
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });
  }

  test('a placement off the script: the coach says so and offers a new start', async () => {
    const browser = await launchBrowser({ locale: 'en-GB', viewport: { width: 1400, height: 900 } });
    try {
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.goto(`${server.url}/tutorial`);
      await page.waitForSelector('[data-testid=coach][data-kind=card]');
      const first = new URL(page.url()).pathname;
      await page.click('[data-testid=coach-next]');
      await page.waitForSelector('[data-testid=coach][data-kind=place]');
      await placeAsCoached(page, PLACES[0]);
      // The second tile goes below the first instead of above it.
      await page.waitForSelector(`[data-testid=coach][data-step="${SCRIPT.steps.indexOf(PLACES[1])}"]`);
      const before = await tableVersion(page);
      await page.locator('[data-testid=display-0] rect.cell[data-cell="0,1"]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid=preview]')?.dataset.move);
      await page.click('[data-testid=confirm]');
      await page.waitForFunction((v) => Number(document.querySelector('[data-testid=table]')?.dataset.version) > v, before);
      await page.waitForSelector('[data-testid=coach][data-kind=off]');
      const info = (await (await fetch(`${server.url}/api/tiles`)).json()).tiles.find((t) => t.id === PLACES[1].tile);
      const name = CATALOGUE.en['tile.name'].replace('{element}', CATALOGUE.en[`element.${info.element}`]).replace('{value}', info.value);
      assert.equal(await page.textContent('[data-testid=coach-text]'), CATALOGUE.en['tutorial.off.text'].replace('{tile}', name));
      assert.equal(await page.locator('rect.cell.coach-target').count(), 0, 'no cell is suggested any more');
      // Start again: a new game, at the first card.
      await page.click('[data-testid=coach-restart]');
      await page.waitForFunction((p) => /^\/games\/[0-9a-f]+$/.test(location.pathname) && location.pathname !== p, first);
      await page.waitForSelector('[data-testid=coach][data-step="0"][data-kind=card]');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test('the coach on its own, called in the page for every step of a tutorial game (every word from the catalogue)', async () => {
    const browser = await launchBrowser({ locale: 'en-GB' });
    // The pseudo-language: English with every message in ⟦ ⟧, so a word from elsewhere shows.
    await browser.addInitScript(() => localStorage.setItem('sagani.lang', 'qps'));
    try {
      const page = browser.pages()[0];
      const errors = watchErrors(page);
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => !document.querySelector('#app > p.loading'));
      const log = await page.evaluate(async () => {
        const { coach } = await import('/assets/tutorial.js');
        const { api, tiles: loadTiles } = await import('/assets/api.js');
        const tiles = await loadTiles();
        const created = await api('POST', '/api/games', { body: { seats: [{ kind: 'human' }], tutorial: true } });
        const { token } = await api('POST', `/api/games/${created.game}/join`, { body: { invite: created.invites[0].code } });
        const entry = { game: created.game, tutorial: true, tutorialStep: 0 };
        const out = [];
        let renders = 0;
        for (let guard = 0; guard < 40; guard++) {
          const state = await api('GET', `/api/games/${created.game}`, { token });
          let c = coach({ state, tiles, entry, rerender: () => renders++, save: (f) => Object.assign(entry, f) });
          if (c.panel.dataset.kind === 'loading') {
            await new Promise((r) => setTimeout(r, 300));
            c = coach({ state, tiles, entry, rerender: () => renders++, save: (f) => Object.assign(entry, f) });
          }
          const p = c.panel;
          let rest = p.textContent;
          for (let before = null; before !== rest;) {
            before = rest;
            rest = rest.replace(/⟦[^⟦⟧]*⟧/gu, '');
          }
          out.push({ unmarked: rest.trim(), kind: p.dataset.kind, step: p.dataset.step, testid: p.dataset.testid, cls: p.className, text: p.querySelector('[data-testid=coach-text]')?.textContent, target: c.target, done: !!p.querySelector('[data-testid=tutorial-done]') });
          if (p.dataset.kind === 'done') break;
          if (p.dataset.kind === 'card') p.querySelector('[data-testid=coach-next]').click();
          else if (p.dataset.kind === 'place') {
            const { x, y, rot, tile } = c.target;
            await api('POST', `/api/games/${created.game}/moves`, { token, body: { version: state.version, move: { action: 'place', tile, x, y, rot } } });
          } else break;
        }
        // Another game's table gets no coach.
        const other = coach({ state: await api('GET', `/api/games/${created.game}`, { token }), tiles, entry: { game: 'x' }, rerender() {}, save() {} });
        return { out, renders, other, entry };
      });
      assert.equal(log.other, null);
      assert.equal(log.out.length, SCRIPT.steps.length + 1);
      for (const [i, step] of SCRIPT.steps.entries()) {
        const o = log.out[i];
        assert.ok(!/\p{L}/u.test(o.unmarked), `every word comes from the catalogue: ${o.unmarked}`);
        assert.equal(o.testid, 'coach');
        assert.ok(o.cls.split(' ').includes('coach'));
        assert.equal(o.kind, step.kind, `step ${i}`);
        assert.equal(Number(o.step), i);
        if (step.kind === 'place') {
          assert.deepEqual(o.target, { x: step.x, y: step.y, rot: step.rot, tile: step.tile });
          assert.ok(o.text.startsWith(`⟦${opening('en', step.text, step.expect.cacophony)}`), o.text);
        } else {
          assert.equal(o.target, null);
          assert.equal(o.text, `⟦${CATALOGUE.en[step.text]}⟧`);
        }
      }
      assert.equal(new Set(log.out.map((o) => o.text)).size, log.out.length, 'every step says something new');
      const done = log.out[log.out.length - 1];
      assert.ok(done.done && done.kind === 'done' && done.target === null);
      assert.equal(done.text, `⟦${CATALOGUE.en['tutorial.done.text']}⟧`);
      assert.equal(log.entry.tutorialStep, SCRIPT.steps.length, 'the cards read are remembered');
      assert.ok(log.renders >= SCRIPT.steps.filter((s) => s.kind === 'card').length);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
