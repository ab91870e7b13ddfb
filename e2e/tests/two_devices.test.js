// One player on two devices (two browsers holding the same token): wherever their seat goes (given up and
// taken again elsewhere, moved by the seat draw, left in a running game on the other device), both show the
// same seat as theirs, the board turned to it, the controls of that seat only, and nothing left armed for a
// seat that is no longer theirs. Taking a seat keeps the page's WebSocket: the server tells it the new seat.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard, actOnce } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  // Bots slow enough for a person to pick a piece ahead during their turns.
  srv = await startServer({ BOT_DELAY_MS: '1500' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** The seats the page marks as its player's, in the waiting room or the game. */
const mine = (page) => page.$$eval('#seats li.me, #players li.me', (els) => els.map((e) => Number(e.dataset.seat)));
const waitMine = (page, seat) => page.waitForFunction((s) => {
  const els = [...document.querySelectorAll('#seats li.me, #players li.me')];
  return s === null ? els.length === 0 : els.length === 1 && els[0].dataset.seat === String(s);
}, seat, { timeout: 20000 });
/**
 * A phone's network: what the server sends on the page's room sockets arrives `ms` late (the answers to
 * HTTP requests do not wait for it); given `net`, what the page sends arrives `net.up` ms late (changeable
 * meanwhile). Returns the list of the sockets the page opens.
 */
async function slowSockets(page, ms = 300, net = null) {
  const opened = [];
  await page.routeWebSocket(/\/api\/rooms\/.*\/ws/, (ws) => {
    opened.push(ws.url());
    const server = ws.connectToServer();
    server.onMessage((m) => setTimeout(() => ws.send(m), ms));
    if (net) ws.onMessage((m) => setTimeout(() => server.send(m), net.up));
  });
  return opened;
}
/** Keeps every text the page shows in its error line (#room-error), as it appears, in window.__shownErrors. */
const recordErrors = (page) => page.addInitScript(() => {
  window.__shownErrors = [];
  new MutationObserver(() => {
    const text = document.querySelector('#room-error')?.textContent.trim();
    if (text && window.__shownErrors.at(-1) !== text) window.__shownErrors.push(text);
  }).observe(document, { subtree: true, childList: true, characterData: true });
});
const shownErrors = (page) => page.evaluate(() => window.__shownErrors);
const turn = (page) => page.evaluate(() => window.__parchis.state.game.view.turn);

test('both devices of one player follow their seat and keep nothing armed for the old one', { timeout: 180000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Ana');
  const roomId = await createRoom(a.page, { rules: 'morocco', mode: 'individual', players: 4, bots: ['', 'greedy', 'greedy'], timer: '' });
  const ana = await a.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));

  // The second device: the same player (same token), its sockets counted.
  const b = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  const sockets = await slowSockets(b.page);
  await b.page.goto(`${srv.url}/`);
  await b.page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify(p)), ana);
  await b.page.goto(`${srv.url}/room/${roomId}`);
  await waitMine(b.page, 0);
  assert.match(await b.page.textContent('#seats li.me'), /\(you\)/);

  // Ana gives her seat up on A, Bea takes it, and Ana takes another one, on B.
  await a.page.click('#leave-seat');
  await waitMine(a.page, null);
  await waitMine(b.page, null);
  const bea = await rest(srv.api).player('Bea');
  await rest(srv.api).join(roomId, bea.token);
  await b.page.waitForSelector('#seats li[data-seat="0"] [data-status="away"]');
  await b.page.click('#take-seat');
  for (const p of [a.page, b.page]) {
    await waitMine(p, 1);
    assert.match(await p.textContent('#seats li.me'), /Ana \(you\)/);
    assert.doesNotMatch(await p.textContent('#seats li[data-seat="0"]'), /\(you\)/);
  }
  // Long enough for a needless reconnection to have shown.
  await b.page.waitForTimeout(800);
  assert.equal(sockets.length, 1, `taking the seat kept the socket (opened: ${sockets.length})`);

  // The seat draw at the start may move her: both devices play the seat the server gave.
  await rest(srv.api).start(roomId, bea.token);
  await waitBoard(a.page);
  await waitBoard(b.page);
  const room = await rest(srv.api).room(roomId);
  const anaSeat = room.seats.findIndex((s) => s.player_id === ana.id);
  assert.ok(anaSeat >= 0);
  for (const p of [a.page, b.page]) await waitMine(p, anaSeat);
  const bottom = await a.page.getAttribute('svg.board', 'data-bottom-slot');
  assert.equal(await b.page.getAttribute('svg.board', 'data-bottom-slot'), bottom, 'both turned to her colour');

  // Her turns: both devices say so and offer the roll; A plays them. Others' turns: no controls on either.
  const end = Date.now() + 90000;
  for (;;) {
    assert.ok(Date.now() < end, 'the turn left Ana');
    const now = await turn(b.page);
    if (now.seat !== anaSeat) break;
    if (now.phase === 'roll') {
      await b.page.waitForSelector('#roll:not([disabled])', { timeout: 5000 }).catch(() => {});
      if ((await turn(b.page)).seat === anaSeat && (await turn(b.page)).phase === 'roll') {
        assert.match(await b.page.textContent('#turn-line'), /Your turn/);
      }
    }
    if (!(await actOnce(a.page))) await a.page.waitForTimeout(100);
  }
  await b.page.waitForFunction((s) => window.__parchis.state.game.view.turn.seat !== s, anaSeat);
  assert.equal(await b.page.$('#roll:not([disabled])'), null, 'no roll on another seat\'s turn');
  assert.equal(await b.page.$('#moves button'), null, 'no moves on another seat\'s turn');

  // On B, she picks a piece ahead for her next turn.
  const piece = await b.page.evaluate((s) => {
    const v = window.__parchis.state.game.view;
    const colour = v.seats[s].colours[0];
    return v.pieces.find((p) => p.colour === colour && p.place.kind !== 'goal').id;
  }, anaSeat);
  await b.page.focus(`svg.board [data-piece="${piece}"]`);
  await b.page.keyboard.press('Enter');
  await b.page.waitForSelector('#preselected');
  await b.page.waitForSelector(`svg.board [data-piece="${piece}"].preselected`);

  // On A, she leaves the game: B, still open, watches now. Her seat is a bot's, and nothing of it stays on B.
  await a.page.click('#leave-game summary');
  await a.page.click('#leave-game-confirm');
  await a.page.waitForSelector('#create-form');
  await b.page.waitForSelector(`#players li[data-seat="${anaSeat}"] [data-status="bot"]`);
  await waitMine(b.page, null);
  await b.page.waitForFunction(() => window.__parchis.hello && window.__parchis.hello.role === 'spectator');
  assert.equal(await b.page.$('#preselected'), null, 'the piece picked ahead for her old seat is dropped');
  assert.equal(await b.page.$('svg.board [data-piece].preselected'), null);
  assert.equal(await b.page.$('#roll'), null, 'no roll button for a spectator');
  assert.equal(await b.page.$('#preview'), null);
  assert.equal(await b.page.getAttribute('svg.board', 'data-bottom-slot'), '0', 'the board is turned as for anyone watching');
  assert.match(await b.page.textContent('#spectators'), /You are watching/);
  assert.deepEqual(await mine(b.page), []);
  assert.equal(sockets.length, 1, 'B kept its socket throughout');
  await shot(b.page, 'two-devices-left-on-the-other');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  await a.context.close();
  await b.context.close();
});

