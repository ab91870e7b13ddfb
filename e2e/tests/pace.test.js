// Following the game (issue 34): bots at the server's normal pace (BOT_DELAY_MS 500, as shipped) are shown one
// update after another, each long enough to read; every roll, the player's and the bots', tumbles the die
// (and does not under reduced motion); a screen reader hears each event once, through one live region.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { openCustomRoom, waitBoard, checkBoard } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '500' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** The event types the page announces for everyone (room_game.js renderGame). */
const ANNOUNCED = ['moved', 'captured', 'reached_goal', 'three_sixes', 'game_won', 'no_legal_move', 'bonus_granted', 'rolled'];

/**
 * Records from the page's first script on: what each live region received (text added to an aria-live,
 * alert or status element), each time the die started rolling, the "what just happened" line's changes with
 * their time, and how far the page's shown version trailed the connection's.
 */
function recorder() {
  window.__seen = { live: [], rolls: 0, lines: [], maxBehind: 0 };
  const live = (n) => n && n.closest && n.closest('[aria-live]:not([aria-live="off"]), [role=alert], [role=status], [role=log]');
  const start = () => new MutationObserver((list) => {
    const s = window.__seen;
    // A class change's new value is the next change's old value (or the class now): a die starts rolling when
    // `rolling` comes into its class.
    const next = new Map();
    for (let i = list.length - 1; i >= 0; i--) {
      const m = list[i];
      if (m.type !== 'attributes' || !m.target.classList.contains('die')) continue;
      const now = next.has(m.target) ? next.get(m.target) : m.target.getAttribute('class');
      if (/\brolling\b/.test(now || '') && !/\brolling\b/.test(m.oldValue || '')) s.rolls++;
      next.set(m.target, m.oldValue);
    }
    for (const m of list) {
      const target = m.target.nodeType === 1 ? m.target : m.target.parentElement;
      if (m.type === 'attributes') continue;
      if (target && target.closest('#last-event')) s.lines.push({ at: performance.now(), text: document.getElementById('last-event').textContent });
      const region = live(target);
      if (!region) continue;
      const texts = m.type === 'characterData' ? [m.target.data] : [...m.addedNodes].map((n) => n.textContent);
      for (const text of texts) if (text && text.trim()) s.live.push({ region: region.id || region.className, text: text.trim() });
    }
    const c = window.__parchis;
    if (c && c.conn && c.version !== null) s.maxBehind = Math.max(s.maxBehind, c.conn.version - c.version);
  }).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true });
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
}

/** Play now against three bots at normal pace, no timer; the player rolls and moves by hand. */
async function startGame(reducedMotion) {
  const { page, context } = await newPage(browser, { reducedMotion });
  await context.addInitScript(recorder);
  await page.goto(`${srv.url}/`);
  await openCustomRoom(page);
  await page.selectOption('#timer', '');
  await page.selectOption('#bot-pace', 'normal');
  await page.click('#play-now');
  await waitBoard(page, 'four');
  // What the home page and the waiting room said is not the game's.
  await page.evaluate(() => { window.__seen.live = []; });
  return { page, context };
}

/**
 * Plays this player's turns (roll, first move, each a second after it is offered) until `enough(log)` holds of the events received (after at least
 * one turn of theirs); the bots play between. Then waits for the page to catch up with the server.
 */
async function playUntil(page, enough) {
  let mine = 0;
  const deadline = Date.now() + 200000;
  while (!(mine > 0 && enough(await liveLog(page))) && Date.now() < deadline) {
    const handle = await page.waitForSelector('#roll:not([disabled]), #moves button', { timeout: 60000 });
    const isRoll = await handle.evaluate((e) => e.id === 'roll').catch(() => false);
    // A person reads what happened before tapping (a tap shows its answer at once, cutting short the line).
    await page.waitForTimeout(1000);
    await handle.click().catch(() => {});
    if (isRoll) mine++;
  }
  // The bots' turns after the last roll, until the page has caught up with the server waiting for this player.
  await page.waitForFunction(() => { const c = window.__parchis; return c.conn.version === c.version && c.pacer.behind === 0 && !!document.querySelector('#roll:not([disabled]), #moves button'); }, null, { timeout: 60000 });
}

/** The events the page received live (not read back from the game's record), with their log text. */
const liveLog = (page) => page.evaluate(() => window.__parchis.log.filter((l) => !l.fromRecord).map((l) => ({ type: l.type, text: l.text })));

