// What a name may be, checked on the page before it is sent: the server's rule
// (crates/sagani-server/src/names.rs, the OpenAPI document's `Credentials`), so a person learns
// what is wrong while typing. A refusal has the shape of the server's `detail`, worded by
// `refusals.js`; look-alikes and reserved names only the server can tell.

export const NAME_MIN = 3;
export const NAME_MAX = 20;
export const DISPLAY_NAME_MIN = 1;
export const DISPLAY_NAME_MAX = 24;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
const MAX_MARKS = 3;

/// An account's name: letters and decimal digits of any script, `_` and `-`; marks after them.
const NAME = /^[\p{L}\p{Nd}_-][\p{L}\p{M}\p{Nd}_-]*$/u;
const MARK = /^\p{M}$/u;
const LETTER = /^[\p{L}\p{Nd}]$/u;
/// A character an error can show as itself (not a space, a mark, a control or an invisible one).
const VISIBLE = /^[\p{L}\p{N}\p{P}\p{S}]$/u;

const codePoint = (c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/// The characters a name counts, as the server counts them (in NFKC).
export const length = (text) => [...text.normalize('NFKC')].length;

/// What is wrong with `raw` as an account's name (a detail as the server sends it), or null.
export function checkName(raw) {
  const name = raw.normalize('NFKC');
  const chars = [...name];
  if (chars.length < NAME_MIN || chars.length > NAME_MAX) return { kind: 'name_length', min: NAME_MIN, max: NAME_MAX, len: chars.length };
  let marks = 0;
  let afterLetter = false;
  for (const c of chars) {
    const mark = MARK.test(c);
    const letter = LETTER.test(c);
    marks = mark ? marks + 1 : 0;
    if (!(letter || (mark && afterLetter) || c === '_' || c === '-')) {
      return { kind: 'name_character', code_point: codePoint(c), ...(VISIBLE.test(c) ? { character: c } : {}) };
    }
    if (marks > MAX_MARKS) return { kind: 'too_many_marks', max: MAX_MARKS, code_point: codePoint(c) };
    afterLetter = mark || letter;
  }
  return NAME.test(name) ? null : { kind: 'name_character', code_point: codePoint(chars[0]) };
}

/// The characters a display name counts: in NFKC, its spaces collapsed and trimmed.
export const displayLength = (text) => [...text.normalize('NFKC').split(/\s+/u).filter(Boolean).join(' ')].length;

/// What is wrong with the length of `raw` as a guest's display name, or null. Unseen
/// characters are the server's to name.
export function checkDisplayName(raw) {
  const len = displayLength(raw);
  return len < DISPLAY_NAME_MIN || len > DISPLAY_NAME_MAX ? { kind: 'display_name_length', min: DISPLAY_NAME_MIN, max: DISPLAY_NAME_MAX, len } : null;
}

/// What is wrong with a new password, or null.
export function checkPassword(password) {
  const len = [...password].length;
  return len < PASSWORD_MIN || len > PASSWORD_MAX ? { kind: 'password_length', min: PASSWORD_MIN, max: PASSWORD_MAX } : null;
}
