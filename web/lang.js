// The language switch: one button per language, each named in its own language. Choosing one
// keeps it on this device (`setLang`) and draws the page shown again in it.

import { h } from './dom.js';
import { LANGS, currentLang, setLang, t } from './i18n.js';

/// A group of buttons, the current language pressed.
export function langSwitch() {
  const group = h('div', { class: 'lang-switch', role: 'group', 'aria-label': t('lang.choose'), 'data-testid': 'lang-switch' });
  const shown = currentLang() === 'qps' ? 'en' : currentLang();
  for (const l of LANGS) {
    const pressed = l === shown;
    const b = h('button', {
      type: 'button',
      lang: l,
      class: 'lang-button',
      'aria-pressed': pressed ? 'true' : 'false',
      'data-testid': `lang-${l}`,
    }, t(`lang.${l}`));
    b.addEventListener('click', async () => {
      if (l === currentLang()) return;
      for (const other of group.querySelectorAll('button')) other.disabled = true;
      try {
        await setLang(l);
      } finally {
        // The page is drawn anew in the new language, this switch with it.
        dispatchEvent(new PopStateEvent('popstate'));
      }
    });
    group.append(b);
  }
  return group;
}
