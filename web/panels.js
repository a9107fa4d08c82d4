// Beside the board, the parts of the table: the offer, the tile drawn, the intermezzo storage,
// the draw pile (and the dialog listing it), the players with their scores, Sound discs,
// Cacophony and clocks, the ties on the harmony track, the log, the invites; and in the board's
// corner the small display of whoever moved last. Each is built from the table's state by a
// function of its own, and redrawn by the table when what it shows has changed.

import { copy, h, hidden, keep } from './dom.js';
import * as draw from './draw.js';
import { displaySvg } from './draw-display.js';
import { t } from './i18n.js';
import { botName, describeMove, seatName, shortName, tieNotes, tileName } from './words.js';
import { clockText, controlText, LOW_MS } from './clock.js';

const { SEAT_COLORS, magnifier, tileSvg } = draw;

/// A "?" that explains a word of the game, in a small popover.
export function help(key) {
  const tip = h('span', { class: 'help-tip', role: 'tooltip', id: `tip-${key.replace(/\W/g, '-')}-${Math.random().toString(36).slice(2, 7)}` }, t(key));
  const b = h('button', { class: 'help', type: 'button', 'aria-label': t('help.label', { what: t(`${key}.what`) }), 'aria-describedby': tip.id, 'aria-expanded': 'false', 'data-testid': `help-${key.split('.')[1]}` }, '?');
  b.addEventListener('click', (ev) => {
    ev.stopPropagation();
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
  });
  b.addEventListener('blur', () => b.setAttribute('aria-expanded', 'false'));
  return h('span', { class: 'help-wrap' }, b, tip);
}

/// The start player's marker beside a name.
export function startBadge() {
  const label = t('start.player');
  if (draw.startMarker) {
    const m = draw.startMarker(16);
    return h('span', { class: 'start-badge', title: label, 'data-testid': 'start-marker' }, m);
  }
  return h('span', { class: 'start-badge text', title: label, 'aria-label': label, 'data-testid': 'start-marker' }, '★');
}

/// In one-display mode, the display of whoever moved last (if not the one shown), small, with
/// the new tile outlined: the opponent's move stays in sight on the display you look at.
export function inset(table, names) {
  const s = table.state;
  const last = s.last_move;
  if (table.look.mode !== 'one' || !last || last.seat === table.look.focus || s.view.seats.length < 2) return null;
  const seat = last.seat;
  const fresh = table.fresh(seat).size ? table.fresh(seat) : (last.move.action === 'place' ? new Set([last.move.tile]) : new Set());
  const svgEl = displaySvg(s.view.seats[seat], table.tiles, { cellPx: 30, fit: true, seatColor: SEAT_COLORS[seat], fresh });
  svgEl.removeAttribute('width');
  svgEl.removeAttribute('height');
  svgEl.classList.add('fit');
  const b = h('button', { class: 'inset', 'data-testid': `inset-${seat}`, title: t('inset.label', { who: names[seat] }) },
    h('span', { class: 'inset-title' }, h('span', { class: 'dot', style: `background:${SEAT_COLORS[seat]}` }), t('inset.title', { who: shortName(s, seat) })), hidden(svgEl));
  b.addEventListener('click', () => {
    table.look.focus = seat;
    table.look.pinned = true;
    table.render();
  });
  return b;
}

/// The offer of each table, kept from one drawing to the next: a tile still on offer keeps its
/// button (only whether it may be taken changes), so a move lays out only the offer's changes,
/// not five tile pictures anew.
const offers = new WeakMap(); // table -> {section, head, row, buttons: Map(tile -> {key, b})}

