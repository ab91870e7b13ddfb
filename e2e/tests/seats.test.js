// The owner manages the seats of a waiting room from the page: puts a bot in an empty seat, and removes
// another browser's player, whose page then says that the owner removed them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

test('the owner adds a bot from the page and removes a player, who is told so', { timeout: 120000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', '', ''], timer: '' });
  // Seat 3 (index 2): an expert bot, chosen with the level select (labelled for screen readers).
  const level = a.page.locator('#add-bot-level-2');
  assert.equal(await level.getAttribute('aria-label'), 'Bot level for seat 3');
  await level.selectOption('expert');
  await a.page.click('#seats li[data-seat="2"] .add-bot');
  await a.page.waitForSelector('#bot-level-2');
  assert.equal(await a.page.inputValue('#bot-level-2'), 'expert');
  assert.match(await a.page.textContent('#seats li[data-seat="2"]'), /Bot \(hard\)/);

  // Bea joins from another browser, and sees the bot.
  const link = (await a.page.textContent('#share-link')).trim();
  const b = await newPage(browser);
  await register(b.page, srv.url, 'Bea');
  await b.page.goto(link.replace(/^https?:\/\/[^/]+/, srv.url));
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  assert.match(await b.page.textContent('#seats li[data-seat="2"]'), /Bot \(hard\)/);
  assert.equal(await b.page.$('.add-bot, .remove-player, .remove-bot'), null, 'only the owner has seat controls');

  // Ana removes her, once confirmed.
  await a.page.waitForSelector('#seats li[data-seat="1"] .remove-player');
  a.page.once('dialog', (d) => d.accept());
  await a.page.click('#seats li[data-seat="1"] .remove-player');
  await a.page.waitForSelector('#seats li[data-seat="1"] .add-bot');
  await b.page.waitForSelector('#removed-note');
  assert.match(await b.page.textContent('#removed-note'), /owner removed you/);
  assert.equal(await b.page.$('#take-seat'), null, 'no seat offered to a removed player');
  await shot(b.page, 'seats-removed');
  assertNoErrors(a.page);
  await a.context.close();
  await b.context.close();
});
