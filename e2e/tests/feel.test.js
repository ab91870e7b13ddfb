// Playing on a phone feels like a game (issue 34): no page wider than the screen at 320–414 px, the board as
// wide as the screen, every control and pickable piece at least 24 × 24 CSS px, the roll and the legal moves
// in view during your turn, a whole game played by taps on the board alone, pieces that travel (and stay
// still under reduced motion), moves that say what they do.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, pageState } from '../lib/checks.js';
import { openCustomRoom, waitBoard, checkBoard, isOver } from '../lib/flows.js';
import { measure, outOfView } from '../lib/layout.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const phone = (width, extra = {}) => newPage(browser, { viewport: { width, height: 667 }, isMobile: true, customRoom: null, ...extra });

/** Starts a game against bots from the home page's Play now, set up on the folded form first. */
async function playNow(page, { players = null, pace = 'fast', timer = '' } = {}) {
  await page.goto(`${srv.url}/`);
  await openCustomRoom(page);
  if (players) await page.selectOption('#players', String(players));
  await page.selectOption('#bot-pace', pace);
  await page.selectOption('#timer', timer);
  await page.click('#play-now');
  await waitBoard(page, 'four');
}

for (const width of [320, 360, 375, 390, 414]) {
  test(`${width} px: no sideways scroll, the board as wide as the screen, targets of 24 px, the turn's controls in view`, { timeout: 90000 }, async () => {
    const { page, context } = await phone(width, { locale: width === 320 ? 'fr-FR' : 'en-GB' });
    await page.goto(`${srv.url}/`);
    await page.waitForSelector('#play-now');
    let m = await measure(page);
    assert.ok(m.scrollWidth <= m.viewport, `home page ${m.scrollWidth} px wide on a ${m.viewport} px screen`);
    assert.deepEqual(m.small, [], 'home page controls under 24 × 24 px');
    // Play now leads the page, in view without scrolling, and needs no name first (one is made up).
    const playBox = await page.$eval('#play-now', (e) => e.getBoundingClientRect().bottom);
    assert.ok(playBox <= 667, `Play now at ${playBox} px`);
    await page.tap('#play-now');
    await waitBoard(page, 'four');
    // Until a move is on offer: each turn's roll in view, then the moves (buttons and pieces) in view.
    let sawMoves = false;
    for (let i = 0; i < 40 && !sawMoves; i++) {
      await page.waitForSelector('#roll:not([disabled]), #moves button', { timeout: 20000 });
      assert.deepEqual(await outOfView(page), [], `turn controls out of view at ${width} px`);
      m = await measure(page);
      assert.ok(m.scrollWidth <= m.viewport, `game page ${m.scrollWidth} px wide on a ${m.viewport} px screen`);
      assert.ok(m.board >= m.viewport - 12, `board ${m.board} px on a ${m.viewport} px screen`);
      assert.deepEqual(m.small, [], `game page controls under 24 × 24 px at ${width} px`);
      if (await page.$('#moves button')) {
        sawMoves = true;
        await shot(page, `feel-moves-${width}`);
        break;
      }
      const before = (await pageState(page)).version;
      await page.tap('#roll');
      await page.waitForFunction((v) => window.__parchis.version > v, before, { timeout: 10000 });
    }
    assert.ok(sawMoves, 'a move was on offer within 40 turns');
    assertNoErrors(page);
    await context.close();
  });
}

/** A finger on the screen at the middle of the element (whatever is drawn there gets the tap, as on a phone). */
async function fingerTap(page, handle) {
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  if (!box) throw new Error('no box');
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

test('a whole game against fast bots, played by taps on the board alone on a phone (auto-move on)', { timeout: 300000 }, async () => {
  const { page, context } = await phone(375, { autoMove: true });
  await playNow(page, { players: 2 });
  await shot(page, 'feel-taps-start');
  let taps = 0;
  const deadline = Date.now() + 270000;
  while (!(await isOver(page)) && Date.now() < deadline) {
    const before = await pageState(page);
    const roll = await page.$('#roll:not([disabled])');
    const pieces = await page.$$('svg.board .piece.movable');
    try {
      if (roll) { await fingerTap(page, roll); taps++; }
      else if (pieces.length) {
        await fingerTap(page, pieces[0]);
        taps++;
        // A piece with two moves is picked first, then its destination is tapped.
        const id = await pieces[0].getAttribute('data-piece');
        const target = await page.$(`svg.board .target.chosen[data-pieces~="${id}"]`);
        if (target) { await fingerTap(page, target); taps++; }
      } else { await page.waitForTimeout(100); continue; }
    } catch (e) {
      if (/not attached|detached|no box/i.test(String(e && e.message))) continue;
      throw e;
    }
    await page.waitForFunction((v) => window.__parchis.version > v || !document.querySelector('#roll:not([disabled]), svg.board .piece.movable'), before.version, { timeout: 15000 }).catch(() => {});
  }
  assert.ok(await isOver(page), `the game ended (after ${taps} taps)`);
  await page.waitForSelector('#end:not(.hidden)');
  await shot(page, 'feel-taps-end');
  await checkBoard(page, 'at the end');
  assert.equal(await page.$$eval('#moves button', (b) => b.length), 0);
  assertNoErrors(page);
  await context.close();
});

/** Records, in the page, whether any piece was ever drawn travelling (class `moving`) or a count rose. */
function watchMotion(page) {
  return page.evaluate(() => {
    window.__motion = { moving: 0, floats: 0 };
    new MutationObserver((list) => {
      for (const m of list) {
        if (m.type === 'attributes' && m.target.classList && m.target.classList.contains('moving')) window.__motion.moving++;
        for (const n of m.addedNodes || []) if (n.classList && n.classList.contains('float-text')) window.__motion.floats++;
      }
    }).observe(document.querySelector('svg.board'), { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });
}

/**
 * Counts, from the frames the page receives, the moves that travel at least two squares: coming out of base
 * (distance 0) or a move of one square is placed at once even with motion on, so only these must be drawn.
 */
function countTravels(page) {
  const seen = { travels: 0 };
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    let msg;
    try { msg = JSON.parse(payload); } catch { return; }
    for (const e of (msg && Array.isArray(msg.events) ? msg.events : [])) if (e.type === 'moved' && e.distance >= 2) seen.travels++;
  }));
  return seen;
}

