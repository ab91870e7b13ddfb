// Arabic, written right to left: an Arabic browser gets it (and the choice is remembered), the page is
// lang="ar" dir="rtl" and goes back to ltr live; the home page, a room, a game against bots and the
// how-to page fit 1280 and 375 px with no English left on them; the board is the same board as in English
// (never mirrored); names, codes and moves keep their left-to-right order inside Arabic sentences; the dark
// theme still reads at 4.5:1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, textContrast } from '../lib/checks.js';
import { register, createRoom, waitBoard, isOver } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const SIZES = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 375, height: 667 }, isMobile: true }],
];
/** The WebSocket may log its closing when a test leaves a room. */
const WS = [/WebSocket/i];
/** Latin words an Arabic page may show: the game's and the rule sets' names, and the rating method. */
const PROPER = new Set(['Parchís', 'Playgridia', 'Ludoteka', 'Weng', 'Lin', 'OpenSkill', 'SHA']);

/** The page's direction and language. */
const dirOf = (page) => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

/** Chooses Arabic in the header's menu and waits for the page to turn right to left. */
async function chooseArabic(page) {
  await page.selectOption('#lang', 'ar');
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
}

/** No sideways scrolling and no card wider than its box. */
async function assertFits(page, label) {
  const r = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    cards: [...document.querySelectorAll('section.card, .board-wrap, header.top')]
      .filter((c) => c.getClientRects().length && c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.id || c.getAttribute('aria-labelledby') || c.className),
  }));
  assert.ok(r.width <= r.inner, `${label}: no horizontal scroll (${r.width} > ${r.inner})`);
  assert.deepEqual(r.cards, [], `${label}: wider than their box`);
}

/**
 * The visible words of the page written in Latin letters that are not names: what is isolated (a name,
 * a move or a code put into a sentence: FSI … PDI, <bdi>, dir="ltr"/"auto", <code>) is not the page's own
 * text, and the language menu names each language in its own. Each choice of a menu counts as visible.
 */
async function englishLeft(page) {
  const words = await page.evaluate(() => {
    const skip = 'bdi, [dir="ltr"], [dir="auto"], code, script, style, noscript, #lang, .sr-only';
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip) || el.closest('option')) continue;
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      texts.push(n.textContent);
    }
    for (const s of document.querySelectorAll('select:not(#lang)')) {
      if (s.checkVisibility()) texts.push(...[...s.options].map((o) => o.textContent));
    }
    for (const e of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (e.closest('bdi, [dir="ltr"], [dir="auto"], #lang') || !e.checkVisibility()) continue;
      texts.push(e.getAttribute('placeholder') || '', e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
    }
    return texts.map((t) => t.replace(/\u2068[^\u2069]*\u2069/g, ' ')).join(' ').match(/[A-Za-z][A-Za-zÀ-ÿ'’]+/g) || [];
  });
  return [...new Set(words)].filter((w) => !PROPER.has(w));
}

test('an Arabic browser gets Arabic, right to left; English again is left to right, live; the choice is remembered', async () => {
  const ar = await newPage(browser, { locale: 'ar-MA' });
  await ar.page.goto(`${srv.url}/`);
  await ar.page.waitForSelector('#create-h');
  assert.deepEqual(await dirOf(ar.page), { lang: 'ar', dir: 'rtl' });
  assert.equal(await ar.page.textContent('#create-h'), 'إنشاء غرفة');
  assert.equal(await ar.page.$eval('#lang', (s) => s.value), 'ar');
  assert.equal(await ar.page.$eval('#lang option[value="ar"]', (o) => o.textContent), 'العربية');
  assert.equal(await ar.page.$eval('body', (b) => getComputedStyle(b).direction), 'rtl');
  // The header and the form read from the right: the title at the right end, a form's labels right of their fields.
  const header = await ar.page.evaluate(() => {
    const r = (s) => document.querySelector(s).getBoundingClientRect();
    return { title: r('header.top h1').right, menu: r('#lang').left, label: r('label[for="rules"]').left, field: r('#rules').right };
  });
  assert.ok(header.title > header.menu, 'the title at the right, the language menu at the left');
  assert.ok(header.label >= header.field, 'a label right of its field');
  assert.equal(await ar.page.title(), 'Parchís');
  // Back to English in the menu: left to right at once, without a reload.
  await ar.page.selectOption('#lang', 'en');
  await ar.page.waitForFunction(() => document.documentElement.dir === 'ltr');
  assert.deepEqual(await dirOf(ar.page), { lang: 'en', dir: 'ltr' });
  assert.equal(await ar.page.textContent('#create-h'), 'Create a room');
  assert.equal(await ar.page.textContent('a[href="#main"]'), 'Skip to content');
  await ar.page.close();
  await ar.context.close();

  // An English browser choosing Arabic keeps it after a reload.
  const en = await newPage(browser, { locale: 'en-GB' });
  await en.page.goto(`${srv.url}/`);
  assert.deepEqual(await dirOf(en.page), { lang: 'en', dir: 'ltr' });
  await chooseArabic(en.page);
  assert.equal(await en.page.evaluate(() => localStorage.getItem('parchis.lang')), 'ar');
  assert.equal(await en.page.textContent('a[href="#main"]'), 'انتقل إلى المحتوى');
  await en.page.reload();
  await en.page.waitForSelector('#create-h');
  assert.deepEqual(await dirOf(en.page), { lang: 'ar', dir: 'rtl' });
  assertNoErrors(en.page);
  await en.context.close();
});

