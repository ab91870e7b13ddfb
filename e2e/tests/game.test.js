// Live games over the room WebSocket (PROTOCOL.md): two browsers play real moves, a game against bots
// runs to the end, a reload and a server restart resume the game, the 3v3 six-colour board plays.
// After every change the board in the DOM is compared with the state the page received.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, hasWebSocket, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, pageState } from '../lib/checks.js';
import { register, createRoom, waitBoard, checkBoard, actOnce, isOver } from '../lib/flows.js';

let srv; let browser; let ws = false;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40', AWAY_GRACE_SECS: '2' });
  ws = await hasWebSocket(srv.api);
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

// A reconnecting socket logs its failed handshakes while the server is down (restart test only).
const restartAllow = [/WebSocket connection to .* failed/, /ERR_CONNECTION_REFUSED/];

test('two browsers create, join and play real moves; reload and server restart resume', { timeout: 240000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  const a = await newPage(browser);
  const b = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'es-ES' });
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 4, bots: ['', 'greedy', 'greedy'], timer: '' });
  const link = (await a.page.textContent('#share-link')).trim();
  await register(b.page, srv.url, 'Bea');
  await b.page.goto(link.replace(/^https?:\/\/[^/]+/, srv.url));
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  await a.page.waitForFunction(() => document.querySelectorAll('#seats [data-status="connected"]').length === 2, null, { timeout: 10000 });
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  await waitBoard(b.page, 'four');
  // Each player sees their own colour at the bottom.
  assert.equal(await a.page.getAttribute('svg.board', 'data-bottom-slot'), '0');
  assert.equal(await b.page.getAttribute('svg.board', 'data-bottom-slot'), '1');
  // A third, anonymous browser watches: same board, no dice button, counted as a spectator.
  const c = await newPage(browser);
  await c.page.goto(link.replace(/^https?:\/\/[^/]+/, srv.url) + '?watch=1');
  await waitBoard(c.page, 'four');
  assert.equal(await c.page.$('#roll'), null);
  await a.page.waitForFunction(() => /\b1\b/.test(document.querySelector('#spectators')?.textContent || ''), null, { timeout: 10000 });
  await checkBoard(c.page, 'spectator');
  assertNoErrors(c.page);
  await c.context.close();
  let actions = 0;
  let reloaded = false;
  let restarted = false;
  const deadline = Date.now() + 150000;
  while (actions < 40 && Date.now() < deadline && !(await isOver(a.page))) {
    let acted = false;
    for (const p of [a.page, b.page]) {
      if (await actOnce(p)) { acted = true; actions++; await checkBoard(p, `after action ${actions}`); }
    }
    if (!acted) await a.page.waitForTimeout(100);
    await checkBoard(a.page, 'A');
    await checkBoard(b.page, 'B');
    if (actions >= 8 && !reloaded) {
      reloaded = true;
      const before = await pageState(b.page);
      await b.page.reload();
      await waitBoard(b.page, 'four');
      await b.page.waitForFunction(() => window.__parchis && window.__parchis.hello, null, { timeout: 10000 });
      const afterReload = await pageState(b.page);
      assert.equal(afterReload.state.game.id, before.state.game.id, 'same game after reload');
      assert.equal(afterReload.hello.seat, 1);
      await checkBoard(b.page, 'after reload');
      await shot(b.page, 'game-four-phone');
      await shot(a.page, 'game-four-desktop');
    }
    if (actions >= 16 && !restarted) {
      restarted = true;
      const gid = (await pageState(a.page)).state.game.id;
      await srv.restart();
      await a.page.waitForFunction(() => document.querySelector('#banner') && !document.querySelector('#banner').classList.contains('hidden'), null, { timeout: 10000 }).catch(() => {});
      await a.page.waitForFunction((g) => window.__parchis && window.__parchis.conn && window.__parchis.conn.open && window.__parchis.state.game && window.__parchis.state.game.id === g, gid, { timeout: 30000 });
      await b.page.waitForFunction((g) => window.__parchis && window.__parchis.conn && window.__parchis.conn.open && window.__parchis.state.game.id === g, gid, { timeout: 30000 });
      await checkBoard(a.page, 'after restart');
    }
  }
  assert.ok(actions >= 16, `played ${actions} actions`);
  // The log tells the game in words.
  assert.ok((await a.page.locator('#log li').count()) > 5);
  assertNoErrors(a.page, restartAllow);
  assertNoErrors(b.page, restartAllow);
  await a.context.close();
  await b.context.close();
});

