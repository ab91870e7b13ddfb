// House rules: a room changes some rules of play on top of its rule set. The create form offers what the
// server's catalogue (GET /api/rules) lists, and every place that shows a room's rules shows its house rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, textContrast } from '../lib/checks.js';
import { register, createRoom, setHouseRules, waitBoard } from '../lib/flows.js';

let srv; let browser; let catalogue;
// Seats whose people are away are played by bots after a second: a game between two absent members plays
// itself to the end.
before(async () => {
  srv = await startServer({ AWAY_GRACE_SECS: '1', BOT_DELAY_MS: '0' });
  browser = await launch();
  catalogue = await fetch(`${srv.api}/api/rules`).then((r) => r.json());
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** The options of `rules` in `mode` that a room may change, as the catalogue gives them. */
function preset(rules, mode) {
  const options = catalogue.rule_sets.find((r) => r.name === rules).modes.find((m) => m.name === mode).options;
  return Object.fromEntries(catalogue.house_rules.map((r) => [r.name, options[r.name]]));
}

/** What the form's House rules controls say, as the server spells values. */
function formValues(page) {
  return page.$$eval('#house-grid [data-house]', (els) => Object.fromEntries(els.map((e) => [e.dataset.house, e.type === 'checkbox' ? (e.checked ? '1' : '0') : e.value])));
}

/** The house rules a room's page spells out under `#id`: [[name, words], …]. */
function houseLine(page, id) {
  return page.$$eval(`#${id} [data-house]`, (els) => els.map((e) => [e.dataset.house, e.textContent]));
}

/** The rooms `player` sits in, as the server lists them. */
async function roomsOf(player) {
  const r = await fetch(`${srv.api}/api/players/me/rooms`, { headers: { authorization: `Bearer ${player.token}` } });
  return (await r.json()).rooms;
}

test('a player sets two house rules and creates the room: the room, and a second browser, show exactly those two', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { locale: 'es-ES' });
  await register(a.page, srv.url, 'Ana');
  const sent = a.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
  await setHouseRules(a.page, { capture_bonus: '10', three_sixes: 'off' });
  // The section says how many differ from Playgridia's own, and the buttons that keep to them say so.
  assert.equal(await a.page.textContent('#house-count'), ' · 2 changed');
  assert.match(await a.page.textContent('#quick-match-hint'), /standard rules/);
  await a.page.locator('#house-rules').scrollIntoViewIfNeeded();
  await shot(a.page, 'house-rules-form');
  const roomId = await createRoom(a.page, { players: 4, bots: ['', 'random', 'greedy'], house: { capture_bonus: '10', three_sixes: 'off' } });
  // Only what was changed is sent, and the room keeps it.
  assert.deepEqual((await sent).postDataJSON().house_rules, { capture_bonus: '10', three_sixes: 'off' });
  assert.deepEqual((await rest(srv.api).room(roomId)).settings.house_rules, { capture_bonus: '10', three_sixes: 'off' });
  const inEnglish = [['three_sixes', 'Three sixes: no penalty'], ['capture_bonus', 'Count for a capture: 10']];
  await a.page.waitForSelector('#house-rules-line');
  assert.deepEqual(await houseLine(a.page, 'house-rules-line'), inEnglish);
  await shot(a.page, 'house-rules-room');

  // A room with the standard rules, beside it in the list (listed while its owner has it open).
  const o = await newPage(browser);
  await register(o.page, srv.url, 'Olga');
  const plain = { id: await createRoom(o.page, { players: 4 }) };
  await register(b.page, srv.url, 'Bea');
  const entry = b.page.locator(`#room-list li[data-room="${roomId}"]`);
  await entry.locator('.house-tag').waitFor();
  await b.page.waitForSelector(`#room-list li[data-room="${plain.id}"]`);
  assert.equal(await b.page.locator(`#room-list li[data-room="${plain.id}"] .house-tag`).count(), 0, 'the standard room has no tag');
  assert.equal(await entry.locator('.house-tag summary').textContent(), 'Normas de la casa');
  assert.equal(await entry.locator('.house-tag p').isVisible(), false, 'closed until asked');
  await entry.locator('.house-tag summary').click();
  assert.equal(await entry.locator('.house-tag p').textContent(), 'Tres seises: sin castigo · Cuenta por comer: 10');
  // The list refreshes every five seconds: an opened tag stays open.
  const before = await entry.elementHandle();
  await b.page.click('#refresh-rooms');
  await b.page.waitForFunction((li) => !li.isConnected, before);
  assert.ok(await entry.locator('.house-tag p').isVisible(), 'still open after a refresh');
  await shot(b.page, 'house-rules-list-es');
  await entry.locator('.join-link').click();
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  assert.deepEqual(await houseLine(b.page, 'house-rules-line'), [['three_sixes', 'Tres seises: sin castigo'], ['capture_bonus', 'Cuenta por comer: 10']]);

  // Once the game starts, both still see them beside the players.
  await a.page.click('#start-game');
  await waitBoard(a.page);
  await waitBoard(b.page);
  await a.page.waitForSelector('#game-house-line');
  assert.deepEqual(await houseLine(a.page, 'game-house-line'), inEnglish);
  await b.page.waitForSelector('#game-house-line');
  assert.match(await b.page.textContent('#game-rules'), /Playgridia · Individual/);
  await a.page.locator('#game-rules').scrollIntoViewIfNeeded();
  await shot(a.page, 'house-rules-game');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  assertNoErrors(o.page);
  await a.context.close();
  await b.context.close();
  await o.context.close();
});

