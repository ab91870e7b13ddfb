// Issue 34's small items, seen from a spectator's phone: someone who came with a private room's link watches
// its running game without an error in the console (the game's record, which is the owner's and the players'
// while it runs, is not asked for: no 403), is counted as "1 spectateur" in French, and can mute a writer
// with a button of 24 × 24 CSS px at least; each chat message is announced once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '200' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

test('a spectator of a private running game: no 403 in the console, "1 spectateur", a mute button of 24 px', { timeout: 120000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Nuria');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['greedy', 'greedy', 'greedy'], isPublic: false, timer: '' });
  const link = (await a.page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  await a.page.fill('#chat-input', 'hola');
  await a.page.press('#chat-input', 'Enter');

  const c = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'fr-FR' });
  // Everything the page's announcer says, kept (it holds only its last five lines).
  await c.context.addInitScript(() => {
    window.__heard = [];
    new MutationObserver((list) => {
      for (const m of list) if (m.target.id === 'announce') for (const n of m.addedNodes) window.__heard.push(n.textContent);
    }).observe(document, { subtree: true, childList: true });
  });
  await register(c.page, srv.url, 'Oriol');
  // The room's link to watch (the page adds ?watch=1 once the room is full).
  await c.page.goto(link.includes('watch=1') ? link : `${link}?watch=1`);
  await waitBoard(c.page, 'four').catch(async (e) => { throw new Error(`${e.message}\n${link}\n${await c.page.$eval('#main', (m) => m.innerText.slice(0, 400))}`); });
  await c.page.waitForFunction(() => /^1 spectateur\b/.test(document.querySelector('#spectators')?.textContent || ''), null, { timeout: 10000 });
  const mute = await c.page.waitForSelector('#chat-log li[data-seq="1"] .chat-mute');
  await mute.scrollIntoViewIfNeeded();
  const box = await mute.boundingBox();
  assert.ok(box.width >= 24 && box.height >= 24, `mute button ${box.width}×${box.height}`);
  // A message written while the spectator watches is heard once, through the page's one announcer (the chat's
  // list is drawn anew on each message: live, it would say them all again).
  await a.page.fill('#chat-input', '¿qué tal?');
  await a.page.press('#chat-input', 'Enter');
  await c.page.waitForSelector('#chat-log li[data-seq="2"]');
  await a.page.fill('#chat-input', 'suerte');
  await a.page.press('#chat-input', 'Enter');
  await c.page.waitForSelector('#chat-log li[data-seq="3"]');
  await c.page.waitForTimeout(300);
  const heard = await c.page.evaluate(() => window.__heard.filter((x) => /qué tal|suerte|hola/.test(x)));
  assert.deepEqual(heard, ['Nuria: ¿qué tal?', 'Nuria: suerte']);
  assert.equal(await c.page.getAttribute('#chat-log', 'aria-live'), null, 'the chat list is not a live region');
  // Long enough for the page to have asked for whatever it asks for.
  await c.page.waitForTimeout(1500);
  await shot(c.page, 'watch-private-phone');
  assertNoErrors(c.page);
  assertNoErrors(a.page);
  await a.context.close();
  await c.context.close();
});
