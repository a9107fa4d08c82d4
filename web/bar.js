// Above the board: the bar (home, what kind of game this is, resigning, all displays or one, the
// zoom), the banners (who left the table, notices and errors) and whose turn it is. The scores,
// the tabs that choose whose display is shown and the final round are in the strip (strip.js).

import { h } from './dom.js';
import { SEAT_COLORS } from './draw.js';
import { t } from './i18n.js';
import { botName } from './words.js';
import { controlText } from './clock.js';
import { dayText } from './daily.js';
import { noticesLink } from './notices.js';
import { soundButton } from './sound.js';

export function bar(table, myTurn, names) {
  const s = table.state;
  const look = table.look;
  const asks = table.asks;
  const toggle = h('button', { class: 'small', 'data-testid': 'view-toggle' }, look.mode === 'all' ? t('view.one') : t('view.all'));
  toggle.addEventListener('click', () => {
    look.mode = look.mode === 'all' ? 'one' : 'all';
    table.render();
  });
  let notify = null;
  if (table.you !== undefined && s.view.players > 1 && 'Notification' in window && Notification.permission === 'default' && s.status !== 'over') {
    notify = h('button', { class: 'small', 'data-testid': 'notify' }, t('notify.ask'));
    notify.addEventListener('click', () => Notification.requestPermission().then(() => {
      asks.notified = true;
      table.render();
    }));
  }
  // Resigning asks once more: a bot then plays the seat (a solo game ends).
  let resign = null;
  if (table.you !== undefined && s.status === 'playing' && !s.seats[table.you].replaced) {
    if (!asks.resigning) {
      resign = h('button', { class: 'small', 'data-testid': 'resign' }, t('resign.button'));
      resign.addEventListener('click', () => {
        asks.resigning = true;
        table.render();
      });
    } else {
      const yes = h('button', { class: 'small danger', 'data-testid': 'resign-yes' }, t('resign.yes'));
      const no = h('button', { class: 'small', 'data-testid': 'resign-no' }, t('resign.no'));
      yes.addEventListener('click', async () => {
        yes.disabled = true;
        asks.resigning = false;
        await table.act('resign', 'resign.failed');
      });
      no.addEventListener('click', () => {
        asks.resigning = false;
        table.render();
      });
      resign = h('span', { class: 'resign-ask', role: 'group', 'data-testid': 'resign-ask' },
        t(s.view.players === 1 ? 'resign.ask.solo' : 'resign.ask'), ' ', yes, no);
    }
  }
  let result = null;
  if (s.status === 'over' && table.endCard.hidden) {
    result = h('button', { class: 'small primary', 'data-testid': 'show-result' }, t('end.show'));
    result.addEventListener('click', () => table.endCard.hide(false));
  }
  return [
    h('a', { href: '/', class: 'home-link', 'aria-label': t('bar.home') }, t('app.name')),
    !table.conn.offline ? null : h('span', { class: 'offline', 'data-testid': 'offline', title: t('bar.offline.title') }, t('bar.offline')),
    table.you === undefined ? h('span', { class: 'watching', 'data-testid': 'watching' }, t('bar.watching')) : null,
    s.rated ? h('span', { class: 'watching', 'data-testid': 'rated', title: t('bar.rated.title') }, t('profile.rated')) : null,
    s.daily ? h('span', { class: 'watching daily-badge', 'data-testid': 'daily-badge' }, t('daily.badge', { date: dayText(s.daily.day) })) : null,
    s.practice ? h('span', { class: 'watching', 'data-testid': 'practice', title: t('bar.practice.title') }, t('bar.practice')) : null,
    notify, result,
    s.clock ? h('span', { class: 'watching', 'data-testid': 'clock-control' }, controlText(s.clock.control)) : null,
    h('span', { class: 'spacer' }),
    resign,
    noticesLink(),
    soundButton(),
    h('a', { href: '/rules', class: 'small-link', target: '_blank', rel: 'noopener' }, t('bar.rules')),
    s.view.seats.length > 1 ? toggle : null,
    look.mode === 'one' ? table.board.zoomButtons() : null,
  ];
}

export function banners(table, names) {
  const s = table.state;
  const out = [];
  // Who left the table to a bot, and why: everyone sees it.
  s.seats.forEach((seat, i) => {
    if (!seat.replaced || s.status === 'over') return;
    // A sentence of its own about "you": German's "du" takes other verbs than a name.
    const bot = botName(seat.replaced.bot, seat.replaced.level);
    out.push(h('p', { class: 'notice', 'data-testid': `left-banner-${i}`, role: 'status' },
      i === table.you ? t(`left.banner.${seat.replaced.reason}.you`, { bot }) : t(`left.banner.${seat.replaced.reason}`, { who: names[i], bot })));
  });
  if (table.notice) out.push(h('p', { class: 'notice', 'data-testid': 'notice' }, table.notice));
  if (table.error) out.push(h('p', { class: 'error', role: 'alert', 'data-testid': 'error', 'data-kind': table.error.kind }, table.error.text));
  return out;
}

/// Whose turn, above the board, whichever display is shown.
export function turnLine(table, names, myTurn) {
  const v = table.state.view;
  const who = v.next ? v.next.player : null;
  return h('div', { class: `turn${myTurn ? ' yours' : ''}`, 'data-testid': 'turn' },
    who !== null ? h('span', { class: 'dot', style: `background:${SEAT_COLORS[who]}` }) : null,
    h('span', { class: 'status', 'data-testid': 'status' }, table.statusText(names)));
}
