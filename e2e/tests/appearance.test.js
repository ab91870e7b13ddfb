// Installable on phones and readable in the device's dark theme: the web app manifest and its icons
// as the real server serves them, Chromium finding the page installable under its real CSP, and the
// home, room and game screens in dark mode measured for contrast (light mode keeps its palette).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, textContrast, luminanceOf } from '../lib/checks.js';
import { register, createRoom, waitBoard, actOnce } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk (right after the signature). */
function pngSize(bytes) {
  assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG file');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** Every measured text reaches WCAG AA (4.5:1) and every selector found something to measure. */
function assertReadable(results, label) {
  const missing = results.filter((r) => r.missing).map((r) => r.what);
  assert.deepEqual(missing, [], `${label}: nothing visible to measure`);
  const poor = results.filter((r) => r.ratio < 4.5);
  assert.deepEqual(poor, [], `${label}: text below 4.5:1 against its background`);
}

/** The page and its panels are dark and its body text light. */
async function assertDarkPage(page, label) {
  const c = await page.evaluate(() => ({
    page: getComputedStyle(document.documentElement).backgroundColor,
    text: getComputedStyle(document.body).color,
    cards: [...document.querySelectorAll('.card, .board-wrap')].filter((e) => e.getClientRects().length).map((e) => getComputedStyle(e).backgroundColor),
    fields: [...document.querySelectorAll('input:not([type=checkbox]), select, button:not(.primary)')].filter((e) => e.getClientRects().length).map((e) => getComputedStyle(e).backgroundColor),
  }));
  assert.ok(luminanceOf(c.page) < 0.03, `${label}: page background ${c.page} is dark`);
  assert.ok(luminanceOf(c.text) > 0.7, `${label}: body text ${c.text} is light`);
  assert.ok(c.cards.length > 0 && c.fields.length > 0);
  for (const bg of [...c.cards, ...c.fields]) {
    if (/rgba\(.*, 0\)$/.test(bg)) continue; // transparent: the dark panel behind shows through
    assert.ok(luminanceOf(bg) < 0.05, `${label}: panel or field background ${bg} is dark`);
  }
}

test('the manifest is served as a manifest, and every icon it lists at its declared type and size', async () => {
  const resp = await fetch(`${srv.api}/manifest.webmanifest`);
  assert.equal(resp.status, 200);
  assert.equal(resp.headers.get('content-type'), 'application/manifest+json');
  const manifest = JSON.parse(await resp.text());
  assert.equal(manifest.name, 'Parchís');
  assert.ok(manifest.short_name && manifest.short_name.length <= 12, 'a short name fits under a home-screen icon');
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.theme_color, '#7d1511', 'the header colour');
  assert.equal(manifest.background_color, '#f3efe4', 'the page colour');
  for (const icon of manifest.icons) {
    const r = await fetch(new URL(icon.src, srv.api));
    assert.equal(r.status, 200, icon.src);
    assert.equal(r.headers.get('content-type'), icon.type, icon.src);
    const bytes = Buffer.from(await r.arrayBuffer());
    if (icon.type === 'image/png') assert.equal(pngSize(bytes), icon.sizes, icon.src);
    else assert.match(bytes.toString('utf8'), /^<svg[^>]*viewBox/, icon.src);
  }
  // What phones ask for: a 192 and a 512 PNG, and one they may crop into their own shape.
  const pngs = manifest.icons.filter((i) => i.type === 'image/png' && (i.purpose || 'any').split(' ').includes('any')).map((i) => i.sizes);
  assert.ok(pngs.includes('192x192') && pngs.includes('512x512'), `PNG sizes ${pngs}`);
  assert.ok(manifest.icons.some((i) => i.purpose === 'maskable'), 'a maskable icon');

  // The page links the manifest, and the icon iOS puts on its home screen is a square PNG.
  const index = await fetch(`${srv.api}/`).then((x) => x.text());
  assert.match(index, /<link rel="manifest" href="\/manifest\.webmanifest">/);
  const touch = index.match(/<link rel="apple-touch-icon" href="([^"]+)">/);
  assert.ok(touch, 'an apple-touch-icon');
  const touchIcon = await fetch(new URL(touch[1], srv.api));
  assert.equal(touchIcon.headers.get('content-type'), 'image/png');
  assert.equal(pngSize(Buffer.from(await touchIcon.arrayBuffer())), '180x180');
});

