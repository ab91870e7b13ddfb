// An automated accessibility audit (axe-core, the WCAG 2.1 A and AA rules) of every page of the client:
// the home page (a guest, and a member signed in), the create form with its House rules open, a waiting room,
// a game against bots (board, dice, legal moves, chat), the end of a finished game, its replay, the how-to
// page, a player's page, the leaderboard by wins and by rating, and the host's /admin page. Four runs, so
// that every page is audited in English and in Arabic (right to left), at 1280×800 and at 375×667, in the
// light and the dark colour scheme: en desktop light, ar phone dark, en phone dark, ar desktop light.
// A failure lists each violation: the page, the rule, its impact and the elements (CSS selectors).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startServer, rest, OUT } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors } from '../lib/checks.js';
import { register, createRoom, waitBoard } from '../lib/flows.js';

// axe is put into the page as a script. The pages of these tests bypass the server's Content Security
// Policy (`newPage` without `csp`), so nothing in the app's policy is loosened for real users.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const RULES = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] };

const ADMIN = 'the host secret of the a11y tests';
/** The WebSocket may log its closing when a test leaves a room; a 404/401 the page expects. */
const EXPECTED = [/WebSocket/i];

const RUNS = [
  { name: 'en desktop light', locale: 'en-GB', viewport: { width: 1280, height: 800 }, isMobile: false, colorScheme: 'light' },
  { name: 'ar phone dark', locale: 'ar-MA', viewport: { width: 375, height: 667 }, isMobile: true, colorScheme: 'dark' },
  { name: 'en phone dark', locale: 'en-GB', viewport: { width: 375, height: 667 }, isMobile: true, colorScheme: 'dark' },
  { name: 'ar desktop light', locale: 'ar-MA', viewport: { width: 1280, height: 800 }, isMobile: false, colorScheme: 'light' },
];

let srv; let browser; let api;
/** A finished game between two members (pau won or lost), a reported chat message in its room. */
const done = {};
const call = (...args) => api.call(...args);
const member = (name) => api.member(name);

/** Puts `player` (or nobody) in the page's storage, as signing in or registering would. */
async function become(page, player) {
  await page.evaluate((p) => { if (p) localStorage.setItem('parchis.player', JSON.stringify(p)); else localStorage.removeItem('parchis.player'); }, player);
}