test('after a reload the die shows the roll of the turn: a six rolled, and the page reloaded before rolling again', { timeout: 180000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  const a = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true });
  await register(a.page, srv.url, 'Dado');
  await createRoom(a.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  // Plays until it is our turn again after a roll of ours that is still the turn's (a six to roll again
  // after, or a count to play): the die on the page shows that roll, which is no longer the turn's `die`.
  const rolledAndGoesOn = () => a.page.evaluate(() => {
    const c = window.__parchis;
    const turn = c.state.game.view.turn;
    return turn.seat === c.hello.seat && ((turn.phase === 'roll' && turn.sixes_in_a_row > 0) || turn.phase === 'count');
  });
  const deadline = Date.now() + 150000;
  while (!(await rolledAndGoesOn()) && !(await isOver(a.page)) && Date.now() < deadline) {
    if (!(await actOnce(a.page))) await a.page.waitForTimeout(50);
  }
  assert.ok(await rolledAndGoesOn(), 'a six or a count of ours came up');
  const shown = await a.page.getAttribute('#dice .die', 'data-die');
  assert.match(shown, /^[1-6]$/, 'the die shows the roll before the reload');
  await a.page.reload();
  await waitBoard(a.page, 'four');
  await a.page.waitForFunction(() => window.__parchis && window.__parchis.hello, null, { timeout: 10000 });
  assert.ok(await rolledAndGoesOn(), 'still the same turn after the reload');
  assert.equal(await a.page.getAttribute('#dice .die', 'data-die'), shown, 'the die shows the same roll after the reload');
  assertNoErrors(a.page);
  await a.context.close();
});

