// The board, shared by the table and the replay: one display in a frame, sized to fit (but never
// with cells smaller than a fingertip: a larger display pans instead), with zoom by buttons (−,
// Fit, +), the wheel (with Ctrl), pinching and double-tapping, and panning by dragging; or every
// display at once, each fitted to its box. It holds no game state: the page hands it drawn
// displays.

import { h } from './dom.js';
import { t } from './i18n.js';

/// Largest cell when the display is fitted: a display of three tiles should not fill a screen.
const MAX_FIT_CELL = 140;
/// Smallest cell at zoom 1: a touch target's size (44 px). A display that would need smaller
/// cells to fit its frame pans instead; only the player zooming out (−, Fit, a pinch) makes the
/// cells smaller, down to the whole display in the frame.
export const MIN_CELL = 44;
const MAX_ZOOM = 4;

export class Frame {
  /// `wrap`: the scrolling element; `onZoom(zoom)` is told of every change.
  constructor(wrap, { onZoom } = {}) {
    this.wrap = wrap;
    this.svg = null;
    this.cols = 1;
    this.rows = 1;
    this.zoom = 1;
    this.onZoom = onZoom || (() => {});
    this.pointers = new Map();
    this.moved = false;
    this.lastTap = null;
    this.listen();
    // The frame's size, kept from the observer so that drawing a display never has to ask the
    // browser for a fresh layout.
    this.size = null;
    this.resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      this.size = [box.width, box.height];
      this.layout();
    });
    this.resize.observe(wrap);
  }

  close() {
    this.resize.disconnect();
  }

  /// Forgets a first tap: after a move, the next tap starts afresh (two quick taps on cells in
  /// two moves are no double tap).
  cancelTap() {
    this.lastTap = null;
  }

  /// Puts a drawn display in the frame (`cols`×`rows` cells, `centre` the cell to keep in view).
  show(svgEl, cols, rows) {
    const first = !this.svg;
    // A display that fits is centred by its frame: nothing to keep in view.
    const middle = first || !this.overflows() ? null : this.middle();
    // The same picture updated in place stays where it is (moved, it would be restyled).
    if (this.svg !== svgEl) this.wrap.replaceChildren(svgEl);
    this.svg = svgEl;
    this.cols = cols;
    this.rows = rows;
    this.layout();
    if (middle) this.scrollToMiddle(middle);
    else if (this.overflows()) this.centre();
  }

  /// The size of a cell in pixels with the whole display in the frame.
  fitCell() {
    if (!this.size) this.size = [this.wrap.clientWidth - 16, this.wrap.clientHeight - 16];
    const [w, h] = this.size;
    if (w <= 0 || h <= 0) return 60;
    return Math.max(16, Math.min(w / this.cols, h / this.rows, MAX_FIT_CELL));
  }

  /// The size of a cell in pixels at zoom 1: the whole display fits, unless its cells would be
  /// smaller than `MIN_CELL`.
  baseCell() {
    return Math.max(this.fitCell(), MIN_CELL);
  }

  /// The smallest zoom: the whole display in the frame (1 when it fits at zoom 1).
  minZoom() {
    return Math.min(1, this.fitCell() / this.baseCell());
  }

  /// Whether the display is larger than its frame (then the view keeps its middle).
  overflows() {
    return this.zoom * this.baseCell() > this.fitCell() + 0.5;
  }

  layout() {
    if (!this.svg) return;
    // A zoom chosen for a smaller display is no smaller than the whole of this one.
    this.zoom = Math.max(this.zoom, this.minZoom());
    const cell = this.baseCell() * this.zoom;
    // Sized here only (draw.js leaves a framed picture's size alone), and only when it changes:
    // a new size paints the whole picture again.
    if (!this.svg.hasAttribute('data-framed')) this.svg.setAttribute('data-framed', '');
    const width = String(Math.round(this.cols * cell));
    const height = String(Math.round(this.rows * cell));
    if (this.svg.getAttribute('width') !== width) this.svg.setAttribute('width', width);
    if (this.svg.getAttribute('height') !== height) this.svg.setAttribute('height', height);
    const zoom = String(Math.round(this.zoom * 100) / 100);
    if (this.wrap.dataset.zoom !== zoom) this.wrap.dataset.zoom = zoom;
  }

  centre() {
    const w = this.wrap;
    w.scrollLeft = (w.scrollWidth - w.clientWidth) / 2;
    w.scrollTop = (w.scrollHeight - w.clientHeight) / 2;
  }

  /// The point in the middle of the view, as a fraction of the display.
  middle() {
    const w = this.wrap;
    return [(w.scrollLeft + w.clientWidth / 2) / Math.max(1, w.scrollWidth), (w.scrollTop + w.clientHeight / 2) / Math.max(1, w.scrollHeight)];
  }

  scrollToMiddle([mx, my]) {
    const w = this.wrap;
    w.scrollLeft = mx * w.scrollWidth - w.clientWidth / 2;
    w.scrollTop = my * w.scrollHeight - w.clientHeight / 2;
  }

  /// Zooms to `zoom`, keeping the display point under (clientX, clientY) where it is.
  zoomTo(zoom, clientX, clientY) {
    const z = Math.min(MAX_ZOOM, Math.max(this.minZoom(), zoom));
    if (!this.svg || Math.abs(z - this.zoom) < 0.001) return;
    const w = this.wrap;
    const box = w.getBoundingClientRect();
    const px = (clientX ?? box.left + box.width / 2) - box.left;
    const py = (clientY ?? box.top + box.height / 2) - box.top;
    const svgBox = this.svg.getBoundingClientRect();
    // The point under the finger, as a fraction of the drawn display.
    const fx = (px + box.left - svgBox.left) / Math.max(1, svgBox.width);
    const fy = (py + box.top - svgBox.top) / Math.max(1, svgBox.height);
    this.zoom = z;
    this.layout();
    const after = this.svg.getBoundingClientRect();
    w.scrollLeft += after.left + fx * after.width - (box.left + px);
    w.scrollTop += after.top + fy * after.height - (box.top + py);
    this.onZoom(this.zoom);
  }

  listen() {
    const w = this.wrap;
    let from = null;
    let pinch = null;
    w.addEventListener('pointerdown', (ev) => {
      if (ev.pointerType === 'mouse' && ev.button !== 0) return;
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (this.pointers.size === 1) {
        from = { x: ev.clientX, y: ev.clientY, left: w.scrollLeft, top: w.scrollTop };
        this.moved = false;
      } else if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y), zoom: this.zoom };
        from = null;
        this.moved = true;
      }
    });
    w.addEventListener('pointermove', (ev) => {
      if (!this.pointers.has(ev.pointerId)) return;
      this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pinch && this.pointers.size >= 2) {
        const [a, b] = [...this.pointers.values()];
        const dist = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch.dist > 0) this.zoomTo(pinch.zoom * (dist / pinch.dist), (a.x + b.x) / 2, (a.y + b.y) / 2);
        return;
      }
      if (!from) return;
      const dx = ev.clientX - from.x;
      const dy = ev.clientY - from.y;
      if (!this.moved && Math.hypot(dx, dy) < 6) return;
      this.moved = true;
      w.classList.add('panning');
      w.scrollLeft = from.left - dx;
      w.scrollTop = from.top - dy;
    });
    const stop = (ev) => {
      this.pointers.delete(ev.pointerId);
      if (this.pointers.size < 2) pinch = null;
      if (this.pointers.size === 0) {
        from = null;
        w.classList.remove('panning');
      }
    };
    w.addEventListener('pointerup', (ev) => {
      // Two quick taps in one place zoom in there (or back out).
      if (ev.pointerType === 'touch' && !this.moved && this.pointers.size === 1) {
        const now = ev.timeStamp;
        const last = this.lastTap;
        if (last && now - last.at < 350 && Math.hypot(ev.clientX - last.x, ev.clientY - last.y) < 30) {
          this.lastTap = null;
          this.zoomTo(this.zoom > 1.2 ? 1 : 2.2, ev.clientX, ev.clientY);
          this.moved = true; // the second tap chooses nothing
        } else {
          this.lastTap = { at: now, x: ev.clientX, y: ev.clientY };
        }
      }
      stop(ev);
    });
    w.addEventListener('pointercancel', stop);
    w.addEventListener('pointerleave', (ev) => {
      if (ev.pointerType === 'mouse') stop(ev);
    });
    // A drag or a pinch chooses no cell.
    w.addEventListener('click', (ev) => {
      if (this.moved) {
        ev.stopPropagation();
        ev.preventDefault();
        this.moved = false;
      }
    }, true);
    w.addEventListener('wheel', (ev) => {
      if (!ev.ctrlKey) return;
      ev.preventDefault();
      this.zoomTo(this.zoom * (ev.deltaY < 0 ? 1.15 : 1 / 1.15), ev.clientX, ev.clientY);
    }, { passive: false });
  }
}

