// The host's moderation page (/admin): with the server's ADMIN_TOKEN (kept in the tab's sessionStorage
// only) the host sees the chat messages players reported, as text, with their count and reasons, and
// dismisses them or erases their writer; a wrong token and a server without moderation say so. Phone
// width and the dark theme too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, textContrast } from '../lib/checks.js';

const ADMIN = 'the host secret of the admin tests';
const WRONG_TOKEN = 'That is not this server’s admin token.';
const OFF = 'This server has no admin token: moderation is off (see ADMIN_TOKEN in the README).';
const NONE = 'No reported messages.';
// The probe without a token (401) and the wrong token (403) are answers the page expects.
const EXPECTED = [/status of 401/, /status of 403/];

let srv; let browser; let api;
before(async () => {
  srv = await startServer({ ADMIN_TOKEN: ADMIN });
  api = rest(srv.api);
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** Opens the room as `player` (their identity put in the page) and writes `text` in its chat; returns its seq. */
async function say(page, player, roomId, text) {
  await page.goto(`${srv.url}/`);
  await page.evaluate((p) => localStorage.setItem('parchis.player', JSON.stringify({ id: p.id, display_name: p.display_name, token: p.token })), player);
  await page.goto(`${srv.url}/room/${roomId}`);
  await page.waitForSelector('#chat-input');
  const before = await page.locator('#chat-log li[data-seq]').count();
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#chat-log li[data-seq]').length === n + 1, before);
  return Number(await page.getAttribute('#chat-log li[data-seq]:last-child', 'data-seq'));
}

/** A page (phone or dark) that opens /admin with the token already in its tab. */
async function adminPage(options) {
  const p = await newPage(browser, options);
  await p.context.addInitScript((token) => sessionStorage.setItem('parchis.admin-token', token), ADMIN);
  await p.page.goto(`${srv.url}/admin`);
  return p;
}

const storage = (page) => page.evaluate(() => ({
  session: sessionStorage.getItem('parchis.admin-token'),
  local: Object.keys(localStorage).map((k) => localStorage.getItem(k)).join('\n'),
}));

test('the host lists reported messages, dismisses one and erases a writer', { timeout: 120000 }, async () => {
  const ana = await api.player('Ana');
  const bea = await api.player('Bea');
  const room = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, turn_time_secs: null, public: true }, ana.token);
  const writer = await newPage(browser);
  const sneaky = '<b>rude</b> & <img src=x onerror="window.__pwned=1">';
  const first = await say(writer.page, ana, room.id, sneaky);
  const second = await say(writer.page, ana, room.id, 'a second rude line');
  await api.report(room.id, first, bea.token, 'insulting <i>me</i>');

  // No token yet: the page asks for one, with a labelled password field.
  const host = await newPage(browser);
  const { page } = host;
  await page.goto(`${srv.url}/admin`);
  await page.waitForSelector('#admin-login:not(.hidden)');
  assert.equal(await page.getAttribute('#admin-token', 'type'), 'password');
  assert.equal((await page.textContent('label[for="admin-token"]')).trim(), 'Admin token');
  assert.equal(await page.isVisible('#admin-reports-h'), false);

  // A wrong token is refused, and not kept.
  await page.fill('#admin-token', 'not the token of this server at all');
  await page.click('#admin-open');
  await page.waitForFunction((text) => document.querySelector('#admin-error').textContent === text, WRONG_TOKEN);
  assert.equal(await page.isVisible('#admin-login'), true);
  assert.equal((await storage(page)).session, null);
  await shot(page, 'admin-login');

  // The right one lists the message: writer, text as typed, count, reason, when and its room.
  await page.fill('#admin-token', ADMIN);
  await page.click('#admin-open');
  const item = `#admin-reports li[data-seq="${first}"]`;
  await page.waitForSelector(item);
  assert.equal(await page.isVisible('#admin-login'), false);
  assert.equal(await page.textContent('#admin-error'), '');
  assert.equal(await page.textContent(`${item} .report-writer`), 'Ana');
  assert.equal(await page.textContent(`${item} .report-text`), sneaky);
  assert.equal(await page.$('#admin-reports b, #admin-reports img, #admin-reports i'), null, 'no element came from the texts');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.textContent(`${item} .report-count`), 'Reports: 1');
  assert.deepEqual(await page.$$eval(`${item} .report-reasons li`, (lis) => lis.map((li) => li.textContent)), ['insulting <i>me</i>']);
  assert.match(await page.textContent(`${item} .report-when`), /^Last report: \S/);
  assert.equal(await page.getAttribute(`${item} a.report-room`, 'href'), `/room/${room.id}?watch=1`, 'the host watches, never takes a seat');
  assert.equal(await page.getAttribute(item, 'data-player'), ana.id);
  const kept = await storage(page);
  assert.equal(kept.session, ADMIN, 'the token is kept in the tab');
  assert.ok(!kept.local.includes(ADMIN), 'never in localStorage');
  await shot(page, 'admin-desktop');

  // Dismiss: the message leaves the list, here and in the API.
  await page.click(`${item} .admin-dismiss`);
  await page.waitForFunction((text) => document.querySelector('#admin-info').textContent === text, NONE);
  assert.equal(await page.locator('#admin-reports li').count(), 0);
  assert.deepEqual((await api.reports(ADMIN)).messages, []);

  // Another report, without a reason, shows on Refresh.
  await api.report(room.id, second, bea.token);
  await page.click('#admin-refresh');
  const other = `#admin-reports li[data-seq="${second}"]`;
  await page.waitForSelector(other);
  assert.equal(await page.textContent('#admin-info'), '');
  assert.equal(await page.textContent(`${other} .report-reasons`), 'No reason given.');

  // At phone width everything fits; in the dark theme it is dark and readable.
  const phone = await adminPage({ viewport: { width: 375, height: 667 }, isMobile: true });
  await phone.page.waitForSelector(other);
  const widths = await phone.page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(widths.page <= widths.view, `no sideways scrolling at 375 px (${widths.page} > ${widths.view})`);
  for (const sel of [`${other} .admin-dismiss`, `${other} .admin-erase`]) {
    const box = await phone.page.locator(sel).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `${sel} is on screen`);
  }
  await shot(phone.page, 'admin-phone');
  assertNoErrors(phone.page);
  await phone.context.close();
  const dark = await adminPage({ colorScheme: 'dark' });
  await dark.page.waitForSelector(other);
  const bg = await dark.page.evaluate(() => getComputedStyle(document.querySelector('#admin')).backgroundColor);
  assert.equal(bg, 'rgb(33, 29, 23)', 'the dark panel');
  const poor = (await textContrast(dark.page, ['#admin-h', '#admin-reports-h', '.report-writer', '.report-count', '.report-text',
    '.report-reasons', '.report-when', '.report-room', '.admin-dismiss', '.admin-erase', '#admin-refresh', '#admin-forget']))
    .filter((r) => r.missing || r.ratio < 4.5);
  assert.deepEqual(poor, [], 'every text reads at 4.5:1 in the dark');
  await shot(dark.page, 'admin-dark');
  assertNoErrors(dark.page);
  await dark.context.close();

  // Erase the writer: a confirmation naming her (saying no does nothing), then she is gone for good.
  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.dismiss(); });
  await page.click(`${other} .admin-erase`);
  assert.match(asked, /Erase Ana for good\?/);
  assert.equal(await page.locator(other).count(), 1);
  assert.equal((await api.reports(ADMIN)).messages.length, 1);
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await page.click(`${other} .admin-erase`);
  await page.waitForFunction((text) => document.querySelector('#admin-info').textContent === text, NONE);
  assert.match(asked, /Ana/);
  assert.deepEqual((await api.reports(ADMIN)).messages, []);
  const meRes = await fetch(`${srv.api}/api/players/me`, { headers: { authorization: `Bearer ${ana.token}` } });
  assert.equal(meRes.status, 401, 'the writer\'s token no longer works');

  // Forget the token: the form again, nothing in the tab, and so after a reload.
  await page.click('#admin-forget');
  await page.waitForSelector('#admin-login:not(.hidden)');
  assert.equal((await storage(page)).session, null);
  await page.reload();
  await page.waitForSelector('#admin-login:not(.hidden)');
  assert.equal(await page.isVisible('#admin-reports-h'), false);
  assertNoErrors(page, EXPECTED);
  assertNoErrors(writer.page, [/status of 401/, /WebSocket/i]);
  await host.context.close();
  await writer.context.close();
});