test('a room without house rules shows none, and its creator sent none', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Nil');
  const sent = p.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
  // Opened and looked at, but nothing changed.
  await setHouseRules(p.page, {});
  assert.equal(await p.page.textContent('#house-count'), '');
  const roomId = await createRoom(p.page, { rules: 'ludoteka', players: 2, bots: [''] });
  assert.equal((await sent).postDataJSON().house_rules, undefined);
  assert.deepEqual((await rest(srv.api).room(roomId)).settings.house_rules, {});
  await p.page.waitForSelector('#wr-settings strong');
  assert.equal(await p.page.locator('#house-rules-line').count(), 0);
  assertNoErrors(p.page);
  await p.context.close();
});

test('changing the rule set or the mode sets every house rule back to that rule set\'s own values', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Rut');
  await setHouseRules(p.page, {});
  assert.deepEqual(await formValues(p.page), preset('playgridia', 'individual'), 'Playgridia to begin with');
  for (const { name } of catalogue.rule_sets) {
    await setHouseRules(p.page, { capture_bonus: '5', first_roll: '1', exit_capture: 'never' });
    await p.page.selectOption('#rules', name);
    assert.deepEqual(await formValues(p.page), preset(name, 'individual'), name);
    assert.equal(await p.page.textContent('#house-count'), '', `${name}: nothing changed`);
  }
  // Morocco's own values differ from Playgridia's: the form shows Morocco's.
  assert.equal(await p.page.inputValue('#house-six'), '12');
  assert.ok(await p.page.isChecked('#house-first_roll'));
  await setHouseRules(p.page, { goal_bonus: '0' });
  await p.page.selectOption('#mode', '1v1');
  assert.deepEqual(await formValues(p.page), preset('morocco', '1v1'));
  // … and the button does it on request.
  await setHouseRules(p.page, { goal_bonus: '0', lane_blockades: '0' });
  assert.equal(await p.page.textContent('#house-count'), ' · 2 changed');
  assert.equal(await p.page.locator('#house-grid label[data-changed]').count(), 2, 'the changed ones stand out');
  await p.page.click('#house-reset');
  assert.deepEqual(await formValues(p.page), preset('morocco', '1v1'));
  assertNoErrors(p.page);
  await p.context.close();
});

test('the rules about allies cannot be changed in a mode without any, and the form says why; with partners they can', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Tea');
  const allies = ['capture_allies', 'partner_moves', 'allied_blockade_on_safe'];
  await p.page.selectOption('#mode', 'individual');
  await setHouseRules(p.page, {});
  for (const name of allies) assert.ok(await p.page.isDisabled(`#house-${name}`), `${name}: nobody has an ally in Individual`);
  assert.ok(await p.page.isEnabled('#house-capture_bonus'), 'the others stay');
  const note = p.page.locator('#house-ally-note');
  assert.equal(await note.textContent(), 'Only with partners or two colours each (pairs, 1 v 1, 6 pieces, 3 v 3), so not in this mode: Allies block on safe squares, Allies can capture each other, Moving a partner’s pieces.');
  assert.equal(await p.page.getAttribute('#house-partner_moves', 'aria-describedby'), 'house-ally-note');
  await p.page.locator('#house-rules').scrollIntoViewIfNeeded();
  await shot(p.page, 'house-rules-no-allies');
  // A quick game is one colour each too; pairs have partners: the rules are there to change again.
  await p.page.selectOption('#mode', 'quick');
  assert.ok(await p.page.isDisabled('#house-capture_allies'));
  await p.page.selectOption('#mode', 'pairs');
  for (const name of allies) assert.ok(await p.page.isEnabled(`#house-${name}`), `${name}: pairs have partners`);
  assert.equal(await note.isVisible(), false);
  assert.equal(await p.page.getAttribute('#house-partner_moves', 'aria-describedby'), null);
  await setHouseRules(p.page, { capture_allies: '1' });
  assert.equal(await p.page.textContent('#house-count'), ' · 1 changed');
  // Back to Individual: the change goes with the mode, so the room is made without it (and stays ranked).
  await p.page.selectOption('#mode', 'individual');
  const sent = p.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
  await p.page.click('#create-room');
  assert.equal((await sent).postDataJSON().house_rules, undefined);
  assertNoErrors(p.page);
  await p.context.close();
});