before(async () => {
  // Seats whose people are away are played by bots after a second: a game between two absent members
  // plays itself to the end.
  srv = await startServer({ ADMIN_TOKEN: ADMIN, AWAY_GRACE_SECS: '1', BOT_DELAY_MS: '0' });
  api = rest(srv.api);
  browser = await launch();
  done.pau = await member('Pau');
  done.queralt = await member('Queralt');
  const room = await call('POST', '/api/rooms', { rules: 'playgridia', mode: 'quick', players: 2, turn_time_secs: null, public: true }, done.pau.token);
  await call('POST', `/api/rooms/${room.id}/join`, {}, done.queralt.token);
  await call('POST', `/api/rooms/${room.id}/start`, {}, done.pau.token);
  let mine = null;
  for (let i = 0; i < 240 && !mine; i++) {
    const { rooms } = await call('GET', '/api/players/me/rooms', undefined, done.pau.token);
    mine = rooms.find((r) => r.room_id === room.id && r.status === 'finished' && r.game);
    if (!mine) await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(mine, 'the members\' game finished');
  done.room = room.id;
  done.game = mine.game.id;
  // Pau writes in the finished room's chat; Queralt reports it, for the host's list.
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/`);
  await become(page, done.pau);
  await page.goto(`${srv.url}/room/${room.id}`);
  await page.waitForSelector('#chat-input');
  await page.fill('#chat-input', 'good game, well played');
  await page.press('#chat-input', 'Enter');
  await page.waitForSelector('#chat-log li[data-seq]');
  const seq = Number(await page.getAttribute('#chat-log li[data-seq]:last-child', 'data-seq'));
  await api.report(room.id, seq, done.queralt.token, 'testing the report list');
  await context.close();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** Every violation found, by run, for target/e2e/a11y.json. */
const found = [];

/** Runs axe on the page as it is; returns its violations as lines naming `where`. */
async function audit(page, where, run) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate((opts) => window.axe.run(document, opts).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : t)).join(' '), summary: n.failureSummary })),
  }))), RULES);
  // HTML's own rule, which axe leaves alone when the inner control is out of the tab order: nothing
  // interactive inside a link or a button (a "button" that goes somewhere is a link styled as one).
  const nested = await page.evaluate(() => [...document.querySelectorAll('a, button')]
    .filter((e) => e.querySelector('a[href], button, input, select, textarea, [tabindex]'))
    .map((e) => e.outerHTML.slice(0, 120)));
  if (nested.length) {
    violations.push({ id: 'interactive-in-interactive', impact: 'serious', help: 'Nothing interactive inside a link or a button', nodes: nested.map((target) => ({ target })) });
  }
  for (const v of violations) found.push({ run: run.name, where, ...v });
  return violations.map((v) => `[${run.name}] ${where}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.map((n) => n.target).join('\n    ')}`);
}

/** Opens the `<details>` matching `selector`, for what is in them to be audited too. */
async function openDetails(page, selector) {
  await page.$$eval(selector, (ds) => { for (const d of ds) d.open = true; });
}

/** Rolls (and lets the bots play) until this player has legal moves to choose from. */
async function untilMoves(page) {
  for (let i = 0; i < 60; i++) {
    const h = await page.waitForSelector('#moves button, #roll:not([disabled])', { timeout: 30000 });
    if (await h.evaluate((e) => e.id !== 'roll')) return true;
    await h.click().catch(() => {});
    await page.waitForTimeout(150);
  }
  return false;
}

for (const run of RUNS) {
  test(`axe finds no WCAG 2.1 A/AA violation on any page (${run.name})`, { timeout: 150000 }, async () => {
    const problems = [];
    const check = async (page, where) => problems.push(...(await audit(page, where, run)));
    const { page, context } = await newPage(browser, run);
    await context.addInitScript((token) => sessionStorage.setItem('parchis.admin-token', token), ADMIN);

    // The home page of a guest with no name yet, then the create form with its House rules open.
    await page.goto(`${srv.url}/`);
    await page.waitForSelector('#leaders li');
    await page.waitForSelector('#house-rules:not(.hidden)');
    await openDetails(page, '#sign-in');
    await check(page, 'home (guest), sign-in form open');
    await page.click('#house-rules summary');
    await page.waitForSelector('#house-rules[open] input, #house-rules[open] select');
    await check(page, 'create form, House rules open');

    // A waiting room.
    await register(page, srv.url, 'Ana');
    await createRoom(page, { mode: 'individual', players: 3, bots: ['greedy', ''] });
    await page.waitForSelector('#wr-settings strong');
    await check(page, 'waiting room');

    // A game against bots: the board, the dice, the legal moves, a chat message.
    await page.goto(`${srv.url}/`);
    await page.click('#play-now');
    await waitBoard(page);
    await page.fill('#chat-input', 'hello bots');
    await page.press('#chat-input', 'Enter');
    await page.waitForSelector('#chat-log li[data-seq]');
    assert.ok(await untilMoves(page), 'legal moves to choose from');
    await check(page, 'game against bots (legal moves)');

    await page.goto(`${srv.url}/rules`);
    await page.waitForSelector('#howto-ratings p');
    await check(page, 'how to play');

    // A member signed in: the home page, the leaderboard by wins and by rating.
    await become(page, done.pau);
    await page.goto(`${srv.url}/`);
    await page.waitForSelector('#signed-in');
    await page.waitForSelector('#leaders li[data-username]');
    await page.waitForSelector('#my-stats li');
    await openDetails(page, '#signed-in details, #export-me, #erase-me');
    await check(page, 'home (signed in, account parts open), leaderboard by wins');
    await page.selectOption('#leaders-by', 'rating');
    await page.waitForSelector('#leaders[data-by="rating"]');
    await check(page, 'leaderboard by rating');

    // The end of the finished game, its replay, a player's page.
    await page.goto(`${srv.url}/room/${done.room}`);
    await page.waitForSelector('#end:not(.hidden) #winner');
    await page.waitForSelector('#end-proof[data-verified="true"]', { timeout: 15000 });
    await page.waitForSelector('#chat-log li[data-seq]');
    await check(page, 'end of a finished game');
    await page.goto(`${srv.url}/replay/${done.game}`);
    await page.waitForSelector('#replay #proof-status[data-verified="true"]', { timeout: 30000 });
    // At the first move: the expert's view of it is shown too.
    const first = (await api.record(done.game)).log.findIndex((e) => e.kind === 'move');
    await page.click('#replay-first');
    for (let k = 0; k <= first; k++) await page.click('#replay-next');
    await page.waitForSelector('#expert-played');
    await check(page, 'replay viewer, at a move');
    await page.goto(`${srv.url}/players/${done.pau.username}`);
    await page.waitForSelector('#player-recent li[data-game]');
    await check(page, 'player page');

    // The host's moderation page, with a reported message.
    await page.goto(`${srv.url}/admin`);
    await page.waitForSelector('#admin-reports li');
    await check(page, 'moderation /admin');
    await page.click('#admin-forget');
    await page.waitForSelector('#admin-login:not(.hidden)');
    await check(page, 'moderation /admin, asking for the token');

    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, 'a11y.json'), JSON.stringify(found, null, 1));
    assert.ok(problems.length === 0, `${problems.length} accessibility violation(s):\n${problems.join('\n')}`);
    assertNoErrors(page, EXPECTED);
    await context.close();
  });
}

/** The control that has the keyboard focus: its id, or the move it plays (`body` when focus fell to the page). */
const focused = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return !e || e === document.body ? 'body' : e.dataset.move ? `move ${e.dataset.move}` : `#${e.id}`;
});