test('a game against bots runs to the end; the end screen shows the winner and the verified dice', { timeout: 300000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  const a = await newPage(browser);
  await register(a.page, srv.url, 'Solo');
  await createRoom(a.page, { mode: 'quick', players: 4, bots: ['expert', 'greedy', 'random'], timer: '5' });
  await a.page.check('#start-game').catch(() => {});
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  await a.page.check('#auto-roll');
  const deadline = Date.now() + 240000;
  let n = 0;
  while (!(await isOver(a.page)) && Date.now() < deadline) {
    const mv = await a.page.$('#moves button');
    if (mv) await mv.click().catch(() => {});
    await a.page.waitForTimeout(120);
    if (++n % 10 === 0) await checkBoard(a.page, `bots ${n}`);
  }
  assert.ok(await isOver(a.page), 'game finished');
  await a.page.waitForSelector('#end:not(.hidden) #winner');
  await checkBoard(a.page, 'final');
  await a.page.waitForSelector('#end-proof[data-verified="true"]', { timeout: 10000 });
  // Each seat's figures as the server counted them, a row each, the winner first and this player's row marked.
  const { state } = await pageState(a.page);
  const figures = state.game.result.seats;
  assert.equal(figures.length, 4);
  const rows = await a.page.$$eval('#figures tbody tr', (trs) => trs.map((tr) => ({
    seat: Number(tr.dataset.seat), me: tr.classList.contains('me'),
    cells: [...tr.querySelectorAll('td')].map((td) => Number(td.textContent)),
  })));
  assert.equal(rows.length, 4);
  assert.equal(rows[0].seat, state.game.result.winner_seats[0], 'the winner heads the table');
  for (const row of rows) {
    const f = figures.find((x) => x.seat === row.seat);
    assert.deepEqual(row.cells, [f.home, f.captures, f.captured, f.sixes], `seat ${row.seat}`);
    assert.equal(row.me, row.seat === 0);
  }
  assert.equal(figures.find((x) => x.seat === rows[0].seat).home, 2, 'a quick game is won with two pieces home');
  await shot(a.page, 'end-desktop');
  await a.page.setViewportSize({ width: 375, height: 667 });
  await a.page.waitForTimeout(200);
  await shot(a.page, 'end-phone');
  await a.page.setViewportSize({ width: 1280, height: 800 });
  // Replay viewer: steps through the whole record; its dice check passes too.
  const gameId = (await pageState(a.page)).state.game.id;
  const finishedRoom = a.page.url();
  const rec = await rest(srv.api).record(gameId);
  assert.ok(rec.seed, 'seed revealed at the end');
  await a.page.click('#replay-link');
  await a.page.waitForSelector('#replay svg.board');
  await a.page.waitForSelector('#replay #proof-status[data-verified="true"]', { timeout: 30000 });
  // The replay's result card has the same figures, in the same order, as the end card.
  const replayRows = await a.page.$$eval('#replay-figures tbody tr', (trs) => trs.map((tr) => Number(tr.dataset.seat)));
  assert.deepEqual(replayRows, rows.map((r) => r.seat));
  assert.deepEqual(rec.result.seats, figures, 'the record stores the figures the room showed');
  await a.page.click('#replay-first');
  assert.equal(await a.page.getAttribute('#replay svg.board', 'data-step'), '0');
  await a.page.click('#replay-next');
  await a.page.click('#replay-next');
  assert.equal(await a.page.getAttribute('#replay svg.board', 'data-step'), '2');
  // The viewer shows the server's exact replay: every piece where GET /api/games/{id}/replay has it.
  const replay = await rest(srv.api).replay(gameId);
  assert.equal(replay.steps.length, rec.log.length, 'one replay step per log entry');
  const placeAttr = (p) => (p.at === undefined || p.at === null ? p.kind : `${p.kind}:${p.at}`);
  const expected = (k) => Object.fromEntries(replay.steps[k - 1].pieces.map((p) => [p.id, placeAttr(p.place)]));
  const drawn = () => a.page.$$eval('#replay svg.board g.piece', (els) => Object.fromEntries(els.map((e) => [e.dataset.piece, e.dataset.place])));
  assert.deepEqual(await drawn(), expected(2), 'step 2 pieces as the server replayed them');
  // At the first capture (if the game had one), the captured piece is back home on that very step.
  const cap = replay.steps.findIndex((s) => s.events.some((e) => e.type === 'captured'));
  if (cap >= 0 && cap < 150) {
    for (let k = 2; k < cap + 1; k++) await a.page.click('#replay-next');
    assert.equal(await a.page.getAttribute('#replay svg.board', 'data-step'), String(cap + 1));
    assert.deepEqual(await drawn(), expected(cap + 1), `capture step ${cap + 1} pieces`);
    const victim = replay.steps[cap].events.find((e) => e.type === 'captured').piece;
    assert.equal(await a.page.getAttribute(`#replay svg.board g.piece[data-piece="${victim}"]`, 'data-place'), 'home');
  }
  await a.page.click('#replay-last');
  assert.deepEqual(await drawn(), expected(replay.steps.length), 'last step pieces');
  await shot(a.page, 'replay-desktop');
  // The links back to the game and home are one line "Game · Home" (not three, the dot alone on one).
  const links = await a.page.evaluate(() => {
    const game = document.querySelector('#main a[href^="/room/"]');
    const home = [...document.querySelectorAll('#main a[href="/"]')].pop();
    return { game: game.getBoundingClientRect().top, home: home.getBoundingClientRect().top, line: game.parentElement.textContent };
  });
  assert.equal(links.home, links.game, `one line: the game link at ${links.game} px, home at ${links.home} px`);
  assert.equal(links.line, 'Game · Home');
  // The expert's view: at a roll there is nothing to compare; at a move with a choice, one click asks the
  // server, and the card says what was played and what the expert plays (the server's own answer).
  await a.page.click('#replay-first');
  await a.page.click('#replay-next'); // step 1 follows log[0], a roll
  await a.page.waitForSelector('#expert:not([data-seq])');
  assert.ok(!(await a.page.$('#ask-expert')), 'no expert for a roll');
  const choice = await (async () => {
    for (const step of replay.steps) {
      if (step.kind !== 'move') continue;
      const an = await rest(srv.api).analysis(gameId, step.seq);
      if (an.legal.length > 1) return an;
    }
    return null;
  })();
  assert.ok(choice, 'a whole game has a move with a choice');
  for (let k = 1; k < choice.seq + 1; k++) await a.page.click('#replay-next');
  assert.equal(await a.page.getAttribute('#replay svg.board', 'data-step'), String(choice.seq + 1));
  await a.page.click('#ask-expert');
  await a.page.waitForSelector(`#expert[data-seq="${choice.seq}"]`);
  assert.equal(await a.page.getAttribute('#expert-verdict', 'data-agrees'), String(choice.agrees));
  const said = await a.page.textContent('#expert');
  assert.match(said, new RegExp(`${choice.legal.length} legal moves`));
  if (!choice.agrees) assert.match(said, /The expert would play/);
  await shot(a.page, 'replay-expert-desktop');
  // Rematch: back in the finished room, one click makes a new room with the same seats, owned by me; against
  // bots alone there is no one to wait for, so its game starts at once (whichever seat the draw gives me).
  await a.page.goto(finishedRoom);
  await a.page.click('#end:not(.hidden) #rematch');
  await a.page.waitForURL((u) => u.pathname.startsWith('/room/') && u.href !== finishedRoom);
  await a.page.waitForSelector('#roll');
  assert.equal(await a.page.$('#start-game'), null, 'no start click needed against bots');
  await shot(a.page, 'rematch-desktop');
  assertNoErrors(a.page);
  await a.context.close();
});