async function watchBots(reducedMotion) {
  const { page, context } = await newPage(browser, { reducedMotion });
  const seen = countTravels(page);
  // Three bots play at a pace to follow while this player waits on the die; auto-roll keeps them going.
  await page.goto(`${srv.url}/`);
  await openCustomRoom(page);
  await page.selectOption('#timer', '');
  await page.click('#play-now');
  await waitBoard(page, 'four');
  await watchMotion(page);
  await page.check('#auto-roll');
  await page.check('#auto-move');
  // Until pieces have travelled a few times (the first moves of a game are mostly pieces coming out of base,
  // which are placed, not walked); a turn of this player's with a choice of moves (auto-move plays only a
  // lone one) is given its first move, or the game would wait on it.
  const deadline = Date.now() + 150000;
  while (seen.travels < 4 && Date.now() < deadline) {
    const choice = await page.$('#moves button');
    if (choice) await choice.click().catch(() => {});
    await page.waitForTimeout(300);
  }
  assert.ok(seen.travels >= 4, `${seen.travels} moves of two squares or more within 150 s`);
  await page.waitForTimeout(1000); // the last one's travel has begun on screen
  const motion = await page.evaluate(() => window.__motion);
  await checkBoard(page, 'after the moves');
  assertNoErrors(page);
  await context.close();
  return motion;
}

test('pieces travel square by square; under reduced motion they are placed at once', { timeout: 400000 }, async () => {
  const moving = await watchBots(undefined);
  assert.ok(moving.moving > 0, `pieces were drawn travelling: ${JSON.stringify(moving)}`);
  const still = await watchBots('reduce');
  assert.equal(still.moving, 0, `nothing travels under reduced motion: ${JSON.stringify(still)}`);
});

test('each legal move says what it does, as the server says it; the timer shows seconds', { timeout: 120000 }, async () => {
  const { page, context } = await phone(390);
  await playNow(page, { timer: '60' });
  await page.waitForSelector('#timer-secs:not(.hidden)');
  assert.match(await page.textContent('#timer-secs'), /^\d+ s$/);
  for (let i = 0; i < 60; i++) {
    await page.waitForSelector('#roll:not([disabled]), #moves button', { timeout: 20000 });
    if (await page.$('#moves button')) break;
    const before = (await pageState(page)).version;
    await page.click('#roll');
    await page.waitForFunction((v) => window.__parchis.version > v, before, { timeout: 10000 });
  }
  const r = await page.evaluate(() => ({
    moves: window.__parchis.state.game.view.legal_moves,
    tags: [...document.querySelectorAll('#moves button')].map((b) => [...b.querySelectorAll('[data-effect]')].map((e) => e.dataset.effect)),
    targets: [...document.querySelectorAll('svg.board .target')].map((e) => e.dataset.pieces),
  }));
  r.moves.forEach((m, i) => {
    const want = [m.captures && 'capture', m.goal && 'goal', m.blockade && 'blockade', m.safe && !m.blockade && 'safe', m.bonus && 'bonus'].filter(Boolean);
    assert.deepEqual(r.tags[i], want, `move ${m.text}`);
    assert.ok(r.targets.some((p) => p.split(' ').includes(m.piece)), `${m.piece}'s destination is marked with its name`);
  });
  // Hovering or focusing a move singles out its piece and destination on the board, and only them.
  const paired = () => page.evaluate(() => ({
    board: document.querySelector('svg.board').classList.contains('pairing'),
    pieces: [...document.querySelectorAll('svg.board [data-piece].paired')].map((e) => e.dataset.piece),
    targets: [...document.querySelectorAll('svg.board .target.paired')].map((e) => e.dataset.pieces),
  }));
  const first = r.moves[0].piece;
  for (const how of ['hover', 'focus']) {
    await page[how]('#moves button >> nth=0');
    const p = await paired();
    assert.ok(p.board, `${how}: the board singles out a pair`);
    assert.deepEqual(p.pieces, [first], `${how}: only ${first} is singled out`);
    assert.ok(p.targets.length > 0 && p.targets.every((t) => t.split(' ').includes(first)), `${how}: only ${first}'s destinations: ${p.targets}`);
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.mouse.move(0, 0);
  }
  assertNoErrors(page);
  await context.close();
});
