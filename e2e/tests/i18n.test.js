// Every text of the client exists in every language, with the same {holes}, and every key the code asks
// for exists: a missing Spanish or French text would silently show English, a missing key its own name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const WEB = new URL('../../crates/server/web/', import.meta.url);

// i18n.js reads the browser's language and sets the page's lang when it loads.
globalThis.navigator = { languages: ['en'] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { STRINGS, LANGS } = await import(new URL('js/i18n.js', WEB));
const { HOWTO_TEXT } = await import(new URL('js/howto.js', WEB));

/** `{ 'a.b': 'text', … }` of a nested table. */
function flat(table, prefix = '') {
  return Object.entries(table).flatMap(([k, v]) => (typeof v === 'object' ? Object.entries(flat(v, `${prefix}${k}.`)) : [[`${prefix}${k}`, v]]))
    .reduce((o, [k, v]) => Object.assign(o, { [k]: v }), {});
}

const holes = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every language has every text of every other, none empty, with the same {holes}', () => {
  const en = flat(STRINGS.en);
  assert.deepEqual(Object.keys(LANGS).sort(), Object.keys(STRINGS).sort());
  for (const lang of Object.keys(STRINGS)) {
    const other = flat(STRINGS[lang]);
    assert.deepEqual(Object.keys(other).filter((k) => !(k in en)), [], `${lang} has texts English lacks`);
    assert.deepEqual(Object.keys(en).filter((k) => !(k in other)), [], `${lang} lacks texts`);
    for (const [key, text] of Object.entries(other)) {
      assert.ok(String(text).trim(), `${lang}.${key} is empty`);
      assert.deepEqual(holes(text), holes(en[key]), `${lang}.${key} has other holes than English`);
    }
  }
});

test('every text the client asks for by name exists', () => {
  const en = flat(STRINGS.en);
  const files = readdirSync(new URL('js/', WEB)).filter((f) => f.endsWith('.js')).map((f) => new URL(`js/${f}`, WEB));
  files.push(new URL('index.html', WEB));
  const asked = new Set();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/\bt\(\s*'([a-z0-9_.]+)'\s*[,)]/g)) asked.add(m[1]);
    for (const m of source.matchAll(/data-i18n(?:-label)?="([a-z0-9_.]+)"/g)) asked.add(m[1]);
  }
  assert.ok(asked.size > 100, `found only ${asked.size} keys: the scan is broken`);
  assert.deepEqual([...asked].filter((k) => !(k in en)).sort(), [], 'keys the code asks for and no language has');
});

test('the how-to-play page says as much in every language: the same rule sets, modes and number of points', () => {
  const shape = (v) => (Array.isArray(v) ? v.length : typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : 'text');
  assert.deepEqual(Object.keys(HOWTO_TEXT).sort(), Object.keys(LANGS).sort());
  for (const lang of Object.keys(HOWTO_TEXT)) {
    assert.deepEqual(shape(HOWTO_TEXT[lang]), shape(HOWTO_TEXT.en), `${lang} differs from English`);
  }
});
