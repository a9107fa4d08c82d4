// The colour check (scripts/colours.mjs) on the page's own colours (web/colours.js): every seat
// stays apart from the others, from the Cacophony red and from the element colours, and the
// elements from each other, for normal vision and under protanopia, deuteranopia and
// tritanopia. And the check's parts are right: CIEDE2000 against its published test pairs, the
// simulations against what they must do, the check against the colours it once caught.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINIMUM, VISIONS, check, deltaE2000, distance, hexToRgb, rgbToLab, simulate } from '../../../scripts/colours.mjs';
import { CACOPHONY_COLOR, PALETTE, SEAT_COLORS } from '../../colours.js';

describe('the colours', () => {
  test('every pair that must differ does, under every vision', () => {
    const report = check();
    assert.deepEqual(Object.keys(report), ['normal', 'protanopia', 'deuteranopia', 'tritanopia']);
    for (const [vision, groups] of Object.entries(report)) {
      for (const group of ['seats', 'elements']) {
        const { pair, distance: d } = groups[group];
        assert.ok(d >= MINIMUM[group], `${vision}: ${pair} are ${d.toFixed(1)} apart, under ${MINIMUM[group]}`);
      }
    }
    // Four seats, four elements: nothing left out of the check.
    assert.equal(SEAT_COLORS.length, 4);
    assert.deepEqual(Object.keys(PALETTE).sort(), ['air', 'earth', 'fire', 'water']);
  });

  test('the check finds the seat colour that vanished on Fire tiles', () => {
    const old = { seats: ['#6a2c91', '#0f7d7d', '#c2571a', '#333333'], cacophony: CACOPHONY_COLOR, palette: PALETTE };
    const report = check(old);
    for (const vision of Object.keys(VISIONS)) {
      assert.match(report[vision].seats.pair, /seat 3 \(#c2571a\) – fire/);
      assert.ok(report[vision].seats.distance < MINIMUM.seats);
    }
  });

  test('CIEDE2000 gives the published values on its test pairs', () => {
    // Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 13, 17, 25 and 34.
    const pairs = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.49, -0.001], [50, -2.49, 0.0011], 7.2195],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
    ];
    for (const [a, b, want] of pairs) {
      assert.ok(Math.abs(deltaE2000(a, b) - want) < 1e-4, `${a} – ${b}: ${deltaE2000(a, b)} not ${want}`);
      assert.ok(Math.abs(deltaE2000(b, a) - want) < 1e-4, 'symmetric');
    }
  });

  test('the conversions: white is L 100, greys stay grey under every simulation', () => {
    const [l, a, b] = rgbToLab(hexToRgb('#ffffff'));
    assert.ok(Math.abs(l - 100) < 0.01 && Math.abs(a) < 0.01 && Math.abs(b) < 0.01, `white is ${l} ${a} ${b}`);
    for (const vision of Object.keys(VISIONS)) {
      for (const grey of ['#000000', '#787878', '#ffffff']) {
        const seen = simulate(hexToRgb(grey), vision);
        const want = hexToRgb(grey);
        seen.forEach((c, i) => assert.ok(Math.abs(c - want[i]) < 0.01, `${grey} under ${vision}: ${seen}`));
      }
    }
    assert.throws(() => hexToRgb('red'), /#rrggbb: red/);
  });

  test('the simulations lose what each deficiency loses', () => {
    // Red against olive green: far apart for normal vision, one colour under deuteranopia, much
    // closer under protanopia (which also darkens the red) and still apart under tritanopia.
    const [red, green] = ['#d03a2a', '#6b8e23'];
    assert.ok(distance(red, green, 'normal') > 40);
    assert.ok(distance(red, green, 'deuteranopia') < 5, `${distance(red, green, 'deuteranopia')}`);
    assert.ok(distance(red, green, 'protanopia') < distance(red, green, 'normal') / 2);
    assert.ok(distance(red, green, 'tritanopia') > 40);
    // Blue against sea green: tritanopia loses most of it, the others keep it.
    const [blue, teal] = ['#3b6fd0', '#3a9a70'];
    assert.ok(distance(blue, teal, 'tritanopia') < distance(blue, teal, 'deuteranopia') / 2);
  });
});
