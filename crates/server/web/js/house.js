// House rules: the options of play a room changes on top of its rule set. Which options there are, the
// values each takes and every rule set's own come from the server (GET /api/rules): this module only names
// them in the player's language, builds the create form's section and shows a room's house rules.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { loadRules, rulesCatalogue, modeInfo } from './rules.js';

export { loadRules };

/** The options (name → text) of rule set `rules` played in `mode`: the values a room starts from. */
export function presetOptions(cat, rules, mode) {
  const set = cat.rule_sets.find((r) => r.name === rules);
  const m = set && (set.modes.find((x) => x.name === mode) || set.modes[0]);
  return m ? m.options : {};
}

/** A value as the server spells it (a JSON number or boolean too). */
const text = (v) => (v === true ? '1' : v === false ? '0' : String(v));

/** The translation of `key`, or `fallback` for an option this client has no text for. */
function translated(key, fallback) {
  const s = t(key);
  return s === key ? fallback : s;
}

/** The human name of house rule `name`. */
export function ruleName(name) { return translated(`house.${name}`, name); }

function kindOf(name) {
  const catalogue = rulesCatalogue();
  const r = catalogue && catalogue.house_rules.find((x) => x.name === name);
  return r ? r.values.kind : null;
}

/** The human text of `value` for house rule `name`. */
export function ruleValue(name, value) {
  const v = text(value);
  if (kindOf(name) === 'flag') return v === '1' ? t('house_yes') : t('house_no');
  return translated(`house_values.${name}.${v}`, v);
}

/** A room's house rules (`settings.house_rules`, absent from older rooms) in words, in the server's order. */
export function houseEntries(houseRules) {
  const catalogue = rulesCatalogue();
  const order = catalogue ? catalogue.house_rules.map((r) => r.name) : [];
  const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
  return Object.keys(houseRules || {}).sort((a, b) => rank(a) - rank(b))
    .map((name) => ({ name, text: t('label_value', { label: ruleName(name), value: ruleValue(name, houseRules[name]) }) }));
}

/** For a list: a small "House rules" tag that opens to say which (null for a room without). */
export function houseTag(houseRules) {
  const entries = houseEntries(houseRules);
  if (!entries.length) return null;
  const words = entries.map((e) => e.text).join(' · ');
  return h('details.house-tag', { 'data-house-rules': entries.length },
    h('summary', { title: words }, t('house_rules')),
    h('p.muted', words));
}

/** For a room's page: its house rules spelled out (null for a room without). */
export function houseLine(houseRules, id) {
  const entries = houseEntries(houseRules);
  if (!entries.length) return null;
  return h('p.house-line', { id },
    h('strong', t('label_value', { label: t('house_rules'), value: '' }).trim()), ' ',
    entries.map((e, i) => [i ? ' · ' : '', h('span', { 'data-house': e.name }, e.text)]));
}

/** One control for house rule `rule` of the catalogue, with its label. */
function control(rule) {
  const id = `house-${rule.name}`;
  const v = rule.values;
  let el;
  if (v.kind === 'flag') el = h('input', { type: 'checkbox', id });
  else if (v.kind === 'one_of') el = h('select', { id }, v.texts.map((x) => h('option', { value: x }, ruleValue(rule.name, x))));
  else el = h('input', { type: 'number', id, min: v.min, max: v.max, step: 1, inputmode: 'numeric', required: true, 'aria-describedby': `${id}-error` });
  el.dataset.house = rule.name;
  // Where a number field says what is wrong with it, beside it.
  const error = v.kind === 'number' ? h('p.error.house-error', { id: `${id}-error` }) : null;
  // A number as the server reads it: the field also takes "10.0", "1e1" or "010", which are 10 all the same.
  const read = () => {
    if (v.kind === 'flag') return el.checked ? '1' : '0';
    const x = el.value.trim();
    return v.kind === 'number' && x !== '' && el.validity.valid && Number.isInteger(Number(x)) ? String(Number(x)) : x;
  };
  const write = (x) => { if (v.kind === 'flag') el.checked = x === '1'; else el.value = x; };
  return { name: rule.name, kind: v.kind, min: v.min, max: v.max, el, error, read, write, label: h('label', { for: id }, ruleName(rule.name)) };
}

