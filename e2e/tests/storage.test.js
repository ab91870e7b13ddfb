// The server's database out of reach for a moment (another process holding SQLite's write lock): an
// automatic roll it refuses as storage_unavailable is said on the page, then tried again by itself and
// taken once the database is back, as the player would have done.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors } from '../lib/checks.js';
import { register, createRoom, waitBoard } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** Holds the database file's write lock from another process until `release()`. */
async function lockTheDatabase(file) {
  const script = [
    'import sqlite3, sys',
    'c = sqlite3.connect(sys.argv[1], isolation_level=None)',
    "c.execute('BEGIN EXCLUSIVE')",
    "print('locked', flush=True)",
    'sys.stdin.readline()',
    "c.execute('ROLLBACK')",
  ].join('\n');
  const proc = spawn('python3', ['-c', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => { if (String(d).includes('locked')) resolve(); });
    proc.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return () => new Promise((resolve) => { proc.once('exit', resolve); proc.stdin.end('\n'); });
}

test('an automatic roll refused while the database is out of reach is said, then rolled again once it is back', { timeout: 90000 }, async () => {
  const { page } = await newPage(browser);
  await register(page, srv.url, 'Rosa');
  await createRoom(page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await page.click('#start-game');
  await waitBoard(page, 'four');
  await page.waitForSelector('#roll:not([disabled])', { timeout: 20000 });
  const rolls = () => page.evaluate(() => window.__parchis.state.game.rolls);
  const before = await rolls();

  const release = await lockTheDatabase(path.join(srv.dir, 'e2e.db'));
  let released = false;
  try {
    await page.check('#auto-roll');
    // The roll waits out the server's busy timeout (5 s), then is refused: the page says why.
    await page.waitForFunction(() => /database/.test(document.querySelector('#room-error')?.textContent || ''), null, { timeout: 20000 });
    assert.equal(await rolls(), before, 'nothing was rolled');
    await release();
    released = true;
  } finally {
    if (!released) await release();
  }

  // Nobody touches the page: it rolls again by itself, the roll is taken, and the message goes.
  await page.waitForFunction((n) => window.__parchis.state.game.rolls > n, before, { timeout: 20000 });
  assert.equal(await page.textContent('#room-error'), '');
  assertNoErrors(page);
});
