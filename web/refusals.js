// Refusals in the reader's words: the server's refusal becomes a sentence of the catalogue, by
// its code and, for a request a person got wrong, its `detail` (a move the rules refuse, by its
// `reason`). The server's English `message` is never shown.

import { has, t } from './i18n.js';
import { reasonText } from './words.js';

/// A refusal's detail (`{kind, …}`, from the server or from `names.js`) as a sentence, or null
/// for a kind this page does not know.
export function detailText(detail) {
  const key = `error.detail.${detail && detail.kind}`;
  if (!has(key)) return null;
  const params = { ...detail };
  if (detail.code_point) {
    params.char = detail.character ? t('error.char', { character: detail.character, code_point: detail.code_point }) : detail.code_point;
  }
  if (detail.kind === 'unseen') params.what = t(has(`error.unseen.${detail.what}`) ? `error.unseen.${detail.what}` : 'error.unseen.invisible');
  return t(key, params);
}

/// Any refusal (an `ApiError` of `api.js`, or anything else thrown) as a sentence.
export function refusalText(e) {
  if (e && e.reason) return reasonText(e);
  const said = e && e.detail && detailText(e.detail);
  if (said) return said;
  const code = e && e.code;
  return t(code && has(`error.code.${code}`) ? `error.code.${code}` : 'error.code.other');
}
