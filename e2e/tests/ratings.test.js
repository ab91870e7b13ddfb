// Skill ratings (one per rule set, from the server; the page never computes one): the leaderboard by
// wins or by rating, the records with each rated game's change, and before → after at the end of the game
// in the room and in the replay. Every number on the page is compared with what the API answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest as restOf } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, textContrast, luminanceOf } from '../lib/checks.js';

let srv; let browser;
// Seats whose people are away are played by bots after a second: a game between two absent members
// plays itself to the end (and is rated: people on two sides, no house rules).
before(async () => { srv = await startServer({ AWAY_GRACE_SECS: '1', BOT_DELAY_MS: '0' }); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

// REST calls and members made through the API (lib/server.js).
const rest = (...args) => restOf(srv.url).call(...args);
const member = (name) => restOf(srv.url).member(name);

const PHONE = { viewport: { width: 375, height: 667 }, isMobile: true };

/** A quick 2-player game between two absent members, played to the end by the bots covering them. */
async function play(a, b, rules = 'playgridia') {
  const room = await rest('POST', '/api/rooms', { rules, mode: 'quick', players: 2, turn_time_secs: null, public: true }, a.token);
  await rest('POST', `/api/rooms/${room.id}/join`, {}, b.token);
  await rest('POST', `/api/rooms/${room.id}/start`, {}, a.token);
  for (let i = 0; i < 400; i++) {
    const view = await rest('GET', `/api/rooms/${room.id}`, undefined, a.token);
    if (view.status === 'finished') return view;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail('the bots did not finish the game');
}

/** Waits until the API's record of `player` holds `games` finished games (results are written as games end). */
async function statsOf(player, games) {
  let stats;
  for (let i = 0; i < 120; i++) {
    stats = await rest('GET', `/api/accounts/${player.username}/stats`);
    if (stats.games >= games) return stats;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${player.username} has ${stats.games} games, not ${games}`);
}

/** The API's `result.ratings` of a finished game: the replay's result, else the record's. */
async function ratingsOf(gameId) {
  const replay = await rest('GET', `/api/games/${gameId}/replay`);
  const record = await rest('GET', `/api/games/${gameId}/record`);
  const ratings = (replay.result && replay.result.ratings) || (record.result && record.result.ratings);
  assert.ok(Array.isArray(ratings), `game ${gameId} has result.ratings (replay: ${JSON.stringify(replay.result)}, record: ${JSON.stringify(record.result)})`);
  return { ratings, record };
}

const shown = (r) => `${r.value}${r.provisional ? '?' : ''}`;
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '\u00b10');

/** The page lists `ratings` ([{seat, before, after}]) in `sel`: one line each, with the seat's name. */
async function assertRatingLines(page, sel, ratings, names) {
  const lines = await page.$$eval(`${sel} li`, (lis) => lis.map((li) => ({ seat: Number(li.dataset.seat), text: li.textContent })));
  assert.equal(lines.length, ratings.length, `${sel}: one line per person`);
  for (const r of ratings) {
    const line = lines.find((l) => l.seat === r.seat);
    assert.ok(line, `${sel}: seat ${r.seat} listed`);
    assert.ok(line.text.includes(names[r.seat]), `${sel}: ${line.text} names ${names[r.seat]}`);
    assert.ok(line.text.includes(`${r.before} \u2192 ${r.after} (${signed(r.after - r.before)})`), `${sel}: ${line.text} says ${JSON.stringify(r)}`);
  }
}

test('ratings: leaderboard by wins and by rating, records, the end of the game and the replay show the server’s numbers', { timeout: 240000 }, async () => {
  const pau = await member('Pau');
  const queralt = await member('Queralt');
  const first = await play(pau, queralt);
  await statsOf(pau, 1);
  await statsOf(queralt, 1);

  // Most wins: both listed, each with the rating the API gives, provisional after one rated game.
  const byWins = await rest('GET', '/api/leaderboard?rules=playgridia&by=wins');
  assert.equal(byWins.by, 'wins');
  assert.equal(byWins.players.length, 2);
  for (const p of byWins.players) assert.ok(p.rating && p.rating.provisional && p.rating.games === 1, `${p.username}: ${JSON.stringify(p.rating)}`);
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#leaders li[data-username]');
  assert.equal(await page.inputValue('#leaders-by'), 'wins', 'most wins by default');
  const rows = await page.$$eval('#leaders li[data-username]', (lis) => lis.map((li) => ({
    username: li.dataset.username, text: li.textContent,
    rating: li.querySelector('.chip.rating')?.dataset.rating, provisional: li.querySelector('.chip.rating')?.dataset.provisional,
    title: li.querySelector('.chip.rating')?.title,
  })));
  assert.deepEqual(rows.map((r) => r.username), byWins.players.map((p) => p.username));
  byWins.players.forEach((p, i) => {
    assert.match(rows[i].text, new RegExp(`^${p.rank}\\..*${p.wins} of ${p.games} won.*rating ${p.rating.value}\\?`));
    assert.equal(rows[i].rating, String(p.rating.value));
    assert.equal(rows[i].provisional, 'true');
    assert.match(rows[i].title, /provisional: fewer than 5 rated games/);
  });
  // By rating: nobody has 5 rated games yet.
  assert.deepEqual((await rest('GET', '/api/leaderboard?rules=playgridia&by=rating')).players, []);
  await page.selectOption('#leaders-by', 'rating');
  await page.waitForFunction(() => /Nobody has 5 rated games/.test(document.querySelector('#leaders')?.textContent || ''));
  assert.match(await page.textContent('#leaders-period'), /at least 5 rated games/);
  // An unknown ranking is refused.
  const bad = await fetch(`${srv.url}/api/leaderboard?rules=playgridia&by=luck`);
  assert.equal(bad.status, 422);
  assert.equal((await bad.json()).code, 'invalid_query');

  // The end of the first game in the room (watched), then in its replay: before → after for both people.
  const { ratings, record } = await ratingsOf(first.game_id);
  assert.equal(ratings.length, 2, 'both people rated');
  const names = Object.fromEntries(record.seats.map((s, i) => [i, s.display_name]));
  await page.goto(`${srv.url}/room/${first.id}?watch=1`);
  await page.waitForSelector('#end #ratings li');
  const live = await page.evaluate(() => window.__parchis.state.game.result.ratings);
  assert.deepEqual(live, ratings, 'the room state carries the same ratings as the record');
  await assertRatingLines(page, '#end #ratings', ratings, names);
  assert.ok(await page.isVisible('#end #winner'), 'beside the winner');
  await page.goto(`${srv.url}/replay/${first.game_id}`);
  await page.waitForSelector('#replay-ratings li');
  await assertRatingLines(page, '#replay-ratings', ratings, names);

  // Four more games: five rated games each, no longer provisional, and ranked by rating.
  for (let i = 0; i < 4; i++) await play(i % 2 ? pau : queralt, i % 2 ? queralt : pau);
  const pauStats = await statsOf(pau, 5);
  await statsOf(queralt, 5);
  const byRating = await rest('GET', '/api/leaderboard?rules=playgridia&by=rating');
  assert.equal(byRating.by, 'rating');
  assert.equal(byRating.players.length, 2);
  for (let i = 1; i < byRating.players.length; i++) assert.ok(byRating.players[i - 1].rating.value >= byRating.players[i].rating.value, 'best rating first');
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#leaders li[data-username]');
  await page.selectOption('#leaders-by', 'rating');
  await page.waitForFunction(() => document.querySelector('#leaders')?.dataset.by === 'rating' && document.querySelectorAll('#leaders li[data-username]').length === 2);
  const ranked = await page.$$eval('#leaders li[data-username]', (lis) => lis.map((li) => ({ username: li.dataset.username, text: li.textContent })));
  assert.deepEqual(ranked.map((r) => r.username), byRating.players.map((p) => p.username));
  byRating.players.forEach((p, i) => {
    assert.equal(p.rating.provisional, false);
    assert.match(ranked[i].text, new RegExp(`^${p.rank}\\..*rating ${p.rating.value}(?!\\?).*${p.wins} of ${p.games} won`));
  });
  await page.locator('#leaders').scrollIntoViewIfNeeded();
  await shot(page, 'ratings-leaderboard');
  // The other rule sets have no rated game: the rating ranking is empty there.
  await page.selectOption('#leaders-rules', 'ludoteka');
  await page.waitForFunction(() => /Nobody has 5 rated games/.test(document.querySelector('#leaders')?.textContent || ''));

  // Pau's page: the rating in Playgridia (no longer provisional) and each recent game's change, sign and all.
  await page.goto(`${srv.url}/players/${pau.username}`);
  const line = page.locator('#player-stats li[data-rules="playgridia"]');
  await line.waitFor();
  const rating = pauStats.rules.find((r) => r.rules === 'playgridia').rating;
  assert.equal(rating.games, 5);
  assert.match(await line.textContent(), new RegExp(`rating ${shown(rating)}(?!\\?)`));
  assert.equal(await line.locator('.chip.rating').getAttribute('data-provisional'), String(rating.provisional));
  await page.waitForSelector('#player-recent li[data-game]');
  for (const g of pauStats.recent) {
    const item = page.locator(`#player-recent li[data-game="${g.game_id}"]`);
    const change = item.locator('[data-rating-change]');
    if (g.rating_change === null) { assert.equal(await change.count(), 0, 'no change for an unrated game'); continue; }
    assert.equal(await change.getAttribute('data-rating-change'), String(g.rating_change));
    assert.match(await change.textContent(), new RegExp(`rating ${signed(g.rating_change).replace('+', '\\+')}$`));
    assert.equal(await change.evaluate((e) => e.classList.contains(e.dataset.ratingChange > 0 ? 'up' : e.dataset.ratingChange < 0 ? 'down' : 'same')), true);
  }
  assert.ok(pauStats.recent.some((g) => g.rating_change !== null), 'rated games have a change');
  assertNoErrors(page);
  await context.close();
});

test('ratings on a phone, in the dark: your own record, the end of a game and the replay stay readable', { timeout: 180000 }, async () => {
  const rita = await member('Rita');
  const sol = await member('Sol');
  const game = await play(rita, sol, 'morocco');
  const stats = await statsOf(rita, 1);
  const { ratings, record } = await ratingsOf(game.game_id);
  const names = Object.fromEntries(record.seats.map((s, i) => [i, s.display_name]));
  const { page, context } = await newPage(browser, { ...PHONE, colorScheme: 'dark', locale: 'es-ES' });
  // This device is Rita's (as after signing in).
  await page.goto(`${srv.url}/`);
  await page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify({ id: p.id, display_name: p.display_name, token: p.token, username: p.username })), rita);
  await page.reload();
  const mine = await rest('GET', '/api/players/me/stats', undefined, rita.token);
  const line = page.locator('#my-stats li[data-rules="morocco"]');
  await line.waitFor();
  const rating = mine.rules.find((r) => r.rules === 'morocco').rating;
  assert.ok(rating.provisional);
  assert.match(await line.textContent(), new RegExp(`Marruecos.*puntuación ${rating.value}\\?`));
  assert.match(await line.locator('.chip.rating').getAttribute('title'), /provisional: menos de 5 partidas puntuables/);
  const contrast = async (sels, label) => {
    const results = await textContrast(page, sels);
    assert.deepEqual(results.filter((r) => r.missing).map((r) => r.what), [], `${label}: nothing to measure`);
    assert.deepEqual(results.filter((r) => r.ratio < 4.5), [], `${label}: below 4.5:1`);
  };
  await contrast(['#my-stats .chip.rating', '#leaders .chip.rating'], 'home');
  await page.evaluate(() => document.querySelector('#my-stats').scrollIntoView());
  await shot(page, 'ratings-home-phone-dark');
  // The end of the game in the room: Rita sat there, so her own result too.
  await page.goto(`${srv.url}/room/${game.id}`);
  await page.waitForSelector('#end #ratings li');
  await assertRatingLines(page, '#end #ratings', ratings, names);
  await contrast(['#end #ratings li', '#end .rating-delta'], 'end of game');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px)`);
  await page.evaluate(() => document.querySelector('#end').scrollIntoView());
  await shot(page, 'ratings-end-phone-dark');
  await page.goto(`${srv.url}/replay/${game.game_id}`);
  await page.waitForSelector('#replay-ratings li');
  await assertRatingLines(page, '#replay-ratings', ratings, names);
  await contrast(['#replay-result h2', '#replay-ratings li', '#replay-ratings .rating-delta'], 'replay');
  await page.evaluate(() => document.querySelector('#replay-result').scrollIntoView());
  await shot(page, 'ratings-replay-phone-dark');
  // Rita's latest game shows its change.
  const recent = stats.recent[0];
  await page.goto(`${srv.url}/players/${rita.username}`);
  const change = page.locator(`#player-recent li[data-game="${recent.game_id}"] [data-rating-change]`);
  await change.waitFor();
  assert.equal(await change.getAttribute('data-rating-change'), String(recent.rating_change));
  await contrast(['#player-recent .rating-change', '#player-stats .chip.rating'], 'player page');
  await shot(page, 'ratings-player-phone-dark');
  assertNoErrors(page);
  await context.close();
});

