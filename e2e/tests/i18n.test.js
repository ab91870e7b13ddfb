// Every text of the client exists in every language, with the same {holes}, and every key the code asks
// for exists: a missing Spanish or French text would silently show English, a missing key its own name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { startServer } from '../lib/server.js';

const WEB = new URL('../../crates/server/web/', import.meta.url);

// i18n.js reads the browser's language and sets the page's lang when it loads.
globalThis.navigator = { languages: ['en'] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { STRINGS, LANGS, isPlural } = await import(new URL('js/i18n.js', WEB));
const { HOWTO_TEXT } = await import(new URL('js/howto.js', WEB));

/** `{ 'a.b': 'text', … }` of a nested table; a text with plural forms is one text, its forms joined. */
function flat(table, prefix = '') {
  return Object.entries(table).flatMap(([k, v]) => (typeof v !== 'object' ? [[`${prefix}${k}`, v]]
    : isPlural(v) ? [[`${prefix}${k}`, Object.values(v).join(' | ')]] : Object.entries(flat(v, `${prefix}${k}.`))))
    .reduce((o, [k, v]) => Object.assign(o, { [k]: v }), {});
}

/** The holes of a text (once each: a plural form may leave out the number its other forms show). */
const holes = (text) => [...new Set([...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

/** Every `key: { one: …, other: … }` of a language, with its path. */
function plurals(table, prefix = '') {
  return Object.entries(table).flatMap(([k, v]) => (typeof v !== 'object' ? []
    : isPlural(v) ? [[`${prefix}${k}`, v]] : plurals(v, `${prefix}${k}.`)));
}

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

test('a text that depends on a number has only its language\'s plural forms, and the other one', () => {
  for (const lang of Object.keys(STRINGS)) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, forms] of plurals(STRINGS[lang])) {
      assert.ok(forms.other, `${lang}.${key} has no "other" form`);
      const foreign = Object.keys(forms).filter((f) => !f.startsWith('=') && !categories.includes(f));
      assert.deepEqual(foreign, [], `${lang}.${key}: forms ${lang} does not use`);
    }
  }
});

test('French counts 0 and 1 in the singular, English 1 only; exact zero has its own sentence', async () => {
  globalThis.navigator = { languages: ['fr-FR'] };
  globalThis.localStorage = { getItem: () => null, setItem: () => {} };
  globalThis.document = { documentElement: {} };
  const i18n = await import(new URL('js/i18n.js?plural', WEB));
  assert.equal(i18n.getLang(), 'fr');
  assert.equal(i18n.t('spectators', { n: 1 }), '1 spectateur');
  assert.equal(i18n.t('spectators', { n: 0 }), '0 spectateur');
  assert.equal(i18n.t('spectators', { n: 3 }), '3 spectateurs');
  assert.equal(i18n.t('rating_games', { n: 1 }), '1 partie classée');
  assert.equal(i18n.winnersText(['Ana']), 'Vainqueur : Ana');
  assert.equal(i18n.winnersText(['Ana', 'Bea']), 'Vainqueurs : Ana, Bea');
  assert.equal(i18n.t('others_signed_out', { n: 0 }), 'Aucun autre appareil n’était connecté.');
  assert.equal(i18n.t('others_signed_out', { n: 1 }), '1 autre appareil a été déconnecté.');
  i18n.setLang('en');
  assert.equal(i18n.t('rating_games', { n: 0 }), '0 rated games');
  assert.equal(i18n.t('rating_games', { n: 1 }), '1 rated game');
  assert.equal(i18n.t('expert_choices', { n: 2 }), '2 legal moves');
  assert.equal(i18n.t('others_signed_out', { n: 2 }), '2 other devices were signed out.');
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

test('the how-to page says the same numbers in every language, sentence by sentence, and covers every mode of the create form', () => {
  // A number one language gives and another does not (a 6 that counts 7, a count of 20, 102 squares) is a
  // rule that reads differently across the languages.
  const numbers = (text) => (String(text).match(/\d+/g) || []).sort();
  const en = flat(HOWTO_TEXT.en);
  for (const lang of Object.keys(HOWTO_TEXT)) {
    for (const [key, text] of Object.entries(flat(HOWTO_TEXT[lang]))) {
      assert.deepEqual(numbers(text), numbers(en[key]), `${lang}.${key}: ${text}`);
    }
    // Each mode the form offers has its line, under the form's own name for it (howto.js renders t('modes.…')).
    assert.deepEqual(Object.keys(HOWTO_TEXT[lang].modes).sort(), Object.keys(STRINGS[lang].modes).sort(), lang);
    assert.deepEqual(Object.keys(HOWTO_TEXT[lang].sets).sort(), Object.keys(STRINGS[lang].rulesets).sort(), lang);
  }
});

test('the how-to page\'s numbers are the referee\'s: GET /api/rules', async () => {
  const srv = await startServer();
  try {
    const cat = await fetch(`${srv.api}/api/rules`).then((r) => r.json());
    const en = HOWTO_TEXT.en;
    const has = (text, n) => (String(text).match(/\d+/g) || []).includes(String(n));
    const modeNames = Object.keys(en.modes).sort();
    for (const set of cat.rule_sets) {
      // "Every rule set can be played in every mode."
      assert.deepEqual(set.modes.map((m) => m.name).sort(), modeNames, set.name);
      const ind = set.modes.find((m) => m.name === 'individual').options;
      // The common count line: 20 for a capture, 10 for an arrival, in every rule set.
      const count = en.common.find((line) => /count/i.test(line) && /capture/.test(line));
      assert.ok(has(count, ind.capture_bonus) && has(count, ind.goal_bonus), `${set.name}: ${count}`);
      // What a six counts: 7 (Playgridia, Ludoteka) or 12 (Morocco), in the rule set's own section.
      const six = { '7player': 7, '7colour': 7, 12: 12 }[ind.six];
      assert.ok(six, `${set.name}: six=${ind.six}`);
      assert.ok(en.sets[set.name].some((line) => /\b6\b/.test(line) && has(line, six)), `${set.name}: a 6 counts ${six}`);
      // Which piece three sixes send home.
      const penalty = { last: /last piece you moved/, second: /piece moved with the second six/ }[ind.three_sixes];
      assert.ok(en.sets[set.name].some((line) => /^Three sixes/.test(line) && penalty.test(line)), `${set.name}: three_sixes=${ind.three_sixes}`);
      // Blockades in the lane: Playgridia's do not block there, the others' do.
      const lane = en.sets[set.name].find((line) => /(blockade|barrier) nobody passes/.test(line));
      assert.equal(/in the lane they do not block/.test(lane), ind.lane_blockades === '0', `${set.name}: ${lane}`);
      // Who must open a blockade on a 6.
      assert.equal(en.sets[set.name].some((line) => /Nothing forces you to open it/.test(line)), ind.must_open_blockade_on_six === '0', set.name);
      // The pieces each mode is won with.
      // The pieces each mode is won with: pieces_to_win of every colour of the side (win=all), or of one (win=any).
      const colours = { individual: 1, quick: 1, pairs: 2, '1v1': 2, '6-piece': 2, '3v3': 3 };
      for (const m of set.modes) {
        const o = m.options;
        const n = o.win === 'all' ? Number(o.pieces_to_win) * colours[m.name] : Number(o.pieces_to_win);
        const line = en.modes[m.name];
        assert.match(line, new RegExp(`\\b${n} (pieces|to the goal)`), `${set.name} ${m.name}: won with ${n} pieces`);
        assert.equal(/either colour/.test(line), o.win === 'any', `${set.name} ${m.name}: win=${o.win}`);
      }
    }
  } finally { await srv.stop(); }
});

test('the how-to page tells how several people play at one device, quoting the waiting room\'s and the create form\'s own words', () => {
  for (const lang of Object.keys(HOWTO_TEXT)) {
    const label = STRINGS[lang].add_local.replace(/\s*:\s*$/, '');
    assert.ok(HOWTO_TEXT[lang].device.includes(label), `${lang}: "${label}" not in ${HOWTO_TEXT[lang].device}`);
    // And the create form's choice for a seat, word for word.
    assert.ok(HOWTO_TEXT[lang].device.includes(STRINGS[lang].seat_local), `${lang}: "${STRINGS[lang].seat_local}" not in the how-to`);
  }
});

test('Arabic has every text in Arabic: no English left, arrows pointing the way it reads, Western digits', () => {
  assert.equal(LANGS.ar, 'العربية');
  // Latin words an Arabic text may hold: proper names, the server's setting, the name erased players get and
  // the data file's format.
  const allowed = new Set(['Parchís', 'Playgridia', 'Ludoteka', 'Weng', 'Lin', 'OpenSkill', 'SHA', 'ADMIN_TOKEN', 'README', 'Deleted', 'player', 'JSON']);
  const texts = { ...flat(STRINGS.ar), ...Object.fromEntries(Object.entries(flat(HOWTO_TEXT.ar)).map(([k, v]) => [`howto.${k}`, v])) };
  for (const [key, text] of Object.entries(texts)) {
    const words = String(text).replace(/\{\w+\}/g, '').match(/[A-Za-zÀ-ÿ_]{2,}/g) || [];
    assert.deepEqual(words.filter((w) => !allowed.has(w)), [], `ar.${key} is not in Arabic: ${text}`);
    assert.ok(!/→/.test(text), `ar.${key}: an arrow pointing left to right`);
    assert.ok(!/[\u0660-\u0669\u06f0-\u06f9]/.test(text), `ar.${key}: Western digits (0–9) as in Morocco`);
  }
  // Nearly every text has Arabic letters (the others are names and numbers).
  const arabic = Object.values(texts).filter((v) => /[\u0600-\u06ff]/.test(v)).length;
  assert.ok(arabic > Object.keys(texts).length * 0.95, `${arabic} of ${Object.keys(texts).length} texts in Arabic letters`);
});

test('an Arabic browser gets Arabic, right to left; what fills a hole keeps its own direction; English is left to right again', async () => {
  const saved = [];
  globalThis.navigator = { languages: ['ar-MA', 'fr'] };
  globalThis.localStorage = { getItem: () => null, setItem: (k, v) => saved.push([k, v]) };
  globalThis.document = { documentElement: {} };
  // A fresh copy of the module, reading this browser's languages.
  const i18n = await import(new URL('js/i18n.js?arabic', WEB));
  assert.equal(i18n.getLang(), 'ar');
  assert.deepEqual(document.documentElement, { lang: 'ar', dir: 'rtl' });
  // A name, a piece or a signed number between isolates (FSI … PDI); a plain number as it is.
  assert.equal(i18n.t('turn_of', { name: 'Ana B.' }), 'دور \u2068Ana B.\u2069');
  assert.equal(i18n.t('rating_change', { change: '+23' }), 'التصنيف \u2068+23\u2069');
  assert.equal(i18n.t('seats_free', { n: 3 }), 'شاغرة: 3');
  assert.equal(i18n.t('path', { from: 'A', to: 'B' }), '\u2068A\u2069 ← \u2068B\u2069');
  assert.equal(i18n.listNames(['Ana', 'Bot 2', 'Rim']), 'Ana، Bot 2 و Rim');
  assert.equal(i18n.dateLocale(), 'ar-MA-u-nu-latn');
  assert.equal(new Date(Date.UTC(2026, 0, 31)).toLocaleDateString(i18n.dateLocale(), { timeZone: 'UTC' }).replace(/[^\d/]/g, ''), '31/1/2026');
  i18n.setLang('en');
  assert.deepEqual(document.documentElement, { lang: 'en', dir: 'ltr' });
  assert.deepEqual(saved, [['parchis.lang', 'en']]);
  assert.equal(i18n.t('turn_of', { name: 'Ana B.' }), "Ana B.'s turn");
  assert.equal(i18n.dateLocale(), undefined);
});

test('refused room settings say which check refused them in the page\'s language, for every check the server names', async () => {
  globalThis.navigator = { languages: ['fr-FR'] };
  globalThis.localStorage = { getItem: () => null, setItem: () => {} };
  globalThis.document = { documentElement: {} };
  const i18n = await import(new URL('js/i18n.js?settings', WEB));
  // The reasons: the server's own checks (crates/server/src/settings.rs) and the referee's set-up codes.
  const server = readFileSync(new URL('../../crates/server/src/settings.rs', import.meta.url), 'utf8');
  const rules = readFileSync(new URL('../../crates/rules/src/error.rs', import.meta.url), 'utf8');
  // `house_rule` is left to the server's sentence, which names the rule and the value refused.
  const own = [...server.matchAll(/(?:invalid\(\s*|reason: )"(\w+)"/g)].map((m) => m[1]).filter((r) => r !== 'house_rule');
  const setup = [...rules.matchAll(/SetupError::\w+(?:\(_\)| \{ \.\. \})? => "(\w+)"/g)].map((m) => m[1])
    .filter((r) => !r.startsWith('unknown_')); // a form only offers known rule sets and modes
  assert.ok(own.length >= 4 && setup.length >= 4, `${own} / ${setup}`);
  for (const lang of Object.keys(STRINGS)) {
    assert.deepEqual([...own, ...setup].filter((r) => !STRINGS[lang].errors.settings[r]), [], `${lang}: reasons without a text`);
  }
  assert.equal(i18n.errorText('invalid_settings', 'A room needs 2 to 6 players, not 7.', 'players'), 'Un salon se joue à 2 à 6 joueurs.');
  assert.equal(i18n.errorText('invalid_settings', 'pairs is played by [4] players, not 3.', 'bad_player_count'),
    'Ce mode ne se joue pas à ce nombre de joueurs.');
  // A check the page does not know yet: the server's sentence, which names the detail.
  assert.equal(i18n.errorText('invalid_settings', 'Something new is wrong.', 'something_new'), 'Something new is wrong.');
  const house = 'House rule `capture_bonus`: bad option `capture_bonus=50`: expected 0 to 40.';
  assert.equal(i18n.errorText('invalid_settings', house, 'house_rule'), house);
  i18n.setLang('es');
  assert.equal(i18n.errorText('invalid_settings', '…', 'no_human_seat'), 'Deja al menos un puesto para una persona.');
});

test('a refused move names the rule it breaks in the page\'s language, for every rule the referee can name', async () => {
  globalThis.navigator = { languages: ['es-ES'] };
  globalThis.localStorage = { getItem: () => null, setItem: () => {} };
  globalThis.document = { documentElement: {} };
  const i18n = await import(new URL('js/i18n.js?reasons', WEB));
  // The reasons are the referee's `IllegalMove` codes (crates/rules/src/error.rs): each has its words.
  const rules = readFileSync(new URL('../../crates/rules/src/error.rs', import.meta.url), 'utf8');
  const reasons = [...rules.matchAll(/IllegalMove::\w+ => "(\w+)"/g)].map((m) => m[1]);
  assert.ok(reasons.length >= 9, `${reasons}`);
  assert.deepEqual(reasons.filter((r) => !STRINGS.en.errors.illegal[r]), [], 'reasons without a text');
  assert.equal(i18n.errorText('illegal_move', 'illegal move: a capture is possible, and capturing is mandatory', 'must_capture'),
    'Se puede comer, y comer es obligatorio.');
  // A reason the page does not know yet: the general words for the code.
  assert.equal(i18n.errorText('illegal_move', 'illegal move: something new', 'something_new'), STRINGS.es.errors.illegal_move);
  assert.equal(i18n.errorText('not_your_turn', 'It is not your turn.'), STRINGS.es.errors.not_your_turn);
  i18n.setLang('fr');
  assert.equal(i18n.errorText('illegal_move', '…', 'must_open_blockade'), 'Avec un six, un pion de votre barrage doit bouger.');
});

test('a database out of reach is said in the page\'s language, and whether the change may have been saved', async () => {
  globalThis.navigator = { languages: ['es-ES'] };
  globalThis.localStorage = { getItem: () => null, setItem: () => {} };
  globalThis.document = { documentElement: {} };
  const i18n = await import(new URL('js/i18n.js?storage', WEB));
  const server = 'The server cannot reach its database just now; nothing was changed. Try again in a moment.';
  assert.equal(i18n.errorText('storage_unavailable', server), STRINGS.es.errors.storage_unavailable);
  assert.match(STRINGS.es.errors.storage_unavailable, /no se ha cambiado nada/);
  // The connection broke mid-way: the page does not say that nothing changed.
  const maybe = i18n.errorText('storage_unavailable', 'The server lost its database…', 'maybe_stored');
  assert.equal(maybe, STRINGS.es.errors.storage.maybe_stored);
  for (const lang of Object.keys(STRINGS)) {
    assert.notEqual(STRINGS[lang].errors.storage.maybe_stored, STRINGS[lang].errors.storage_unavailable, lang);
  }
  i18n.setLang('fr');
  assert.equal(i18n.errorText('storage_unavailable', server), STRINGS.fr.errors.storage_unavailable);
});
