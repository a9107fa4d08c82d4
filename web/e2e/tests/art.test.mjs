// The tile art keeps its pieces apart: no arrow (its head, its white halo, a disc on it) touches
// the value plaque, on any of the 72 tiles, in any turn, covered or not, as Chromium draws it.
// And it is the art it means to be: each element's tile has its own spirit and texture, an
// unfinished face is as vivid as the element's colour and a finished back stays apart from it,
// arrows are shapes of their element pointing their way with the letter on them, a Cacophony
// disc differs from a Sound disc in shape, and an empty display invites its first tile to its
// start cell (in a real game too).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer, watchErrors } from '../lib.mjs';
import { createGame } from '../play.mjs';

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
  /// A page of the site with draw.js and the tile table loaded, for drawing in.
  async function drawingPage() {
    const browser = await launchBrowser({ viewport: { width: 800, height: 600 } });
    const page = browser.pages()[0];
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.hero-tiles svg');
    return { browser, page, errors };
  }

  test('each element has its own spirit and texture; faces are vivid, backs stay apart', async () => {
    const { browser, page, errors } = await drawingPage();
    const found = await page.evaluate(async () => {
      const draw = await import('/assets/draw.js');
      const { tiles } = await import('/assets/api.js');
      const table = Object.values(await tiles());
      const host = document.body.appendChild(document.createElement('div'));
      const out = {};
      for (const el of draw.ELEMENT_ORDER) {
        const info = table.find((x) => x.element === el);
        const front = draw.tileSvg(info, { size: 64 });
        const back = draw.tileSvg(info, { size: 64, back: true });
        host.replaceChildren(front, back);
        const spirit = front.querySelector('.tile-face .spirit');
        const texture = front.querySelector('.tile-face .texture');
        out[el] = {
          spirit: spirit?.dataset.spirit,
          body: spirit?.querySelector('.spirit-body')?.getAttribute('d'),
          eyes: Boolean(spirit?.querySelector('.spirit-eyes')),
          texture: texture?.dataset.texture,
          textureD: texture?.getAttribute('d'),
          // The spirit is drawn big enough to be seen: its body's size in tile units.
          spiritSize: spirit ? Math.min(spirit.querySelector('.spirit-body').getBBox().width, spirit.querySelector('.spirit-body').getBBox().height) : 0,
          front: getComputedStyle(front.querySelector('.tile-body')).fill,
          back: getComputedStyle(back.querySelector('.tile-body')).fill,
          backSpirit: Boolean(back.querySelector('.spirit')),
        };
      }
      host.remove();
      return out;
    });
    const rgb = (s) => s.match(/\d+/g).slice(0, 3).map(Number);
    const hsl = ([r, g, b]) => {
      const [max, min] = [Math.max(r, g, b) / 255, Math.min(r, g, b) / 255];
      const l = (max + min) / 2;
      return { s: max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1)), l };
    };
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const [el, f] of Object.entries(found)) {
      assert.equal(f.spirit, el, `${el}: the tile shows its spirit`);
      assert.ok(f.eyes, `${el}: the spirit has a face`);
      assert.ok(f.spiritSize >= 30, `${el}: the spirit is ${f.spiritSize} units, at least 30 of the tile's 100`);
      assert.equal(f.texture, el, `${el}: the tile has its texture`);
      const { s, l } = hsl(rgb(f.front));
      assert.ok(s >= 0.5 && l <= 0.7, `${el}: the unfinished face ${f.front} is vivid (saturation ${s.toFixed(2)}, lightness ${l.toFixed(2)})`);
      const [a, b] = [lum(f.front), lum(f.back)].sort((x, y) => y - x);
      assert.ok((a + 0.05) / (b + 0.05) >= 1.8, `${el}: the finished back ${f.back} stands apart from the face ${f.front}`);
      assert.ok(!f.backSpirit, `${el}: the back shows no spirit`);
    }
    const distinct = (key) => new Set(Object.values(found).map((f) => f[key])).size;
    assert.equal(distinct('body'), 4, 'four spirits of four shapes');
    assert.equal(distinct('textureD'), 4, 'four textures of four shapes');
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('arrows are shapes of their element, point their way and carry the letter', async () => {
    const { browser, page, errors } = await drawingPage();
    const { wrong, shapes, count } = await page.evaluate(async () => {
      const draw = await import('/assets/draw.js');
      const { tiles } = await import('/assets/api.js');
      const table = Object.values(await tiles());
      const want = { fire: 'flame', water: 'drop', earth: 'flint', air: 'gust' };
      const step = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };
      const host = document.body.appendChild(document.createElement('div'));
      const wrong = [];
      const shapes = {};
      let count = 0;
      for (const info of table) {
        for (let rot = 0; rot < 4; rot++) {
          const s = draw.tileSvg(info, { rot, size: 100 });
          host.replaceChildren(s);
          for (const arrow of s.querySelectorAll('g.arrow')) {
            count++;
            const el = arrow.dataset.element;
            const head = arrow.querySelector('.arrow-head');
            const letter = arrow.querySelector('.arrow-letter');
            (shapes[el] ||= new Set()).add(arrow.dataset.shape);
            if (!arrow.classList.contains(`arrow-${want[el]}`) || !head.classList.contains(`shape-${want[el]}`)) wrong.push(`tile ${info.id}: ${el} arrow is not a ${want[el]}`);
            if (letter?.textContent !== draw.ELEMENTS[el].letter) wrong.push(`tile ${info.id}: ${el} arrow's letter is ${letter?.textContent}`);
            // Points its way: along its direction, the outline reaches much farther ahead of the
            // letter than behind it.
            const [dx, dy] = step[arrow.dataset.direction];
            const k = Math.hypot(dx, dy);
            const lb = letter.getBBox();
            const [cx, cy] = [lb.x + lb.width / 2, lb.y + lb.height / 2];
            let ahead = -Infinity, behind = Infinity;
            const len = head.getTotalLength();
            for (let i = 0; i <= 200; i++) {
              const p = head.getPointAtLength((len * i) / 200);
              const along = ((p.x - cx) * dx + (p.y - cy) * dy) / k;
              ahead = Math.max(ahead, along);
              behind = Math.min(behind, along);
            }
            if (ahead < 1.4 * -behind) wrong.push(`tile ${info.id} turn ${rot}: ${el} arrow ${arrow.dataset.direction} reaches ${ahead.toFixed(1)} ahead, ${(-behind).toFixed(1)} behind`);
          }
        }
      }
      host.remove();
      return { wrong, count, shapes: Object.fromEntries(Object.entries(shapes).map(([k, v]) => [k, [...v]])) };
    });
    assert.ok(count > 72 * 4, `${count} arrows drawn`);
    assert.deepEqual(shapes, { fire: ['flame'], water: ['drop'], earth: ['flint'], air: ['gust'] });
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} arrows wrong`);
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('a Cacophony disc differs from a Sound disc in shape, not only in colour', async () => {
    const { browser, page, errors } = await drawingPage();
    const found = await page.evaluate(async () => {
      const draw = await import('/assets/draw.js');
      const { tiles } = await import('/assets/api.js');
      const table = Object.values(await tiles());
      const info = table.find((x) => x.rotations[0].length >= 3);
      const arrows = info.rotations[0].map((a) => ({ ...a, covered: true }));
      const s = draw.tileSvg(info, { size: 100 });
      // All arrows covered, one disc on the vessel; two Cacophony discs: the vessel's and one
      // on an arrow.
      s.replaceChildren(draw.tileGroup(info, { arrows, discs: 1, cacophony: 2, seatColor: draw.SEAT_COLORS[0] }));
      document.body.append(s);
      // Points on a circle just inside the disc's rim: all in a round disc, some outside a
      // spiky one (between its spikes).
      const outline = (g) => {
        const body = g.querySelector('.disc-body');
        const b = body.getBBox();
        const [cx, cy, r] = [b.x + b.width / 2, b.y + b.height / 2, Math.max(b.width, b.height) / 2];
        let outside = 0;
        for (let i = 0; i < 90; i++) {
          const a = (i / 90) * 2 * Math.PI;
          if (!body.isPointInFill(new DOMPoint(cx + 0.88 * r * Math.cos(a), cy + 0.88 * r * Math.sin(a)))) outside++;
        }
        return { outside, crack: Boolean(g.querySelector('.disc-crack')) };
      };
      const kinds = (sel) => [...s.querySelectorAll(sel)].map((g) => ({ kind: g.dataset.kind, ...outline(g) }));
      const out = { arrows: kinds('g.arrow .disc'), vessel: kinds('.vessel-disc') };
      s.remove();
      return out;
    });
    const all = [...found.arrows, ...found.vessel];
    assert.deepEqual(found.vessel.map((d) => d.kind), ['cacophony'], 'the vessel holds the Cacophony disc');
    assert.equal(found.arrows.filter((d) => d.kind === 'cacophony').length, 1, 'one Cacophony disc on an arrow');
    assert.ok(found.arrows.some((d) => d.kind === 'sound'), 'Sound discs on the other arrows');
    for (const d of all) {
      if (d.kind === 'sound') assert.equal(d.outside, 0, 'a Sound disc is round');
      else {
        assert.ok(d.outside >= 20, `a Cacophony disc is spiky: ${d.outside} of 90 points inside its rim are between its spikes`);
        assert.ok(d.crack, 'a Cacophony disc carries its crack');
      }
    }
    assert.deepEqual(errors, []);
    await browser.close();
  });

  test('an empty display shows its start cell with an invitation', async () => {
    const { browser, page, errors } = await drawingPage();
    const found = await page.evaluate(async () => {
      const { t } = await import('/assets/i18n.js');
      const { displaySvg } = await import('/assets/draw-display.js');
      const { tiles } = await import('/assets/api.js');
      const table = await tiles();
      const tile = Object.values(table)[0];
      const clicked = [];
      const out = {};
      for (const placing of [false, true]) {
        const root = displaySvg({ display: [] }, table, {
          cellPx: 160, placing: placing ? { tile, rot: 0, legal: new Set(['0,0']), chosen: null } : null, onCell: (x, y, legal) => clicked.push([x, y, legal]),
        });
        document.body.replaceChildren(root);
        const start = root.querySelector('.start-cell');
        const box = start?.getBoundingClientRect();
        const svgBox = root.getBoundingClientRect();
        // What a click in the middle of the start cell lands on.
        const hit = box && document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        hit?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        out[placing ? 'placing' : 'waiting'] = {
          words: start?.querySelector('.start-words')?.textContent ?? null,
          want: t(placing ? 'draw.start.here' : 'draw.start.cell'),
          // In the middle of the display's origin cell (the display is that one cell, or the
          // middle of the 3×3 drawn while placing).
          middle: box ? [(box.x + box.width / 2 - svgBox.x) / svgBox.width, (box.y + box.height / 2 - svgBox.y) / svgBox.height].map((v) => Math.round(v * 100) / 100) : null,
          size: box ? Math.round(box.width / (svgBox.width / (placing ? 3 : 1)) * 100) / 100 : 0,
          hit: hit?.getAttribute('data-cell') ?? null,
        };
      }
      return { out, clicked };
    });
    for (const [when, f] of Object.entries(found.out)) {
      assert.equal(f.words, f.want, `${when}: the start cell invites the first tile`);
      assert.deepEqual(f.middle, [0.5, 0.5], `${when}: the start cell is the origin, in the middle`);
      assert.ok(f.size >= 0.85, `${when}: the start cell fills its cell (${f.size})`);
    }
    assert.equal(found.out.placing.hit, '0,0', 'a click on the invitation reaches the cell under it');
    assert.deepEqual(found.clicked, [[0, 0, true]], 'and places the tile there');
    // In a real game: every display starts empty, mine invites my first tile.
    const game = await browser.newPage();
    const gameErrors = watchErrors(game);
    await createGame(game, server.url, ['bot:random']);
    const starts = game.locator('.display-svg .start-cell');
    await starts.first().waitFor();
    assert.match(await starts.first().textContent(), /first tile/);
    assert.deepEqual(errors, []);
    assert.deepEqual(gameErrors, []);
    await browser.close();
  });
});
