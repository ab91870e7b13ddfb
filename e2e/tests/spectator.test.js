// Watching a room: what someone without a seat is offered.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

test('a waiting room with every seat taken is watched: no seat is offered that the server would refuse, and the page says why', async () => {
  const api = rest(srv.api);
  const owner = await api.player('Olga');
  // Olga and a bot: full, waiting for Olga to start. The lobby offers it to watch only.
  const full = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, bots: [null, 'greedy'], turn_time_secs: null, public: true }, owner.token);
  // A visitor without a name, from the lobby's Watch link.
  const anon = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await anon.page.goto(`${srv.url}/room/${full.id}?watch=1`);
  await anon.page.waitForSelector('#seats li');
  await anon.page.waitForSelector('#room-full-note');
  assert.equal(await anon.page.textContent('#room-full-note'), 'Every seat in this room is taken. You are watching.');
  assert.equal(await anon.page.locator('#wr-name').count(), 0, 'no name asked for a seat there is not');
  await shot(anon.page, 'spectator-full-room-phone');
  // A signed-in visitor: no Take seat button, no colour to prefer.
  const other = await newPage(browser, { locale: 'es-ES' });
  await register(other.page, srv.url, 'Pepe');
  await other.page.goto(`${srv.url}/room/${full.id}?watch=1`);
  await other.page.waitForSelector('#room-full-note');
  assert.equal(await other.page.textContent('#room-full-note'), 'Todos los asientos de esta sala están ocupados. Estás mirando.');
  assert.equal(await other.page.locator('#take-seat').count(), 0);
  assert.equal(await other.page.locator('#pref-colour').count(), 0);
  // A room with a free seat still offers it.
  const open = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, bots: [null, null], turn_time_secs: null, public: true }, owner.token);
  await other.page.goto(`${srv.url}/room/${open.id}?watch=1`);
  await other.page.waitForSelector('#take-seat');
  assert.equal(await other.page.locator('#room-full-note').count(), 0);
  // The owner of the full room, seated, still starts it.
  const o = await newPage(browser);
  await o.page.goto(`${srv.url}/`);
  await o.page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify(p)), owner);
  await o.page.goto(`${srv.url}/room/${full.id}`);
  await o.page.waitForSelector('#start-game');
  assert.equal(await o.page.locator('#room-full-note').count(), 0);
  for (const p of [anon, other, o]) { assertNoErrors(p.page, [/WebSocket/i]); await p.context.close(); }
});