for (const [device, opts] of SIZES) {
  test(`in Arabic (${device}) the home page, a room, a game against bots and the how-to page fit, with no English left`, { timeout: 120000 }, async () => {
    const { page, context } = await newPage(browser, opts);
    await page.goto(`${srv.url}/`);
    await chooseArabic(page);
    await register(page, srv.url, `Ana ${device}`);
    await page.waitForSelector('#leaders li');
    await assertFits(page, `home (${device})`);
    assert.deepEqual(await englishLeft(page), [], `English on the home page (${device})`);
    await shot(page, `rtl-home-${device}`);

    // A waiting room: its code and link stay left to right.
    await createRoom(page, { mode: 'individual', players: 2, bots: ['greedy'] });
    await page.waitForSelector('#wr-settings strong');
    await assertFits(page, `room (${device})`);
    assert.deepEqual(await englishLeft(page), [], `English in the room (${device})`);
    assert.equal(await page.$eval('#share-link', (e) => getComputedStyle(e).direction), 'ltr');
    await shot(page, `rtl-room-${device}`);

    // A game against bots, once this player has rolled.
    await page.goto(`${srv.url}/`);
    await page.click('#play-now');
    await waitBoard(page);
    await page.waitForSelector('#roll:not([disabled])', { timeout: 20000 });
    await page.click('#roll');
    await page.waitForSelector('#log li');
    await assertFits(page, `game (${device})`);
    assert.deepEqual(await englishLeft(page), [], `English in the game (${device})`);
    await shot(page, `rtl-game-${device}`);

    await page.goto(`${srv.url}/rules`);
    await page.waitForSelector('#howto-ratings p');
    await assertFits(page, `how to play (${device})`);
    assert.deepEqual(await englishLeft(page), [], `English on the how-to page (${device})`);
    assert.equal(await page.textContent('#howto-morocco h3'), 'المغرب (الشمال)');
    // The list's bullets and indent on the reading side: the right.
    const list = await page.$eval('#howto ul', (u) => ({ start: getComputedStyle(u).paddingRight, end: getComputedStyle(u).paddingLeft }));
    assert.ok(parseFloat(list.start) > parseFloat(list.end), `the list indented from the right (${JSON.stringify(list)})`);
    await shot(page, `rtl-howto-${device}`);
    assertNoErrors(page, WS);
    await context.close();
  });
}

/**
 * Whether, in the element's first text, the rule set's name `name` is drawn wholly right of the mode's words
 * `mode` (what comes first in an Arabic line is at its right): a mode starting with a digit ("3 ضد 3") must
 * not have it pulled beside a Latin name ("Playgridia · 3 … ضد").
 */
async function nameRightOfMode(page, selector, name, mode) {
  return page.$eval(selector, (el, [name, mode]) => {
    const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.includes(name));
    const text = node.textContent;
    const rect = (from, to) => { const r = document.createRange(); r.setStart(node, from); r.setEnd(node, to); return r.getBoundingClientRect(); };
    const at = text.indexOf(name);
    const nameRect = rect(at, at + name.length);
    const start = text.indexOf(mode);
    const right = Math.max(...[...mode].map((c, i) => (c.trim() ? rect(start + i, start + i + 1).right : -Infinity)));
    return { text, nameLeft: nameRect.left, modeRight: right };
  }, [name, mode]);
}