export function offer(table) {
  const v = table.state.view;
  if (v.variant !== 'standard') return null;
  const can = table.expects() === 'turn' ? table.placing.placeable() : new Set();
  const intermezzo = table.state.legal.find((m) => m.action === 'intermezzo');
  let o = offers.get(table);
  if (!o) {
    o = { head: h('h2', {}, t('offer.title'), ' ', help('help.offer')), row: h('div', { class: 'tile-row' }), buttons: new Map() };
    o.section = h('section', { class: 'panel offer', 'data-testid': 'offer' }, o.head, o.row);
    offers.set(table, o);
  }
  const { sel, coachTarget } = table.placing;
  const row = v.offer.map((tile) => {
    // What the button shows besides whether it may be taken: chosen (and turned), the coach's.
    const key = JSON.stringify([sel && sel.tile === tile ? sel.rot : null, !!coachTarget && coachTarget.tile === tile]);
    let had = o.buttons.get(tile);
    if (!had || had.key !== key) {
      had = { key, b: table.placing.tileButton(tile, can.has(tile), 'offer.tile', 'offer-tile') };
      o.buttons.set(tile, had);
    }
    had.b.disabled = !can.has(tile);
    return had.b;
  });
  for (const tile of [...o.buttons.keys()]) if (!v.offer.includes(tile)) o.buttons.delete(tile);
  keep(o.row, row.length ? row : [h('span', { class: 'hint' }, t('offer.empty'))]);
  let store = null;
  if (intermezzo) {
    store = h('button', { 'data-testid': 'intermezzo-choice', class: 'small', title: t('offer.intermezzo.title') }, t('offer.intermezzo'));
    store.addEventListener('click', () => table.send({ action: 'intermezzo', tile: intermezzo.tile }));
  }
  keep(o.section, [o.head, o.row, store].filter(Boolean));
  return o.section;
}

export function revealed(table) {
  const v = table.state.view;
  if (!v.revealed) return null;
  const sel = table.placing.sel;
  const info = table.tiles[v.revealed];
  return h('section', { class: 'panel revealed', 'data-testid': 'revealed', 'data-source-tile': v.revealed }, h('h2', {}, t('revealed.title')),
    h('div', { class: 'tile-row' }, tileSvg(info, { size: 64, rot: sel && sel.tile === v.revealed ? sel.rot : 0, label: tileName(table.tiles, v.revealed) }),
      h('span', { class: 'hint' }, t('revealed.must'))));
}

export function storage(table) {
  const s = table.state;
  const v = s.view;
  if (v.variant !== 'standard') return null;
  const picking = table.expects() === 'intermezzo-pick';
  const running = v.next && v.next.expects === 'intermezzo-pick';
  const can = picking ? table.placing.placeable() : new Set();
  const slots = [0, 1, 2, 3].map((i) => {
    const tile = v.intermezzo[i];
    return tile ? table.placing.tileButton(tile, can.has(tile), 'storage.tile', 'intermezzo-tile') : h('span', { class: 'slot', role: 'img', 'aria-label': t('storage.empty-slot', { n: i + 1 }) });
  });
  let pass = null;
  if (picking && s.legal.some((m) => m.action === 'pass')) {
    pass = h('button', { 'data-testid': 'pass', class: 'small' }, t('storage.pass'));
    pass.addEventListener('click', () => table.send({ action: 'pass' }));
  }
  let why = null;
  if (running) {
    // The order was fixed when the intermezzo began (fewest points first, RULES.md), so the
    // scores now need not show it: say who chose already, who chooses now and who is left.
    const names = v.seats.map((_, i) => seatName(s, i));
    const queue = v.intermezzo_queue;
    const before = v.seats.map((_, i) => i).filter((i) => !queue.includes(i)).map((i) => names[i]);
    const later = queue.filter((p) => p !== v.next.player).map((p) => names[p]);
    const mine = v.next.player === s.you;
    const parts = [t('storage.why')];
    if (before.length) parts.push(t(mine ? 'storage.before.you' : 'storage.before', { list: before.join(', ') }));
    else parts.push(t(mine ? 'storage.first.you' : 'storage.first', { who: names[v.next.player] }));
    if (before.length) parts.push(mine ? t('storage.now.you') : t('storage.now', { who: names[v.next.player] }));
    if (later.length) parts.push(t(mine ? 'storage.after.you' : 'storage.after', { list: later.join(', ') }));
    if (picking) parts.push(t('storage.pick'));
    why = h('p', { class: 'why', 'data-testid': 'intermezzo-why' }, parts.join(' '));
  }
  // Its heading is the folding section's (table.js); on a phone, while it is needed, it stands
  // in the bar at the bottom with a heading of its own.
  return h('div', { class: `storage-body${running ? ' running' : ''}`, 'data-testid': 'intermezzo' },
    h('h2', { class: 'dock-only' }, t('storage.title')),
    why,
    h('div', { class: 'tile-row slots' }, slots), pass);
}