test('bots at normal pace: each update shown in turn, each line readable, the die rolling, each event heard once', { timeout: 300000 }, async () => {
  const { page, context } = await startGame(undefined);
  await playUntil(page, (log) => log.filter((l) => l.type === 'moved').length >= 4);
  // Read at once: what the page showed and the events it received.
  const { seen, log } = await page.evaluate(() => ({
    seen: { ...window.__seen, caughtUp: window.__parchis.pacer.caughtUp },
    log: window.__parchis.log.filter((l) => !l.fromRecord).map((l) => ({ type: l.type, text: l.text })),
  }));
  const rolled = log.filter((l) => l.type === 'rolled');
  const moved = log.filter((l) => l.type === 'moved');
  assert.ok(rolled.length >= 6 && moved.length >= 4, `a few turns were played: ${rolled.length} rolls, ${moved.length} moves`);
  // Never far behind the server.
  assert.ok(seen.maxBehind <= 5, `the page trailed the server by ${seen.maxBehind} updates`);
  // Each move was the "what just happened" line (but for a capture's or a goal's, which tell that instead), for
  // long enough to read it, and each roll's for the die's tumble (unless the page had to catch up).
  const changes = seen.lines.filter((l, i) => i === 0 || l.text !== seen.lines[i - 1].text);
  const lines = changes.map((l, i) => ({ ...l, for: i + 1 < changes.length ? changes[i + 1].at - l.at : Infinity }));
  const telling = log.filter((l) => ['captured', 'reached_goal', 'three_sixes', 'game_won'].includes(l.type)).length;
  const movesShown = moved.filter((m) => lines.some((l) => l.text.startsWith(m.text)));
  assert.ok(movesShown.length >= moved.length - telling, `${movesShown.length} of ${moved.length} moves were the line`);
  if (seen.caughtUp === 0) {
    assert.equal(seen.rolls, rolled.length, 'one die animation per roll');
    for (const l of lines) {
      const isMove = moved.some((m) => l.text.startsWith(m.text));
      assert.ok(l.for >= (isMove ? 850 : 500), `"${l.text}" shown ${Math.round(l.for)} ms`);
    }
  } else assert.ok(seen.rolls >= rolled.length - seen.caughtUp, `${seen.rolls} die animations for ${rolled.length} rolls`);
  // One live region speaks the game: each event once, nothing said by the others (turn line, end card…).
  const heard = seen.live.filter((l) => l.region === 'announce').map((l) => l.text);
  const said = log.filter((l) => ANNOUNCED.includes(l.type)).map((l) => l.text);
  const count = (list) => list.reduce((m, x) => m.set(x, (m.get(x) || 0) + 1), new Map());
  const heardCount = count(heard);
  for (const [text, n] of count(said)) assert.equal(heardCount.get(text) || 0, n, `"${text}" announced ${heardCount.get(text) || 0} times, happened ${n}`);
  const others = seen.live.filter((l) => l.region !== 'announce');
  assert.deepEqual(others, [], 'other live regions spoke during the game');
  await checkBoard(page, 'after the rounds');
  // Once it has stopped tumbling, the die shows the game's die: as many pips as the state says.
  await page.waitForTimeout(700);
  const die = await page.evaluate(() => {
    const g = window.__parchis.state.game;
    return { want: g.view.turn.phase === 'move' ? g.view.turn.die : g.last_roll?.die, shown: Number(document.querySelector('#dice .die').dataset.die), pips: document.querySelectorAll('#dice .die i.on').length };
  });
  assert.deepEqual({ shown: die.shown, pips: die.pips }, { shown: die.want, pips: die.want }, 'the die at rest shows the roll');
  await shot(page, 'pace-desktop');
  assertNoErrors(page);
  await context.close();
});

test('a game that starts on your turn says so before your first roll', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser);
  await context.addInitScript(recorder);
  await page.goto(`${srv.url}/`);
  await openCustomRoom(page);
  await page.selectOption('#timer', '');
  await page.click('#play-now');
  await waitBoard(page, 'four');
  await page.waitForSelector('#roll:not([disabled])', { timeout: 30000 });
  const { heard, rolled } = await page.evaluate(() => ({
    heard: window.__seen.live.filter((l) => l.region === 'announce').map((l) => l.text),
    rolled: window.__parchis.log.some((l) => l.type === 'rolled'),
  }));
  // Seat 0 starts (RULES.md 23) and Play now seats this player there: the game began on their turn (no roll
  // yet), and nothing but this line tells a screen reader so. Had a bot begun, the turn passed to them says it.
  if (!rolled) assert.ok(heard.includes('Your turn'), `heard before the first roll: ${JSON.stringify(heard)}`);
  else assert.ok(heard.some((t) => /'s turn$/.test(t)), `the turn passed to this player was announced: ${JSON.stringify(heard)}`);
  assertNoErrors(page);
  await context.close();
});

test('under reduced motion the die shows its roll at once', { timeout: 120000 }, async () => {
  const { page, context } = await startGame('reduce');
  await playUntil(page, (log) => log.filter((l) => l.type === 'rolled').length >= 3);
  const seen = await page.evaluate(() => window.__seen);
  const rolled = (await liveLog(page)).filter((l) => l.type === 'rolled');
  assert.ok(rolled.length >= 3, `rolls were made: ${rolled.length}`);
  assert.equal(seen.rolls, 0, 'no die animation');
  // The die shows the last roll, as the state says.
  const r = await page.evaluate(() => ({ die: document.querySelector('#dice .die').dataset.die, on: document.querySelectorAll('#dice .die i.on').length, last: window.__parchis.state.game.last_roll?.die }));
  assert.equal(Number(r.die), r.last);
  assert.equal(r.on, r.last, 'as many pips as the roll');
  assertNoErrors(page);
  await context.close();
});