test('under the real CSP the page loads its manifest and Chromium finds it installable', async () => {
  const { page, context } = await newPage(browser, { csp: true });
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#create-h');
  const cdp = await context.newCDPSession(page);
  // A manifest blocked by the policy comes back with no URL and logs a CSP violation (a console error).
  const loaded = await cdp.send('Page.getAppManifest');
  assert.equal(loaded.url, `${srv.url}/manifest.webmanifest`);
  assert.deepEqual(loaded.errors, []);
  assert.equal(JSON.parse(loaded.data).start_url, '/');
  // The test's browser profile is private ("in-incognito"); nothing about the app may stand in the way.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), []);
  assertNoErrors(page);
  await context.close();
});

test('a light device keeps the light palette', async () => {
  const { page, context } = await newPage(browser, { colorScheme: 'light' });
  await register(page, srv.url, 'Lux');
  const c = await page.evaluate(() => ({
    page: getComputedStyle(document.documentElement).backgroundColor,
    text: getComputedStyle(document.body).color,
    card: getComputedStyle(document.querySelector('.card')).backgroundColor,
    field: getComputedStyle(document.querySelector('#join-code')).backgroundColor,
    header: getComputedStyle(document.querySelector('header.top')).backgroundColor,
    themeColour: document.querySelector('meta[name=theme-color][media*=light]').content,
  }));
  assert.deepEqual(c, { page: 'rgb(243, 239, 228)', text: 'rgb(29, 27, 22)', card: 'rgb(255, 253, 248)', field: 'rgb(255, 255, 255)', header: 'rgb(125, 21, 17)', themeColour: '#7d1511' });
  assertNoErrors(page);
  await context.close();
});

