// Sounds at the table, made here and now with the Web Audio API (no audio files): a soft wooden
// knock for a tile put down, a chime for a completed tile, two gentle notes for your turn, a
// double bell for the final round and a short rising run for the end of the game.
//
// Sound is off until the player turns it on with the bar's speaker button (browsers let a page
// sound only after a tap), and the choice is kept on this device. The AudioContext is made only
// in a tap's handler. A browser without Web Audio stays silent and the page works as ever.
//
// story(prev, now, you)   what a change of state sounds like: names from SOUNDS
// play(names)             plays them one after the other, when sound is on
// soundOn(), setSound(on) the player's choice
// soundButton()           the bar's speaker: turns sound on and off (aria-pressed)

import { h } from './dom.js';
import { svg } from './draw.js';
import { t } from './i18n.js';

const KEY = 'sagani.sound';

/// Each sound is a few notes: start (s), frequency (Hz, sliding to `to`), length (s), peak gain,
/// wave; `noise` is a burst of filtered noise instead of a tone (the click of wood). Every
/// sound ends before 0.6 s, and the loudest note stays well below full scale.
export const SOUNDS = {
  placed: [
    { at: 0, noise: 1800, dur: 0.03, gain: 0.25 },
    { at: 0, freq: 210, to: 120, dur: 0.14, gain: 0.5, wave: 'triangle' },
    { at: 0, freq: 430, to: 300, dur: 0.06, gain: 0.15 },
  ],
  completed: [
    { at: 0, freq: 1046.5, dur: 0.45, gain: 0.22 },
    { at: 0, freq: 2093, dur: 0.2, gain: 0.05 },
    { at: 0.09, freq: 1568, dur: 0.45, gain: 0.18 },
    { at: 0.09, freq: 3136, dur: 0.18, gain: 0.04 },
  ],
  turn: [
    { at: 0, freq: 587.3, dur: 0.24, gain: 0.2, attack: 0.02 },
    { at: 0.16, freq: 880, dur: 0.3, gain: 0.2, attack: 0.02 },
  ],
  final: [
    { at: 0, freq: 784, dur: 0.28, gain: 0.2 },
    { at: 0, freq: 1568, dur: 0.14, gain: 0.05 },
    { at: 0.2, freq: 784, dur: 0.34, gain: 0.2 },
    { at: 0.2, freq: 1568, dur: 0.16, gain: 0.05 },
  ],
  end: [
    { at: 0, freq: 523.3, dur: 0.3, gain: 0.18 },
    { at: 0.09, freq: 659.3, dur: 0.3, gain: 0.18 },
    { at: 0.18, freq: 784, dur: 0.3, gain: 0.18 },
    { at: 0.27, freq: 1046.5, dur: 0.3, gain: 0.18 },
  ],
};

// In the order a move tells them, and how long each waits for the one before to be heard.
const ORDER = ['placed', 'completed', 'final', 'end', 'turn'];
const GAP = { placed: 0.12, completed: 0.3, final: 0.35, end: 0.3, turn: 0 };

/// How loud all of it is: quiet, beside whatever else the player listens to.
const VOLUME = 0.35;

let ctx = null; // the AudioContext, made in a tap's handler
let out = null; // its gain, all notes go through it
let noiseBuffer = null;
let remembered = null; // the player's choice, once read or made on this page

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/// The player's choice (called from a tap: the context may start here).
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // A browser that keeps nothing: the choice lasts as long as the page.
  }
  remembered = on;
  if (on) wake();
}

function enabled() {
  if (remembered === null) remembered = soundOn();
  return remembered;
}

/// The bar's speaker button: pressed while sound is on. It changes itself; the bar need not be
/// drawn again.
export function soundButton() {
  const b = h('button', { type: 'button', class: 'small icon sound-toggle', 'data-testid': 'sound-toggle', 'aria-label': t('sound.label') });
  const show = () => {
    const on = enabled();
    b.setAttribute('aria-pressed', String(on));
    b.title = t(on ? 'sound.on' : 'sound.off');
    b.replaceChildren(speaker(on));
  };
  b.addEventListener('click', () => {
    setSound(!enabled());
    show();
  });
  show();
  return b;
}

