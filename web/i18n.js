// Words on the page: every text a person reads comes from a message catalogue, one per language
// (`i18n/en.json`, `i18n/de.json`). Nothing here knows a word of either language.
//
// A catalogue maps a key to a message. `{name}` in a message is filled from the parameters; a
// message that depends on a number is an object of plural forms (`one`, `other`, …, as
// Intl.PluralRules names them), chosen by the parameter `count`.
//
// The pseudo-language `qps` (tests only) is English with every message wrapped in ⟦ ⟧, so a test
// can find any visible text that did not come from a catalogue.

export const LANGS = ['en', 'de'];
const KEY = 'sagani.lang';

let lang = 'en';
let messages = {};
let plurals = new Intl.PluralRules('en');

/// The language to show: the one chosen on this device, else the browser's first we speak.
export function pickLang() {
  const chosen = (() => {
    try {
      return localStorage.getItem(KEY);
    } catch {
      return null;
    }
  })();
  if (chosen && (LANGS.includes(chosen) || chosen === 'qps')) return chosen;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/// Loads the catalogue of `wanted` (every catalogue has every message: a test checks it).
export async function loadLang(wanted = pickLang()) {
  const file = wanted === 'qps' ? 'en' : wanted;
  const fetchJson = async (l) => {
    const r = await fetch(`/assets/i18n/${l}.json`);
    if (!r.ok) throw new Error(`the ${l} messages cannot be loaded (${r.status})`);
    return r.json();
  };
  // A catalogue that cannot be loaded falls back to English rather than to keys.
  messages = await fetchJson(file).catch((e) => (file === 'en' ? Promise.reject(e) : fetchJson('en')));
  if (wanted === 'qps') {
    for (const [k, v] of Object.entries(messages)) {
      messages[k] = typeof v === 'string' ? `⟦${v}⟧` : Object.fromEntries(Object.entries(v).map(([f, s]) => [f, `⟦${s}⟧`]));
    }
  }
  lang = wanted;
  plurals = new Intl.PluralRules(file);
  document.documentElement.lang = file;
  return lang;
}

/// Chooses a language on this device and loads it.
export async function setLang(l) {
  try {
    localStorage.setItem(KEY, l);
  } catch {
    // A browser that keeps nothing still switches for this visit.
  }
  return loadLang(l);
}

export function currentLang() {
  return lang;
}

/// The message `key`, with `{name}`s filled from `params`.
export function t(key, params = {}) {
  let m = messages[key];
  if (m === undefined) {
    // Loud on purpose: the catalogue test and the console check both catch it.
    console.error(`missing message ${key}`);
    return `⚠${key}`;
  }
  if (typeof m === 'object') {
    const form = plurals.select(Number(params.count));
    m = m[form] ?? m.other;
  }
  return m.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));
}

/// Whether the catalogue has `key` (for optional messages such as a reason's own wording).
export function has(key) {
  return messages[key] !== undefined;
}

/// A number as the language writes it.
export function num(n) {
  return new Intl.NumberFormat(lang === 'qps' ? 'en' : lang).format(n);
}