test('a visitor who gives a name to take a seat opens one socket of theirs, not two', { timeout: 60000 }, async () => {
  const api = rest(srv.api);
  const owner = await api.player('Olga');
  const created = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 4, bots: [null, null, null], turn_time_secs: null, public: true }, owner.token);
  const v = await newPage(browser);
  const sockets = await slowSockets(v.page);
  await v.page.goto(`${srv.url}/room/${created.id}`);
  await v.page.waitForSelector('#wr-name');
  assert.equal(sockets.length, 1);
  await v.page.waitForFunction(() => window.__parchis.hello && window.__parchis.hello.role === 'spectator');
  await v.page.fill('#wr-name', 'Vera');
  await v.page.press('#wr-name', 'Enter');
  await waitMine(v.page, 1);
  assert.match(await v.page.textContent('#seats li.me'), /Vera \(you\)/);
  await v.page.waitForFunction(() => window.__parchis.hello && window.__parchis.hello.role === 'player');
  await v.page.waitForTimeout(800);
  assert.equal(sockets.length, 2, `the anonymous socket, then one with her token (opened: ${sockets.join(' ')})`);
  // The player hello above came on the newer socket: it offered her token (as a subprotocol, not in its URL).
  assert.doesNotMatch(sockets[1], /token=/);
  assertNoErrors(v.page);
  await v.context.close();
});

