// The replay of a finished game as a player uses it: on a phone, stepping keeps the board and the step buttons
// where they are; a long game is reached at any step without tapping Next hundreds of times.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard, checkBoard, actOnce, isOver } from '../lib/flows.js';

let srv; let browser; let game;
// The owner's seat is played by a bot a second after the start (she is away): the game plays itself out.
before(async () => {
  srv = await startServer({ AWAY_GRACE_SECS: '1', BOT_DELAY_MS: '0' });
  browser = await launch();
  const api = rest(srv.api);
  const ana = await api.player('Ana');
  const room = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, bots: [null, 'greedy'], turn_time_secs: null, public: true }, ana.token);
  await api.start(room.id, ana.token);
  const end = Date.now() + 120000;
  for (;;) {
    const r = await api.room(room.id);
    if (r.status === 'finished') { game = r.game_id; break; }
    if (Date.now() > end) throw new Error('the game did not finish');
    await new Promise((ok) => setTimeout(ok, 300));
  }
});
after(async () => { await browser?.close(); await srv?.stop(); });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };

/** Where the page is scrolled, and whether the current line of the moves list shows inside the list. */
function where(page) {
  return page.evaluate(() => {
    const list = document.querySelector('#replay-log').getBoundingClientRect();
    const cur = document.querySelector('#replay-log li.current');
    const c = cur ? cur.getBoundingClientRect() : null;
    const next = document.querySelector('#replay-next').getBoundingClientRect();
    const prev = document.querySelector('#replay-prev').getBoundingClientRect();
    return {
      scrollY: window.scrollY,
      lineInList: !!c && c.top >= list.top - 1 && c.bottom <= list.bottom + 1,
      buttonsOnScreen: prev.top >= 0 && next.top >= 0 && next.bottom <= innerHeight,
    };
  });
}

test('on a phone, stepping through a replay keeps the page still: the buttons stay under the thumb, the moves list follows', async () => {
  const { page, context } = await newPage(browser, PHONE);
  await page.goto(`${srv.url}/replay/${game}`);
  await page.waitForSelector('#replay svg.board[data-step]');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.tap('#replay-first');
  assert.equal((await where(page)).scrollY, 0, 'the first step leaves the page where it was');
  for (let i = 0; i < 6; i++) await page.tap('#replay-next');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), '6');
  const after = await where(page);
  await shot(page, 'replay-phone-stepping');
  assert.equal(after.scrollY, 0, 'tapping Next does not scroll the page away from the board and the buttons');
  assert.ok(after.buttonsOnScreen, 'Previous and Next are still on the screen');
  // The moves list, further down, keeps its current line in view all the same.
  for (let i = 0; i < 20; i++) await page.tap('#replay-next');
  assert.equal((await where(page)).scrollY, 0);
  await page.locator('#replay-log').scrollIntoViewIfNeeded();
  assert.ok((await where(page)).lineInList, 'the current line is in view inside the list');
  assertNoErrors(page);
  await context.close();
});

test('any step of a long game is one gesture away: a line of the moves list, or the slider (by touch or keyboard)', async () => {
  const { page, context } = await newPage(browser, PHONE);
  await page.goto(`${srv.url}/replay/${game}`);
  await page.waitForSelector('#replay svg.board[data-step]');
  const n = Number(await page.getAttribute('#replay svg.board', 'data-step'));
  assert.ok(n > 60, `a game of some length (${n} steps)`);
  // A line of the list: the board, the step and the highlighted line are that step's.
  const target = n - 40;
  await page.locator(`#replay-log li[data-step="${target}"]`).scrollIntoViewIfNeeded();
  await page.tap(`#replay-log li[data-step="${target}"]`);
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), String(target));
  assert.equal(await page.textContent('#replay-step'), `Step ${target} / ${n}`);
  assert.equal(await page.getAttribute('#replay-log li.current', 'data-step'), String(target));
  // The slider follows the steps, and moves them.
  assert.equal(await page.inputValue('#replay-seek'), String(target));
  await page.locator('#replay-seek').fill('25');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), '25');
  assert.equal(await page.getAttribute('#replay-seek', 'aria-valuetext'), `Step 25 / ${n}`);
  await page.focus('#replay-seek');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), '26', 'one step per arrow key, not two');
  await page.keyboard.press('Home');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), '0');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), String(n));
  await shot(page, 'replay-phone-seek');
  // Its name in every language.
  for (const [lang, name] of [['es', 'Ir a un paso de la partida'], ['fr', 'Aller à une étape de la partie'], ['ar', 'الانتقال إلى خطوة من المباراة']]) {
    await page.evaluate((l) => localStorage.setItem('parchis.lang', l), lang);
    await page.reload();
    await page.waitForSelector('#replay svg.board[data-step]');
    assert.equal(await page.getAttribute('#replay-seek', 'aria-label'), name);
  }
  assertNoErrors(page);
  await context.close();
});

