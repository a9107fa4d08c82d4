// The end card: the result in the engine's words (the players in their final order, or a solo
// game's outcome), why a game ended early, ties on the track, a daily challenge's own part, and
// what to do next (a rematch, the replay, the record, home). It can be put aside to look at the
// table, and brought back from the bar.

import { saveGame } from './api.js';
import { h } from './dom.js';
import { SEAT_COLORS } from './draw.js';
import { num, t } from './i18n.js';
import * as motion from './motion.js';
import { botName, tieNotes } from './words.js';
import { dailyResult } from './daily.js';

/// "Rating 1,000 → 1,138 (+138)": a seat's rating before and after a rated game.
function ratingWords(r) {
  const d = r.after - r.before;
  const change = d > 0 ? `+${num(d)}` : d < 0 ? `−${num(-d)}` : '±0';
  return t('end.rating', { before: num(r.before), after: num(r.after), change });
}

export class EndCard {
  constructor(table) {
    this.table = table;
    this.hidden = false; // the player put the card aside
    this.daily = null; // a daily game's own part (place, par, the line to share), fetched once
  }

  /// Puts the card aside (`true`) or brings it back.
  hide(hidden) {
    this.hidden = hidden;
    this.table.render();
  }

  /// The card over the table, once the game is over (null before, or when put aside).
  build(names) {
    const table = this.table;
    const s = table.state;
    const v = s.view;
    if (s.status !== 'over' || this.hidden) return null;
    const you = table.you;
    const o = s.outcome || {};
    // The result is the engine's (`outcome`); the page only words it.
    let head;
    let result;
    let won = false;
    let left = null; // what happened to my seat, when I left the game to a bot
    if (o.kind === 'ranking') {
      const order = s.standings; // the server's final order: who left is last
      const gone = you !== undefined ? s.seats[you].replaced : null;
      // A seat that left the game to a bot wins nothing: the bot's play is not the player's.
      won = you !== undefined && order[0] === you && !gone;
      if (gone) {
        head = t(`end.left.${gone.reason}`);
        left = h('p', { 'data-testid': 'end-you-left' }, t('end.left.text', { bot: botName(gone.bot, gone.level), move: gone.version + 1 }));
      } else {
        head = won ? t('end.won') : you !== undefined ? t('end.place', { n: order.indexOf(you) + 1, count: v.players }) : t('end.winner', { who: names[order[0]] });
      }
      const ratings = new Map((s.ratings || []).map((r) => [r.seat, r]));
      result = h('ol', { class: 'ranking', 'data-testid': 'ranking' }, order.map((seat, i) => {
        const p = v.seats[seat];
        const gone = s.seats[seat].replaced;
        const rating = ratings.get(seat);
        return h('li', { class: i === 0 ? 'first' : '' },
          h('span', { class: 'dot', style: `background:${SEAT_COLORS[seat]}` }),
          h('strong', {}, names[seat]), ' ', t('end.points', { count: o.scores[seat] }),
          gone ? h('span', { class: 'end-detail', 'data-testid': `end-left-${seat}` }, ` · ${t(`end.left.${gone.reason}.seat`, { bot: botName(gone.bot, gone.level, true), move: gone.version + 1 })}`) : null,
          rating ? h('span', { class: 'end-rating', 'data-testid': `end-rating-${seat}` }, ` · ${ratingWords(rating)}`) : null,
          h('span', { class: 'end-detail' }, t('end.detail', { tiles: p.display.length, flipped: p.display.filter((d) => d.flipped).length, cacophony: p.cacophony })));
      }));
    } else if (o.kind === 'solo') {
      won = o.reached;
      head = o.reached ? (o.symphony ? t('end.symphony') : t('end.solo.reached')) : t('end.solo.short');
      result = h('p', { 'data-testid': 'solo-result' }, o.reached
        ? t('end.solo.result', { score: o.score, count: o.tiles_used }) + ' ' + (o.symphony ? t('end.solo.symphony') : t('end.solo.no-symphony'))
        : t('end.solo.ran-out', { score: o.score, target: v.target, count: o.tiles_used }));
    } else if (o.kind === 'solo-all') {
      won = true;
      head = t('end.solo-all.head');
      result = h('p', { 'data-testid': 'solo-result' }, t('end.solo-all', { final: o.final_score, score: o.score, count: o.discs_left, tiles: v.placements }));
    }
    if (s.ended) {
      // Ended before its rules ended it: resigned, out of time, abandoned, closed, cancelled.
      head = t(`end.ended.${s.ended}`);
      result = h('p', { 'data-testid': 'ended' }, t(`end.ended.${s.ended}.text`));
    }
    const ties = v.variant === 'standard' ? tieNotes(v, names) : '';
    const hide = h('button', { class: 'small', 'data-testid': 'end-hide' }, t('end.hide'));
    hide.addEventListener('click', () => this.hide(true));
    // The daily part (the player's own: its place, par, the line to share) is fetched once and
    // kept across redraws of the card.
    if (s.daily && !s.daily.par && you !== undefined && !this.daily) this.daily = dailyResult(table.id, table.token);
    // A daily game's record holds the day's deck: nobody's to download until the day (UTC) is
    // over (its player could play the deck again as a guest); the replay shows the game now.
    const dayOpen = s.daily && s.daily.day >= new Date().toISOString().slice(0, 10);
    const record = dayOpen
      ? null
      : h('a', { href: `/api/games/${table.id}/record`, download: `sagani-${table.id}.json`, 'data-testid': 'download-record', class: 'button' }, t('end.record'));
    const card = h('section', { class: `end-card${won ? ' won' : ''}${s.daily ? ' daily' : ''}`, 'data-testid': 'end', role: 'dialog', 'aria-labelledby': 'end-head' },
      h('h2', { id: 'end-head', tabindex: -1 }, head),
      left,
      result,
      // A rated game aborted for ratings says so: nobody's rating changed.
      s.not_rated ? h('p', { class: 'hint', 'data-testid': 'not-rated' }, t(`end.not-rated.${s.not_rated}`)) : null,
      s.daily && this.daily ? this.daily : null,
      ties ? h('p', { class: 'hint', 'data-testid': 'end-tie-break' }, ties) : null,
      s.rematch ? h('p', { 'data-testid': 'rematch-ready' }, t('end.rematch.ready')) : null,
      table.error ? h('p', { class: 'error' }, table.error.text) : null,
      h('div', { class: 'end-actions' },
        this.rematch(),
        h('a', { href: `/games/${table.id}/replay`, 'data-testid': 'end-replay', class: 'button', title: t('replay.link.title') }, t('replay.link')),
        record,
        h('a', { href: '/', class: 'button' }, t('end.home')), hide),
      dayOpen ? h('p', { class: 'hint', 'data-testid': 'record-later' }, t('daily.record.later')) : null);
    const layer = h('div', { class: 'end-layer' }, card);
    layer.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') this.hide(true);
    });
    if (won && table.shown && table.shown.status !== 'over') motion.confetti(layer);
    return layer;
  }

  /// A rematch keeps every person in the same seat with the same token, and the bots: a player
  /// asks for it (or takes it once asked), a spectator may watch it. A daily challenge has no
  /// rematch: tomorrow brings the next deck.
  rematch() {
    const table = this.table;
    const s = table.state;
    const v = s.view;
    if (s.daily) return null;
    if (table.you === undefined) {
      return s.rematch ? h('a', { href: `/games/${s.rematch}`, class: 'button', 'data-testid': 'watch-rematch' }, t('end.rematch.watch')) : null;
    }
    const button = h('button', { class: 'primary', 'data-testid': 'rematch' }, s.rematch ? t('end.rematch.go') : t('end.rematch'));
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const next = s.rematch || (await table.conn.post('rematch')).game;
        if (table.closed) return;
        // Every seat keeps its invite in the rematch, and this browser its token.
        const e = table.entry || {};
        saveGame({ game: next, seat: table.you, token: table.token, invite: e.invite || null, invites: e.invites || [], variant: v.variant, players: v.players, mark: null, public: e.public });
        history.pushState(null, '', `/games/${next}`);
        dispatchEvent(new PopStateEvent('popstate'));
      } catch (e) {
        table.error = { kind: e.code === 'network' ? 'network' : 'move', text: e.code === 'network' ? t('error.network') : t('end.rematch.failed') };
        table.render();
      }
    });
    return button;
  }
}