/**
 * The create form's "House rules" section, collapsed: one control per house rule, showing the chosen rule
 * set's own value. `onChange(n)` hears how many differ from it. Hidden until the catalogue comes.
 */
export function houseRulesForm(onChange = () => {}) {
  const count = h('span.house-count', { id: 'house-count' });
  const grid = h('div.house-grid', { id: 'house-grid' });
  const back = h('button', { type: 'button', id: 'house-reset' }, t('house_reset'));
  // Why the rules about allies cannot be changed in a mode without any.
  const allyNote = h('p.muted.hint.hidden', { id: 'house-ally-note' });
  const box = h('details.house.hidden', { id: 'house-rules' },
    h('summary', t('house_rules'), count),
    h('p.muted.hint', t('house_hint')), grid, allyNote, h('div.row', back));
  let controls = [];
  let preset = {};

  /** Those that differ from the rule set's own: { name: text }. */
  const changed = () => Object.fromEntries(controls.filter((c) => c.read() !== preset[c.name]).map((c) => [c.name, c.read()]));
  const update = () => {
    const names = Object.keys(changed());
    for (const c of controls) {
      c.label.toggleAttribute('data-changed', names.includes(c.name));
      if (c.el.validity.valid) { c.el.removeAttribute('aria-invalid'); if (c.error) c.error.textContent = ''; }
    }
    count.textContent = names.length ? ` · ${t('house_changed', { n: names.length })}` : '';
    onChange(names.length);
  };
  const setPreset = (options) => {
    preset = options;
    for (const c of controls) c.write(preset[c.name] ?? '');
    update();
  };
  back.onclick = () => setPreset(preset);
  return {
    el: box,
    /** Builds the controls from the catalogue `cat` and shows the section. */
    build(cat) {
      controls = cat.house_rules.map(control);
      for (const c of controls) { c.el.addEventListener('input', update); c.el.addEventListener('change', update); }
      // A checkbox before its words; a number beside them; a choice under them, as wide as the section.
      clear(grid, controls.map((c) => h('div.house-item', { class: c.kind }, c.kind === 'flag' ? [c.el, c.label] : [c.label, c.el, c.error])));
      box.classList.remove('hidden');
    },
    /** Every control back to the value of rule set `rules` in `mode` (the form's choice changed). */
    reset(cat, rules, mode) {
      if (!cat) return;
      // The rules that change nothing in this mode (the server's list: those about allies where every seat
      // plays one colour alone) keep the rule set's values, and the section says why.
      const info = modeInfo(rules, mode);
      const idle = info ? controls.filter((c) => !info.house_rules.includes(c.name)) : [];
      for (const c of controls) {
        c.el.disabled = idle.includes(c);
        if (c.el.disabled) c.el.setAttribute('aria-describedby', 'house-ally-note');
        else if (c.error) c.el.setAttribute('aria-describedby', c.error.id);
        else c.el.removeAttribute('aria-describedby');
      }
      allyNote.textContent = idle.length ? t('house_team_only', { names: idle.map((c) => ruleName(c.name)).join(', ') }) : '';
      allyNote.classList.toggle('hidden', !allyNote.textContent);
      setPreset(presetOptions(cat, rules, mode));
    },
    changed,
    /** The first control whose value cannot be sent (opened and marked), or null. */
    invalid() {
      const bad = controls.find((c) => c.kind === 'number' && (!c.el.validity.valid || c.read() === ''));
      if (!bad) return null;
      box.open = true;
      bad.el.setAttribute('aria-invalid', 'true');
      const why = { name: ruleName(bad.name), min: bad.min, max: bad.max, el: bad.el };
      bad.error.textContent = t('house_bad_number', why);
      return why;
    },
  };
}
