// Players on one device (pass and play): the player at a phone seats a second person there, who plays their
// turns on the same screen; another browser sees whose device that seat is played at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard, checkBoard, actOnce } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

test('someone at the same phone takes a seat and plays their turns there; others see whose device it is', { timeout: 120000 }, async () => {
  const a = await newPage(browser, { viewport: { width: 375, height: 740 }, isMobile: true });
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 3, bots: ['', ''], timer: '' });
  // An empty name is not sent; a real one takes the first free seat.
  await a.page.click('#add-local');
  assert.equal(await a.page.$('#seats li[data-seat="1"] .remove-local'), null);
  await a.page.fill('#local-name', 'Abuela');
  await a.page.click('#add-local');
  await a.page.waitForSelector('#seats li[data-seat="1"] .remove-local');
  const abuela = await a.page.textContent('#seats li[data-seat="1"]');
  assert.match(abuela, /Abuela \(on this device\)/);
  assert.match(await a.page.textContent('#local-hint'), /not rated/);
  await shot(a.page, 'local-players-add-phone');
  // Removed, and seated again.
  await a.page.click('#seats li[data-seat="1"] .remove-local');
  await a.page.waitForFunction(() => !document.querySelector('#seats li[data-seat="1"] .remove-local'));
  await a.page.fill('#local-name', 'Abuela');
  await a.page.click('#add-local');
  await a.page.waitForSelector('#seats li[data-seat="1"] .remove-local');

  // Bea, in another browser, takes the last seat and sees where Abuela plays; the room is full now.
  const link = (await a.page.textContent('#share-link')).trim();
  const b = await newPage(browser, { locale: 'es-ES' });
  await register(b.page, srv.url, 'Bea');
  await b.page.goto(link.replace(/^https?:\/\/[^/]+/, srv.url));
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  assert.match(await b.page.textContent('#seats li[data-seat="1"]'), /Abuela \(en el dispositivo de Ana\)/);
  assert.equal(await b.page.$('#add-local'), null, 'no free seat left to add anyone');
  await a.page.waitForFunction(() => !document.querySelector('#add-local'));
  await shot(a.page, 'local-players-waiting-phone');

  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  await waitBoard(b.page, 'four');
  // Ana's phone plays seat 0 and Abuela's seat 1; Bea plays seat 2. Each page acts only on its seats.
  let abuelaActed = 0;
  // By time, not by a count of looks: the pages show each update in turn (pace.js), so a turn can take a second.
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline && abuelaActed < 3) {
    const seat = await a.page.evaluate(() => window.__parchis.state.game.view.turn.seat);
    if (seat === 1) {
      assert.match(await a.page.textContent('#turn-line'), /Abuela’s turn, on this device/);
      assert.equal(await b.page.$('#roll:not([disabled])'), null, 'not Bea’s to roll');
      if (await actOnce(a.page)) abuelaActed++;
    } else if (seat === 0) {
      await actOnce(a.page);
    } else {
      await actOnce(b.page);
    }
    await a.page.waitForTimeout(50);
  }
  assert.ok(abuelaActed >= 3, `Abuela played ${abuelaActed} times`);
  await checkBoard(a.page, 'after pass and play');
  await checkBoard(b.page, 'Bea after pass and play');
  assert.match(await a.page.textContent('#players li[data-seat="1"]'), /Abuela \(on this device\)/);
  await shot(a.page, 'local-players-game-phone');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
});

