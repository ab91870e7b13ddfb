// The room chat in the browser: players write (typed or one-tap reactions) and see each other's
// messages as plain text; a spectator reads but has nothing to write with; the messages stay through
// the start of the game and a reload, each shown once; a player can mute another on their own screen,
// and report another's message to the host, who finds it in the server's list of reports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom, waitBoard } from '../lib/flows.js';

const ADMIN = 'the host secret of the chat tests';
let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '200', ADMIN_TOKEN: ADMIN });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const texts = (page) => page.$$eval('#chat-log li[data-seq]', (lis) => lis.map((li) => ({
  name: li.querySelector('.chat-name').textContent, text: li.querySelector('.chat-text').textContent,
})));

test('players chat as plain text, a spectator reads, and the chat survives the start and a reload', { timeout: 120000 }, async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'es-ES' });
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'greedy', 'greedy'], timer: '' });
  const link = (await a.page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
  await register(b.page, srv.url, 'Bea');
  await b.page.goto(link);
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  await b.page.waitForSelector('#chat-input');

  // Markup is shown as the characters typed, never run.
  const sneaky = '<b>hola</b> & <img src=x onerror="window.__pwned=1">';
  await a.page.fill('#chat-input', sneaky);
  await a.page.press('#chat-input', 'Enter');
  await b.page.waitForFunction(() => document.querySelectorAll('#chat-log li[data-seq]').length === 1);
  assert.deepEqual(await texts(b.page), [{ name: 'Ana', text: sneaky }]);
  assert.equal(await b.page.$('#chat-log b, #chat-log img'), null, 'no element came from the text');
  assert.equal(await b.page.evaluate(() => window.__pwned), undefined);
  assert.equal(await a.page.inputValue('#chat-input'), '', 'the sent line is cleared');
  assert.equal(await a.page.getAttribute('#chat-log li[data-seq]', 'class'), 'mine');

  // A one-tap reaction from the phone (in Spanish); each reaction button is named in words for screen readers.
  assert.deepEqual(await b.page.$$eval('.chat-emoji', (els) => els.map((e) => [e.textContent, e.getAttribute('aria-label')])), [
    ['👍', 'Pulgar arriba'], ['👏', 'Aplausos'], ['😂', 'Risa'], ['😮', 'Sorpresa'], ['😡', 'Enfado'], ['🍀', 'Buena suerte']]);
  await b.page.click('.chat-emoji[aria-label="Pulgar arriba"]');
  await a.page.waitForFunction(() => document.querySelectorAll('#chat-log li[data-seq]').length === 2);
  assert.deepEqual((await texts(a.page))[1], { name: 'Bea', text: '👍' });

  // A spectator reads everything said so far, and has no way to write.
  const c = await newPage(browser);
  await c.page.goto(link + '?watch=1');
  await c.page.waitForFunction(() => document.querySelectorAll('#chat-log li[data-seq]').length === 2);
  assert.equal(await c.page.isVisible('#chat-input'), false);
  assert.equal(await c.page.isVisible('#chat-note'), true);
  assertNoErrors(c.page);
  await c.context.close();

  // The game starts: the chat moves to the game screen with its messages, and still works.
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  await waitBoard(b.page, 'four');
  assert.equal((await texts(a.page)).length, 2);
  await b.page.fill('#chat-input', '¡Suerte!');
  await b.page.click('#chat-send');
  await a.page.waitForFunction(() => document.querySelectorAll('#chat-log li[data-seq]').length === 3);
  await shot(b.page, 'chat-mobile');

  // After a reload every message is there once.
  await b.page.reload();
  await waitBoard(b.page, 'four');
  await b.page.waitForFunction(() => document.querySelectorAll('#chat-log li[data-seq]').length === 3);
  assert.deepEqual((await texts(b.page)).map((m) => m.text), [sneaky, '👍', '¡Suerte!']);

  // Ana mutes Bea: Bea's messages go from Ana's screen (and stay gone after a reload) until she
  // unmutes her; Bea sees nothing of it.
  assert.equal(await a.page.locator('#chat-log li.mine .chat-mute').count(), 0, 'nobody mutes themselves');
  await a.page.click('#chat-log li[data-seq="2"] .chat-mute');
  assert.deepEqual((await texts(a.page)).map((m) => m.text), [sneaky]);
  assert.match(await a.page.textContent('#chat-muted'), /Bea/);
  await a.page.reload();
  await waitBoard(a.page, 'four');
  await a.page.waitForSelector('#chat-muted .chat-unmute');
  assert.deepEqual((await texts(a.page)).map((m) => m.text), [sneaky]);
  await a.page.click('#chat-muted .chat-unmute');
  assert.deepEqual((await texts(a.page)).map((m) => m.text), [sneaky, '👍', '¡Suerte!']);
  assert.equal((await texts(b.page)).length, 3);

  // On the phone the chat is below the board: a new message shows on a floating button, which brings
  // the chat into view and goes away.
  await b.page.evaluate(() => window.scrollTo(0, 0));
  assert.equal(await b.page.isVisible('#chat-badge'), false);
  await a.page.fill('#chat-input', '¿Bea?');
  await a.page.press('#chat-input', 'Enter');
  await b.page.waitForSelector('#chat-badge:not(.hidden)');
  assert.equal((await b.page.textContent('#chat-badge')).trim(), '💬 1');
  await b.page.click('#chat-badge');
  await b.page.waitForSelector('#chat-badge.hidden', { state: 'attached' });
  assert.equal(await a.page.isVisible('#chat-badge'), false, 'the writer is not told of her own message');

  // Bea reports Ana's "¿Bea?" to the host: she confirms, the flag becomes a mark, and the host's list
  // has the message with its writer. Nobody reports their own message.
  assert.equal(await b.page.locator('#chat-log li.mine .chat-report').count(), 0, 'nobody reports themselves');
  let asked = '';
  b.page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await b.page.click('#chat-log li[data-seq="4"] .chat-report');
  await b.page.waitForSelector('#chat-log li[data-seq="4"] .chat-reported');
  assert.match(asked, /Ana/);
  assert.match(asked, /¿Bea\?/);
  assert.match(await b.page.textContent('#chat-info'), /administrador/);
  const res = await fetch(`${srv.api}/api/admin/reports`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const { messages } = await res.json();
  assert.deepEqual(messages.map((m) => [m.seq, m.text, m.display_name, m.reports]), [[4, '¿Bea?', 'Ana', 1]]);
  // Dismissing the dialog reports nothing.
  b.page.once('dialog', (d) => d.dismiss());
  await b.page.click('#chat-log li[data-seq="1"] .chat-report');
  assert.equal(await b.page.locator('#chat-log li[data-seq="1"] .chat-reported').count(), 0);
  assertNoErrors(a.page);
  assertNoErrors(b.page);
});