test('two devices with auto-roll on: the roll both send for one turn shows no error on either', { timeout: 180000 }, async () => {
  const a = await newPage(browser);
  await recordErrors(a.page);
  await register(a.page, srv.url, 'Eva');
  await a.page.evaluate(() => localStorage.setItem('parchis.autoRoll', '1'));
  const roomId = await createRoom(a.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  const eva = await a.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));

  // Her phone: the same player, auto-roll on as well, on a slow network both ways.
  const b = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await recordErrors(b.page);
  const net = { up: 300 };
  await slowSockets(b.page, 300, net);
  await b.page.goto(`${srv.url}/`);
  await b.page.evaluate((p) => { localStorage.setItem('parchis.player', JSON.stringify(p)); localStorage.setItem('parchis.autoRoll', '1'); }, eva);
  await b.page.goto(`${srv.url}/room/${roomId}`);
  await waitMine(b.page, 0);
  await a.page.click('#start-game');
  await waitBoard(a.page);
  await waitBoard(b.page);
  for (const p of [a.page, b.page]) assert.equal(await p.isChecked('#auto-roll'), true);
  const room = await rest(srv.api).room(roomId);
  const seat = room.seats.findIndex((s) => s.player_id === eva.id);

  // Both devices roll by themselves on each of her turns; she plays her moves on the laptop, by hand.
  let turns = 0;
  let was = null;
  const end = Date.now() + 100000;
  while (turns < 6) {
    assert.ok(Date.now() < end, `six of her turns in time (had ${turns})`);
    const now = await turn(a.page);
    if (now.phase === 'over') break;
    if (now.seat === seat && was !== seat) turns++;
    was = now.seat;
    const move = await a.page.$('#moves button');
    if (move) await move.click({ timeout: 2000 }).catch(() => {});
    await a.page.waitForTimeout(150);
    // What the slower device refused of its own automatic roll it keeps to itself.
    assert.deepEqual(await shownErrors(b.page), [], 'no error on the phone');
    assert.deepEqual(await shownErrors(a.page), [], 'no error on the laptop');
  }
  // The last duplicate refused, too.
  await b.page.waitForTimeout(1500);
  assert.deepEqual(await shownErrors(b.page), [], 'no error on the phone');
  assert.deepEqual(await shownErrors(a.page), [], 'no error on the laptop');

  // By hand it is another matter: with auto-roll off on the phone, she taps its roll, too late (the laptop
  // rolled first: her tap is held long enough for that), and the phone says why her tap did nothing.
  await b.page.uncheck('#auto-roll');
  net.up = 2500;
  while ((await turn(b.page)).seat === seat) {
    assert.ok(Date.now() < end + 20000, 'her turn ends');
    const move = await a.page.$('#moves button');
    if (move) await move.click({ timeout: 2000 }).catch(() => {});
    await a.page.waitForTimeout(150);
  }
  // Tapped from inside the page the moment the button shows: the button is drawn again on every update, and
  // on a busy machine a click from outside may keep finding it replaced until the laptop's roll is in.
  await b.page.waitForFunction(() => {
    const button = document.querySelector('#roll:not([disabled])');
    if (button) button.click();
    return !!button;
  }, null, { timeout: 20000, polling: 'raf' });
  await b.page.waitForFunction(() => window.__shownErrors.length > 0, null, { timeout: 10000 })
    .catch(async () => assert.fail(`no error shown for the late tap: ${JSON.stringify(await turn(b.page))}`));
  assert.match((await shownErrors(b.page))[0], /moved on meanwhile/, 'the refusal of her tap is shown');
  assert.deepEqual(await shownErrors(a.page), [], 'no error on the laptop');
  await shot(b.page, 'two-devices-tap-too-late');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  await a.context.close();
  await b.context.close();
});
