// Page weight (issue 34): a first visit to the home page (nothing cached) transfers at most 141 KB, within 10 %
// of the ~128 KB measured when the issue was filed, counted as the browser received it (gzip as the server
// sends it, headers included) from Chromium's network events. BENCHMARKS.md ("Web client") keeps the figure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors } from '../lib/checks.js';

let srv; let browser;
before(async () => {
  srv = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const LIMIT = 141000;

test('a first visit to the home page transfers at most 141 KB', { timeout: 60000 }, async () => {
  const { page, context } = await newPage(browser, { viewport: { width: 375, height: 667 }, isMobile: true, customRoom: null });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map();
  const bytes = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, { url: e.response.url, encoding: e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '' }));
  cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
  await page.goto(`${srv.url}/`, { waitUntil: 'networkidle' });
  await page.waitForSelector('#play-now');
  await page.waitForTimeout(500);
  const files = [...bytes].map(([id, n]) => ({ n, ...(urls.get(id) || { url: id }) })).sort((a, b) => b.n - a.n);
  const total = files.reduce((s, f) => s + f.n, 0);
  const list = files.map((f) => `${f.n}\t${f.encoding || '-'}\t${f.url.replace(srv.url, '')}`).join('\n');
  console.log(`first visit: ${total} bytes in ${files.length} responses\n${list}`);
  // Text is sent compressed (a file too small to gain is allowed through as it is).
  for (const f of files) if (f.n > 2000 && /\.(js|css|html)$|\/$/.test(f.url)) assert.equal(f.encoding, 'gzip', `${f.url} sent uncompressed`);
  assert.ok(total <= LIMIT, `first visit ${total} bytes (limit ${LIMIT}):\n${list}`);
  assertNoErrors(page);
  await context.close();
});