/// How many cells a drawn display spans (from its viewBox, 100 units a cell).
export function span(svgEl) {
  const vb = (svgEl.getAttribute('viewBox') || '0 0 100 100').split(/\s+/).map(Number);
  return [Math.max(1, Math.round(vb[2] / 100)), Math.max(1, Math.round(vb[3] / 100))];
}

/// The board of a page: what it shows (one display in a `Frame`, or all of them) and the zoom,
/// kept from one display to the next.
export class Board {
  /// `el`: the element the displays go in.
  constructor(el) {
    this.el = el;
    this.frame = null; // the frame of the one display shown, if one is
    this.seat = null; // whose display the frame shows (kept after the frame goes)
    this.zoom = 1;
  }

  close() {
    if (this.frame) this.frame.close();
  }

  /// Shows `seat`'s display alone, in a frame that zooms; `draw(into)` draws it (`into`: the
  /// picture shown now, when it is that seat's, to update in place). Returns the drawn picture.
  showOne(seat, label, draw) {
    const same = this.frame && this.seat === seat;
    this.seat = seat;
    const svgEl = draw(same ? this.frame.svg : null);
    if (!same) {
      if (this.frame) this.frame.close();
      const wrap = h('div', { class: 'display-wrap', 'data-seat': seat, 'data-testid': `display-${seat}`, tabindex: 0, role: 'group', 'aria-label': label });
      this.el.replaceChildren(h('div', { class: 'displays one', 'data-testid': 'displays' }, wrap));
      this.frame = new Frame(wrap, { onZoom: (z) => { this.zoom = z; } });
      this.frame.zoom = this.zoom;
    }
    const [cols, rows] = span(svgEl);
    this.frame.show(svgEl, cols, rows);
    return svgEl;
  }

