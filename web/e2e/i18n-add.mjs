// Adds messages to the catalogues, keeping them sorted: `node web/e2e/i18n-add.mjs FRAGMENT.json`
// where the fragment is {"en": {key: message}, "de": {key: message}}. Used while writing the page
// so that several people can add messages without editing the same lines by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const fragment = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const [lang, add] of Object.entries(fragment)) {
  const file = join(here, "..", "i18n", `${lang}.json`);
  let cat = {};
  try {
    cat = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    cat = {};
  }
  Object.assign(cat, add);
  const sorted = Object.fromEntries(Object.keys(cat).sort().map((k) => [k, cat[k]]));
  writeFileSync(file, `${JSON.stringify(sorted, null, 1)}\n`);
}