test('a keyboard player keeps the focus through the updates: on the roll button, then on the first move after rolling with Enter', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser);
  await register(page, srv.url, 'Teclado');
  await createRoom(page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  const link = (await page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
  await page.click('#start-game');
  await waitBoard(page, 'four');

  // The roll button has the focus when someone comes to watch: that update keeps it there.
  await page.waitForSelector('#roll:not([disabled])', { timeout: 30000 });
  await page.focus('#roll');
  const watcher = await newPage(browser);
  await watcher.page.goto(`${link}?watch=1`);
  await waitBoard(watcher.page, 'four');
  await page.waitForFunction(() => window.__parchis.state.spectators === 1, null, { timeout: 10000 });
  assert.equal(await focused(page), '#roll', 'the roll button keeps the focus through an update that keeps it');
  await watcher.context.close();

  // Enter rolls; once the roll brings moves to choose from, the focus is on the first of them.
  let moves = null;
  for (let i = 0; i < 60 && !moves; i++) {
    await page.waitForSelector('#roll:not([disabled])', { timeout: 30000 });
    await page.focus('#roll');
    const version = await page.evaluate(() => window.__parchis.version);
    await page.keyboard.press('Enter');
    await page.waitForFunction((v) => window.__parchis.version > v, version, { timeout: 15000 });
    const turn = await page.evaluate(() => window.__parchis.state.game.view);
    if (turn.turn.seat === 0 && turn.turn.phase === 'move') moves = turn.legal_moves.map((m) => m.text);
    // Still ours to roll (no move for that die and it was a six): the roll button keeps the focus.
    else if (turn.turn.seat === 0 && turn.turn.phase === 'roll') assert.equal(await focused(page), '#roll');
  }
  assert.ok(moves, 'a roll brought moves to choose from');
  assert.equal(await focused(page), `move ${moves[0]}`, 'after rolling with Enter the focus is on the first move');
  // Enter plays it: the focus stays in the game (the next move or roll, else the game panel), not on the page.
  const version = await page.evaluate(() => window.__parchis.version);
  await page.keyboard.press('Enter');
  await page.waitForFunction((v) => window.__parchis.version > v, version, { timeout: 15000 });
  assert.match(await focused(page), /^(#roll|#game-panel|move .*)$/, 'after playing the move with Enter');
  assertNoErrors(page, EXPECTED);
  await context.close();
});