test('a capture count out of range is refused in the page; what only the server refuses shows its message; nothing is created', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Max');
  const me = await p.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));
  await setHouseRules(p.page, { capture_bonus: '50' });
  await p.page.click('#create-room');
  const error = p.page.locator('#create-form ~ .error');
  await p.page.waitForFunction(() => document.querySelector('#create-form ~ .error').textContent !== '');
  assert.equal(await error.textContent(), 'Count for a capture: choose a whole number from 0 to 40.');
  assert.equal(await p.page.getAttribute('#house-capture_bonus', 'aria-invalid'), 'true');
  assert.equal(await p.page.evaluate(() => document.activeElement.id), 'house-capture_bonus', 'the field to fix has the focus');
  // … and says what is wrong beside it, where the eye is.
  assert.equal(await p.page.textContent('#house-capture_bonus-error'), 'Count for a capture: choose a whole number from 0 to 40.');
  assert.equal(await p.page.getAttribute('#house-capture_bonus', 'aria-describedby'), 'house-capture_bonus-error');
  await shot(p.page, 'house-rules-invalid');
  // Fixed, the mark goes.
  await p.page.fill('#house-capture_bonus', '30');
  assert.equal(await p.page.getAttribute('#house-capture_bonus', 'aria-invalid'), null);
  assert.equal(await p.page.isVisible('#house-capture_bonus-error'), false);

  // A page whose catalogue allows more than the server does (say, an older copy): the server refuses and
  // the page shows its reason.
  await p.page.route('**/api/rules', async (route) => {
    const body = await (await route.fetch()).json();
    body.house_rules.find((r) => r.name === 'capture_bonus').values.max = 99;
    await route.fulfill({ json: body });
  });
  await p.page.reload();
  await setHouseRules(p.page, { capture_bonus: '50' });
  await p.page.click('#create-room');
  await p.page.waitForFunction(() => document.querySelector('#create-form ~ .error').textContent !== '');
  assert.match(await error.textContent(), /^Error: House rule `capture_bonus`: bad option `capture_bonus=50`/);
  assert.equal(new URL(p.page.url()).pathname, '/', 'still on the form');
  assert.deepEqual(await roomsOf(me), [], 'no room was created');
  // The browser reports the refused request (422) itself.
  assertNoErrors(p.page, [/status of 422/]);
  await p.context.close();
});

test('a count typed as the number field also takes it ("10.0", "1e1", "010") is sent as the number it is', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Noa');
  for (const typed of ['10.0', '1e1', '010']) {
    await p.page.goto(`${srv.url}/`);
    const sent = p.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/rooms');
    const roomId = await createRoom(p.page, { players: 2, bots: ['greedy'], house: { capture_bonus: typed } });
    assert.deepEqual((await sent).postDataJSON().house_rules, { capture_bonus: '10' }, typed);
    assert.deepEqual((await rest(srv.api).room(roomId)).settings.house_rules, { capture_bonus: '10' }, typed);
  }
  assertNoErrors(p.page);
  await p.context.close();
});