test('the create form seats people at this device where the player puts them, and Play now starts with them', { timeout: 120000 }, async () => {
  const a = await newPage(browser, { viewport: { width: 375, height: 740 }, isMobile: true, locale: 'fr-FR' });
  await register(a.page, srv.url, 'Chloé');
  // Four seats: seat 2 left to a person who may join, seat 3 someone here, seat 4 a bot.
  await a.page.selectOption('#players', '4');
  assert.equal(await a.page.isVisible('#local-name-2'), false, 'no name field until the seat is someone here');
  await a.page.selectOption('#bot-1', '');
  await a.page.selectOption('#bot-2', 'local');
  await a.page.selectOption('#bot-3', 'greedy');
  assert.equal(await a.page.isVisible('#local-name-2'), true);
  // No name: nothing is made, and the form says which seat needs one.
  await a.page.click('#create-room');
  await a.page.waitForFunction(() => /place 3/.test(document.querySelector('#create-form + .error')?.textContent || ''));
  assert.equal(await a.page.evaluate(() => document.activeElement.id), 'local-name-2');
  assert.equal(await a.page.$('#seats li'), null, 'still the lobby');
  await shot(a.page, 'local-players-create-phone');
  await a.page.fill('#local-name-2', 'Mamie');
  await a.page.click('#create-room');
  await a.page.waitForSelector('#seats li[data-seat="2"] .remove-local');
  assert.match(await a.page.textContent('#seats li[data-seat="2"]'), /Mamie \(sur cet appareil\)/);
  assert.doesNotMatch(await a.page.textContent('#seats li[data-seat="1"]'), /Mamie/, 'seat 2 stays free for a person');

  // Back to the lobby: Play now with someone here in seat 2 and bots elsewhere starts at once.
  await a.page.goto(srv.url);
  await a.page.waitForSelector('#create-form');
  await a.page.selectOption('#players', '3');
  await a.page.selectOption('#bot-1', 'local');
  await a.page.fill('#local-name-1', 'Papi');
  await a.page.selectOption('#bot-2', 'random');
  await a.page.click('#play-now');
  await waitBoard(a.page, 'four');
  assert.match(await a.page.textContent('#players li[data-seat="1"]'), /Papi \(sur cet appareil\)/);
  let papiActed = 0;
  const papiDeadline = Date.now() + 60000;
  while (Date.now() < papiDeadline && papiActed < 2) {
    const seat = await a.page.evaluate(() => window.__parchis.state.game.view.turn.seat);
    if (seat === 1) {
      assert.match(await a.page.textContent('#turn-line'), /Papi, sur cet appareil/);
      if (await actOnce(a.page)) papiActed++;
    } else if (seat === 0) {
      await actOnce(a.page);
    }
    await a.page.waitForTimeout(50);
  }
  assert.ok(papiActed >= 2, `Papi played ${papiActed} times`);
  await checkBoard(a.page, 'after Play now with someone here');
  assertNoErrors(a.page);
});

/**
 * A finished game of Ana against Abuela, at Ana's device, that Abuela won: nobody connects, so bots cover both
 * seats; four games at a time until Abuela wins one (each is a toss-up). Returns Ana and the room.
 */
async function aGameAbuelaWon() {
  const api = rest(srv.api);
  const play = async () => {
    const ana = await api.player('Ana');
    const room = await api.createRoom({ rules: 'playgridia', mode: 'quick', players: 2, turn_time_secs: null, public: true }, ana.token);
    await api.call('POST', `/api/rooms/${room.id}/local-players`, { display_name: 'Abuela' }, ana.token);
    await api.start(room.id, ana.token);
    for (let i = 0; i < 600; i++) {
      const view = await api.room(room.id, ana.token);
      if (view.status === 'finished') return { ana, room: room.id, winners: (await api.record(view.game_id)).result.winner_seats };
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`the bots did not finish room ${room.id}`);
  };
  for (let batch = 0; batch < 5; batch++) {
    const won = (await Promise.all([play(), play(), play(), play()])).find((g) => g.winners.includes(1));
    if (won) return won;
  }
  throw new Error('Abuela won none of 20 games');
}

test('when the person added at this device wins, the end card says this device won, naming them, in every language', { timeout: 240000 }, async () => {
  const { ana, room } = await aGameAbuelaWon();
  const said = {
    'en-GB': /^Abuela won, on this device!$/,
    'es-ES': /^¡Abuela ha ganado, en este dispositivo!$/,
    'fr-FR': /^Abuela a gagné, sur cet appareil !$/,
    'ar-MA': /^فاز \u2068Abuela\u2069، على هذا الجهاز!$/,
  };
  for (const [locale, won] of Object.entries(said)) {
    const { page, context } = await newPage(browser, { viewport: { width: 375, height: 740 }, isMobile: true, locale });
    await page.goto(`${srv.url}/`);
    await page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify(p)), ana);
    await page.goto(`${srv.url}/room/${room}`);
    await page.waitForSelector('#end:not(.hidden) #result-me');
    assert.match(await page.textContent('#winner'), /Abuela/, `${locale}: the winner line names her`);
    assert.match(await page.textContent('#result-me'), won, `${locale}: this device's side won`);
    // Both rows of the figures are played from this device, Abuela's as much as Ana's.
    const marked = await page.$$eval('#figures tbody tr.me', (trs) => trs.map((tr) => Number(tr.dataset.seat)).sort());
    assert.deepEqual(marked, [0, 1], `${locale}: both rows marked as played here`);
    if (locale === 'en-GB') await shot(page, 'local-players-won-phone');
    assertNoErrors(page);
    await context.close();
  }
});