test('in Arabic a Latin rule set name keeps the mode after it: "Playgridia · 3 ضد 3" is not read "Playgridia · 3 … ضد"', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, locale: 'ar' });
  await register(page, srv.url, 'Ana');
  await createRoom(page, { rules: 'playgridia', mode: '3v3', bots: ['greedy', 'greedy', 'greedy', 'greedy', 'greedy'], timer: '' });
  const mode = '3 ضد 3 (ستة ألوان)';
  const room = await nameRightOfMode(page, '#wr-settings strong', 'Playgridia', mode);
  assert.ok(room.modeRight <= room.nameLeft + 0.5, `the waiting room's mode left of the rule set: ${JSON.stringify(room)}`);
  await page.click('#start-game');
  await waitBoard(page, 'six');
  await page.waitForSelector('#game-rules p');
  const game = await nameRightOfMode(page, '#game-rules p', 'Playgridia', mode);
  assert.ok(game.modeRight <= game.nameLeft + 0.5, `the game's mode left of the rule set: ${JSON.stringify(game)}`);
  // The home page's list of one's games writes it the same way.
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#my-rooms li strong', { timeout: 10000 });
  await page.$eval('#my-rooms li strong', (e) => { e.id = 'rtl-entry'; });
  const home = await nameRightOfMode(page, '#rtl-entry', 'Playgridia', mode);
  assert.ok(home.modeRight <= home.nameLeft + 0.5, `the home page's mode left of the rule set: ${JSON.stringify(home)}`);
  assertNoErrors(page, WS);
  await context.close();
});

/** Where each square and piece of the board is drawn, as fractions of the board's box. */
async function boardPositions(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.board');
    const box = svg.getBoundingClientRect();
    const at = (e) => { const r = e.getBoundingClientRect(); return [Math.round((1000 * (r.x + r.width / 2 - box.x)) / box.width), Math.round((1000 * (r.y + r.height / 2 - box.y)) / box.height)]; };
    const squares = Object.fromEntries([...svg.querySelectorAll('[data-square]')].map((e) => [e.dataset.square, at(e)]));
    const pieces = Object.fromEntries([...svg.querySelectorAll('[data-piece]')].map((e) => [`${e.dataset.piece}@${e.dataset.place}`, at(e)]));
    // Nothing on the way up to the page mirrors the board or turns its text around.
    const mirrored = [];
    for (let e = svg; e; e = e.parentElement) {
      const css = getComputedStyle(e);
      if (css.transform !== 'none' || css.scale !== 'none') mirrored.push(`${e.tagName}: ${css.transform} ${css.scale}`);
    }
    return { squares, pieces, mirrored, direction: getComputedStyle(svg).direction, number: getComputedStyle(svg.querySelector('.sq-num')).direction };
  });
}