export function pile(table) {
  const p = table.state.view.draw_pile;
  const back = p.top
    ? h('span', { 'data-testid': 'pile-back' }, tileSvg({ id: 0, element: p.top.element, value: p.top.value, arrows: [], rotations: [[], [], [], []] }, { size: 56, back: true, label: t('pile.top', { element: t(`element.${p.top.element}`), value: p.top.value }) }))
    : null;
  const open = h('button', { class: 'small', 'data-testid': 'pile-open' }, t('pile.list'));
  open.addEventListener('click', () => pileDialog(table));
  return h('div', { class: 'pile', 'data-testid': 'pile' },
    h('div', { class: 'pile-row' }, back, h('span', { class: 'count', 'data-testid': 'pile-count' }, p.count ? t('pile.count', { count: p.count }) : t('pile.empty')), open));
}

/// The tiles left in the pile, by element (the dialog follows the game while it is open).
export function pileContent(table) {
  const p = table.state.view.draw_pile;
  return [
    h('h2', {}, t('pile.dialog.title', { count: p.count })),
    h('p', { class: 'hint' }, t('pile.dialog.hint')),
    ...['fire', 'water', 'earth', 'air'].map((el) => {
      const list = p.tiles.filter((id) => table.tiles[id].element === el);
      return h('div', { class: 'pile-group' }, h('h3', {}, t('pile.dialog.group', { element: t(`element.${el}`), count: list.length })),
        h('div', { class: 'tile-row' }, list.map((id) => tileSvg(table.tiles[id], { size: 48, label: tileName(table.tiles, id) }))));
    }),
  ];
}

function pileDialog(table) {
  const close = h('button', { 'data-testid': 'pile-close' }, t('dialog.close'));
  const dialog = h('dialog', { 'data-testid': 'pile-dialog', 'aria-label': t('pile.dialog.label') },
    h('div', { class: 'pile-body' }, pileContent(table)), close);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (table.dialog === dialog) table.dialog = null;
  });
  document.body.append(dialog);
  table.dialog = dialog;
  dialog.showModal();
}

export function players(table, names) {
  const s = table.state;
  const v = s.view;
  const rank = new Map(v.ranking.map((seat, i) => [seat, i + 1]));
  const rows = v.seats.map((p, i) => {
    const magnify = h('button', { class: 'small icon', 'data-testid': `magnify-${i}`, title: t('view.show', { who: names[i] }), 'aria-label': t('view.show', { who: names[i] }) }, magnifier());
    magnify.addEventListener('click', () => table.lookAt(i));
    const acting = v.next && v.next.player === i;
    const gone = s.seats[i].replaced;
    const left = s.clock ? s.clock.left_ms[i] : null;
    const clock = !s.clock ? null : h('td', { class: `clock${s.clock.running === i && s.status === 'playing' ? ' running' : ''}${s.clock.running === i && left < LOW_MS ? ' low' : ''}`, 'data-testid': `clock-${i}`, 'data-clock': left === null ? null : i },
      left === null ? '–' : clockText(left));
    return h('tr', { class: acting ? 'acting' : '', 'data-seat': i },
      h('th', { scope: 'row', title: names[i] },
        h('span', { class: 'who' },
          acting ? h('span', { class: 'acting-mark', role: 'img', 'aria-label': t('players.acting') }, '▶') : null,
          h('span', { class: 'dot', style: `background:${SEAT_COLORS[i]}` }), h('span', { class: 'name' }, shortName(s, i)),
          i === v.start_player && v.players > 1 ? startBadge() : null, magnify),
        gone ? h('span', { class: 'left-note', 'data-testid': `left-${i}` }, t(`left.${gone.reason}`, { bot: botName(gone.bot, gone.level, true) })) : null),
      h('td', { 'data-testid': `score-${i}`, title: t('players.rank', { n: rank.get(i) }) }, p.score),
      h('td', {}, p.supply), h('td', { class: p.cacophony ? 'warn' : '' }, p.cacophony), clock);
  });
  return [
    h('table', { class: 'players', 'data-testid': 'players-table', 'aria-label': t('players.title') },
      h('thead', {}, h('tr', {}, h('th', {}, t('players.player')),
        h('th', { title: t('players.score.title') }, t('players.score')),
        h('th', { title: t('players.discs.title') }, t('players.discs'), ' ', help('help.discs')),
        h('th', { title: t('players.cacophony.title') }, t('players.cacophony'), ' ', help('help.cacophony')),
        s.clock ? h('th', { title: controlText(s.clock.control) }, t('players.clock')) : null)),
      h('tbody', {}, rows)),
  ];
}

