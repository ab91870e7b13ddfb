// Lobby and waiting room over REST: names, create, public list, join by code, preferred colour.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, hasWebSocket } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom } from '../lib/flows.js';

let srv; let browser; let wsAllow = [];
before(async () => {
  srv = await startServer();
  // Before the room WebSocket existed, the page reported its failed handshakes; tolerate only then.
  if (!(await hasWebSocket(srv.api))) wsAllow = [/WebSocket connection to .* failed/];
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });


test('create a room, see it listed, join it by code from a second browser', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { locale: 'es-ES' });
  await register(a.page, srv.url, 'Ana');
  await shot(a.page, 'lobby-desktop');
  const roomId = await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'random', 'expert'], pace: 'fast' });
  assert.match(await a.page.textContent('#wr-settings'), /fast bots/, 'the waiting room says the bots play fast');
  const code = (await a.page.textContent('#join-code-value')).trim();
  assert.match(code, /^[A-Z0-9]{6}$/);
  assert.equal(await a.page.locator('#seats li').count(), 4);
  // The second browser (Spanish) sees the room listed on its home page.
  await register(b.page, srv.url, 'Bea');
  assert.equal(await b.page.textContent('#create-h'), 'Crear una sala');
  await b.page.waitForSelector(`#room-list li[data-room="${roomId}"]`);
  assert.equal(await b.page.locator(`#room-list li[data-room="${roomId}"] .join-link`).count(), 1, 'a room with a free seat offers Join');
  // … and joins with the code, choosing a colour.
  await b.page.fill('#join-code', code);
  await b.page.press('#join-code', 'Enter');
  await b.page.waitForSelector('#take-seat');
  assert.match(await b.page.textContent('#wr-settings'), /bots rápidos/);
  await b.page.selectOption('#pref-colour', 'blue');
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  const seat = await b.page.getAttribute('#seats li.me', 'data-seat');
  assert.equal(seat, '1');
  // The owner sees Bea seated (WebSocket update, or REST poll while the socket is down).
  await a.page.waitForFunction(() => [...document.querySelectorAll('#seats li')].some((li) => li.textContent.includes('Bea')), null, { timeout: 10000 });
  // Now every seat is taken (two people, two bots): a third visitor can watch it but not join it.
  const c = await newPage(browser);
  await register(c.page, srv.url, 'Carla');
  await c.page.waitForSelector(`#room-list li[data-room="${roomId}"]`);
  assert.equal(await c.page.locator(`#room-list li[data-room="${roomId}"] .join-link`).count(), 0, 'a full room offers no Join');
  assert.equal(await c.page.locator(`#room-list li[data-room="${roomId}"] a[href$="?watch=1"]`).count(), 1, 'a full room can be watched');
  assertNoErrors(c.page, wsAllow);
  await c.context.close();
  assertNoErrors(a.page, wsAllow);
  assertNoErrors(b.page, wsAllow);
  await a.context.close();
  await b.context.close();
});

