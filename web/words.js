// What the table says, in words a player understands: seats from 1, tiles as "Fire 10", places
// as "left of your Water 6", never grid coordinates or tile ids. Every word is a catalogue
// message; this file only chooses which one and fills it in.

import { has, num, t } from './i18n.js';

/// "Fire 10": a tile by its element and value.
export function tileName(tiles, id) {
  const info = tiles[id];
  return t('tile.name', { element: t(`element.${info.element}`), value: info.value });
}

/// A seat as everyone sees it: "Seat 2 · level 4 bot (steady)", "Seat 1 · you".
export function seatName(state, seat) {
  const info = state.seats[seat];
  const n = seat + 1;
  if (info.kind === 'bot') {
    const bot = botName(info.bot, info.level);
    return state.you === seat ? t('seat.you.bot', { n, bot }) : t('seat.bot', { n, bot });
  }
  if (state.you === seat) return t('seat.you', { n });
  if (info.deleted) return t('seat.deleted', { n });
  if (info.name) return t(info.account ? 'seat.named' : 'seat.guest', { n, name: info.name });
  return info.claimed ? t('seat.number', { n }) : t('seat.free', { n });
}

/// A seat in narrow places: "1 · You", "2 · Bot level 4", "Player 3".
export function shortName(state, seat) {
  const info = state.seats[seat];
  const n = seat + 1;
  if (state.you === seat) return t('seat.short.you', { n });
  if (info.kind === 'bot') return t('seat.short.bot', { n, bot: botName(info.bot, info.level, true) });
  if (info.name) return t('seat.short.named', { n, name: info.name });
  return info.claimed ? t('seat.short.person', { n }) : t('seat.short.free', { n });
}

/// The level each bot plays as: the server's bots by the level of the ladder they are
/// (docs/bots.md: `greedy` is level 4), so a player meets one name for one strength.
const BOT_LEVEL = { greedy: 4 };

/// A bot by the words of the seat menu: "level 4 bot (steady)" (`short`: "level 4 bot"), the
/// random bot by what it does. Never the server's id of a bot.
export function botName(bot, level, short = false) {
  const at = level || BOT_LEVEL[bot];
  if (bot === 'random') return t('bot.random');
  if (!at || !has(`bot.level.name.${at}`)) return t('bot.other');
  return short ? t('bot.level.short', { level: at }) : t('bot.level', { level: at, name: t(`bot.level.name.${at}`) });
}

const SIDES = [[-1, 0, 'left'], [1, 0, 'right'], [0, -1, 'above'], [0, 1, 'below']];

/// Where a tile went, by a neighbour placed before it: "left of your Water 6".
export function placeWords(state, seat, tile, tiles) {
  const display = state.view.seats[seat].display;
  const i = display.findIndex((d) => d.tile === tile);
  if (i < 0) return '';
  return placeAt(display.slice(0, i), display[i].x, display[i].y, tiles, state.you === seat ? 'your' : 'their');
}

/// Where a tile at (x, y) goes among the tiles of `display`, by a neighbour: "left of your
/// Water 6" (`whose`: `your` or `their`), or "as the first tile".
export function placeAt(display, x, y, tiles, whose) {
  if (!display.length) return t('place.first');
  for (const [dx, dy, side] of SIDES) {
    // The new tile is `side` of its neighbour when the neighbour is the other way.
    const n = display.find((d) => d.x === x - dx && d.y === y - dy);
    if (n) return t(`place.${side}.${whose}`, { tile: tileName(tiles, n.tile) });
  }
  return '';
}

/// A move the engine suggests, for the seat whose display is `display`: "Fire 10 left of your
/// Water 6, turned 90°", "Store Fire 10 for the intermezzo", "Pass".
export function suggestedMove(mv, display, tiles, whose) {
  let text;
  if (mv.action === 'place') {
    const turned = mv.rot ? t('log.turned', { degrees: mv.rot * 90 }) : '';
    text = t('engine.place', { tile: tileName(tiles, mv.tile), where: placeAt(display, mv.x, mv.y, tiles, whose), turned });
  } else if (mv.action === 'intermezzo') {
    text = t('engine.intermezzo', { tile: tileName(tiles, mv.tile) });
  } else {
    text = t('engine.pass');
  }
  return text.replace(/\s+([,.])/g, '$1').replace(/\s{2,}/g, ' ');
}

