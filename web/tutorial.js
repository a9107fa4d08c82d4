// The interactive tutorial: a short guided solo game on a fixed deck. The script
// (`tutorial.json`, checked against the engine by the server's tests) lists the placements the
// learner is guided to make and the cards that explain what a solo game cannot show.
//
// `startTutorial(app)` creates the game (`POST /api/games` with `"tutorial": true`) and opens its
// table. The table calls `coach(ctx)` on every render of a game whose entry in this browser says
// `tutorial: true`; the coach answers with a panel to show and the cell and rotation to
// highlight. Where the learner is follows from the placements made (`state.version`) and the
// cards read so far (`entry.tutorialStep`: the index of the first step not yet passed).

import { createGame, saveGame } from './api.js';
import { h } from './dom.js';
import { currentLang, t } from './i18n.js';
import { tileName } from './words.js';
import { refusalText } from './refusals.js';

let script = null;
let loading = null;

/// The script, fetched once.
export function loadScript() {
  if (!loading) {
    loading = fetch('/assets/tutorial.json')
      .then((r) => {
        if (!r.ok) throw new Error(`the tutorial cannot be loaded (${r.status})`);
        return r.json();
      })
      .then((s) => {
        script = s;
        return s;
      })
      .catch((e) => {
        loading = null;
        throw e;
      });
  }
  return loading;
}