test('lobby on a phone (375x667) and language switch', async () => {
  const p = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'fr-FR' });
  await p.page.goto(`${srv.url}/`);
  assert.equal(await p.page.textContent('#create-h'), 'Créer une salle');
  await register(p.page, srv.url, 'Chloé');
  const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `no horizontal scroll (${width})`);
  await shot(p.page, 'lobby-phone');
  await p.page.selectOption('#lang', 'en');
  assert.equal(await p.page.textContent('#create-h'), 'Create a room');
  assert.equal(await p.page.evaluate(() => localStorage.getItem('parchis.lang')), 'en');
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('on a phone the create form comes before the lists of rooms; turning it lays the page out again and keeps what was chosen', async () => {
  const p = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await p.page.goto(`${srv.url}/`);
  await p.page.waitForSelector('#create-room');
  const layout = () => p.page.evaluate(() => {
    const create = document.querySelector('#create-h').closest('.card').getBoundingClientRect();
    const rooms = document.querySelector('#room-list').closest('section').getBoundingClientRect();
    const join = document.querySelector('#join-code').closest('section').getBoundingClientRect();
    const order = document.querySelector('#create-h').compareDocumentPosition(document.querySelector('#room-list'));
    return { createTop: create.top, roomsTop: rooms.top, joinTop: join.top, createLeft: create.left, roomsLeft: rooms.left,
      createFirst: Boolean(order & Node.DOCUMENT_POSITION_FOLLOWING) };
  });
  // Upright: one column, the form right after the code field, before the public rooms (and so in tab order).
  let at = await layout();
  assert.ok(at.joinTop < at.createTop && at.createTop < at.roomsTop, JSON.stringify(at));
  assert.ok(at.createFirst, 'the form comes first in the page too');
  await p.page.selectOption('#rules', 'ludoteka');

  // Turned: two columns, the form beside the lists, still set to Ludoteka.
  await p.page.setViewportSize({ width: 900, height: 390 });
  await p.page.waitForFunction(() => !document.querySelector('.home-one-column'));
  at = await layout();
  assert.ok(at.createLeft > at.roomsLeft, `beside: ${JSON.stringify(at)}`);
  assert.equal(await p.page.inputValue('#rules'), 'ludoteka');

  await p.page.setViewportSize({ width: 390, height: 844 });
  await p.page.waitForSelector('.home-one-column');
  assert.equal(await p.page.inputValue('#rules'), 'ludoteka');
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('the home page fits every card at every width, in every language (long French labels and Arabic right to left included)', async () => {
  for (const width of [1280, 900, 375]) {
    const p = await newPage(browser, { viewport: { width, height: 900 }, isMobile: width < 500 });
    for (const lang of ['en', 'es', 'fr', 'ar']) {
      await p.page.goto(`${srv.url}/`);
      await p.page.selectOption('#lang', lang);
      await p.page.waitForSelector('#create-room');
      const overflowing = await p.page.evaluate(() => [...document.querySelectorAll('section.card')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.getAttribute('aria-labelledby')));
      assert.deepEqual(overflowing, [], `cards wider than their box at ${width}px in ${lang}`);
    }
    await p.context.close();
  }
});

test('the home page lists your games: a running one is resumed in one click, a waiting one opened', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Dana');
  assert.equal(await p.page.isVisible('#my-rooms'), false, 'nothing to list yet');
  const running = await createRoom(p.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await p.page.click('#start-game');
  await p.page.waitForSelector('svg.board');
  await p.page.goto(`${srv.url}/`);
  const waiting = await createRoom(p.page, { mode: 'quick', players: 2, bots: ['greedy'] });
  await p.page.goto(`${srv.url}/`);
  // The running game comes first, with a Resume button; the waiting room after it.
  await p.page.waitForSelector('#my-rooms li[data-status="playing"]');
  const order = await p.page.$$eval('#my-rooms li', (lis) => lis.map((li) => [li.dataset.room, li.dataset.status]));
  assert.deepEqual(order, [[running, 'playing'], [waiting, 'waiting']]);
  await shot(p.page, 'my-games');
  await p.page.click(`#my-rooms li[data-room="${running}"] .resume-link`);
  await p.page.waitForSelector('svg.board');
  assert.equal(new URL(p.page.url()).pathname, `/room/${running}`);
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('changing your name keeps you: the same identity, your running game listed and the table shows the new name', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Rita');
  const before = await p.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));
  const room = await createRoom(p.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await p.page.click('#start-game');
  await p.page.waitForSelector('svg.board');
  await p.page.goto(`${srv.url}/`);
  await p.page.click('#change-name');
  await p.page.fill('#name', 'Rita Moreno');
  await p.page.press('#name', 'Enter');
  await p.page.waitForFunction(() => document.querySelector('#name-h')?.textContent.includes('Rita Moreno'));
  const after = await p.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));
  assert.equal(after.id, before.id, 'the same player');
  assert.equal(after.token, before.token, 'the same token');
  assert.equal(after.display_name, 'Rita Moreno');
  // The running game is still yours, and its table shows the new name.
  await p.page.waitForSelector(`#my-rooms li[data-room="${room}"]`);
  await p.page.click(`#my-rooms li[data-room="${room}"] .resume-link`);
  await p.page.waitForSelector('svg.board');
  await p.page.waitForFunction(() => [...document.querySelectorAll('#seats li, #players li')].some((li) => li.textContent.includes('Rita Moreno')));
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('an owner who leaves hands the room over: the next player gets the Start button', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await register(a.page, srv.url, 'Elena');
  await createRoom(a.page, { mode: 'individual', players: 2, bots: [''], timer: '' });
  const link = (await a.page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
  await register(b.page, srv.url, 'Fabio');
  await b.page.goto(link);
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  assert.equal(await b.page.$('#start-game'), null, 'only the owner starts');
  await a.page.click('#leave-seat');
  await b.page.waitForSelector('#start-game');
  await b.page.click('#start-game');
  await b.page.waitForSelector('svg.board');
  assertNoErrors(a.page, wsAllow);
  assertNoErrors(b.page, wsAllow);
  await a.context.close();
  await b.context.close();
});

test('play now against bots: the chosen rules, mode and bot pace, every other seat a bot, started at once', async () => {
  const p = await newPage(browser, { locale: 'es-ES' });
  await register(p.page, srv.url, 'Gala');
  await p.page.selectOption('#rules', 'morocco');
  await p.page.selectOption('#mode', '1v1');
  await p.page.selectOption('#bot-1', '');
  assert.equal(await p.page.inputValue('#bot-pace'), 'normal', 'bots play at a pace to follow unless asked');
  assert.equal(await p.page.textContent('label[for="bot-pace"]'), 'Los bots juegan');
  await p.page.selectOption('#bot-pace', 'fast');
  await p.page.click('#play-now');
  await p.page.waitForSelector('svg.board');
  const state = await p.page.evaluate(() => window.__parchis.state);
  assert.equal(state.room.status, 'playing');
  assert.equal(state.room.settings.rules, 'morocco');
  assert.equal(state.room.settings.mode, '1v1');
  assert.equal(state.room.settings.public, false, 'not listed for strangers');
  assert.equal(state.room.settings.bot_pace, 'fast');
  // Morocco draws the seats at the start: Gala sits in one of the two, a bot in the other.
  const gala = state.seats.findIndex((s) => s.display_name === 'Gala');
  assert.ok(gala === 0 || gala === 1, JSON.stringify(state.seats));
  assert.equal(state.seats[1 - gala].bot, 'greedy', 'a seat left to a human gets a bot');
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('games being played are offered to watch: a stranger opens one and watches, without the dice', async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { locale: 'fr-FR' });
  await register(a.page, srv.url, 'Iker');
  // A slow turn timer: the game waits on Iker, so it is still being played while it is watched.
  const roomId = await createRoom(a.page, { rules: 'ludoteka', mode: 'individual', players: 4, bots: ['greedy', 'greedy', 'greedy'], timer: '120' });
  await a.page.click('#start-game');
  await a.page.waitForSelector('svg.board');
  await register(b.page, srv.url, 'Jules');
  const entry = b.page.locator(`#live-games li[data-room="${roomId}"]`);
  await entry.waitFor({ timeout: 15000 });
  assert.match(await entry.textContent(), /Ludoteka/);
  assert.match(await entry.textContent(), /Iker/);
  assert.equal(await b.page.textContent('#live-h'), 'Parties en cours');
  // Not offered among the rooms to join.
  assert.equal(await b.page.locator(`#room-list li[data-room="${roomId}"]`).count(), 0);
  await shot(b.page, 'lobby-live-games');
  await entry.locator('a.watch-link').click();
  await b.page.waitForSelector('svg.board');
  await b.page.waitForFunction(() => window.__parchis && window.__parchis.state && window.__parchis.state.game);
  assert.equal(new URL(b.page.url()).pathname, `/room/${roomId}`);
  assert.equal(await b.page.locator('#roll:not([disabled])').count(), 0, 'a spectator has no die to roll');
  // Iker sees one more person watching.
  await a.page.waitForFunction(() => window.__parchis.state.spectators >= 1, null, { timeout: 10000 });
  assertNoErrors(a.page, wsAllow);
  assertNoErrors(b.page, wsAllow);
  await a.context.close();
  await b.context.close();
});

test('a token the server no longer knows is forgotten: the page asks for a name again, a room is watched', async () => {
  const owner = await newPage(browser);
  await register(owner.page, srv.url, 'Iris');
  const roomId = await createRoom(owner.page, { mode: 'individual', players: 2, bots: [''] });
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Hugo');
  // As after the host reset the database: the stored token means nothing to the server any more.
  await p.page.evaluate(() => {
    const id = JSON.parse(localStorage.getItem('parchis.player'));
    localStorage.setItem('parchis.player', JSON.stringify({ ...id, token: 'f'.repeat(64) }));
  });
  await p.page.reload();
  await p.page.waitForSelector('#save-name');
  assert.equal(await p.page.evaluate(() => localStorage.getItem('parchis.player')), null);
  assert.match(await p.page.textContent('#banner'), /choose a name again/);
  // The same in a room: the page falls back to watching (a name form to take a seat), and does not
  // try to reconnect with the dead token for ever.
  await p.page.evaluate(() => {
    localStorage.setItem('parchis.player', JSON.stringify({ id: 'gone', display_name: 'Hugo', token: 'e'.repeat(64) }));
  });
  await p.page.goto(`${srv.url}/room/${roomId}`);
  await p.page.waitForSelector('#wr-name');
  await p.page.waitForFunction(() => window.__parchis && window.__parchis.hello && window.__parchis.hello.role === 'spectator');
  assert.equal(await p.page.evaluate(() => localStorage.getItem('parchis.player')), null);
  assertNoErrors(p.page, [...wsAllow, /status of 401/]);
  await p.context.close();
  await owner.context.close();
});

test('how to play: every rule set summed up, in the chosen language', async () => {
  const p = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true });
  await p.page.goto(`${srv.url}/`);
  await p.page.click('#howto-link');
  await p.page.waitForSelector('#howto');
  assert.equal(new URL(p.page.url()).pathname, '/rules');
  for (const set of ['playgridia', 'ludoteka', 'morocco']) {
    assert.ok((await p.page.locator(`#howto-${set} li`).count()) >= 5, set);
  }
  assert.match(await p.page.textContent('#howto-morocco'), /12/);
  await p.page.selectOption('#lang', 'es');
  assert.equal(await p.page.textContent('#howto h2'), 'Cómo se juega');
  assert.equal(await p.page.textContent('#howto-morocco h3'), 'Marruecos');
  const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `no horizontal scroll (${width})`);
  await shot(p.page, 'howto-phone');
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('the create form points to the how-to page\'s section of the chosen rule set and mode', async () => {
  const p = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'fr-FR' });
  await register(p.page, srv.url, 'Lola');
  await p.page.selectOption('#rules', 'ludoteka');
  await p.page.selectOption('#mode', 'pairs');
  // The links name the rule set and the mode as the form does.
  assert.equal(await p.page.textContent('#howto-rules-link'), 'Comment jouer : Ludoteka');
  assert.equal(await p.page.textContent('#howto-mode-link'), await p.page.$eval('#mode', (s) => s.selectedOptions[0].textContent));
  await p.page.click('#howto-mode-link');
  await p.page.waitForSelector('#howto-mode-pairs');
  assert.equal(new URL(p.page.url()).pathname + new URL(p.page.url()).hash, '/rules#howto-mode-pairs');
  // The mode's line is on screen, under the form's own name for the mode.
  await p.page.waitForFunction(() => { const r = document.querySelector('#howto-mode-pairs').getBoundingClientRect(); return r.top > -1 && r.bottom <= innerHeight + 1; });
  assert.match(await p.page.textContent('#howto-mode-pairs strong'), /Équipes/);
  await p.page.goBack();
  await p.page.waitForSelector('#rules');
  await p.page.selectOption('#rules', 'morocco');
  assert.equal(await p.page.getAttribute('#howto-rules-link', 'href'), '/rules#howto-morocco');
  await p.page.click('#howto-rules-link');
  await p.page.waitForSelector('#howto-morocco');
  await p.page.waitForFunction(() => { const r = document.querySelector('#howto-morocco h3').getBoundingClientRect(); return r.top > -1 && r.bottom <= innerHeight + 1; });
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('the client runs under its own content security policy: no script, style or socket is refused', async () => {
  const p = await newPage(browser, { csp: true });
  const violations = [];
  p.page.on('console', (m) => { if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text()); });
  await register(p.page, srv.url, 'Jana');
  await p.page.click('#play-now');
  await p.page.waitForSelector('svg.board [data-piece]');
  await p.page.waitForSelector('#roll:not([disabled])');
  await p.page.click('#roll');
  await p.page.waitForSelector('#dice [data-die]:not([data-die=""])');
  await p.page.fill('#chat-input', 'hola');
  await p.page.press('#chat-input', 'Enter');
  await p.page.waitForSelector('#chat-log li[data-seq]');
  await p.page.click('#howto-link');
  await p.page.waitForSelector('#howto');
  assert.deepEqual(violations, []);
  assertNoErrors(p.page, wsAllow);
  await p.context.close();
});