test('the board is the same board in Arabic as in English: never mirrored; names and moves keep their order', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/`);
  await chooseArabic(page);
  await register(page, srv.url, 'Ana B.');
  await page.click('#play-now');
  await waitBoard(page);
  // This player's turn to roll: the bots wait, nothing moves between the two looks at the board.
  await page.waitForSelector('#roll:not([disabled])', { timeout: 20000 });
  const arabic = await boardPositions(page);
  assert.deepEqual(arabic.mirrored, [], 'no transform on the board or around it');
  assert.equal(arabic.direction, 'ltr');
  assert.equal(arabic.number, 'ltr');
  // Square 1 sits right of square 68's corner as on the real board: compare with the English page.
  await page.selectOption('#lang', 'en');
  await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  await waitBoard(page);
  await page.waitForSelector('#roll:not([disabled])');
  const english = await boardPositions(page);
  assert.deepEqual(arabic.squares, english.squares, 'every square where it is in English');
  const common = Object.keys(arabic.pieces).filter((k) => k in english.pieces);
  assert.ok(common.length >= 4, 'pieces to compare');
  for (const k of common) assert.deepEqual(arabic.pieces[k], english.pieces[k], `piece ${k}`);

  // Back in Arabic: roll, and the log says so with the name isolated, left to right inside the Arabic sentence.
  await chooseArabic(page);
  await waitBoard(page);
  await page.click('#roll');
  const line = await page.waitForFunction(() => [...document.querySelectorAll('#log li')].map((li) => li.textContent).find((t) => t.includes('\u2068Ana B.\u2069')), null, { timeout: 15000 });
  assert.match(await line.jsonValue(), /^\u2068Ana B\.\u2069 رمى [1-6]$/);
  const mine = await page.evaluate(() => {
    const bdi = [...document.querySelectorAll('#players bdi')].find((b) => b.textContent === 'Ana B.');
    return bdi && { direction: getComputedStyle(bdi).direction, bidi: getComputedStyle(bdi).unicodeBidi, li: getComputedStyle(bdi.closest('li')).direction };
  });
  assert.deepEqual(mine, { direction: 'ltr', bidi: 'isolate', li: 'rtl' }, 'the name left to right in a right-to-left list');
  // A move in words: the arrow points the way Arabic reads; a piece's id stays as it is.
  const move = await page.waitForSelector('#moves button', { timeout: 15000 }).catch(() => null);
  if (move) {
    // The words after the colour's swatch (its letter drawn in a square, named by its colour).
    const text = await move.evaluate((b) => [...b.childNodes].filter((n) => !n.classList?.contains('swatch')).map((n) => n.textContent).join(''));
    assert.match(text, /^[YBRG]\d /, text);
    assert.ok(text.includes('←') && !text.includes('→'), text);
  }
  await shot(page, 'rtl-game-moves-desktop');
  assertNoErrors(page, WS);
  await context.close();
});

test('a finished game and its replay in Arabic: the step buttons and arrow keys run right to left, moves in words', { timeout: 300000 }, async () => {
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/`);
  await chooseArabic(page);
  await register(page, srv.url, 'Rim');
  await createRoom(page, { mode: 'quick', players: 2, bots: ['random'], timer: '5' });
  await page.click('#start-game');
  await waitBoard(page);
  await page.check('#auto-roll');
  const deadline = Date.now() + 240000;
  while (!(await isOver(page)) && Date.now() < deadline) {
    const mv = await page.$('#moves button');
    if (mv) await mv.click().catch(() => {});
    await page.waitForTimeout(120);
  }
  assert.ok(await isOver(page), 'game finished');
  await page.waitForSelector('#end:not(.hidden) #winner');
  await page.waitForSelector('#end-proof[data-verified="true"]', { timeout: 10000 });
  assert.match(await page.textContent('#end-title'), /انتهت المباراة/);
  assert.match(await page.textContent('#figures caption'), /حصيلة كل لاعب/);
  await assertFits(page, 'end of game');
  assert.deepEqual(await englishLeft(page), [], 'English at the end of the game');
  await shot(page, 'rtl-end-desktop');

  await page.click('#replay-link');
  await page.waitForSelector('#replay #proof-status[data-verified="true"]', { timeout: 30000 });
  const n = Number(await page.getAttribute('#replay svg.board', 'data-step'));
  assert.ok(n > 4);
  // The first step's button at the right end, the last one's at the left; each arrow points its way.
  const buttons = await page.evaluate(() => Object.fromEntries(['first', 'prev', 'next', 'last'].map((b) => {
    const e = document.querySelector(`#replay-${b}`);
    return [b, { x: e.getBoundingClientRect().x, text: e.textContent }];
  })));
  assert.ok(buttons.first.x > buttons.prev.x && buttons.prev.x > buttons.next.x && buttons.next.x > buttons.last.x, JSON.stringify(buttons));
  assert.equal(buttons.prev.text, '▶ السابقة');
  assert.equal(buttons.next.text, 'التالية ◀');
  await page.click('#replay-first');
  assert.equal(await page.textContent('#replay-step'), `الخطوة 0 من ${n}`);
  // Forwards is leftwards.
  await page.focus('#replay-play');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), '2');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#replay svg.board', 'data-step'), '1');
  // Step to the first move: the expert's card says it in words, its arrow pointing the way Arabic reads.
  const log = await rest(srv.api).record(await page.evaluate(() => location.pathname.split('/').pop()));
  const firstMove = log.log.findIndex((e) => e.kind === 'move');
  await page.click('#replay-first');
  for (let k = 0; k <= firstMove; k++) await page.click('#replay-next');
  const played = await page.textContent('#expert-played');
  assert.match(played, /^الحركة الملعوبة: /);
  assert.ok(played.includes('←') && !played.includes('→'), played);
  await assertFits(page, 'replay');
  assert.deepEqual(await englishLeft(page), [], 'English in the replay');
  await shot(page, 'rtl-replay-desktop');
  await page.setViewportSize({ width: 375, height: 667 });
  await assertFits(page, 'replay (phone)');
  await shot(page, 'rtl-replay-phone');
  assertNoErrors(page, WS);
  await context.close();
});

test('dark theme in Arabic on a phone: the home page and a game read at 4.5:1', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, colorScheme: 'dark' });
  await page.goto(`${srv.url}/`);
  await chooseArabic(page);
  await register(page, srv.url, 'Nour');
  await page.waitForSelector('#leaders li');
  const poor = (results) => results.filter((r) => r.missing || r.ratio < 4.5);
  const home = await textContrast(page, ['header.top h1 a', '#howto-link', '#lang', 'main h2', '.form-grid label', '#rules', '#join-code',
    '#change-name', '#create-room', '#quick-match', 'main .muted', 'details.account summary', '.hint']);
  assert.deepEqual(poor(home), [], 'home page');
  await page.click('#play-now');
  await waitBoard(page);
  await page.waitForSelector('#roll:not([disabled])', { timeout: 20000 });
  await page.click('#roll');
  await page.waitForSelector('#log li');
  const game = await textContrast(page, ['#turn-line', '#toggles label', '#last-event', '#players li', '#spectators', '#log li', '#chat-h', '#game-rules p']);
  assert.deepEqual(poor(game), [], 'game');
  await assertFits(page, 'dark game (phone)');
  await shot(page, 'rtl-game-phone-dark');
  assertNoErrors(page, WS);
  await context.close();
});
