// Accounts: make one on a laptop, sign in on a phone as the same player (same games), sign the phone out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, createRoom } from '../lib/flows.js';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';

let srv; let browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

const identity = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')));

/** `name` makes an account (password "first horse") on a laptop and signs in with it on a phone
 * (sending `phoneAgent` as its User-Agent, when given). */
async function onTwoDevices(name, phoneAgent) {
  const laptop = await newPage(browser);
  await register(laptop.page, srv.url, name);
  await laptop.page.click('#make-account summary');
  await laptop.page.fill('#account-username', name.toLowerCase());
  await laptop.page.fill('#account-password', 'first horse');
  await laptop.page.click('#account-submit');
  await laptop.page.waitForSelector('#signed-in');
  const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, userAgent: phoneAgent });
  await phone.page.goto(`${srv.url}/`);
  await phone.page.click('#sign-in summary');
  await phone.page.fill('#sign-in-username', name.toLowerCase());
  await phone.page.fill('#sign-in-password', 'first horse');
  await phone.page.click('#sign-in-submit');
  await phone.page.waitForSelector('#signed-in');
  return { laptop, phone };
}

test('an account made on a laptop signs the same player in on a phone, with their games; the phone signs out alone', async () => {
  const laptop = await newPage(browser);
  await register(laptop.page, srv.url, 'Marta');
  const room = await createRoom(laptop.page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await laptop.page.click('#start-game');
  await laptop.page.waitForSelector('svg.board');
  await laptop.page.goto(`${srv.url}/`);
  await laptop.page.click('#make-account summary');
  await laptop.page.fill('#account-username', 'Marta_P');
  await laptop.page.fill('#account-password', 'tortilla de patatas');
  await laptop.page.click('#account-submit');
  await laptop.page.waitForSelector('#signed-in');
  assert.match(await laptop.page.textContent('#signed-in'), /Marta_P/);
  const first = await identity(laptop.page);
  await shot(laptop.page, 'account-laptop');

  const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await phone.page.goto(`${srv.url}/`);
  await phone.page.click('#sign-in summary');
  await phone.page.fill('#sign-in-username', 'marta_p');
  await phone.page.fill('#sign-in-password', 'wrong password');
  await phone.page.click('#sign-in-submit');
  await phone.page.waitForFunction(() => /password/i.test(document.querySelector('#sign-in .error')?.textContent || ''));
  await phone.page.fill('#sign-in-password', 'tortilla de patatas');
  await phone.page.click('#sign-in-submit');
  await phone.page.waitForSelector('#signed-in');
  assert.match(await phone.page.textContent('#name-h'), /Marta/);
  const second = await identity(phone.page);
  assert.equal(second.id, first.id, 'the same player');
  assert.notEqual(second.token, first.token, 'a token of its own');
  // The laptop's running game is on the phone's list, and opens there.
  await phone.page.waitForSelector(`#my-rooms li[data-room="${room}"]`);
  await shot(phone.page, 'account-phone');
  await phone.page.click(`#my-rooms li[data-room="${room}"] .resume-link`);
  await phone.page.waitForSelector('svg.board');
  await phone.page.goto(`${srv.url}/`);

  // Signing the phone out asks for a name again there; the laptop stays signed in.
  await phone.page.click('#sign-out');
  await phone.page.waitForSelector('#save-name');
  assert.equal(await identity(phone.page), null);
  await laptop.page.reload();
  await laptop.page.waitForSelector('#signed-in');
  assert.deepEqual(await identity(laptop.page), { ...first });
  assertNoErrors(laptop.page);
  assertNoErrors(phone.page, [/401/]);
  await laptop.context.close();
  await phone.context.close();
});

test('a new password keeps this device signed in and signs the other one out', async () => {
  const { laptop, phone } = await onTwoDevices('Nuria');

  await laptop.page.click('#change-password summary');
  await laptop.page.fill('#current-password', 'first horse');
  await laptop.page.fill('#new-password', 'second horse');
  await laptop.page.click('#change-password-submit');
  await laptop.page.waitForFunction(() => /other devices/i.test(document.querySelector('#password-changed')?.textContent || ''));
  await shot(laptop.page, 'account-password-changed');
  await laptop.page.reload();
  await laptop.page.waitForSelector('#signed-in');

  // The phone's token no longer works: on its next look it asks for a name again.
  await phone.page.reload();
  await phone.page.waitForSelector('#save-name');
  assert.equal(await identity(phone.page), null);
  assertNoErrors(laptop.page);
  assertNoErrors(phone.page, [/401/]);
  await laptop.context.close();
  await phone.context.close();
});

test('a device signed out from another stops playing at once: its game page goes home and says why', async () => {
  const { laptop, phone } = await onTwoDevices('Pilar');
  // The phone starts a game against bots and has the die in hand.
  await phone.page.selectOption('#timer', '');
  await phone.page.click('#play-now');
  await phone.page.waitForSelector('#roll:not([disabled])');

  await laptop.page.click('#change-password summary');
  await laptop.page.fill('#current-password', 'first horse');
  await laptop.page.fill('#new-password', 'second horse');
  await laptop.page.click('#change-password-submit');
  await laptop.page.waitForFunction(() => /other devices/i.test(document.querySelector('#password-changed')?.textContent || ''));

  // Without a reload, the phone's socket is closed: the page forgets the token, goes home and says why.
  await phone.page.waitForFunction(() => /signed out on this device/.test(document.querySelector('#banner')?.textContent || ''));
  assert.equal(await identity(phone.page), null);
  assert.equal(new URL(phone.page.url()).pathname, '/');
  await phone.page.waitForSelector('#save-name');
  assert.equal(await phone.page.locator('#roll').count(), 0, 'no die for a device signed out');
  await shot(phone.page, 'account-signed-out-elsewhere');
  assertNoErrors(laptop.page);
  assertNoErrors(phone.page);
  await laptop.context.close();
  await phone.context.close();
});

test('signing the other devices out from the phone, by keyboard: the laptop\'s next action is refused and its page says so', async () => {
  const { laptop, phone } = await onTwoDevices('Rosa');
  const before = await identity(phone.page);

  // The phone (the laptop was lost) opens the section and confirms, by keyboard alone.
  await phone.page.focus('#sign-out-others summary');
  await phone.page.keyboard.press('Enter');
  await phone.page.waitForSelector('#sign-out-others-confirm', { state: 'visible' });
  await phone.page.keyboard.press('Tab');
  assert.equal(await phone.page.evaluate(() => document.activeElement?.id), 'sign-out-others-confirm');
  await phone.page.keyboard.press('Enter');
  await phone.page.waitForFunction(() => /^1 other device was signed out/.test(document.querySelector('#others-signed-out')?.textContent || ''));
  await shot(phone.page, 'account-others-signed-out');

  // The laptop, still showing the home page, tries to play: refused, it forgets the token, asks for a
  // name again and says it was signed out on this device.
  await laptop.page.selectOption('#timer', '');
  await laptop.page.click('#play-now');
  await laptop.page.waitForFunction(() => /signed out on this device/.test(document.querySelector('#banner')?.textContent || ''));
  await laptop.page.waitForSelector('#save-name');
  assert.equal(await identity(laptop.page), null);

  // The phone stays signed in; a second time, there is no other device left.
  await phone.page.reload();
  await phone.page.waitForSelector('#signed-in');
  assert.deepEqual(await identity(phone.page), before);
  await phone.page.click('#sign-out-others summary');
  await phone.page.click('#sign-out-others-confirm');
  await phone.page.waitForFunction(() => /No other device/.test(document.querySelector('#others-signed-out')?.textContent || ''));
  assertNoErrors(phone.page);
  assertNoErrors(laptop.page, [/401/]);
  await laptop.context.close();
  await phone.context.close();
});

test('a device playing when another signs the other devices out leaves the game at once and says why', async () => {
  const { laptop, phone } = await onTwoDevices('Sara');
  await phone.page.selectOption('#timer', '');
  await phone.page.click('#play-now');
  await phone.page.waitForSelector('#roll:not([disabled])');

  await laptop.page.click('#sign-out-others summary');
  await laptop.page.click('#sign-out-others-confirm');
  await laptop.page.waitForFunction(() => /^1 other device was signed out/.test(document.querySelector('#others-signed-out')?.textContent || ''));

  // Without a reload, the phone's socket is closed: the page forgets the token, goes home and says why.
  await phone.page.waitForFunction(() => /signed out on this device/.test(document.querySelector('#banner')?.textContent || ''));
  assert.equal(await identity(phone.page), null);
  assert.equal(new URL(phone.page.url()).pathname, '/');
  await phone.page.waitForSelector('#save-name');
  assert.equal(await phone.page.locator('#roll').count(), 0, 'no die for a device signed out');
  // The laptop is still signed in.
  await laptop.page.reload();
  await laptop.page.waitForSelector('#signed-in');
  assertNoErrors(laptop.page);
  assertNoErrors(phone.page);
  await laptop.context.close();
  await phone.context.close();
});

test('"Your devices" lists the laptop and the phone; the laptop signs the lost phone out from the list', async () => {
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
  const { laptop, phone } = await onTwoDevices('Lola', android);

  // The laptop opens its list: itself (the first device, marked) and the phone, each with when it
  // signed in and was last used; only the phone has a button.
  await laptop.page.click('#devices summary');
  await laptop.page.waitForSelector('#devices-list li[data-current="false"]');
  const items = await laptop.page.$$eval('#devices-list li', (lis) => lis.map((li) => ({ current: li.dataset.current, text: li.textContent, buttons: li.querySelectorAll('button').length })));
  assert.equal(items.length, 2, JSON.stringify(items));
  const here = items.find((i) => i.current === 'true');
  const there = items.find((i) => i.current === 'false');
  assert.match(here.text, /Chrome on Linux.*this device/);
  assert.match(there.text, /Chrome on Android.*Signed in .+ · last used /);
  assert.deepEqual([here.buttons, there.buttons], [0, 1]);
  await shot(laptop.page, 'account-devices');

  // The phone was lost: one click signs it out, and the list keeps the laptop alone.
  await laptop.page.click('#devices-list li[data-current="false"] .device-sign-out');
  await laptop.page.waitForFunction(() => /Chrome on Android was signed out/.test(document.querySelector('#device-signed-out')?.textContent || ''));
  await laptop.page.waitForFunction(() => document.querySelectorAll('#devices-list li').length === 1);

  // The phone's next action is refused: it forgets the token, asks for a name and says why.
  await phone.page.selectOption('#timer', '');
  await phone.page.click('#play-now');
  await phone.page.waitForFunction(() => /signed out on this device/.test(document.querySelector('#banner')?.textContent || ''));
  await phone.page.waitForSelector('#save-name');
  assert.equal(await identity(phone.page), null);
  // The laptop stays signed in.
  await laptop.page.reload();
  await laptop.page.waitForSelector('#signed-in');
  assertNoErrors(laptop.page);
  assertNoErrors(phone.page, [/401/]);
  await laptop.context.close();
  await phone.context.close();
});

test('with "Your devices" open, signing out every other device leaves this one alone in the list', async () => {
  const { laptop, phone } = await onTwoDevices('Mila', 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0');
  await laptop.page.click('#devices summary');
  await laptop.page.waitForFunction(() => document.querySelectorAll('#devices-list li').length === 2);
  await laptop.page.click('#sign-out-others summary');
  await laptop.page.click('#sign-out-others-confirm');
  await laptop.page.waitForFunction(() => (document.querySelector('#others-signed-out')?.textContent || '').length > 0);
  // Without closing and opening the list again.
  await laptop.page.waitForFunction(() => document.querySelectorAll('#devices-list li').length === 1, null, { timeout: 5000 });
  assert.equal(await laptop.page.getAttribute('#devices-list li', 'data-current'), 'true');
  assertNoErrors(laptop.page);
  await laptop.context.close();
  await phone.context.close();
});

test('a refusal from the server reads in the page\'s language (its own words for the error code)', async () => {
  for (const [locale, words] of [['es-ES', /Usuario desconocido o contraseña incorrecta/], ['ar-MA', /اسم مستخدم غير معروف أو كلمة مرور خاطئة/], ['en-GB', /Unknown username or wrong password/]]) {
    const p = await newPage(browser, { locale });
    await p.page.goto(`${srv.url}/`);
    await p.page.click('#sign-in summary');
    await p.page.fill('#sign-in-username', 'nobody_here');
    await p.page.fill('#sign-in-password', 'not this one');
    await p.page.click('#sign-in-submit');
    await p.page.waitForFunction(() => (document.querySelector('#sign-in .error')?.textContent || '').length > 0);
    assert.match(await p.page.textContent('#sign-in .error'), words, locale);
    assertNoErrors(p.page, [/401/]);
    await p.context.close();
  }
});

test('a username the server refuses is explained in the page\'s language, not the server\'s English', async () => {
  for (const [locale, words] of [['es-ES', /de 3 a 24 caracteres: letras latinas/], ['fr-FR', /de 3 à 24 caractères : lettres latines/], ['ar-MA', /من 3 إلى 24 محرفًا: حروف لاتينية/]]) {
    const p = await newPage(browser, { locale });
    await register(p.page, srv.url, 'Nuria');
    await p.page.click('#make-account summary');
    // Long enough for the browser's own checks; the space is what the server refuses.
    await p.page.fill('#account-username', 'nuria g');
    await p.page.fill('#account-password', 'tortilla de patatas');
    await p.page.click('#account-submit');
    await p.page.waitForFunction(() => (document.querySelector('#make-account .error')?.textContent || '').length > 0);
    const said = await p.page.textContent('#make-account .error');
    assert.match(said, words, locale);
    assert.doesNotMatch(said, /A username has/, `${locale}: not the server's English`);
    assertNoErrors(p.page, [/422/]);
    await p.context.close();
  }
});

test('downloading your data saves one JSON file of what the server keeps about you, without secrets', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Quim');
  const who = await identity(p.page);
  await p.page.click('#export-me summary');
  assert.match(await p.page.textContent('#export-me'), /JSON file/);
  const [download] = await Promise.all([p.page.waitForEvent('download'), p.page.click('#export-me-download')]);
  assert.equal(download.suggestedFilename(), `parchis-data-${who.id}.json`);
  const file = await download.path();
  const data = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8'));
  assert.equal(data.player.id, who.id);
  assert.equal(data.player.display_name, 'Quim');
  assert.equal(data.account, null, 'a guest has no account');
  assert.ok(!JSON.stringify(data).includes(who.token), 'the token is not in it');
  assertNoErrors(p.page);
  await p.context.close();
});

test('deleting an account asks for its password: a wrong one erases nothing, the right one erases it on every device', async () => {
  const { laptop, phone } = await onTwoDevices('Remei');
  const who = await identity(laptop.page);
  await laptop.page.click('#erase-me summary');
  assert.match(await laptop.page.textContent('#erase-me'), /password/i);
  await laptop.page.fill('#erase-me-password', 'a good guess');
  await laptop.page.click('#erase-me-confirm');
  await laptop.page.waitForFunction(() => /not your password/.test(document.querySelector('#erase-me .error')?.textContent || ''));
  assert.equal((await identity(laptop.page)).token, who.token, 'still signed in');
  await shot(laptop.page, 'erase-me-account');
  await laptop.page.fill('#erase-me-password', 'first horse');
  await laptop.page.click('#erase-me-confirm');
  await laptop.page.waitForSelector('#save-name');
  assert.equal(await identity(laptop.page), null);
  const phoneToken = (await identity(phone.page)).token;
  const status = await phone.page.evaluate(async (token) => (await fetch('/api/players/me', { headers: { authorization: `Bearer ${token}` } })).status, phoneToken);
  assert.equal(status, 401, 'the phone is signed out too');
  assertNoErrors(laptop.page, [/403/]);
  await laptop.context.close();
  await phone.context.close();
});

test('deleting your data erases the player on every device after a second click', async () => {
  const p = await newPage(browser);
  await register(p.page, srv.url, 'Olga');
  const who = await identity(p.page);
  await p.page.click('#erase-me summary');
  assert.match(await p.page.textContent('#erase-me'), /for good/);
  assert.equal(await p.page.$('#erase-me-password'), null, 'a guest has no password to give');
  await shot(p.page, 'erase-me');
  await p.page.click('#erase-me-confirm');
  await p.page.waitForSelector('#save-name');
  assert.equal(await identity(p.page), null);
  const status = await p.page.evaluate(async (token) => (await fetch('/api/players/me', { headers: { authorization: `Bearer ${token}` } })).status, who.token);
  assert.equal(status, 401, 'the old token is dead');
  assertNoErrors(p.page, [/401/]);
  await p.context.close();
});

/** Runs SQL on the server's SQLite file (Python's sqlite3, as Node has none built in): what a year of
 * time would do to the data, which a test cannot wait for. `args` bind the statement's `?`. */
function sql(statement, ...args) {
  execFileSync('python3', ['-c',
    'import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=10); c.execute(sys.argv[2], sys.argv[3:]); c.commit()',
    path.join(srv.dir, 'e2e.db'), statement, ...args.map(String)]);
}

test('a device unused for over a year is signed out when it comes back, and told why', async () => {
  const { laptop, phone } = await onTwoDevices('Olga');
  // The database got its idle limit long ago (an old server's), read at start.
  sql('UPDATE session_expiry SET counted_from = 0');
  await srv.restart();
  // The phone's last use, as recorded, is 400 days ago.
  const token = (await identity(phone.page)).token;
  const hash = createHash('sha256').update(token).digest('hex');
  sql('UPDATE sessions SET last_used_at = ? WHERE token_hash = ?', Date.now() - 400 * 24 * 3600 * 1000, hash);
  await phone.page.reload();
  await phone.page.waitForFunction(() => /not used for a long time/.test(document.querySelector('#banner')?.textContent || ''));
  assert.equal(await identity(phone.page), null, 'the dead token is forgotten');
  await phone.page.waitForSelector('#sign-in summary');
  await shot(phone.page, 'account-signed-out-idle');
  // The laptop, in use, stays signed in; its list of devices says when one is signed out by itself.
  await laptop.page.reload();
  await laptop.page.waitForSelector('#signed-in');
  await laptop.page.click('#devices summary');
  await laptop.page.waitForFunction(() => /nobody uses for 365 days/.test(document.querySelector('#devices-idle')?.textContent || ''));
  assert.equal(await laptop.page.locator('#devices-list li').count(), 1, 'the phone is no longer listed');
  assertNoErrors(laptop.page);
  assertNoErrors(phone.page, [/401/]);
  await laptop.context.close();
  await phone.context.close();
});