test('Play now against bots plays the house rules set on the form; a quick match keeps to the standard rules and says so', async () => {
  const p = await newPage(browser, { locale: 'fr-FR' });
  await register(p.page, srv.url, 'Zoé');
  const hint = await p.page.textContent('#quick-match-hint');
  await setHouseRules(p.page, { capture_bonus: '10' });
  assert.match(await p.page.textContent('#quick-match-hint'), /règles standard/);
  // Changed back by hand: the usual hint again.
  await setHouseRules(p.page, { capture_bonus: '20' });
  assert.equal(await p.page.textContent('#quick-match-hint'), hint);
  await setHouseRules(p.page, { capture_bonus: '10' });
  await p.page.click('#play-now');
  await waitBoard(p.page);
  const settings = await p.page.evaluate(() => window.__parchis.state.room.settings);
  assert.deepEqual(settings.house_rules, { capture_bonus: '10' }, 'Play now uses every choice of the form');
  assert.equal(await p.page.locator('#game-house-line').count(), 1);
  await p.page.goto(`${srv.url}/`);
  await setHouseRules(p.page, { capture_bonus: '10' });
  await p.page.click('#quick-match');
  await p.page.waitForSelector('#wr-looking:not(.hidden)');
  const room = await p.page.evaluate(() => window.__parchis.state.room.settings);
  assert.equal(room.quick_match, true);
  assert.deepEqual(room.house_rules, {}, 'a quick match never has house rules');
  assertNoErrors(p.page);
  await p.context.close();
});

test('every house rule the server offers has a name, and each of its values a text, in English, Spanish, French and Arabic', async () => {
  const p = await newPage(browser);
  await p.page.goto(`${srv.url}/`);
  const missing = await p.page.evaluate(async (cat) => {
    const { STRINGS } = await import('/js/i18n.js');
    const out = [];
    for (const [lang, s] of Object.entries(STRINGS)) {
      for (const rule of cat.house_rules) {
        if (!s.house[rule.name]) out.push(`${lang}: ${rule.name}`);
        for (const v of rule.values.texts || []) if (!(s.house_values[rule.name] || {})[v]) out.push(`${lang}: ${rule.name}=${v}`);
      }
    }
    return out;
  }, catalogue);
  assert.deepEqual(missing, []);
  // The French form, with its own words.
  await p.page.selectOption('#lang', 'fr');
  await setHouseRules(p.page, {});
  assert.equal(await p.page.textContent('#house-rules summary'), 'Règles maison');
  assert.equal(await p.page.textContent('label[for="house-capture_bonus"]'), 'Cases pour une capture');
  assert.equal(await p.page.$eval('#house-three_sixes option[value="off"]', (o) => o.textContent), 'sans pénalité');
  // And the Arabic one, right to left.
  await p.page.selectOption('#lang', 'ar');
  await setHouseRules(p.page, {});
  assert.equal(await p.page.textContent('#house-rules summary'), 'قواعد خاصة');
  assert.equal(await p.page.textContent('label[for="house-capture_bonus"]'), 'مكافأة الأكل');
  assert.equal(await p.page.$eval('#house-rules', (d) => getComputedStyle(d).direction), 'rtl');
  assertNoErrors(p.page);
  await p.context.close();
});

