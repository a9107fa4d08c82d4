// Small helpers for the page's elements: building them without string concatenation (so nothing
// a server or a player sends is ever parsed as HTML), the clipboard, what screen readers are
// told, and whether the player plays by touch.

/// h('button', {class: 'x', onclick: f, 'data-testid': 't'}, 'text', child, …)
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked') el.checked = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/// Makes `nodes` the children of `parent`, in order, leaving those it has already where they are:
/// a node moved or put back is laid out anew, one left alone is not.
export function keep(parent, nodes) {
  const wanted = new Set(nodes);
  for (const c of [...parent.childNodes]) if (!wanted.has(c)) c.remove();
  nodes.forEach((n, i) => {
    if (parent.childNodes[i] !== n) parent.insertBefore(n, parent.childNodes[i] || null);
  });
}

/// Copies `text` to the clipboard, falling back to selecting it in `input`.
export async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
    }
    return false;
  }
}

/// Tells screen readers what changed, once.
export function announce(text) {
  const region = document.getElementById('announce');
  if (region && region.textContent !== text) region.textContent = text;
}

/// Whether the player plays by touch: then no text mentions keys.
export function touch() {
  return window.matchMedia('(hover: none) and (pointer: coarse)').matches;
}

/// A picture inside a control that has its own name: screen readers read the name only.
export function hidden(el) {
  el.setAttribute('aria-hidden', 'true');
  el.removeAttribute('role');
  el.removeAttribute('aria-label');
  return el;
}
