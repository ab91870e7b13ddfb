// The seat draw: the create form ticks "Draw the seats" where the rule set's text draws them, the waiting room
// says so, and after the draw the page plays the seat the server gave, wherever that is.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '2000' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

test('the create form ticks the seat draw as each rule set does, until the player chooses', async () => {
  const { context, page } = await newPage(browser);
  await register(page, srv.url, 'Ana');
  const ticked = () => page.isChecked('#draw-seats');
  const choose = async (rules, mode) => { await page.selectOption('#rules', rules); await page.selectOption('#mode', mode); };
  await page.waitForFunction(() => document.querySelector('#house-rules:not(.hidden)'));
  await choose('playgridia', 'individual');
  assert.equal(await ticked(), false);
  await choose('playgridia', 'pairs');
  assert.equal(await ticked(), true, 'Playgridia: « les places sont tirées au sort »');
  await choose('ludoteka', 'pairs');
  assert.equal(await ticked(), false);
  await choose('morocco', 'individual');
  assert.equal(await ticked(), true, 'Morocco: « Le plus petit résultat au tirage reçoit bleu et commence »');
  // The player's own choice stays when the rules change.
  await page.uncheck('#draw-seats');
  await choose('playgridia', 'pairs');
  assert.equal(await ticked(), false);
  assertNoErrors(page);
  await context.close();
});

test('after the draw the page plays the seat the server gave, and says the seats were drawn', async () => {
  const { context, page } = await newPage(browser);
  await register(page, srv.url, 'Ana');
  for (let attempt = 0; attempt < 8; attempt++) {
    await page.goto(`${srv.url}/`);
    const roomId = await createRoom(page, { rules: 'morocco', mode: 'individual', players: 4, bots: ['random', 'greedy', 'greedy'] });
    assert.match(await page.textContent('#wr-settings'), /seats drawn at random at the start/);
    await page.click('#start-game');
    await waitBoard(page);
    const room = await rest(srv.api).room(roomId);
    const anaSeat = room.seats.findIndex((s) => s.display_name === 'Ana');
    // The players list marks the drawn seat as the page's own.
    await page.waitForSelector(`li.me[data-seat="${anaSeat}"]`);
    assert.equal(await page.locator('li.me').count(), 1);
    if (anaSeat === 0) continue;
    // Moved by the draw: the page waits while the bots before it play, and gives the turn to Ana at her seat.
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('#turn-line')?.textContent || ''), null, { timeout: 30000 });
    const view = await page.evaluate(() => window.__parchis.state.game.view);
    assert.equal(view.turn.seat, anaSeat);
    await shot(page, 'seat-draw-moved');
    assertNoErrors(page);
    await context.close();
    return;
  }
  assert.fail('the draw left Ana at seat 0 eight times running (probability 4⁻⁸)');
});
