// Folding panels beside the board: each section can be folded to its heading, so the board keeps
// the room. A section stays as the player left it on this device (localStorage, one key per
// section); a section the game needs now (the intermezzo storage when a tile must be taken from
// it) opens by itself (`Fold.need`) without changing what is remembered.

import { h } from './dom.js';

const KEY = 'sagani.fold.';

function remembered(id) {
  try {
    const v = localStorage.getItem(KEY + id);
    return v === null ? null : v === 'open';
  } catch {
    return null;
  }
}

function remember(id, open) {
  try {
    localStorage.setItem(KEY + id, open ? 'open' : 'closed');
  } catch {
    // A browser that keeps nothing folds as it opened.
  }
}

export class Fold {
  /// `id` names the section (`data-testid="fold-{id}"`); `title` the heading, `extra` what stands
  /// beside it (a "?"), `body` what folds; `open` whether it is open when the player never chose.
  constructor(id, title, body, { open = true, extra = null, cls = '' } = {}) {
    this.id = id;
    this.chosen = remembered(id);
    this.needed = false;
    const bodyId = `fold-body-${id}`;
    this.head = h('button', { type: 'button', class: 'fold-head', 'aria-controls': bodyId, 'data-testid': `fold-${id}` }, title);
    this.body = h('div', { class: 'fold-body', id: bodyId }, body);
    this.el = h('section', { class: `panel fold ${cls}`.trim(), 'data-fold': id },
      h('h2', { class: 'fold-title' }, this.head, extra), this.body);
    this.head.addEventListener('click', () => {
      this.chosen = !this.open;
      remember(id, this.chosen);
      // Folded by hand while needed: it stays folded until the game needs it again.
      this.needed = false;
      this.show();
    });
    this.fallback = open;
    this.show();
  }

  get open() {
    return this.needed || (this.chosen === null ? this.fallback : this.chosen);
  }

  /// The game needs the section (true) or no longer (false): it opens, then goes back to what
  /// the player chose.
  need(yes) {
    if (yes === this.wanted) return;
    this.wanted = yes;
    this.needed = yes;
    this.show();
  }

  show() {
    const open = this.open;
    this.head.setAttribute('aria-expanded', String(open));
    this.el.classList.toggle('folded', !open);
    this.body.hidden = !open;
  }
}