/// A loudspeaker, with sound waves when on and a cross when off.
function speaker(on) {
  const line = (d) => svg('path', { d, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round' });
  // As tall as the bar's buttons of text beside it.
  return svg('svg', { viewBox: '0 0 20 20', width: 19, height: 19, 'aria-hidden': 'true' }, [
    svg('path', { d: 'M2 7.5h3.5L10 3.5v13L5.5 12.5H2z', fill: 'currentColor' }),
    ...(on ? [line('M12.8 7.2a4 4 0 0 1 0 5.6'), line('M15.2 4.8a7.4 7.4 0 0 1 0 10.4')] : [line('M13 7.5l5 5'), line('M18 7.5l-5 5')]),
  ]);
}

/// Makes or resumes the AudioContext; only ever called from a tap or a key press, which the
/// browser's autoplay rules ask for.
function wake() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!ctx) {
      ctx = new Ctx();
      out = ctx.createGain();
      out.gain.value = VOLUME;
      out.connect(ctx.destination);
    }
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  } catch {
    ctx = null;
  }
}

// After a reload with sound on, the first tap or key anywhere on the page wakes the sound.
if (typeof document !== 'undefined') {
  const onGesture = () => {
    if (enabled() && (!ctx || ctx.state !== 'running')) wake();
  };
  document.addEventListener('pointerdown', onGesture, true);
  document.addEventListener('keydown', onGesture, true);
}

/// What the change from `prev` to `now` sounds like, for the player of seat `you` (undefined:
/// a spectator): tiles put down, tiles completed, the final round begun, the end, my turn.
export function story(prev, now, you) {
  const names = new Set();
  now.view.seats.forEach((seat, i) => {
    const had = new Map(prev.view.seats[i].display.map((d) => [d.tile, d]));
    for (const d of seat.display) {
      const o = had.get(d.tile);
      if (!o) names.add('placed');
      if (d.flipped && !(o && o.flipped)) names.add('completed');
    }
  });
  if (now.view.final_round && !prev.view.final_round && now.status !== 'over') names.add('final');
  if (now.status === 'over' && prev.status !== 'over') names.add('end');
  const mine = (s) => you !== undefined && s.status === 'playing' && !!s.view.next && s.view.next.player === you;
  if (mine(now) && !mine(prev)) names.add('turn');
  return ORDER.filter((n) => names.has(n));
}

/// Plays `names` one after the other, when the player turned sound on. Never throws.
export function play(names) {
  if (!names.length || !enabled()) return;
  // What was asked for, for the page's tests (they set the array up; the page never does).
  if (Array.isArray(window.saganiSounds)) window.saganiSounds.push(...names);
  if (!ctx || ctx.state === 'closed') return;
  try {
    let at = ctx.currentTime + 0.02;
    for (const name of names) {
      for (const n of SOUNDS[name]) note(n, at + n.at);
      at += GAP[name];
    }
  } catch {
    // A sound is never worth an error.
  }
}

function note(n, at) {
  const g = ctx.createGain();
  const attack = n.attack || 0.004;
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(n.gain, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + n.dur);
  g.connect(out);
  let src;
  if (n.noise) {
    src = ctx.createBufferSource();
    src.buffer = noise();
    const band = ctx.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = n.noise;
    band.Q.value = 1.5;
    src.connect(band).connect(g);
  } else {
    src = ctx.createOscillator();
    src.type = n.wave || 'sine';
    src.frequency.setValueAtTime(n.freq, at);
    if (n.to) src.frequency.exponentialRampToValueAtTime(n.to, at + n.dur);
    src.connect(g);
  }
  src.start(at);
  src.stop(at + n.dur + 0.01);
}

/// A tenth of a second of white noise, made once.
function noise() {
  if (!noiseBuffer) {
    noiseBuffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * 0.1), ctx.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  return noiseBuffer;
}
