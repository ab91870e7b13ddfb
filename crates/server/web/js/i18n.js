// Spanish, French, English and Arabic texts. The language comes from localStorage, else navigator.language.
// Arabic is written right to left: the page gets dir="rtl", and what is put into its texts (names, moves,
// codes) is isolated so that it keeps its own direction.
//
// The texts are in i18n/<language>.js, one a line; this file looks them up.

import ar from './i18n/ar.js';
import en from './i18n/en.js';
import es from './i18n/es.js';
import fr from './i18n/fr.js';

const S = { en, es, fr, ar };

export const LANGS = { es: 'Español', fr: 'Français', en: 'English', ar: 'العربية' };
/** The languages written right to left. */
const RTL = new Set(['ar']);
/** Every text, per language (read by the translation tests). */
export const STRINGS = S;

function detect() {
  try {
    const saved = localStorage.getItem('parchis.lang');
    if (saved && S[saved]) return saved;
  } catch { /* storage unavailable */ }
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (S[code]) return code;
  }
  return 'en';
}

let lang = detect();
const listeners = new Set();

export function getLang() { return lang; }
/** Whether the language (the page's by default) is written right to left. */
export function isRtl(l = lang) { return RTL.has(l); }
/** The page's `lang` and `dir` follow the language. */
function applyToDocument() {
  document.documentElement.lang = lang;
  document.documentElement.dir = isRtl() ? 'rtl' : 'ltr';
}
/**
 * The locale for dates: the browser's own, except in Arabic, written with Western digits (0–9) as in
 * Morocco whatever the browser's region.
 */
export function dateLocale() { return lang === 'ar' ? 'ar-MA-u-nu-latn' : undefined; }
export function setLang(l) {
  if (!S[l]) return;
  lang = l;
  try { localStorage.setItem('parchis.lang', l); } catch { /* ignore */ }
  applyToDocument();
  listeners.forEach((f) => f(l));
}
export function onLangChange(f) { listeners.add(f); return () => listeners.delete(f); }

/** ["Ana"] → "Ana"; ["Ana", "Bot 2"] → "Ana and Bot 2"; three or more → "A, B and C". */
export function listNames(names) {
  const list = [...names];
  if (list.length < 2) return list.join('');
  return `${list.slice(0, -1).join(t('list_sep'))} ${t('and')} ${list[list.length - 1]}`;
}

/**
 * What to show for an error the server (or the network) answered with `code`: the page's own words when it
 * has them, else the server's `message` (errors whose message names a detail: a rule, a limit, a field).
 */
export function errorText(code, message, reason) {
  const errors = S[lang].errors || {};
  // An illegal move names the rule it breaks, refused room settings the check, and a storage outage whether
  // the change may have been saved all the same (`reason`): said in the page's language too.
  const table = { illegal_move: errors.illegal, invalid_settings: errors.settings, storage_unavailable: errors.storage }[code];
  const why = reason && table && typeof table[reason] === 'string' && table[reason];
  if (why) return why;
  const own = code && typeof errors[code] === 'string' && errors[code];
  return own || message || code || '';
}

const PLURAL_FORM = /^(=\d+|zero|one|two|few|many|other)$/;
/** Whether a text is a set of plural forms (`{ one: …, other: … }`) rather than a table of texts. */
export function isPlural(value) {
  return value !== null && typeof value === 'object' && 'other' in value && Object.keys(value).every((k) => PLURAL_FORM.test(k));
}
const pluralRules = new Map();
/** The form for the number `n`: an exact "=n" first, then the language's own category (French: 0 and 1 are "one"). */
function pluralForm(forms, n, language) {
  const count = Number(n);
  if (!Number.isFinite(count)) return forms.other;
  if (forms[`=${count}`] !== undefined) return forms[`=${count}`];
  if (!pluralRules.has(language)) pluralRules.set(language, new Intl.PluralRules(language));
  return forms[pluralRules.get(language).select(count)] ?? forms.other;
}

/**
 * Translates a key; `vars` fill `{name}` holes. Dotted keys reach nested tables (modes.pairs). A text with
 * plural forms takes the one for `vars.n`.
 */
export function t(key, vars = {}) {
  const get = (table) => key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), table);
  let s = get(S[lang]);
  let from = lang;
  if (s === undefined) { s = get(S.en); from = 'en'; }
  if (s === undefined) return key;
  if (isPlural(s)) s = pluralForm(s, vars.n, from);
  return String(s).replace(/\{(\w+)\}/g, (_, k) => (vars[k] !== undefined ? isolate(vars[k]) : `{${k}}`));
}

/**
 * In a right-to-left text, what fills a hole (a name, a move, a place, a signed number) is put between
 * Unicode isolates (FSI … PDI, as `<bdi>` does): "Ana B." stays left to right and does not pull the
 * words around it out of order. A plain number needs none (digits keep their order anyway).
 */
function isolate(v) {
  const text = String(v);
  if (!isRtl() || text === '' || /^\d+$/.test(text)) return text;
  return `\u2068${text}\u2069`;
}

/**
 * "Playgridia · 3 v 3 (six colours)": a room's rule set and mode, each isolated in a right-to-left text (a
 * Latin rule set name followed by a mode starting with a digit would otherwise be drawn "Playgridia · 3" … "ضد 3").
 */
export function rulesAndMode(rules, mode) {
  return `${isolate(t('rulesets.' + rules))} · ${isolate(t('modes.' + mode))}`;
}

/** "Winner: Ana" or, for a team, "Winners: Ana, Bea". */
export function winnersText(names) {
  return t('winner', { names: names.join(t('list_sep')), n: names.length });
}

const LETTER = { y: 'yellow', b: 'blue', r: 'red', g: 'green', o: 'orange', t: 'turquoise' };
export function colourOfPiece(id) { return LETTER[id[0]] || 'yellow'; }
export function pieceName(id) {
  return `${t('colours.' + colourOfPiece(id))} ${id.slice(1)} (${id.toUpperCase()})`;
}
export function placeName(place) {
  if (!place) return '';
  switch (place.kind) {
    case 'square': return t('square', { n: place.at });
    case 'lane': return t('lane', { n: place.at });
    case 'goal': return t('goal');
    default: return t('home');
  }
}

/** Fills every `[data-i18n]` element of root with its text. */
export function translate(root = document) {
  root.querySelectorAll('[data-i18n]').forEach((e) => { e.textContent = t(e.dataset.i18n); });
  root.querySelectorAll('[data-i18n-label]').forEach((e) => { e.setAttribute('aria-label', t(e.dataset.i18nLabel)); });
}

applyToDocument();
