// The API documentation (/docs, Swagger UI) under its own Content-Security-Policy: the page is served
// from the game's origin, where players' tokens live, so it gets a strict policy (own scripts only, no
// inline script, no eval). Swagger UI must still draw every operation and run "Try it out".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors } from '../lib/checks.js';

let srv; let browser;
before(async () => { srv = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.stop(); });

test('the API documentation works under its content security policy: nothing refused, Try it out answers', { timeout: 60000 }, async () => {
  const p = await newPage(browser, { csp: true });
  const violations = [];
  p.page.on('console', (m) => { if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text()); });
  const missing = [];
  p.page.on('response', (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); });
  const resp = await p.page.goto(`${srv.url}/docs`);
  assert.match(resp.headers()['content-security-policy'], /script-src 'self';/);
  await p.page.waitForSelector('.opblock-summary-path');
  const paths = await p.page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.textContent.replace(/\u200b/g, '')));
  assert.ok(paths.includes('/api/rules'), paths.join(' '));
  // Open GET /api/rules, try it out and run it: the answer is shown.
  const rules = p.page.locator('.opblock-get', { has: p.page.locator('.opblock-summary-path[data-path="/api/rules"]') });
  await rules.locator('.opblock-summary').first().click();
  await rules.locator('button.try-out__btn').click();
  await rules.locator('button.execute').click();
  const status = rules.locator('.live-responses-table tr.response .response-col_status').first();
  await status.waitFor();
  assert.match(await status.textContent(), /200/);
  assert.deepEqual(violations, []);
  assert.deepEqual(missing, []);
  assertNoErrors(p.page);
  await p.context.close();
});
