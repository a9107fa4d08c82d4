// The colour check: can every player tell the seats apart, from each other, from the Cacophony
// red and from the four element colours their discs lie on, whatever their colour vision?
//
// Each colour of web/colours.js is seen as a person with normal vision sees it and as people
// with the three common colour-vision deficiencies see it (protanopia, deuteranopia, tritanopia:
// the full-strength simulation of Machado, Oliveira and Fernandes, 2009, applied in linear RGB),
// and every pair that must differ is measured by CIEDE2000 (ΔE00) in CIELAB. The check fails
// when a pair comes closer than the minimum below.
//
//   node scripts/colours.mjs          prints the closest pair under each vision, and fails
//                                     (exit 1) when one is below the minimum
// web/e2e/tests/colours.test.mjs runs the same check and the conversions' own tests.

import { CACOPHONY_COLOR, PALETTE, SEAT_COLORS } from '../web/colours.js';

/// ΔE00 under which two colours count as too close. About 10 is where two flat colour patches
/// stop being mistaken at a glance. Discs are small and lie on the element colours, so a seat
/// must stand further apart; the elements are told apart by their letter, their emblem and
/// their texture too, so their own colours may come a little closer.
export const MINIMUM = { seats: 18, elements: 12 };

/// The simulations' matrices (linear RGB to linear RGB), severity 1.
export const VISIONS = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

/// '#rrggbb' to [r, g, b] in 0..1 (sRGB, as written).
export function hexToRgb(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a colour of the form #rrggbb: ${hex}`);
  return [m[1], m[2], m[3]].map((h) => parseInt(h, 16) / 255);
}

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const clamp = (c) => Math.min(1, Math.max(0, c));

/// An sRGB colour as seen under `vision` (one of VISIONS), in sRGB.
export function simulate(rgb, vision) {
  const m = VISIONS[vision];
  const lin = rgb.map(toLinear);
  return m.map((row) => toGamma(clamp(row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2])));
}

/// sRGB (0..1) to CIELAB (D65 white).
export function rgbToLab(rgb) {
  const [r, g, b] = rgb.map(toLinear);
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/// CIEDE2000 colour difference between two CIELAB colours (Sharma, Wu and Dalal, 2005).
export function deltaE2000([l1, a1, b1], [l2, a2, b2]) {
  const rad = Math.PI / 180;
  const c1 = Math.hypot(a1, b1), c2 = Math.hypot(a2, b2);
  const cBar = (c1 + c2) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const a1p = (1 + g) * a1, a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1), c2p = Math.hypot(a2p, b2);
  const hue = (b, a) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(b1, a1p), h2p = hue(b2, a2p);
  const dLp = l2 - l1, dCp = c2p - c1p;
  let dhp = 0;
  if (c1p * c2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((dhp / 2) * rad);
  const lBarp = (l1 + l2) / 2, cBarp = (c1p + c2p) / 2;
  let hBarp = h1p + h2p;
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hBarp /= 2;
    else hBarp = h1p + h2p < 360 ? (hBarp + 360) / 2 : (hBarp - 360) / 2;
  }
  const t = 1 - 0.17 * Math.cos((hBarp - 30) * rad) + 0.24 * Math.cos(2 * hBarp * rad)
    + 0.32 * Math.cos((3 * hBarp + 6) * rad) - 0.2 * Math.cos((4 * hBarp - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hBarp - 275) / 25) ** 2));
  const rc = 2 * Math.sqrt(cBarp ** 7 / (cBarp ** 7 + 25 ** 7));
  const sl = 1 + (0.015 * (lBarp - 50) ** 2) / Math.sqrt(20 + (lBarp - 50) ** 2);
  const sc = 1 + 0.045 * cBarp, sh = 1 + 0.015 * cBarp * t;
  const rt = -Math.sin(2 * dTheta * rad) * rc;
  return Math.sqrt((dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dCp / sc) * (dHp / sh));
}

/// The distance between two '#rrggbb' colours as a person with `vision` sees them.
export function distance(hexA, hexB, vision) {
  const lab = (hex) => rgbToLab(simulate(hexToRgb(hex), vision));
  return deltaE2000(lab(hexA), lab(hexB));
}

/// The pairs that must differ, as [group, name, colour, name, colour] (group 'seats' or
/// 'elements'): seats from each other, from the
/// Cacophony red, and from each element's colour (a seat's disc lies on tiles of every element);
/// and the elements from each other.
export function pairs(colours = { seats: SEAT_COLORS, cacophony: CACOPHONY_COLOR, palette: PALETTE }) {
  const out = [];
  const { seats, cacophony, palette } = colours;
  const elements = Object.entries(palette).map(([el, p]) => [el, p.color]);
  seats.forEach((a, i) => {
    seats.forEach((b, j) => {
      if (j > i) out.push(['seats', `seat ${i + 1}`, a, `seat ${j + 1}`, b]);
    });
    out.push(['seats', `seat ${i + 1}`, a, 'Cacophony', cacophony]);
    for (const [el, c] of elements) out.push(['seats', `seat ${i + 1}`, a, el, c]);
  });
  elements.forEach(([ea, a], i) => {
    elements.forEach(([eb, b], j) => {
      if (j > i) out.push(['elements', ea, a, eb, b]);
    });
  });
  return out;
}

/// The closest pair of each group under each vision:
/// {vision: {seats: {pair: "seat 1 (#…) – fire (#…)", distance}, elements: {…}}}.
export function check(colours) {
  const report = {};
  for (const vision of Object.keys(VISIONS)) {
    const worst = {};
    for (const [group, na, a, nb, b] of pairs(colours)) {
      const d = distance(a, b, vision);
      if (!worst[group] || d < worst[group].distance) worst[group] = { pair: `${na} (${a}) – ${nb} (${b})`, distance: d };
    }
    report[vision] = worst;
  }
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = check();
  let failed = false;
  console.log(`the closest pair under each vision (ΔE00; at least ${MINIMUM.seats} for seats, ${MINIMUM.elements} between elements):`);
  for (const [vision, groups] of Object.entries(report)) {
    for (const [group, { pair, distance: d }] of Object.entries(groups)) {
      const ok = d >= MINIMUM[group];
      if (!ok) failed = true;
      console.log(`  ${vision.padEnd(13)} ${group.padEnd(9)} ${d.toFixed(1).padStart(5)}  ${pair}${ok ? '' : '  TOO CLOSE'}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
