// The score strip: one slim row above the board, always in sight, with every seat as it stands
// (colour, name, score, Sound discs left, Cacophony discs, whose turn, the start player's token)
// and the final round once it has begun. Each seat is a tab: it shows that seat's display.

import { h } from './dom.js';
import { svg } from './draw.js';
import { CACOPHONY_COLOR, SEAT_COLORS } from './colours.js';
import { num, t } from './i18n.js';
import { shortName } from './words.js';
import { startBadge } from './panels.js';

/// A small disc of the seat's colour: the Sound discs left in its supply.
function discIcon(color) {
  return svg('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', class: 'chip-icon' }, [
    svg('circle', { cx: 8, cy: 8, r: 6.5, fill: color, stroke: 'rgba(0,0,0,0.5)', 'stroke-width': 1.2 }),
  ]);
}

/// A Cacophony disc: red with a jagged line, as on the board (not told by colour alone).
function cacophonyIcon() {
  return svg('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', class: 'chip-icon' }, [
    svg('circle', { cx: 8, cy: 8, r: 6.5, fill: CACOPHONY_COLOR, stroke: 'rgba(0,0,0,0.5)', 'stroke-width': 1.2 }),
    svg('path', { d: 'M3.5 8 L6 5.5 L8 9.5 L10 5.5 L12.5 8', fill: 'none', stroke: '#fff', 'stroke-width': 1.5, 'stroke-linejoin': 'round' }),
  ]);
}

/// The final round's note: how many turns are left and who plays last.
function finalNote(table, names) {
  const s = table.state;
  const v = s.view;
  if (!v.final_round || s.status === 'over') return null;
  let text;
  if (v.turns_left === undefined || v.turns_left === null) text = t('final.on');
  else if (v.turns_left === 0) text = t('final.after-intermezzo');
  else if (v.last_player === table.you) text = t('final.turns.you', { count: v.turns_left });
  else text = t('final.turns', { count: v.turns_left, last: names[v.last_player] });
  return h('p', { class: 'strip-final', 'data-testid': 'final-round', role: 'status', 'data-turns-left': v.turns_left ?? '' },
    h('strong', {}, t('final.title')), ' ', text);
}

export function strip(table, names) {
  const s = table.state;
  const v = s.view;
  const one = table.look.mode === 'one';
  // Alone at the table there is nothing to choose: the seat is no tab then.
  const tabbed = v.seats.length > 1;
  const chips = v.seats.map((p, i) => {
    const acting = s.status === 'playing' && v.next && v.next.player === i;
    const fresh = table.fresh(i).size > 0;
    const shown = one && i === table.look.focus;
    const b = h('button', {
      role: tabbed ? 'tab' : null, 'aria-selected': tabbed ? String(shown) : null, type: 'button', 'data-seat': i, 'data-testid': `tab-${i}`,
      class: `seat-chip${acting ? ' acting' : ''}${fresh ? ' has-fresh' : ''}`, title: names[i],
    },
    acting ? h('span', { class: 'acting-mark', role: 'img', 'aria-label': t('players.acting') }, '▶') : null,
    h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }),
    h('span', { class: 'chip-name' }, shortName(s, i)),
    i === v.start_player && v.players > 1 ? startBadge() : null,
    h('span', { class: 'chip-score', 'data-testid': `strip-score-${i}` }, h('span', { class: 'sr-only' }, `${t('players.score')} `), num(p.score)),
    h('span', { class: 'chip-count', title: t('players.discs.title'), 'data-testid': `strip-discs-${i}` }, discIcon(SEAT_COLORS[i]),
      h('span', { class: 'sr-only' }, `${t('players.discs.title')} `), num(p.supply)),
    h('span', { class: `chip-count${p.cacophony ? ' warn' : ''}`, title: t('players.cacophony.title'), 'data-testid': `strip-cacophony-${i}` }, cacophonyIcon(),
      h('span', { class: 'sr-only' }, `${t('players.cacophony.title')} `), num(p.cacophony)));
    // A seat is a tab: its display alone on the board.
    b.addEventListener('click', () => table.lookAt(i));
    return b;
  });
  return h('div', { class: `strip${v.seats.length > 2 ? ' many' : ''}`, 'data-testid': 'strip' },
    h('div', { class: 'tabs', role: tabbed ? 'tablist' : null, 'aria-label': tabbed ? t('tabs.label') : null }, chips),
    finalNote(table, names));
}