test('a private room opened by its bare id, without the code, says it is private and does not try to connect', async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Quim');
  const roomId = await createRoom(a.page, { mode: 'individual', players: 4, isPublic: false });
  const b = await newPage(browser);
  await register(b.page, srv.url, 'Rosa');
  await b.page.goto(`${srv.url}/room/${roomId}`);
  await b.page.waitForSelector('#private-room');
  assert.match(await b.page.textContent('#private-room'), /private/);
  assert.equal(await b.page.locator('#seats li').count(), 0, 'no waiting room to take a seat in');
  // With the code, the same person gets in.
  const code = (await a.page.textContent('#join-code-value')).trim();
  await b.page.goto(`${srv.url}/room/${code}`);
  await b.page.waitForSelector('#seats li');
  assertNoErrors(a.page, wsAllow);
  // The room by its bare id is refused (403 wrong_join_code): the browser logs that refused request.
  assertNoErrors(b.page, [...wsAllow, /status of 403/]);
  await a.context.close();
  await b.context.close();
});

test('Copy puts the room link on the clipboard, and where there is no clipboard selects it to copy by hand', async () => {
  const a = await newPage(browser);
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'random', 'random'] });
  const link = (await a.page.textContent('#share-link')).trim();
  await a.page.click('#copy-link');
  await a.page.waitForFunction(() => document.querySelector('#copy-link').textContent === 'Copied!');
  assert.equal(await a.page.evaluate(() => navigator.clipboard.readText()), link);
  // A plain-HTTP address on a LAN has no clipboard API: the tap still does something visible.
  const b = await newPage(browser, { locale: 'es-ES', viewport: { width: 390, height: 844 }, isMobile: true });
  await b.page.addInitScript(() => { Object.defineProperty(navigator, 'clipboard', { value: undefined }); });
  await register(b.page, srv.url, 'Bea');
  await b.page.goto(link);
  await b.page.waitForSelector('#copy-link');
  await b.page.click('#copy-link');
  await b.page.waitForFunction(() => document.querySelector('#copy-link').textContent === 'Seleccionado: cópialo a mano');
  assert.equal(await b.page.evaluate(() => String(window.getSelection()).trim()), link);
  assertNoErrors(a.page, wsAllow);
  assertNoErrors(b.page, wsAllow);
  await a.context.close();
  await b.context.close();
});

