// Chat at the table: players write, players and spectators read. Lines are shown as text
// (never HTML); quick phrases are sent as keys and shown in the reader's language. Each person
// can hide the chat (kept on the device).

import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { refusalText } from './refusals.js';

export const PHRASES = ['hello', 'good_luck', 'good_game', 'thanks', 'well_played'];
const HIDDEN = 'sagani.chat.hidden';

function isHidden() {
  try {
    return localStorage.getItem(HIDDEN) === '1';
  } catch {
    return false;
  }
}

export class Chat {
  /// `seatName(i)` names a seat; `token()` is the seat's token (none for a spectator).
  constructor(game, seatName, token) {
    this.game = game;
    this.seatName = seatName;
    this.token = token;
    this.lines = [];
    this.loading = null;
    this.hidden = isHidden();
    this.list = h('ol', { class: 'chat-list', 'data-testid': 'chat-lines', 'aria-live': 'polite', 'aria-label': t('chat.title') });
    this.el = h('section', { class: 'panel chat-panel', 'data-testid': 'chat' });
    this.draw();
  }

  /// The state says `count` lines exist: fetch the ones not here yet.
  async sync(count) {
    if (count <= this.lines.length || this.loading) return;
    const had = this.lines.length;
    this.loading = api('GET', `/api/games/${this.game}/chat?from=${had}`).then(({ lines }) => {
      for (const l of lines) if (l.n === this.lines.length) this.lines.push(l);
      this.drawLines();
    }, () => {}).finally(() => {
      this.loading = null;
    });
    await this.loading;
    // More than one page of lines: fetch on while each fetch brings some (a failed or empty
    // one waits for the next state).
    if (count > this.lines.length && this.lines.length > had) await this.sync(count);
  }

  async send(body) {
    this.error.textContent = '';
    try {
      const line = await api('POST', `/api/games/${this.game}/chat`, { token: this.token(), body });
      if (line.n === this.lines.length) this.lines.push(line);
      this.drawLines();
      return true;
    } catch (e) {
      // A refused line says why (an invisible character, a direction control, too long).
      this.error.textContent = e.code === 'rate_limited' ? t('chat.slow') : e.code === 'network' ? t('error.network')
        : e.code === 'bad_request' ? t('chat.refused.why', { reason: refusalText(e) }) : t('chat.refused');
      return false;
    }
  }

  draw() {
    const toggle = h('button', { class: 'small quiet', 'data-testid': 'chat-toggle', 'aria-expanded': String(!this.hidden) }, this.hidden ? t('chat.show') : t('chat.hide'));
    toggle.addEventListener('click', () => {
      this.hidden = !this.hidden;
      try {
        localStorage.setItem(HIDDEN, this.hidden ? '1' : '0');
      } catch {
        // Not kept: hidden for this visit only.
      }
      this.draw();
    });
    this.error = h('p', { class: 'error small', role: 'alert', 'data-testid': 'chat-error' });
    const head = h('div', { class: 'chat-head' }, h('h2', {}, t('chat.title')), toggle);
    if (this.hidden) {
      this.el.replaceChildren(head);
      return;
    }
    let form = null;
    if (this.token()) {
      const input = h('input', { type: 'text', maxlength: 300, 'data-testid': 'chat-input', 'aria-label': t('chat.input'), placeholder: t('chat.input') });
      const sendButton = h('button', { type: 'submit', class: 'small', 'data-testid': 'chat-send' }, t('chat.send'));
      form = h('form', { class: 'chat-form' }, input, sendButton);
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        sendButton.disabled = true;
        if (await this.send({ text })) input.value = '';
        sendButton.disabled = false;
        input.focus();
      });
      const phrases = h('div', { class: 'chat-phrases' }, PHRASES.map((p) => {
        const b = h('button', { type: 'button', class: 'small', 'data-testid': `phrase-${p}` }, t(`chat.phrase.${p}`));
        b.addEventListener('click', () => this.send({ phrase: p }));
        return b;
      }));
      form = [phrases, form];
    }
    this.el.replaceChildren(...[head, this.list, form, this.error].flat().filter(Boolean));
    this.drawLines();
  }

  drawLines() {
    if (this.hidden) return;
    const items = this.lines.map((l) => h('li', { 'data-seat': l.seat },
      h('strong', {}, l.name || this.seatName(l.seat)), ': ',
      // Text as text: `h` never parses it.
      l.phrase ? h('em', {}, t(`chat.phrase.${l.phrase}`)) : l.text));
    if (!items.length) items.push(h('li', { class: 'hint' }, t('chat.empty')));
    this.list.replaceChildren(...items);
    this.list.scrollTop = this.list.scrollHeight;
  }
}