test('in Spanish, French and Arabic the page speaks the language', async () => {
  for (const [locale, label] of [['es-ES', 'Token de administrador'], ['fr-FR', 'Jeton d’administration'], ['ar-MA', 'مفتاح المشرف']]) {
    const p = await newPage(browser, { locale });
    await p.page.goto(`${srv.url}/admin`);
    await p.page.waitForSelector('#admin-login:not(.hidden)');
    assert.equal((await p.page.textContent('label[for="admin-token"]')).trim(), label);
    assert.equal(await p.page.evaluate(() => document.documentElement.dir), locale.startsWith('ar') ? 'rtl' : 'ltr');
    if (locale.startsWith('ar')) await shot(p.page, 'rtl-admin-login');
    assertNoErrors(p.page, EXPECTED);
    await p.context.close();
  }
});

test('a server without ADMIN_TOKEN says moderation is off, and asks for no token', async () => {
  const plain = await startServer();
  try {
    const p = await newPage(browser);
    await p.page.goto(`${plain.url}/admin`);
    await p.page.waitForFunction((text) => document.querySelector('#admin-error')?.textContent === text, OFF);
    assert.equal(await p.page.isVisible('#admin-login'), false);
    assert.equal(await p.page.isVisible('#admin-reports-h'), false);
    // Even with a token left in the tab from elsewhere.
    await p.page.evaluate((token) => sessionStorage.setItem('parchis.admin-token', token), ADMIN);
    await p.page.reload();
    await p.page.waitForFunction((text) => document.querySelector('#admin-error')?.textContent === text, OFF);
    assertNoErrors(p.page, [/status of 404/]);
    await p.context.close();
  } finally {
    await plain.stop();
  }
});
