// Motion that tells the story of a move: the tile travels from where it was taken to its cell,
// covered arrows get their discs, a completed tile flips and its points fly to the harmony track,
// score markers move. Nothing moves when the player asked for reduced motion.
//
// Each motion is over within 400 ms of the move being drawn (its delay and its length together):
// it explains the move and is gone before the player's eye moves on. The tile flies first; what
// it causes (discs in web/art.css, the flip, the points, the markers) follows a little later.

const FLY = 300; // a tile's flight
const AFTER = 120; // the wait before a move's consequences (the discs and the flip wait as long, in art.css)
const FOLLOW = 280; // the consequences' own length: AFTER + FOLLOW = 400

export function reduced() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/// Where things are on screen now, to animate from after the table is redrawn.
export function snapshot(root) {
  const sources = new Map();
  for (const el of root.querySelectorAll('[data-source-tile]')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0) sources.set(Number(el.dataset.sourceTile), r);
  }
  const pile = root.querySelector('[data-testid=pile-back]');
  // Where each marker stands on the track, in the track's own units (no layout needed).
  const markers = new Map();
  for (const m of root.querySelectorAll('g.marker')) markers.set(m.dataset.seat, [Number(m.dataset.x), Number(m.dataset.y), m.parentNode.dataset.spaces]);
  return { sources, pile: pile ? pile.getBoundingClientRect() : null, markers };
}

function layer() {
  let l = document.getElementById('motion-layer');
  if (!l) {
    l = document.createElement('div');
    l.id = 'motion-layer';
    l.setAttribute('aria-hidden', 'true');
    document.body.append(l);
  }
  return l;
}

/// Flies a copy of `picture` from rect `from` to the element `to` (hidden until it lands).
/// `end`: `to`'s rect, when the caller measured it already (measuring everything first and then
/// starting every animation lays the page out once, not once per animation).
export function fly(picture, from, to, { delay = 0, end: measured = null } = {}) {
  if (reduced() || !from || !to) return null;
  const end = measured || to.getBoundingClientRect();
  if (end.width === 0 || (Math.abs(end.left - from.left) < 2 && Math.abs(end.top - from.top) < 2)) return null;
  const ghost = picture.cloneNode(true);
  ghost.removeAttribute('id');
  const box = document.createElement('div');
  box.className = 'flight';
  box.append(ghost);
  Object.assign(box.style, { left: `${end.left}px`, top: `${end.top}px`, width: `${end.width}px`, height: `${end.height}px` });
  if (ghost.style) Object.assign(ghost.style, { width: '100%', height: '100%' });
  layer().append(box);
  to.classList.add('landing');
  const dx = from.left - end.left;
  const dy = from.top - end.top;
  const s = from.width / end.width;
  const anim = box.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${s})`, offset: 0 },
    { transform: 'translate(0, 0) scale(1.12)', offset: 0.8 },
    { transform: 'translate(0, 0) scale(1)', offset: 1 },
  ], { duration: FLY, delay, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'backwards' });
  const done = () => {
    box.remove();
    to.classList.remove('landing');
  };
  anim.onfinish = done;
  anim.oncancel = done;
  return anim;
}

/// "+6" rising from a tile to a score marker (`a`, `b`: their rects).
export function points(text, a, b, delay = AFTER) {
  if (reduced() || !a || !b) return;
  if (a.width === 0 || b.width === 0) return;
  const tag = document.createElement('div');
  tag.className = 'flight points';
  tag.textContent = text;
  const x0 = a.left + a.width / 2;
  const y0 = a.top + a.height / 2;
  Object.assign(tag.style, { left: `${x0}px`, top: `${y0}px` });
  layer().append(tag);
  const anim = tag.animate([
    { transform: 'translate(-50%, -50%) scale(0.6)', opacity: 0 },
    { transform: 'translate(-50%, -90%) scale(1.3)', opacity: 1, offset: 0.25 },
    { transform: `translate(calc(${b.left + b.width / 2 - x0}px - 50%), calc(${b.top + b.height / 2 - y0}px - 50%)) scale(0.8)`, opacity: 0.9 },
  ], { duration: FOLLOW, delay, easing: 'ease-in-out', fill: 'both' });
  anim.onfinish = () => tag.remove();
  anim.oncancel = () => tag.remove();
}

/// Where score markers must move from (FLIP: they are drawn at their new place): measured
/// before any animation starts; `moveMarkers` then starts them.
export function measureMarkers(root, before) {
  if (reduced()) return [];
  const moves = [];
  for (const m of root.querySelectorAll('g.marker')) {
    const old = before.get(m.dataset.seat);
    // A track laid out anew (a score below its first space) has other units: no way to fly.
    if (!old || old[2] !== m.parentNode.dataset.spaces) continue;
    const dx = old[0] - Number(m.dataset.x);
    const dy = old[1] - Number(m.dataset.y);
    if (Math.abs(dx) >= 0.5 || Math.abs(dy) >= 0.5) moves.push([m, dx, dy]);
  }
  return moves;
}

export function moveMarkers(moves) {
  for (const [m, dx, dy] of moves) {
    m.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }],
      { duration: FOLLOW, delay: AFTER, easing: 'ease-in-out', fill: 'backwards' });
  }
}

/// Marks what a move changed on a drawn display so its CSS animations run: new discs on
/// arrows, tiles that flipped.
export function marks(svgRoot, { covered = [], flipped = [] }) {
  if (reduced() || !svgRoot) return;
  for (const c of covered) {
    const arrow = svgRoot.querySelector(`g.tile[data-tile="${c.tile}"] g.arrow[data-direction="${c.direction}"]`);
    const disc = arrow && arrow.querySelector('.disc');
    if (disc) disc.classList.add('new');
  }
  for (const id of flipped) {
    const g = svgRoot.querySelector(`g.tile[data-tile="${id}"]`);
    if (g) g.classList.add('flipping');
  }
}

/// A little celebration for a win.
export function confetti(host) {
  if (reduced()) return;
  const colours = ['#d55e00', '#0072b2', '#009e73', '#e69f00', '#cc79a7'];
  const box = document.createElement('div');
  box.className = 'confetti';
  box.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < 40; i++) {
    const p = document.createElement('i');
    p.style.left = `${(i * 37) % 100}%`;
    p.style.background = colours[i % colours.length];
    p.style.animationDelay = `${(i % 10) * 60}ms`;
    p.style.setProperty('--drift', `${((i * 53) % 80) - 40}px`);
    box.append(p);
  }
  host.append(box);
  setTimeout(() => box.remove(), 3200);
}