/// How ties on the track are broken (not in solo).
export function ties(table, names) {
  const v = table.state.view;
  if (v.players < 2) return null;
  return h('p', { class: 'hint', 'data-testid': 'tie-break' }, tieNotes(v, names) || t('track.ties'));
}

/// The log, newest first, drawn in place into `list`: an entry whose words are unchanged stays
/// as it is.
export function logList(table, list, names) {
  const log = table.conn.log;
  const had = new Map([...list.children].map((li) => [li.dataset.words, li]));
  const items = [...log.keys()].sort((a, b) => b - a).map((version) => {
    const move = log.get(version);
    const { text, note, why } = describeMove(move, table.state, names, table.tiles);
    const words = JSON.stringify([version, move.seat, text, note, why]);
    return had.get(words) || h('li', { 'data-version': version, 'data-seat': move.seat, 'data-words': words },
      h('span', { class: 'dot', style: `background:${SEAT_COLORS[move.seat]}` }), text,
      note ? h('span', { class: 'note', 'data-testid': 'log-note' }, ` (${note})`) : null,
      why ? h('span', { class: 'why', 'data-testid': 'log-why' }, why) : null);
  });
  if (!items.length) items.push(h('li', { class: 'hint', 'data-words': '' }, t('log.empty')));
  items.forEach((li, i) => {
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
  while (list.children.length > items.length) list.lastElementChild.remove();
}

/// The creator's invite links, until every seat is taken.
export function invites(table) {
  const s = table.state;
  const entry = table.entry;
  if (!entry || !entry.invites || s.status === 'over') return null;
  const open = entry.invites.filter((i) => s.seats[i.seat] && !s.seats[i.seat].claimed);
  if (!open.length) return null;
  // Nobody else has joined yet: the creator may call the game off.
  const alone = s.seats.every((x, i) => x.kind !== 'human' || !x.claimed || i === table.you);
  let cancel = null;
  if (alone && table.you !== undefined) {
    cancel = h('button', { class: 'small', 'data-testid': 'cancel-game' }, t('cancel.button'));
    cancel.addEventListener('click', async () => {
      cancel.disabled = true;
      await table.act('cancel', 'cancel.failed');
    });
  }
  return h('section', { class: 'panel invites', 'data-testid': 'invites' },
    h('h2', {}, t('invites.title')),
    h('p', { class: 'hint' }, t('invites.hint'), ' ', cancel),
    open.map((i) => {
      const url = `${location.origin}/games/${table.id}/join/${i.code}`;
      const input = h('input', { readonly: true, value: url, 'data-testid': `invite-link-${i.seat}`, 'aria-label': t('invites.link', { n: i.seat + 1 }), size: 40 });
      const b = h('button', { class: 'small', 'data-testid': `copy-invite-${i.seat}` }, t('invites.copy'));
      b.addEventListener('click', async () => {
        b.textContent = (await copy(url, input)) ? t('invites.copied') : t('invites.select');
      });
      return h('div', { class: 'invite' }, h('span', {}, t('seat.number', { n: i.seat + 1 })), input, b);
    }));
}
