// Browser flows shared by the tests: register, create a room, join, play.
import assert from 'node:assert/strict';
import { pageState } from './checks.js';

export async function register(page, base, name) {
  await page.goto(`${base}/`);
  // A page that never shows the name field says what it shows instead (a flake seen under load).
  await page.waitForSelector('#name').catch(async (e) => {
    const main = await page.$eval('#main', (m) => m.outerHTML.slice(0, 500)).catch(() => '(no #main)');
    throw new Error(`${e.message}\n#main: ${main}\npage errors: ${(page.errors || []).join(' | ')}`);
  });
  await page.fill('#name', name);
  await page.click('#save-name');
  await page.waitForSelector('#change-name');
}

/** Unfolds the home page's "Create a room" (folded on a phone) so that its fields can be set. */
export async function openCustomRoom(page) {
  await page.waitForSelector('#custom-room');
  if (!(await page.$eval('#custom-room', (d) => d.open))) await page.click('#custom-room > summary');
}

/**
 * Opens the create form's House rules and sets each of `house` ({ capture_bonus: '10', three_sixes: 'off',
 * lane_blockades: '1' }) with its control: a checkbox, a choice or a number field.
 */
export async function setHouseRules(page, house) {
  await openCustomRoom(page);
  await page.waitForSelector('#house-rules:not(.hidden)');
  if (!(await page.$eval('#house-rules', (d) => d.open))) await page.click('#house-rules summary');
  for (const [name, value] of Object.entries(house)) {
    const field = page.locator(`#house-${name}`);
    const kind = await field.evaluate((e) => (e.type === 'checkbox' ? 'flag' : e.tagName === 'SELECT' ? 'one_of' : 'number'));
    if (kind === 'flag') await field.setChecked(value === '1');
    else if (kind === 'one_of') await field.selectOption(value);
    else await field.fill(value);
  }
}

/** Creates a room from the home page form (with `house` rules, see setHouseRules); returns the room id. */
export async function createRoom(page, { rules = 'playgridia', mode = 'individual', players, bots = [], timer = '30', preview = false, isPublic = true, house = null, pace = null } = {}) {
  await openCustomRoom(page);
  await page.selectOption('#rules', rules);
  await page.selectOption('#mode', mode);
  if (players) await page.selectOption('#players', String(players));
  for (let i = 0; i < bots.length; i++) await page.selectOption(`#bot-${i + 1}`, bots[i] || '');
  await page.selectOption('#timer', timer);
  if (pace) await page.selectOption('#bot-pace', pace);
  if (preview) await page.check('#preview');
  if (!isPublic) await page.uncheck('#public');
  // After the rule set and mode, which set the house rules back to that rule set's own.
  if (house) await setHouseRules(page, house);
  await page.click('#create-room');
  await page.waitForSelector('#seats li');
  // By its id (the address bar of a private room names it by its code, the link to share).
  return page.evaluate(() => window.__parchis.state.room.id);
}

export async function waitBoard(page, board = null) {
  await page.waitForSelector(board ? `svg.board[data-board="${board}"]` : 'svg.board', { timeout: 20000 });
}

/** Waits until the page's board matches the state it holds (after every update). */
export async function checkBoard(page, label) {
  // One evaluation reads both the DOM and the state, so bots moving meanwhile cannot race the check.
  const r = await page.evaluate(() => {
    const c = window.__parchis;
    const v = c && c.state && c.state.game && c.state.game.view;
    if (!v) return null;
    const attr = (p) => (p.at === undefined || p.at === null ? p.kind : `${p.kind}:${p.at}`);
    const drawn = [...document.querySelectorAll('svg.board [data-piece]')].map((e) => ({ id: e.getAttribute('data-piece'), place: e.getAttribute('data-place') }));
    const want = v.pieces.map((p) => ({ id: p.id, place: attr(p.place) }));
    return { drawn, want, board: document.querySelector('svg.board')?.getAttribute('data-board'), wantBoard: v.board, version: c.version };
  });
  assert.ok(r, 'page has a game state');
  const sort = (a) => [...a].sort((x, y) => x.id.localeCompare(y.id));
  assert.deepEqual(sort(r.drawn), sort(r.want), `board differs from state ${label}`);
  assert.equal(r.board, r.wantBoard);
  return r;
}

/**
 * If it is this page's turn, acts once (roll, or the first legal move) and waits for the change.
 * Returns true when it acted.
 */
export async function actOnce(page) {
  // Bots keep playing while we look, so the controls can be redrawn between finding a button and clicking
  // it: a button that went away is looked for again, a few times, as a person would.
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await pageState(page);
    if (!before || !before.state.game) return false;
    const roll = await page.$('#roll:not([disabled])');
    const move = await page.$('#moves button');
    if (!roll && !move) return false;
    try {
      await (move || roll).click({ timeout: 2000 });
    } catch (e) {
      if (/not attached|detached|Timeout/i.test(String(e && e.message))) continue;
      throw e;
    }
    await page.waitForFunction((v) => window.__parchis && window.__parchis.version > v, before.version, { timeout: 15000 });
    return true;
  }
  return false;
}

export async function isOver(page) {
  return page.evaluate(() => {
    const c = window.__parchis;
    return !!(c && c.state && c.state.game && c.state.game.view && (c.state.game.view.turn.phase === 'over' || c.state.room.status === 'finished'));
  });
}