test('the replay draws blockades where the game had them, as the live board did', async () => {
  const replay = await rest(srv.api).replay(game);
  const k = replay.steps.findIndex((s) => s.pieces.some((p) => p.in_blockade)) + 1;
  assert.ok(k > 0, 'the game had a blockade at some step');
  const want = replay.steps[k - 1].pieces.filter((p) => p.in_blockade).map((p) => p.id).sort();
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/replay/${game}`);
  await page.waitForSelector('#replay svg.board[data-step]');
  await page.locator('#replay-seek').fill(String(k));
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), String(k));
  const drawn = await page.$$eval('#replay svg.board [data-piece].blockade', (els) => els.map((e) => e.getAttribute('data-piece')).sort());
  assert.deepEqual(drawn, want);
  await shot(page, 'replay-blockade');
  assertNoErrors(page);
  await context.close();
});

test('stepping back through a replay puts pieces back without running them along another move\'s path', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/replay/${game}`);
  await page.waitForSelector('#replay svg.board[data-step]');
  const moving = () => page.evaluate(() => document.querySelectorAll('#replay svg.board .moving').length);
  // Forwards, a move is animated square by square (so the check below can see an animation).
  await page.click('#replay-first');
  let animatedForwards = 0;
  for (let i = 0; i < 40; i++) {
    await page.click('#replay-next');
    if (await moving()) animatedForwards++;
  }
  assert.ok(animatedForwards > 0, 'moves are animated when stepping forwards');
  // Backwards through the whole game: a piece goes straight back to where it was at that step.
  await page.click('#replay-last');
  const steps = Number(await page.getAttribute('#replay-seek', 'max'));
  const ran = [];
  for (let i = steps; i > 0; i--) {
    await page.click('#replay-prev');
    if (await moving()) ran.push(i - 1);
  }
  assert.deepEqual(ran, [], 'no piece runs along a path when stepping back');
  assertNoErrors(page);
  await context.close();
});

test('a game still being played is replayed up to its last action: the last step is the live board', { timeout: 120000 }, async () => {
  // Ana stays at the table (her page is open): the game waits for her turn, so the log stands still.
  const { page, context } = await newPage(browser);
  await register(page, srv.url, 'Ana');
  await createRoom(page, { players: 2, bots: ['greedy'], timer: '' });
  await page.click('#start-game');
  await waitBoard(page);
  for (let i = 0; i < 6 && !(await isOver(page)); i++) {
    await page.waitForSelector('#roll:not([disabled]), #moves button', { timeout: 30000 });
    await actOnce(page);
  }
  await page.waitForSelector('#roll:not([disabled]), #moves button', { timeout: 30000 });
  const live = await checkBoard(page, 'live');
  const gameId = await page.evaluate(() => window.__parchis.state.game.id);
  const watcher = await newPage(browser);
  await watcher.page.goto(`${srv.url}/replay/${gameId}`);
  await watcher.page.waitForSelector('#replay svg.board[data-step]');
  const replay = await rest(srv.api).replay(gameId);
  assert.equal(replay.result, null, 'not over');
  assert.equal(await watcher.page.getAttribute('#replay svg.board', 'data-step'), String(replay.steps.length));
  const drawn = await watcher.page.$$eval('#replay svg.board g.piece', (els) => els.map((e) => ({ id: e.dataset.piece, place: e.dataset.place })));
  const sort = (a) => [...a].sort((x, y) => x.id.localeCompare(y.id));
  assert.deepEqual(sort(drawn), sort(live.want), 'the replay ends where the live board is');
  assertNoErrors(watcher.page);
  assertNoErrors(page);
  await watcher.context.close();
  await context.close();
});
