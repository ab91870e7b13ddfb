// A room's address works on another device (another browser context: no storage shared): the game page's and
// the waiting room's Share / Copy link give the right link, a public game's opens to watch, a private room's
// invitation seats whoever opens it, a private room's bare id keeps strangers out with a message that offers
// to sign in, and the owner of an account's seat signs in there and plays on. And when the server acts for a
// person (their turn timer ran out) everyone's page says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard, actOnce } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '300' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** The page's link to share, on this test server. */
const sharedLink = async (page) => (await page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
/** A browser of its own that holds `player` (as signing in there would). */
async function deviceOf(player) {
  const d = await newPage(browser);
  await d.page.goto(`${srv.url}/`);
  await d.page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify(p)), player);
  return d;
}
// The refusal of a private room by its bare id is a 403 the browser logs.
const refusedAllow = [/status of 403/];

test('a public game\'s link opens it to watch on another device', { timeout: 90000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await a.page.click('#start-game');
  await waitBoard(a.page);
  await a.page.waitForSelector('#game-share #share-link[data-kind="watch"]');
  assert.equal(await a.page.textContent('#copy-link'), 'Copy link');
  const link = await sharedLink(a.page);
  assert.match(link, /\?watch=1$/);

  const b = await newPage(browser);
  await b.page.goto(link);
  await waitBoard(b.page);
  await b.page.waitForFunction(() => window.__parchis.hello && window.__parchis.hello.role === 'spectator');
  assert.match(await b.page.textContent('#spectators'), /You are watching/);
  assert.equal(await b.page.$('#roll'), null);
  await shot(b.page, 'share-public-watch');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  await a.context.close();
  await b.context.close();
});

test('a private room: its invitation seats whoever opens it; its bare id is refused with what to do', { timeout: 90000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Nuria');
  const roomId = await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'greedy', 'greedy'], isPublic: false, timer: '' });
  await a.page.waitForSelector('#wr-share #share-link[data-kind="invite"]');
  const link = await sharedLink(a.page);
  const code = (await a.page.textContent('#join-code-value')).trim();
  assert.ok(link.endsWith(`/room/${code}`), `the invitation carries the code, not the id: ${link}`);
  assert.ok(!link.includes(roomId));

  // Another device, nobody on it yet: the invitation, a name, a seat.
  const b = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'es-ES' });
  await b.page.goto(link);
  await b.page.fill('#wr-name', 'Oriol');
  await b.page.press('#wr-name', 'Enter');
  await b.page.waitForSelector('#seats li.me');
  assert.match(await b.page.textContent('#seats li.me'), /Oriol/);
  await a.page.waitForFunction(() => document.querySelectorAll('#seats li[data-seat] bdi').length === 2);
  // Every seat taken: the link to give now is one to watch.
  await a.page.waitForSelector('#wr-share #share-link[data-kind="watch"]');

  // A third device with only the room's id (from a history, a list): refused, and told why and what to do.
  const c = await newPage(browser);
  await c.page.goto(`${srv.url}/room/${roomId}`);
  await c.page.waitForSelector('#private-room');
  assert.match(await c.page.textContent('#private-room'), /private: open it with the link or the code/);
  assert.match(await c.page.textContent('#private-refused'), /Sign in to your account here/);
  assert.ok(await c.page.$('#room-sign-in'));
  assert.equal(await c.page.$('#seats'), null, 'nothing of the room is shown');
  await shot(c.page, 'share-private-refused');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  assertNoErrors(c.page, refusedAllow);
  for (const d of [a, b, c]) await d.context.close();
});

test('a name half typed for a seat stays, with the focus, when the room changes under it', { timeout: 90000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Pau');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'greedy', 'greedy'], isPublic: false, timer: '' });
  await a.page.waitForSelector('#wr-share #share-link[data-kind="invite"]');
  const link = await sharedLink(a.page);

  const b = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true });
  await b.page.goto(link);
  await b.page.click('#wr-name');
  await b.page.keyboard.type('Rosa');
  const settings = await b.page.textContent('#wr-settings');
  // Someone else opens the invitation too: every waiting room is drawn again, with one more spectator.
  const c = await newPage(browser);
  await c.page.goto(link);
  await b.page.waitForFunction((was) => document.querySelector('#wr-settings').textContent !== was, settings);
  assert.equal(await b.page.inputValue('#wr-name'), 'Rosa', 'what was typed is still there');
  assert.ok(await b.page.evaluate(() => document.activeElement?.id === 'wr-name'), 'the field keeps the focus');
  await b.page.keyboard.type(' Mar');
  await b.page.keyboard.press('Enter');
  await b.page.waitForSelector('#seats li.me');
  assert.match(await b.page.textContent('#seats li.me'), /Rosa Mar/);
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  assertNoErrors(c.page);
  for (const d of [a, b, c]) await d.context.close();
});

