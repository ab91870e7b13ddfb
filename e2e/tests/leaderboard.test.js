// The leaderboard card: who won most among players with an account, per rule set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest as restOf } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register } from '../lib/flows.js';

let srv; let browser;
// Seats whose people are away are played by bots after a second: a game between two absent members
// plays itself to the end.
before(async () => { srv = await startServer({ AWAY_GRACE_SECS: '1', BOT_DELAY_MS: '0' }); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// REST calls and members made through the API (lib/server.js).
const rest = (...args) => restOf(srv.url).call(...args);
const member = (name) => restOf(srv.url).member(name);

test('two members play a game: the home page ranks them, per rule set', async () => {
  const pau = await member('Pau');
  const queralt = await member('Queralt');
  const room = await rest('POST', '/api/rooms', { rules: 'playgridia', mode: 'quick', players: 2, turn_time_secs: null, public: true }, pau.token);
  await rest('POST', `/api/rooms/${room.id}/join`, {}, queralt.token);
  await rest('POST', `/api/rooms/${room.id}/start`, {}, pau.token);
  let board;
  for (let i = 0; i < 120; i++) {
    board = await rest('GET', '/api/leaderboard?rules=playgridia');
    if (board.players.length === 2) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(board.players.length, 2, 'the game ended and both are counted');

  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#leaders li[data-username]');
  const rows = await page.$$eval('#leaders li[data-username]', (lis) => lis.map((li) => [li.dataset.username, li.textContent]));
  assert.deepEqual(rows.map((r) => r[0]), board.players.map((p) => p.username));
  assert.match(rows[0][1], /^1\..*1 of 1 won/);
  assert.match(rows[1][1], /^2\..*0 of 1 won/);
  await shot(page, 'leaderboard');
  await page.selectOption('#leaders-rules', 'ludoteka');
  await page.waitForFunction(() => /No games counted yet/.test(document.querySelector('#leaders')?.textContent || ''));
  // A name on the leaderboard opens that player's page: their record, the game against people counted.
  await page.selectOption('#leaders-rules', 'playgridia');
  const best = board.players[0];
  await page.click(`#leaders li[data-username="${best.username}"] a.player-link`);
  const line = page.locator('#player-stats li[data-rules="playgridia"]');
  await line.waitFor();
  assert.equal(new URL(page.url()).pathname, `/players/${best.username}`);
  assert.match(await page.textContent('#player-h'), new RegExp(`${best.display_name}.*@${best.username}`));
  assert.match(await line.textContent(), /games: 1 · won: 1 \(100 %\).*against people: 1 of 1 won/);
  // Under it, their figures in that game as the server added them up: their seat's line of its result.
  const stats = await rest('GET', `/api/accounts/${best.username}/stats`);
  const f = stats.rules.find((r) => r.rules === 'playgridia').figures;
  const record = await rest('GET', `/api/games/${stats.recent[0].game_id}/record`);
  const bestId = [pau, queralt].find((p) => p.username === best.username).id;
  const seat = record.seats.findIndex((s) => s.player_id === bestId);
  const { seat: _, ...own } = record.result.seats[seat];
  assert.deepEqual({ captures: f.captures, captured: f.captured, sixes: f.sixes, home: f.home }, own);
  assert.equal(f.games, 1);
  const figures = line.locator('.record-figures');
  assert.equal(await figures.getAttribute('data-figures-games'), '1');
  assert.equal(await figures.textContent(), `captures: ${f.captures} · pieces lost: ${f.captured} · sixes: ${f.sixes} · at the goal: ${f.home} (games counted: 1)`);
  // Their latest game, won against a person, opens its replay.
  const game = page.locator('#player-recent li[data-game]');
  assert.equal(await game.count(), 1);
  assert.match(await game.textContent(), /Playgridia.*2 people.*won/);
  await game.locator('a').click();
  await page.waitForURL(/\/replay\//);
  await page.goBack();
  await page.waitForSelector('#player-recent li[data-game]');
  await shot(page, 'player-page');
  await page.goto(`${srv.url}/players/nobody-here`);
  await page.waitForFunction(() => /No player has that username/.test(document.querySelector('#player-summary')?.textContent || ''));
  // The browser reports the unknown name's 404 answer itself.
  assertNoErrors(page, [/status of 404/]);
  await context.close();
});

test('your record on the home page: a finished game against a bot counts there, per rule set', async () => {
  const { page, context } = await newPage(browser, { locale: 'es-ES' });
  await register(page, srv.url, 'Rita');
  const me = await page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));
  const room = await rest('POST', '/api/rooms', { rules: 'morocco', mode: 'quick', players: 2, turn_time_secs: null, public: false, bots: [null, 'random'] }, me.token);
  await rest('POST', `/api/rooms/${room.id}/start`, {}, me.token);
  // Rita is not at the table: a bot plays her seat after a second, to the end.
  let stats;
  for (let i = 0; i < 120; i++) {
    stats = await rest('GET', '/api/players/me/stats', undefined, me.token);
    if (stats.games === 1) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(stats.games, 1, 'the game ended');
  await page.reload();
  const line = page.locator('#my-stats li[data-rules="morocco"]');
  await line.waitFor();
  const pct = stats.wins ? 100 : 0;
  assert.match(await line.textContent(), new RegExp(`Marruecos.*partidas: 1 · ganadas: ${stats.wins} \\(${pct} %\\)`));
  assert.doesNotMatch(await line.textContent(), /contra personas/, 'no game against people yet');
  // The bot covering her played her seat: its figures are hers.
  const f = stats.rules.find((r) => r.rules === 'morocco').figures;
  assert.equal(f.games, 1);
  assert.equal(await line.locator('.record-figures').textContent(),
    `fichas comidas: ${f.captures} · fichas perdidas: ${f.captured} · seises: ${f.sixes} · en la meta: ${f.home} (partidas contadas: 1)`);
  await shot(page, 'my-record');
  assertNoErrors(page);
  await context.close();
});