test('3v3 on the six-colour board renders and plays', { timeout: 180000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  for (const [label, opts] of [['desktop', {}], ['phone', { viewport: { width: 375, height: 667 }, isMobile: true }]]) {
    const a = await newPage(browser, opts);
    await register(a.page, srv.url, `Six ${label}`);
    await createRoom(a.page, { mode: '3v3', bots: ['greedy', 'greedy', 'greedy', 'greedy', 'greedy'], timer: '', preview: true });
    await a.page.click('#start-game');
    await waitBoard(a.page, 'six');
    assert.equal(await a.page.locator('svg.board [data-square]').count(), 102);
    let acted = 0;
    let previews = 0;
    const deadline = Date.now() + 60000;
    while (acted < 8 && Date.now() < deadline && !(await isOver(a.page))) {
      // With preview_next_roll, the die I am about to roll is shown before I roll it.
      const canRoll = await a.page.$('#roll:not([disabled])');
      const preview = canRoll ? await a.page.waitForSelector('#preview', { timeout: 3000 }).then((e) => e.textContent()).catch(() => null) : null;
      const rolled = await actOnce(a.page);
      if (rolled && preview) {
        previews++;
        const die = await a.page.evaluate(() => window.__parchis.myLastDie);
        assert.equal(String(die), preview.match(/\d/)[0], 'the previewed roll is the roll');
      }
      if (rolled) { acted++; await checkBoard(a.page, `3v3 ${acted}`); } else await a.page.waitForTimeout(100);
    }
    assert.ok(previews > 0, 'saw the preview of my next roll');
    assert.ok(acted >= 4, `acted ${acted} times`);
    await checkBoard(a.page, '3v3');
    await shot(a.page, `game-3v3-${label}`);
    assertNoErrors(a.page);
    await a.context.close();
  }
});