test('a spectator who came to a private room with its code reports a message from the page', { timeout: 60000 }, async () => {
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Nuria');
  const roomId = await createRoom(a.page, { mode: 'individual', players: 4, isPublic: false, timer: '' });
  const link = (await a.page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
  assert.ok(!link.endsWith(roomId), `the shared link carries the code: ${link}`);
  await a.page.waitForSelector('#chat-input');
  await a.page.fill('#chat-input', 'only for those with the code');
  await a.page.press('#chat-input', 'Enter');
  await a.page.waitForSelector('#chat-log li[data-seq="1"]');

  const c = await newPage(browser);
  await register(c.page, srv.url, 'Oriol');
  await c.page.goto(link + '?watch=1');
  await c.page.waitForSelector('#chat-log li[data-seq="1"] .chat-report');
  c.page.once('dialog', (d) => d.accept());
  await c.page.click('#chat-log li[data-seq="1"] .chat-report');
  await c.page.waitForSelector('#chat-log li[data-seq="1"] .chat-reported');
  const res = await fetch(`${srv.api}/api/admin/reports`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const { messages } = await res.json();
  assert.ok(messages.some((m) => m.room_id === roomId && m.seq === 1 && m.display_name === 'Nuria'), JSON.stringify(messages));
  assertNoErrors(a.page);
  assertNoErrors(c.page);
  await a.context.close();
  await c.context.close();
});
