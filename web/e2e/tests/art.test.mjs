// The tile art keeps its pieces apart: no arrow (its head, its white halo, a disc on it) touches
// the value plaque, on any of the 72 tiles, in any turn, covered or not, as Chromium draws it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer, watchErrors } from '../lib.mjs';

describe('the tile art', () => {
  let server;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test('no arrow overlaps the value plaque, in any direction', async () => {
    const browser = await launchBrowser({ viewport: { width: 800, height: 600 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.hero-tiles svg');
    const { checked, directions, touching } = await page.evaluate(async () => {
      const draw = await import('/assets/draw.js');
      const { tiles } = await import('/assets/api.js');
      const table = await tiles();
      const touching = [];
      const directions = new Set();
      let checked = 0;
      const host = document.body.appendChild(document.createElement('div'));
      for (const info of Object.values(table)) {
        for (let rot = 0; rot < 4; rot++) {
          for (const covered of [false, true]) {
            // A tile as placed on a display: covered arrows carry a disc.
            const s = draw.tileSvg(info, { rot, size: 100 });
            const arrows = info.rotations[rot].map((a) => ({ ...a, covered }));
            s.replaceChildren(draw.tileGroup(info, { arrows, discs: 0 }));
            host.replaceChildren(s);
            const plaque = s.querySelector('.plaque-body');
            const box = plaque.getBBox();
            // The plaque with its white edge, sampled every half unit.
            const edge = Number(plaque.getAttribute('stroke-width')) / 2;
            const points = [];
            for (let x = box.x - edge; x <= box.x + box.width + edge; x += 0.5) {
              for (let y = box.y - edge; y <= box.y + box.height + edge; y += 0.5) points.push(new DOMPoint(x, y));
            }
            for (const arrow of s.querySelectorAll('g.arrow')) {
              directions.add(arrow.dataset.direction);
              const shapes = [...arrow.querySelectorAll('path, circle')];
              const hit = points.find((p) => shapes.some((el) => el.isPointInFill(p) || (el.getAttribute('stroke') && el.getAttribute('stroke') !== 'none' && el.isPointInStroke(p))));
              if (hit) touching.push(`tile ${info.id} turn ${rot}${covered ? ' covered' : ''}: ${arrow.dataset.direction} at (${hit.x}, ${hit.y})`);
            }
            // The value and the letter stay within the plaque's width.
            for (const label of s.querySelectorAll('.plaque text')) {
              const b = label.getBBox();
              if (b.x < box.x || b.x + b.width > box.x + box.width) touching.push(`tile ${info.id}: "${label.textContent}" leaves the plaque`);
            }
            checked++;
          }
        }
      }
      host.remove();
      return { checked, directions: [...directions].sort(), touching };
    });
    assert.equal(checked, 72 * 4 * 2);
    assert.deepEqual(directions, ['E', 'N', 'NE', 'NW', 'S', 'SE', 'SW', 'W'], 'every direction was drawn');
    assert.deepEqual(touching.slice(0, 10), [], `${touching.length} drawings where an arrow touches the plaque`);
    assert.deepEqual(errors, []);
    await browser.close();
  });
});