for (const [device, opts] of [['desktop', {}], ['phone', PHONE]]) {
  test(`a dark device (${device}): the home page is dark and every text readable`, async () => {
    const { page, context } = await newPage(browser, { ...opts, colorScheme: 'dark' });
    await register(page, srv.url, `Noa ${device}`);
    await page.waitForSelector('#leaders p, #leaders li');
    await assertDarkPage(page, 'home');
    // Open the account and delete-my-data parts, and show an error as the forms would.
    await page.click('#make-account summary');
    await page.click('#erase-me summary');
    await page.fill('#account-username', 'noa');
    await page.evaluate(() => { document.querySelector('#make-account .error').textContent = 'Error: that username is taken'; });
    const results = await textContrast(page, [
      'header.top h1 a', '#howto-link', '#lang', 'main h2', '.form-grid label', '#rules', '#players', '#join-code',
      '#change-name', '#create-room', '#quick-match', '#refresh-rooms', 'main .muted', 'details.account summary', '.hint',
      '.stack label', '#account-username', '#account-submit', '#erase-me-confirm', '#make-account .error',
    ]);
    assertReadable(results, `home (${device})`);
    // The connection banner (warning, then ok) over the page.
    for (const kind of ['', 'ok']) {
      await page.evaluate((k) => { const b = document.querySelector('#banner'); b.textContent = 'Reconnecting…'; b.className = `banner ${k}`; }, kind);
      assertReadable(await textContrast(page, ['#banner']), `banner ${kind}`);
    }
    await page.evaluate(() => { document.querySelector('#banner').className = 'banner hidden'; });
    await shot(page, `appearance-home-dark-${device}`);
    await page.goto(`${srv.url}/rules`);
    await page.waitForSelector('.howto h3');
    await assertDarkPage(page, 'rules');
    assertReadable(await textContrast(page, ['main h2', '.howto h3', '.howto li', '.howto p']), `rules (${device})`);
    assertNoErrors(page);
    await context.close();
  });

  test(`a dark device (${device}): the room and the game are readable, the board keeps its colours`, { timeout: 120000 }, async () => {
    const { page, context } = await newPage(browser, { ...opts, colorScheme: 'dark' });
    await register(page, srv.url, `Eli ${device}`);
    await createRoom(page, { mode: 'individual', players: 4, bots: ['greedy', 'greedy', 'greedy'], timer: '' });
    await page.fill('#chat-input', 'hola');
    await page.press('#chat-input', 'Enter');
    await page.waitForSelector('#chat-log .chat-text');
    await assertDarkPage(page, 'waiting room');
    assertReadable(await textContrast(page, [
      '#wr-h', '#seats li', '#seats .chip', '.code-big', '#share-link', '#start-game', '#leave-seat', '#pref-colour',
      '#chat-h', '#chat-input', '#chat-send', '#chat-log .chat-name', '#chat-log .chat-text',
    ]), `waiting room (${device})`);
    await shot(page, `appearance-room-dark-${device}`);

    await page.click('#start-game');
    await waitBoard(page, 'four');
    for (let i = 0; i < 6; i++) { await actOnce(page); await page.waitForTimeout(50); }
    await page.waitForSelector('#log li');
    await assertDarkPage(page, 'game');
    assertReadable(await textContrast(page, [
      '#turn-line', '#players li', '#players li .chip', '#log li', '#toggles label', '#last-event', '.side h2', '#chat-input', '#chat-send',
    ]), `game (${device})`);
    // The board keeps its cream and its square numbers stay readable on their squares.
    const board = await page.evaluate(() => ({
      background: getComputedStyle(document.querySelector('svg.board .board-bg')).fill,
      numbers: [...document.querySelectorAll('svg.board g:not(.exit-sq) > .sq-num')].map((num) => [
        getComputedStyle(num).fill, getComputedStyle(num.parentNode.querySelector('polygon')).fill]),
    }));
    assert.equal(board.background, 'rgb(239, 230, 207)');
    assert.equal(board.numbers.length, 64, 'the 68 squares less the 4 exits');
    const ratio = (a, b) => { const [hi, lo] = [luminanceOf(a), luminanceOf(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
    const worst = Math.min(...board.numbers.map(([fg, bg]) => ratio(fg, bg)));
    assert.ok(worst >= 4.5, `square numbers at ${worst.toFixed(2)}:1`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `appearance-game-dark-${device}`);
    assertNoErrors(page);
    await context.close();
  });
}

test('a dark device: the replay of a finished game is readable', { timeout: 120000 }, async () => {
  // Two people who never open the room: bots cover them and finish the game.
  const api = rest(srv.api);
  const [pau, queralt] = [await api.player('Pau'), await api.player('Queralt')];
  const room = await api.createRoom({ rules: 'playgridia', mode: 'quick', players: 2, turn_time_secs: null, public: true }, pau.token);
  await api.join(room.id, queralt.token);
  await api.start(room.id, pau.token);
  let finished;
  for (let i = 0; i < 400 && !finished; i++) {
    const view = await api.room(room.id, pau.token);
    if (view.status === 'finished') finished = view;
    else await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(finished, 'the bots finished the game');
  const { page, context } = await newPage(browser, { ...PHONE, colorScheme: 'dark' });
  await page.goto(`${srv.url}/replay/${finished.game_id}`);
  await page.waitForSelector('#replay #proof-status[data-verified="true"]', { timeout: 30000 });
  await page.click('#replay-next');
  await page.click('#replay-next');
  await page.waitForSelector('#replay-log li.current');
  await assertDarkPage(page, 'replay');
  assertReadable(await textContrast(page, [
    '#replay h2', '#replay-first', '#replay-play', '#replay-step', '#replay-log li', '#replay-log li.current', '#seed-hash', '#proof-status',
  ]), 'replay');
  await shot(page, 'appearance-replay-dark-phone');
  assertNoErrors(page);
  await context.close();
});
