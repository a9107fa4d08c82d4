// "What would the engine do?": the engine's best moves for a position, asked of the server
// (`POST /api/analysis`, which searches from what the acting seat could see, never the draw
// pile's order) and shown as a numbered list and as marks on the display. Used by the replay
// and by the Hint button of a practice game.

import { api } from './api.js';
import { h } from './dom.js';
import { num, t } from './i18n.js';
import { effectWords, suggestedMove } from './words.js';
import { refusalText } from './refusals.js';

/// Asks for the best moves: `body` is `{game, at}` or `{record, at}`. Resolves to the answer,
/// or to `{error}` with the words to show.
export async function askEngine(body, token) {
  try {
    return await api('POST', '/api/analysis', { body, token });
  } catch (e) {
    if (e.code === 'rate_limited') return { error: t('engine.limited') };
    if (e.code === 'history_hidden') return { error: t('engine.refused') };
    if (e.code === 'network') return { error: t('error.network') };
    return { error: t('engine.failed', { reason: refusalText(e) }) };
  }
}

/// The marks of an answer's placements, for `displaySvg`'s `hints` (the best one's tile drawn
/// faintly on its cell).
export function engineMarks(answer) {
  return answer.moves
    .map((m, i) => ({ mv: m.move, n: i + 1 }))
    .filter(({ mv }) => mv.action === 'place')
    .map(({ mv, n }) => ({ x: mv.x, y: mv.y, tile: mv.tile, rot: mv.rot, n, ghost: n === 1 }));
}

/// The answer as a list, best first: each move in words, the engine's estimate and what the
/// move does. `display`: the acting seat's tiles (to say where a tile goes); `whose`: `your` or
/// `their`; `played`: the move made in the game, marked; `onTry(move)`: a button to try it.
export function engineList(answer, { tiles, display, whose, played = null, onTry = null }) {
  const playedKey = played ? JSON.stringify(played) : null;
  return h('ol', { class: 'engine-list', 'data-testid': 'engine-moves' }, answer.moves.map((m, i) => {
    const words = m.effect ? effectWords(m.effect, tiles) : null;
    const value = Math.round(m.value * 100);
    const isPlayed = playedKey !== null && JSON.stringify(m.move) === playedKey;
    let tryIt = null;
    if (onTry && m.move.action === 'place') {
      tryIt = h('button', { type: 'button', class: 'small', 'data-testid': 'engine-try' }, t('engine.try'));
      tryIt.addEventListener('click', () => onTry(m.move));
    }
    return h('li', { class: `engine-move${i === 0 ? ' best' : ''}`, 'data-testid': 'engine-move', 'data-move': JSON.stringify(m.move), 'data-value': m.value, 'data-visits': m.visits },
      h('div', { class: 'engine-head' },
        h('span', { class: 'engine-rank', 'aria-hidden': 'true' }, num(i + 1)),
        h('strong', { class: 'engine-words' }, suggestedMove(m.move, display, tiles, whose)),
        h('span', { class: 'engine-value', title: t('engine.value.title') }, t('engine.value', { value: num(value) })),
        isPlayed ? h('span', { class: 'engine-played', 'data-testid': 'engine-played' }, t('engine.played')) : null,
        tryIt),
      words ? h('p', { class: 'engine-effect' }, `${words.score}. `, [words.covered, words.completed, m.effect.cacophony ? words.cacophony : null].filter(Boolean).join(' ')) : null);
  }));
}