/// Creates the tutorial game, claims its seat, remembers it and opens its table.
export async function startTutorial(app) {
  document.title = `${t('tutorial.title')} · ${t('app.name')}`;
  app.replaceChildren(h('h1', {}, t('tutorial.title')),
    h('p', { class: 'loading', 'aria-busy': 'true', 'data-testid': 'tutorial-starting' }, t('tutorial.starting')));
  let id;
  try {
    await loadScript();
    id = await createGame(['me'], { variant: 'solo', tutorial: true });
    saveGame({ game: id, tutorial: true, tutorialStep: 0 });
  } catch (e) {
    const retry = h('button', { class: 'primary', 'data-testid': 'tutorial-retry' }, t('tutorial.retry'));
    retry.addEventListener('click', () => startTutorial(app));
    app.replaceChildren(h('h1', {}, t('tutorial.title')),
      h('p', { class: 'error', role: 'alert', 'data-testid': 'error' }, t('tutorial.failed', { reason: refusalText(e) })),
      retry, ' ', h('a', { href: '/' }, t('tutorial.home')));
    return;
  }
  // The learner may have gone elsewhere meanwhile; the game is in "My games" all the same.
  if (location.pathname !== '/tutorial') return;
  // The tutorial's address is not one to come back to: it would start another game.
  history.replaceState(null, '', `/games/${id}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

/// "Air 10, Earth 10 and Air 3", as the language lists things.
function listOf(names) {
  const lang = currentLang() === 'de' ? 'de' : 'en';
  return new Intl.ListFormat(lang, { type: 'conjunction' }).format(names);
}

/// Where the learner is: the step to show (an index into `steps`, `steps.length` once done),
/// and the first placement that went elsewhere than the script said (or null).
export function position(steps, display, entry) {
  const passed = Number(entry.tutorialStep) || 0;
  const made = display.length;
  let ordinal = 0;
  for (const step of steps) {
    if (step.kind !== 'place') continue;
    if (ordinal >= made) break;
    const d = display[ordinal];
    if (d.tile !== step.tile || d.x !== step.x || d.y !== step.y || d.rot !== step.rot) {
      return { index: -1, off: { ordinal, tile: d.tile } };
    }
    ordinal += 1;
  }
  ordinal = 0;
  for (const [i, step] of steps.entries()) {
    if (step.kind === 'card') {
      if (i >= passed) return { index: i, off: null };
    } else {
      if (ordinal >= made) return { index: i, off: null };
      ordinal += 1;
    }
  }
  return { index: steps.length, off: null };
}

/// The words' parameters of a placement step: what the engine does (its `expect`, checked by the
/// server's tests) and where the learner stands now.
function params(step, tiles, seat) {
  const e = step.expect;
  const others = e.completed.filter((id) => id !== step.tile);
  return {
    tile: tileName(tiles, step.tile),
    arrows: tiles[step.tile].arrows.length,
    covered: e.covered,
    completed: listOf(e.completed.map((id) => tileName(tiles, id))),
    others: listOf(others.map((id) => tileName(tiles, id))),
    points: e.completed.reduce((sum, id) => sum + tiles[id].value, 0),
    cacophony: e.cacophony,
    count: e.cacophony,
    penalty: 2 * e.cacophony,
    score: e.score_after,
    supply: e.supply_after,
    score_now: seat.score,
    supply_now: seat.supply,
  };
}

/// "What happens: 1 arrow covered · Earth 3 completed, +3 points · score 3 · 16 discs left in your supply."
function outcome(p, e) {
  const parts = [e.covered ? t('tutorial.outcome.covered', { count: e.covered }) : t('tutorial.outcome.none')];
  if (e.completed.length) parts.push(t('tutorial.outcome.completed', { tiles: p.completed, points: p.points }));
  if (e.cacophony) parts.push(t('tutorial.outcome.cacophony', { count: e.cacophony, penalty: p.penalty }));
  parts.push(t('tutorial.outcome.score', { score: e.score_after }));
  parts.push(t('tutorial.outcome.supply', { count: e.supply_after }));
  return t('tutorial.outcome', { what: parts.join(' · ') });
}

function panel(kind, index, title, ...children) {
  ensureStyle();
  return h('section', { class: `coach coach-${kind}`, 'data-testid': 'coach', 'data-step': index, 'data-kind': kind, 'aria-live': 'polite' },
    h('h2', { class: 'coach-title' }, title), ...children);
}

function button(testid, text, onClick, primary = false) {
  const b = h('button', { 'data-testid': testid, class: primary ? 'primary' : 'small' }, text);
  b.addEventListener('click', onClick);
  return b;
}

/// The coach at the table of a tutorial game: `{panel, target}`, or null (at any other table, or
/// once the learner hid it). ctx: `{state, tiles, entry, rerender(), save(fields)}`.
/// The panel (`.coach`, data-testid `coach`) carries `data-step` (the step's index; `-1` off
/// the script, `steps.length` once done) and `data-kind` (`card`, `place`, `off`, `done`,
/// `loading`). `target` is `{x, y, rot, tile}`: where and how to place the tile now, or null.
export function coach(ctx) {
  const { state, tiles, entry } = ctx;
  if (!entry || !entry.tutorial || entry.tutorialHidden || !state || !state.view) return null;
  const save = (fields) => {
    ctx.save(fields);
    ctx.rerender();
  };
  if (!script || !tiles) {
    // The table renders again once it has the tiles; the script is fetched here.
    if (!script) loadScript().then(() => ctx.rerender(), () => {});
    return { panel: panel('loading', 'loading', t('tutorial.title'), h('p', { class: 'loading' }, t('tutorial.loading'))), target: null };
  }
  const steps = script.steps;
  const seatIndex = state.you ?? 0;
  const seat = state.view.seats[seatIndex];
  const where = entry.tutorialDone ? { index: steps.length, off: null } : position(steps, seat.display, entry);

  if (where.off) {
    return {
      panel: panel('off', -1, t('tutorial.off.title'),
        h('p', { class: 'coach-text', 'data-testid': 'coach-text' }, t('tutorial.off.text', { tile: tileName(tiles, where.off.tile) })),
        h('p', { class: 'coach-actions' },
          h('a', { href: '/tutorial', class: 'button', 'data-testid': 'coach-restart' }, t('tutorial.restart')), ' ',
          button('coach-finish', t('tutorial.finish'), () => save({ tutorialDone: true })))),
      target: null,
    };
  }

  if (where.index >= steps.length) {
    const play = button('tutorial-play', t('tutorial.done.play'), async () => {
      play.disabled = true;
      try {
        const game = await createGame(['me'], { variant: 'solo' });
        history.pushState(null, '', `/games/${game}`);
        dispatchEvent(new PopStateEvent('popstate'));
      } catch {
        play.disabled = false;
      }
    }, true);
    return {
      panel: panel('done', steps.length, t('tutorial.done.title'),
        h('div', { 'data-testid': 'tutorial-done' },
          h('p', { class: 'coach-text', 'data-testid': 'coach-text' }, t('tutorial.done.text')),
          h('p', { class: 'coach-actions' },
            play, ' ',
            h('a', { href: '/', class: 'button', 'data-testid': 'tutorial-home' }, t('tutorial.done.home')), ' ',
            h('a', { href: '/rules', class: 'button', 'data-testid': 'tutorial-rules' }, t('tutorial.done.rules')), ' ',
            button('coach-hide', t('tutorial.done.hide'), () => save({ tutorialHidden: true }))))),
      target: null,
    };
  }

  const step = steps[where.index];
  const places = steps.filter((s) => s.kind === 'place').length;
  if (step.kind === 'card') {
    const next = button('coach-next', t('tutorial.next'), () => save({ tutorialStep: where.index + 1 }), true);
    return {
      panel: panel('card', where.index, t('tutorial.title'),
        h('p', { class: 'coach-text', 'data-testid': 'coach-text' }, t(step.text)),
        h('p', { class: 'coach-actions' }, next, ' ',
          where.index === 0 ? null : button('coach-finish', t('tutorial.finish'), () => save({ tutorialDone: true })))),
      target: null,
    };
  }

  const ordinal = steps.slice(0, where.index).filter((s) => s.kind === 'place').length;
  const p = params(step, tiles, seat);
  const mine = state.view.next && state.view.next.player === seatIndex;
  return {
    panel: panel('place', where.index, t('tutorial.title'),
      h('p', { class: 'coach-progress', 'data-testid': 'coach-progress' }, t('tutorial.progress', { n: ordinal + 1, total: places })),
      h('p', { class: 'coach-text', 'data-testid': 'coach-text' }, t(step.text, p)),
      h('p', { class: 'coach-how' }, t('tutorial.hint'), ' ', ordinal === 0 ? '' : t(`tutorial.rot.${step.rot}`)),
      h('p', { class: 'coach-outcome', 'data-testid': 'coach-outcome' }, outcome(p, step.expect)),
      h('p', { class: 'coach-actions' }, button('coach-finish', t('tutorial.finish'), () => save({ tutorialDone: true })))),
    target: mine ? { x: step.x, y: step.y, rot: step.rot, tile: step.tile } : null,
  };
}

let styled = false;

/// A few rules of its own, at the lowest specificity, so the page's style sheet wins.
function ensureStyle() {
  if (styled || typeof document === 'undefined') return;
  styled = true;
  document.head.append(h('style', { 'data-from': 'tutorial' }, `
:where(.coach) { border: 2px solid #d9a441; border-radius: 8px; padding: 0.6em 0.9em; background: var(--panel, #fffaf0); color: var(--ink, #1f1a14); }
:where(.coach) h2 { font-size: 1em; margin: 0 0 0.3em; }
:where(.coach) p { margin: 0.4em 0; }
:where(.coach .coach-progress), :where(.coach .coach-outcome) { font-size: 0.9em; color: var(--muted, #5b5247); }
:where(.coach .coach-actions) { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; }
`));
}