test('a player leaves a running game: it says what that means, asks to confirm, and a bot takes the seat', { timeout: 120000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  const a = await newPage(browser, { viewport: { width: 375, height: 740 }, isMobile: true, locale: 'es-ES' });
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  const room = decodeURIComponent(new URL(a.page.url()).pathname.split('/').pop());
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  // Closed at first: one tap opens it and says what leaving does; nothing happens before the confirmation.
  assert.equal(await a.page.isVisible('#leave-game-confirm'), false);
  await a.page.click('#leave-game summary');
  assert.match(await a.page.textContent('#leave-game'), /cuenta como derrota/);
  await shot(a.page, 'leave-game-phone');
  await a.page.click('#leave-game-confirm');
  await a.page.waitForSelector('#create-form');
  const { token } = await a.page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));
  const view = await rest(srv.api).room(room, token);
  assert.equal(view.seats[0].player_id, null, 'Ana no longer sits there');
  assert.ok(view.seats[0].bot, 'a bot plays her seat on');
  assertNoErrors(a.page);
});

test('a count (10 or 20 for a capture or a goal) that another player is playing is theirs, not an order to this player', { timeout: 240000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  const a = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await register(a.page, srv.url, 'Vera');
  await createRoom(a.page, { rules: 'morocco', mode: 'individual', players: 4, bots: ['greedy', 'greedy', 'greedy'], timer: '' });
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  // Every count line the page shows, with whose count it was (the bots count in a blink).
  await a.page.evaluate(() => {
    window.__counts = [];
    new MutationObserver(() => {
      const el = document.querySelector('#count-now');
      const c = window.__parchis;
      if (!el || !c || !c.state.game) return;
      const seat = c.state.game.view.turn.seat;
      window.__counts.push({ mine: seat === c.hello.seat, text: el.textContent });
    }).observe(document.querySelector('#turn-info'), { childList: true, subtree: true });
  });
  const deadline = Date.now() + 200000;
  const seen = () => a.page.evaluate(() => window.__counts);
  while (!(await seen()).some((c) => !c.mine) && !(await isOver(a.page)) && Date.now() < deadline) {
    if (!(await actOnce(a.page))) await a.page.waitForTimeout(50);
  }
  const counts = await seen();
  const others = counts.filter((c) => !c.mine);
  assert.ok(others.length, `a bot counted (${JSON.stringify(counts)})`);
  for (const c of others) assert.match(c.text, /^Bot \d counts (10|20)$/, 'named as the bot\'s count');
  for (const c of counts.filter((x) => x.mine)) assert.match(c.text, /^Count (10|20): move a piece \1 squares$/);
  assertNoErrors(a.page);
  await a.context.close();
});

test('a pairs game won by two: the end card and the replay say "Ganan", not "Gana"', { timeout: 300000 }, async (t) => {
  if (!ws) { t.skip('server has no room WebSocket yet'); return; }
  const api = rest(srv.api);
  const owner = await api.player('Pablo');
  const room = await api.createRoom({ rules: 'ludoteka', mode: 'pairs', players: 4, bots: [null, 'greedy', 'greedy', 'greedy'], turn_time_secs: null, public: true }, owner.token);
  await api.start(room.id, owner.token);
  // Pablo is away: a bot covers his seat and the four bots play the game to its end.
  let view;
  for (let i = 0; i < 1000; i++) {
    view = await api.room(room.id, owner.token);
    if (view.status === 'finished') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(view.status, 'finished', 'the bots finish the game');
  const a = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, locale: 'es-ES' });
  await a.page.goto(`${srv.url}/room/${room.id}`);
  await a.page.waitForSelector('#end:not(.hidden) #winner');
  assert.match(await a.page.textContent('#winner'), /^\S+ Ganan: \S.*, \S/);
  await a.page.goto(`${srv.url}/replay/${view.game_id}`);
  await a.page.waitForSelector('#replay-winner');
  assert.match(await a.page.textContent('#replay-winner'), /Ganan: \S.*, \S/);
  assertNoErrors(a.page);
  await a.context.close();
});