/// What a placement does (its effect, as the engine's preview words it), sentence by sentence:
/// the score, the arrows covered, the tiles completed, the Cacophony.
export function effectWords(p, tiles) {
  const change = p.score_change >= 0 ? `+${num(p.score_change)}` : `−${num(Math.abs(p.score_change))}`;
  return {
    score: t('preview.score', { change, after: num(p.score_after) }),
    covered: p.covered.length
      ? t('preview.covers', { count: p.covered.length, list: p.covered.map((c) => t('preview.arrow', { element: t(`element.${c.element}`), tile: tileName(tiles, c.tile) })).join(', ') })
      : t('preview.covers.none'),
    completed: p.completed.length ? t('preview.completes', { tiles: p.completed.map((id) => tileName(tiles, id)).join(', '), count: p.points }) : t('preview.completes.none'),
    cacophony: p.cacophony ? t('preview.cacophony', { count: p.cacophony, points: p.points - p.score_change }) : t('preview.cacophony.none'),
  };
}

/// One line of the move log, with what the move did when the server says so.
export function describeMove(played, state, names, tiles) {
  const who = names[played.seat];
  const m = played.move;
  // "You placed" and "Du legst": the player's own moves have their own sentences.
  const you = state.you === played.seat ? '.you' : '';
  let text;
  if (m.action === 'place') {
    const turned = m.rot ? t('log.turned', { degrees: m.rot * 90 }) : '';
    text = t(`log.placed${you}`, { who, tile: tileName(tiles, m.tile), where: placeWords(state, played.seat, m.tile, tiles), turned });
  } else if (m.action === 'intermezzo') {
    text = t(`log.intermezzo${you}`, { who, tile: tileName(tiles, m.tile) });
  } else {
    text = t(`log.pass${you}`, { who });
  }
  const why = state.seats[played.seat]?.kind === 'bot' ? botReason(played, tiles) : '';
  return { text: text.replace(/\s+([,.])/g, '$1').replace(/\s{2,}/g, ' '), note: effectNote(played.effect, tiles), why };
}

/// Why a bot placed where it did, as its one-line reason says it (sagani-ai's explain): the
/// arrows it covers, tile by tile, then its own, and the discs it keeps. Points and
/// completions are in the note already.
export function botReason(played, tiles) {
  const e = played.effect;
  if (!e || played.move.action !== 'place') return '';
  const byTile = new Map();
  for (const c of e.covered || []) byTile.set(c.tile, (byTile.get(c.tile) || 0) + 1);
  const parts = [];
  for (const [tile, count] of byTile) {
    if (tile !== played.move.tile) parts.push(t('why.covered', { count, tile: tileName(tiles, tile) }));
  }
  const own = byTile.get(played.move.tile);
  if (own) parts.push(t('why.covered.own', { count: own }));
  if (!parts.length) parts.push(t('why.covered.none'));
  parts.push(t('why.kept', { count: e.supply_after }));
  return t('why', { reason: parts.join(', ') });
}

/// "+6 points, 1 Cacophony disc": what a placement did (from the engine, via the server).
export function effectNote(effect, tiles) {
  if (!effect) return '';
  const parts = [];
  if (effect.completed && effect.completed.length) {
    parts.push(t('effect.completed', { tiles: effect.completed.map((id) => tileName(tiles, id)).join(', ') }));
  }
  if (effect.score_change) {
    parts.push(t(effect.score_change > 0 ? 'effect.points.plus' : 'effect.points.minus', { count: Math.abs(effect.score_change) }));
  }
  if (effect.cacophony) parts.push(t('effect.cacophony', { count: effect.cacophony }));
  return parts.join(', ');
}

/// The engine's reason for refusing a move, in the player's words.
export function reasonText(error) {
  const r = error && error.reason;
  if (r && r.kind && has(`reason.${r.kind}`)) return t(`reason.${r.kind}`, { count: r.offer_len ?? 0 });
  return t('reason.other');
}

/// What the player to act is asked to do.
export function expectText(expects, touch) {
  const k = `expect.${expects}`;
  return touch && has(`${k}.touch`) ? t(`${k}.touch`) : t(k);
}

/// Explains every tie on the harmony track: among equal scores the engine's ranking puts first
/// the marker that moved to that score earliest (RULES.md, "Score order").
export function tieNotes(view, names) {
  const notes = [];
  const byScore = new Map();
  for (const seat of view.ranking) {
    const score = view.seats[seat].score;
    if (!byScore.has(score)) byScore.set(score, []);
    byScore.get(score).push(seat);
  }
  for (const [score, seats] of byScore) {
    if (seats.length < 2) continue;
    notes.push(t('track.tie', { count: seats.length, score, order: seats.map((p) => names[p]).join(' → ') }));
  }
  return notes.join(' ');
}
