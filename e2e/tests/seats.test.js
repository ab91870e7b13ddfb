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

test('a keyboard user keeps the focus on a seat control while the room changes around it', { timeout: 120000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Kai');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['expert', '', ''], timer: '' });
  // The bot's level select of seat 2 has the focus; the arrow key changes the level (an update).
  await a.page.focus('#bot-level-1');
  await a.page.keyboard.press('ArrowUp');
  await a.page.waitForFunction(() => window.__parchis?.state?.seats?.[1]?.bot === 'greedy');
  assert.equal(await a.page.evaluate(() => document.activeElement?.id), 'bot-level-1', 'the same select, rebuilt');
  // Someone joins from another browser (another update): the focus stays where it was.
  const version = await a.page.evaluate(() => window.__parchis.version);
  const link = (await a.page.textContent('#share-link')).trim();
  const b = await newPage(browser);
  await register(b.page, srv.url, 'Lin');
  await b.page.goto(link.replace(/^https?:\/\/[^/]+/, srv.url));
  await b.page.click('#take-seat');
  await a.page.waitForFunction((v) => window.__parchis.version > v && window.__parchis.state.seats.some((s) => s.display_name === 'Lin'), version);
  assert.equal(await a.page.evaluate(() => document.activeElement?.id), 'bot-level-1');
  // Enter on "Add a bot" of seat 4: the seat now has a bot, and the focus is on its level select.
  await a.page.focus('#seats li[data-seat="3"] .add-bot');
  await a.page.keyboard.press('Enter');
  await a.page.waitForSelector('#bot-level-3');
  await a.page.waitForFunction(() => document.activeElement?.id === 'bot-level-3', null, { timeout: 5000 });
  assertNoErrors(a.page);
  await a.context.close();
  await b.context.close();
});