test('the owner of an account\'s seat signs in on another device and plays on there', { timeout: 120000 }, async () => {
  const api = rest(srv.api);
  const ana = await api.member('Ana');
  const a = await deviceOf({ id: ana.id, display_name: ana.display_name, token: ana.token, username: ana.username });
  await a.page.goto(`${srv.url}/`);
  const roomId = await createRoom(a.page, { mode: 'individual', players: 2, bots: ['greedy'], isPublic: false, timer: '' });
  await a.page.click('#start-game');
  await waitBoard(a.page);
  await a.context.close();

  // Her phone: nobody there yet, the room's bare id (a private room's), refused until she signs in.
  const b = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await b.page.goto(`${srv.url}/room/${roomId}`);
  await b.page.waitForSelector('#private-room');
  await b.page.click('#room-sign-in summary');
  await b.page.fill('#room-sign-in-username', 'ana');
  await b.page.fill('#room-sign-in-password', 'correct horse');
  await b.page.click('#room-sign-in-submit');
  await waitBoard(b.page);
  await b.page.waitForSelector('#players li.me');
  await b.page.waitForFunction(() => window.__parchis.hello && window.__parchis.hello.role === 'player');
  // She plays her seat from here: a roll or a move of hers is taken.
  let acted = false;
  const end = Date.now() + 60000;
  while (!acted) {
    assert.ok(Date.now() < end, 'her turn came');
    acted = await actOnce(b.page);
    if (!acted) await b.page.waitForTimeout(200);
  }
  await shot(b.page, 'share-signed-in-plays');
  assertNoErrors(b.page, refusedAllow);
  await b.context.close();
});

test('when the turn timer runs out, every page says the server rolled or moved for that player', { timeout: 120000 }, async () => {
  const api = rest(srv.api);
  const eva = await api.player('Eva');
  const room = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, bots: [null, 'greedy'], turn_time_secs: 5, public: true }, eva.token);
  // Eva is there, and does nothing: her timer runs out.
  const a = await deviceOf(eva);
  await a.page.goto(`${srv.url}/room/${room.id}`);
  await a.page.waitForSelector('#start-game');
  await a.page.click('#start-game');
  await waitBoard(a.page);
  const w = await newPage(browser, { locale: 'es-ES' });
  await w.page.goto(`${srv.url}/room/${room.id}?watch=1`);
  await waitBoard(w.page);
  await a.page.waitForFunction(() => /Time ran out: the server (rolled|moved) for Eva\./.test(document.querySelector('#last-event').textContent), null, { timeout: 30000 });
  await w.page.waitForFunction(() => /Se acabó el tiempo: el servidor (tiró|movió) por Eva\./.test(document.querySelector('#last-event').textContent), null, { timeout: 30000 });
  assert.match(await a.page.textContent('#log'), /Time ran out: the server (rolled|moved) for Eva\./);
  assert.match(await w.page.textContent('#log'), /Se acabó el tiempo/);
  // A bot's own turns are not the server acting for a person.
  assert.doesNotMatch(await a.page.textContent('#log'), /server (rolled|moved) for Bot/);
  await shot(w.page, 'share-timer-ran-out');
  assertNoErrors(a.page);
  assertNoErrors(w.page);
  await a.context.close();
  await w.context.close();
});

test('a private room whose game is over, opened by its id on another device, offers the replay', { timeout: 180000 }, async () => {
  // Bots without a pause: the game plays itself to the end in moments.
  const quick = await startServer({ BOT_DELAY_MS: '0' });
  try {
    const api = rest(quick.api);
    const ana = await api.player('Ana');
    const room = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, bots: [null, 'greedy'], turn_time_secs: null, public: false }, ana.token);
    await api.start(room.id, ana.token);
    await api.call('POST', `/api/rooms/${room.id}/leave`, undefined, ana.token);
    const end = Date.now() + 120000;
    while ((await api.room(room.id, ana.token)).status !== 'finished') {
      assert.ok(Date.now() < end, 'the bots finished the game');
      await new Promise((r) => setTimeout(r, 300));
    }
    const b = await newPage(browser);
    await b.page.goto(`${quick.url}/room/${room.id}`);
    await b.page.waitForSelector('#room-over');
    assert.match(await b.page.textContent('#room-over'), /This game is over/);
    assert.equal(await b.page.$('#private-room'), null, 'not refused as private');
    await b.page.click('#replay-link');
    await b.page.waitForSelector('#replay-result');
    await shot(b.page, 'share-finished-replay');
    assertNoErrors(b.page);
    await b.context.close();
  } finally {
    await quick.stop();
  }
});