test('unknown room shows a message', async () => {
  const p = await newPage(browser);
  await p.page.goto(`${srv.url}/room/NOPE99`);
  await p.page.waitForSelector('.error');
  await p.context.close();
});

test('a create whose answer was lost (503) is sent once more with the same Idempotency-Key: one room, and the page is in it', async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Ana');
  const me = await a.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));
  // The first create reaches the server (which makes the room), but its answer is lost: the page gets 503.
  const keys = [];
  await a.page.route('**/api/rooms', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().headers()['idempotency-key']);
    const answer = await route.fetch();
    if (keys.length > 1) return route.fulfill({ response: answer });
    return route.fulfill({ status: 503, json: { code: 'room_busy', message: 'The room is busy; try again shortly.' } });
  });
  const roomId = await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'random', 'random'] });
  assert.equal(keys.length, 2, 'sent twice');
  assert.match(keys[0], /^[0-9a-f-]{32,36}$/);
  assert.equal(keys[1], keys[0], 'with the same key');
  const r = await fetch(`${srv.api}/api/players/me/rooms`, { headers: { authorization: `Bearer ${me.token}` } });
  assert.deepEqual((await r.json()).rooms.map((room) => room.room_id), [roomId], 'one room, the one shown');
  assertNoErrors(a.page, [...wsAllow, /status of 503/]);
  await a.context.close();
});