test('the open house rules fit the create card at 1280, 900 and 375 px in every language', async () => {
  for (const width of [1280, 900, 375]) {
    const p = await newPage(browser, { viewport: { width, height: 900 }, isMobile: width < 500 });
    await register(p.page, srv.url, `Ivo ${width}`);
    for (const lang of ['en', 'es', 'fr', 'ar']) {
      await p.page.selectOption('#lang', lang);
      await setHouseRules(p.page, { capture_bonus: '10', three_sixes: 'second', exit_capture: 'never' });
      const overflowing = await p.page.evaluate(() => [...document.querySelectorAll('section.card, #house-rules')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.id || c.getAttribute('aria-labelledby')));
      assert.deepEqual(overflowing, [], `wider than their box at ${width}px in ${lang}`);
      assert.ok(await p.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no horizontal scroll at ${width}px in ${lang}`);
      // Every choice reads whole in its closed field (its text, measured in the field's font, beside the arrow).
      const cut = await p.page.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        return [...document.querySelectorAll('#house-grid select')].flatMap((s) => {
          const css = getComputedStyle(s);
          ctx.font = `${css.fontSize} ${css.fontFamily}`;
          const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 20;
          return [...s.options].map((o) => o.textContent).filter((text) => ctx.measureText(text).width > room);
        });
      });
      assert.deepEqual(cut, [], `choices cut off at ${width}px in ${lang}`);
    }
    if (width === 375) {
      await p.page.locator('#house-rules').scrollIntoViewIfNeeded();
      await shot(p.page, 'house-rules-phone');
    }
    assertNoErrors(p.page);
    await p.context.close();
  }
});

for (const [device, opts] of [['desktop', {}], ['phone', { viewport: { width: 390, height: 844 }, isMobile: true }]]) {
  test(`a dark device (${device}): the house rules read at 4.5:1 in the form, the list and the room`, async () => {
    const { page, context } = await newPage(browser, { ...opts, colorScheme: 'dark' });
    await register(page, srv.url, `Dora ${device}`);
    await setHouseRules(page, { capture_bonus: '10', lane_blockades: '1' });
    const results = await textContrast(page, [
      '#house-rules summary', '#house-rules .hint', '#house-grid label', '#house-grid label[data-changed]', '#house-grid select',
      '#house-grid input[type="number"]', '#house-reset', '#quick-match-hint',
    ]);
    const poor = (list) => list.filter((r) => r.missing || r.ratio < 4.5);
    assert.deepEqual(poor(results), [], 'form');
    await page.locator('#house-rules').scrollIntoViewIfNeeded();
    await shot(page, `house-rules-form-dark-${device}`);
    await page.click('#create-room');
    // The room's line, and the tag in the public list as another player sees it.
    await page.waitForSelector('#house-rules-line');
    assert.deepEqual(poor(await textContrast(page, ['#house-rules-line strong', '#house-rules-line span'])), [], 'room');
    await shot(page, `house-rules-room-dark-${device}`);
    const other = await newPage(browser, { ...opts, colorScheme: 'dark' });
    await register(other.page, srv.url, `Ciro ${device}`);
    await other.page.click('#room-list .house-tag summary');
    assert.deepEqual(poor(await textContrast(other.page, ['#room-list .house-tag summary', '#room-list .house-tag p'])), [], 'list');
    assertNoErrors(page);
    assertNoErrors(other.page);
    await other.context.close();
    await context.close();
  });
}

test('a finished game with house rules: tagged in the players\' records and your games, not on the leaderboard', { timeout: 120000 }, async () => {
  const call = async (method, path, body, token) => {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${srv.api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await res.json().catch(() => null);
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const member = async (name) => {
    const p = await call('POST', '/api/players', { display_name: name });
    await call('POST', '/api/account', { username: name.toLowerCase(), password: 'correct horse' }, p.token);
    return p;
  };
  const [pau, queralt] = [await member('Pau'), await member('Queralt')];
  // Two members who never open the room: bots play their seats to the end.
  const room = await call('POST', '/api/rooms', { rules: 'playgridia', mode: 'quick', players: 2, turn_time_secs: null, public: true, house_rules: { goal_bonus: 0, exit_mandatory: false } }, pau.token);
  await call('POST', `/api/rooms/${room.id}/join`, {}, queralt.token);
  await call('POST', `/api/rooms/${room.id}/start`, {}, pau.token);
  let record;
  for (let i = 0; i < 400; i++) {
    record = await call('GET', '/api/accounts/pau/stats');
    if (record.games === 1) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(record.games, 1, 'the game ended');
  assert.equal(record.recent[0].house_rules, true);
  assert.deepEqual((await call('GET', '/api/leaderboard?rules=playgridia')).players, [], 'not counted on the leaderboard');

  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/`);
  await page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify({ id: p.id, display_name: p.display_name, token: p.token })), pau);
  await page.reload();
  // Your games: the finished game, tagged, and its house rules in words.
  const mine = page.locator(`#my-rooms li[data-room="${room.id}"]`);
  await mine.waitFor();
  await mine.locator('.house-tag summary').click();
  assert.equal(await mine.locator('.house-tag p').textContent(), 'A 5 must bring a piece out: no · Count for reaching the goal: 0');
  await page.waitForFunction(() => /No games counted yet/.test(document.querySelector('#leaders')?.textContent || ''));
  // Pau's page: the latest game carries the tag, which says why it is not ranked.
  await page.goto(`${srv.url}/players/pau`);
  const game = page.locator('#player-recent li[data-game]');
  await game.waitFor();
  assert.equal(await game.locator('.chip.house').textContent(), 'House rules');
  assert.match(await game.locator('.chip.house').getAttribute('title'), /not counted on the leaderboard/);
  await shot(page, 'house-rules-record');
  // The replay names them too.
  await game.locator('a').click();
  await page.waitForSelector('#replay-house-line');
  assert.deepEqual(await houseLine(page, 'replay-house-line'), [['exit_mandatory', 'A 5 must bring a piece out: no'], ['goal_bonus', 'Count for reaching the goal: 0']]);
  assertNoErrors(page);
  await context.close();
});