  /// Shows every display at once, each fitted to its box: `boxes` [{seat, heading, label, svg}]
  /// (`heading`: what the box's title holds).
  showAll(boxes) {
    if (this.frame) {
      this.frame.close();
      this.frame = null;
    }
    this.el.replaceChildren(h('div', { class: `displays all n${boxes.length}`, 'data-testid': 'displays' }, boxes.map((b) => {
      b.svg.removeAttribute('width');
      b.svg.removeAttribute('height');
      b.svg.classList.add('fit');
      return h('div', { class: 'display-box' },
        h('h3', {}, b.heading),
        h('div', { class: 'display-wrap fit', 'data-seat': b.seat, 'data-testid': `display-${b.seat}`, role: 'group', 'aria-label': b.label }, b.svg));
    })));
  }

  /// Forgets a first tap (see `Frame.cancelTap`).
  cancelTap() {
    if (this.frame) this.frame.cancelTap();
  }

  /// The zoom buttons: out, fit, in (they zoom the display shown alone).
  zoomButtons() {
    const zoom = (by, id, label, text) => {
      const b = h('button', { class: 'small icon-text', 'data-testid': id, title: label, 'aria-label': label }, text);
      b.addEventListener('click', () => {
        if (!this.frame) return;
        // Fit: the whole display, even with cells smaller than a fingertip (the player asked).
        if (by === 0) this.frame.zoomTo(this.frame.minZoom());
        else this.frame.zoomTo(this.frame.zoom * by);
      });
      return b;
    };
    return h('span', { class: 'zoom', role: 'group', 'aria-label': t('zoom.group') },
      zoom(1 / 1.25, 'zoom-out', t('zoom.out'), '−'), zoom(0, 'zoom-fit', t('zoom.fit'), t('zoom.fit.short')), zoom(1.25, 'zoom-in', t('zoom.in'), '+'));
  }
}