/** Whether each `.rating-delta` in `sel` draws its sign (+, −, ±) left of its digits, as the chips of the record do. */
async function signsBeforeDigits(page, sel) {
  return page.$$eval(`${sel} .rating-delta`, (els) => els.map((el) => {
    const node = el.firstChild;
    const rect = (i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
    const i = node.textContent.search(/[+\u2212\u00b1]/);
    return { text: node.textContent, ok: rect(i).right <= rect(i + 1).left + 0.5 };
  }));
}

test('in Arabic the end of a rated game and its replay keep a change\'s sign before its number: (−158), not (158−)', { timeout: 180000 }, async () => {
  const rami = await member('Rami');
  const sami = await member('Sami');
  const game = await play(rami, sami);
  await ratingsOf(game.game_id);
  const { page, context } = await newPage(browser, { ...PHONE, locale: 'ar' });
  await page.goto(`${srv.url}/room/${game.id}`);
  await page.waitForSelector('#end #ratings li');
  const end = await signsBeforeDigits(page, '#end #ratings');
  assert.equal(end.length, 2);
  assert.deepEqual(end.filter((d) => !d.ok), [], 'the end of the game');
  await page.goto(`${srv.url}/replay/${game.game_id}`);
  await page.waitForSelector('#replay-ratings li');
  assert.deepEqual((await signsBeforeDigits(page, '#replay-ratings')).filter((d) => !d.ok), [], 'the replay');
  assertNoErrors(page);
  await context.close();
});

test('the how-to-play page explains ratings in every language', async () => {
  const { page, context } = await newPage(browser, { ...PHONE });
  for (const [lang, words] of [['en', /1500.*provisional.*5 rated games/], ['es', /1500.*provisional.*5 partidas puntuables/], ['fr', /1500.*provisoire.*5 parties classées/], ['ar', /1500.*مؤقت.*5 مباريات مصنَّفة/]]) {
    await page.goto(`${srv.url}/rules`);
    await page.selectOption('#lang', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await page.waitForSelector('#howto-ratings p');
    assert.match(await page.textContent('#howto-ratings p'), words, lang);
  }
  assertNoErrors(page);
  await context.close();
});

test('ratings beside the names in the waiting room and the game, and the rating chart on a player page, as the API says', { timeout: 240000 }, async () => {
  const tomas = await member('Tomas');
  const uma = await member('Uma');
  const vera = await member('Vera');
  await play(tomas, uma);
  await play(uma, tomas);
  await statsOf(tomas, 2);
  await statsOf(uma, 2);

  // A waiting room: Tomas (owner), Uma and Vera, a newcomer; the page is Vera's, on a phone in the dark.
  const room = await rest('POST', '/api/rooms', { rules: 'playgridia', mode: 'individual', players: 4, turn_time_secs: null, public: true }, tomas.token);
  await rest('POST', `/api/rooms/${room.id}/join`, {}, uma.token);
  const joined = await rest('POST', `/api/rooms/${room.id}/join`, {}, vera.token);
  const expected = joined.seats.map((s) => s.rating);
  assert.ok(expected[0] && expected[0].games === 2 && expected[1] && expected[1].games === 2, JSON.stringify(joined.seats));
  assert.equal(expected[2], null, 'a newcomer has no rating');
  assert.equal(expected[3], null, 'nobody in the last seat');
  const { page, context } = await newPage(browser, { ...PHONE, colorScheme: 'dark' });
  await page.goto(`${srv.url}/`);
  await page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify({ id: p.id, display_name: p.display_name, token: p.token, username: p.username })), vera);
  await page.goto(`${srv.url}/room/${room.id}`);
  await page.waitForSelector('#seats li[data-seat="2"]');
  await page.waitForFunction(() => document.querySelectorAll('#seats .chip.rating').length === 2);
  const chips = async (list) => page.$$eval(`${list} li[data-seat]`, (lis) => lis.map((li) => {
    const chip = li.querySelector('.chip.rating');
    return { seat: Number(li.dataset.seat), text: chip ? chip.textContent : null, value: chip ? Number(chip.dataset.rating) : null };
  }));
  const assertChips = (shownChips, ratings, where) => {
    for (const c of shownChips) {
      const r = ratings[c.seat];
      if (!r) { assert.equal(c.text, null, `${where}: no rating at seat ${c.seat}`); continue; }
      assert.equal(c.value, r.value, `${where}: seat ${c.seat}`);
      assert.ok(c.text.startsWith(`rating ${shown(r)}`), `${where}: seat ${c.seat} says ${c.text}, not rating ${shown(r)} (provisional: "?")`);
    }
  };
  assertChips(await chips('#seats'), expected, 'waiting room');
  const state = await page.evaluate(() => window.__parchis.state.seats.map((s) => s.rating));
  assert.deepEqual(state, expected, 'the room state carries the API’s ratings');
  const contrast = async (sels, label) => {
    const results = await textContrast(page, sels);
    assert.deepEqual(results.filter((r) => r.missing).map((r) => r.what), [], `${label}: nothing to measure`);
    assert.deepEqual(results.filter((r) => r.ratio < 4.5), [], `${label}: below 4.5:1`);
  };
  await contrast(['#seats .chip.rating'], 'waiting room');
  const overflow = async () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(await overflow() <= 0, 'no sideways scrolling on a phone');
  await page.evaluate(() => document.querySelector('#seats').scrollIntoView());
  await shot(page, 'ratings-waiting-room-phone-dark');

  // Started: the seat list of the game shows the same ratings, and none for the bot (Vera is there, so the
  // game waits for her turn).
  // (Tomas stayed away, so the room may pass to Vera, who is there, at any moment: even between reading who
  // owns it and starting it. Then the new owner starts it.)
  for (let attempt = 0; ; attempt++) {
    const owner = (await rest('GET', `/api/rooms/${room.id}`)).owner_id;
    try {
      await rest('POST', `/api/rooms/${room.id}/start`, {}, [tomas, uma, vera].find((p) => p.id === owner).token);
      break;
    } catch (e) {
      if (attempt < 3 && /not_room_owner/.test(String(e && e.message))) continue;
      throw e;
    }
  }
  await page.waitForSelector('#players li[data-seat="3"]');
  await page.waitForFunction(() => document.querySelectorAll('#players .chip.rating').length === 2);
  assertChips(await chips('#players'), expected, 'game');
  await contrast(['#players .chip.rating'], 'game');
  assert.ok(await overflow() <= 0, 'no sideways scrolling on a phone');
  assertNoErrors(page);
  // Vera's page stays open to the end: the game waits for her, so no third game moves the ratings below.

  // Tomas's page: the chart of his Playgridia rating, point for point what the API says.
  const history = await rest('GET', `/api/accounts/${tomas.username}/ratings?rules=playgridia`);
  assert.equal(history.history.length, 2);
  const values = [history.history[0].before, ...history.history.map((p) => p.after)];
  for (const dark of [false, true]) {
    const { page: p2, context: c2 } = await newPage(browser, dark ? { ...PHONE, colorScheme: 'dark' } : {});
    await p2.goto(`${srv.url}/players/${tomas.username}`);
    await p2.waitForSelector('#rating-chart');
    assert.equal(await p2.inputValue('#rating-history-rules'), 'playgridia');
    const chart = await p2.$eval('#rating-chart', (svg) => ({
      role: svg.getAttribute('role'),
      title: svg.querySelector('title').textContent,
      labelledBy: svg.getAttribute('aria-labelledby'), titleId: svg.querySelector('title').id,
      points: [...svg.querySelectorAll('circle.point')].map((c) => Number(c.dataset.value)),
      line: svg.querySelector('polyline.line').getAttribute('points').split(' ').length,
    }));
    assert.equal(chart.role, 'img');
    assert.equal(chart.labelledBy, chart.titleId, 'the chart is named by its title');
    assert.deepEqual(chart.points, values, 'one point per rating: before the first game, then after each');
    assert.equal(chart.line, values.length);
    assert.equal(chart.title, `Playgridia: from ${values[0]} to ${values[values.length - 1]} over 2 rated games`);
    const items = await p2.$$eval('#rating-chart-points li', (lis) => lis.map((li) => ({ game: li.dataset.game, text: li.textContent })));
    assert.deepEqual(items.map((i) => i.game), history.history.map((p) => p.game_id), 'every game, oldest first, as text');
    history.history.forEach((p, i) => assert.ok(items[i].text.includes(`${p.before} \u2192 ${p.after} (${signed(p.after - p.before)})`), items[i].text));
    assert.match(await p2.textContent('#rating-history-now'), new RegExp(`rating ${shown(history.rating)}`));
    const results = await textContrast(p2, ['#rating-chart-summary', '#rating-history-h', '#rating-history-now .chip.rating']);
    assert.deepEqual(results.filter((r) => r.missing).map((r) => r.what), [], 'chart: nothing to measure');
    assert.deepEqual(results.filter((r) => r.ratio < 4.5), [], `chart (${dark ? 'dark' : 'light'}): below 4.5:1`);
    // The chart's own paint (SVG fill and stroke, which the text check does not read) against the card.
    const paint = await p2.$eval('#rating-chart', (svg) => ({
      card: getComputedStyle(svg.closest('.card')).backgroundColor,
      line: getComputedStyle(svg.querySelector('polyline.line')).stroke,
      axis: getComputedStyle(svg.querySelector('text.axis')).fill,
    }));
    const ratioOf = (a, b) => { const [hi, lo] = [luminanceOf(a), luminanceOf(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
    for (const what of ['line', 'axis']) {
      assert.ok(ratioOf(paint[what], paint.card) >= 4.5, `chart ${what} (${dark ? 'dark' : 'light'}): ${paint[what]} on ${paint.card} is below 4.5:1`);
    }
    const sideways = await p2.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(sideways <= 0, `no sideways scrolling (${sideways} px)`);
    await p2.evaluate(() => document.querySelector('#rating-history-section').scrollIntoView());
    await shot(p2, dark ? 'ratings-chart-phone-dark' : 'ratings-chart');
    // Another rule set: nothing rated there yet.
    await p2.selectOption('#rating-history-rules', 'ludoteka');
    await p2.waitForSelector('#rating-history-none');
    assert.equal(await p2.$('#rating-chart'), null);
    assertNoErrors(p2);
    await c2.close();
  }
  // The same in Spanish and French: the chart's words come from the translations.
  const { page: p3, context: c3 } = await newPage(browser, { locale: 'fr-FR' });
  await p3.goto(`${srv.url}/players/${tomas.username}`);
  await p3.waitForSelector('#rating-chart');
  assert.match(await p3.textContent('#rating-chart title'), /^Playgridia : de \d+ à \d+ en 2 parties classées$/);
  assertNoErrors(p3);
  await c3.close();
  await context.close();
});
