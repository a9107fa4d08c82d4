// The seats' clocks as the server counted them (`state.clock`), counted down on the page from
// the moment the state arrived: the page's own time decides nothing, the server times out.

import { t } from './i18n.js';

/// Under this, a running clock turns red.
export const LOW_MS = 30_000;

/// "4:07", "0:09"; "1 d 3 h" and "5 h 12 min" for turn-based days.
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86_400) return t('clock.days', { d: Math.floor(s / 86_400), h: Math.floor((s % 86_400) / 3600) });
  if (s >= 3600) return t('clock.hours', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/// A time control in words: "5+5", "1 day per move", "no clock".
export function controlText(c) {
  if (!c || c.kind === 'none') return t('clock.none');
  if (c.kind === 'realtime' && c.initial_s % 60 !== 0) return t('clock.realtime.seconds', { s0: c.initial_s, s: c.increment_s });
  if (c.kind === 'realtime') return t('clock.realtime', { m: c.initial_s / 60, s: c.increment_s });
  return t('clock.turn', { count: c.days });
}

/// Each seat's time left now: the state's figures, less what passed since it arrived for the
/// seat whose clock runs.
export function leftNow(clock, arrived, now = performance.now()) {
  if (!clock) return [];
  return clock.left_ms.map((ms, i) => (ms === null ? null : i === clock.running ? Math.max(0, ms - (now - arrived)) : ms));
}

/// Keeps the clock cells (`[data-clock]`) under `root` counting, and calls `also(left)` with
/// each seat's time left; stops with `stop()`.
export function ticker(root, read, also = () => {}) {
  const tick = () => {
    const { clock, arrived } = read();
    if (!clock) return;
    const left = leftNow(clock, arrived);
    for (const el of root.querySelectorAll('[data-clock]')) {
      const i = Number(el.dataset.clock);
      if (left[i] === null || left[i] === undefined) continue;
      const text = clockText(left[i]);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle('low', i === clock.running && left[i] < LOW_MS);
    }
    also(left);
  };
  const timer = setInterval(tick, 250);
  return { tick, stop: () => clearInterval(timer) };
}
