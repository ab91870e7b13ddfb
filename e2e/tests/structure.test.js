// The web client's shape, as issue 31 asks of it: no line of a web file over 1,000 characters (one key a
// line, one text a line), no import cycle between its modules, and its state reachable by the tests only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, rest } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';

const WEB = fileURLToPath(new URL('../../crates/server/web/', import.meta.url));
const TEXT = /\.(js|css|html|svg|json|webmanifest)$/;

/** Every file under `dir`, as paths relative to the web folder. */
function files(dir = WEB) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [path.relative(WEB, full)];
  });
}

test('no line of a web file is over 1,000 characters', () => {
  const texts = files().filter((f) => TEXT.test(f));
  assert.ok(texts.length > 20, `only ${texts.length} files: the walk is broken`);
  const long = texts.flatMap((f) => readFileSync(path.join(WEB, f), 'utf8').split('\n')
    .map((line, i) => ({ at: `${f}:${i + 1}`, length: line.length })).filter((l) => l.length > 1000));
  assert.deepEqual(long, []);
});

/** The `./…` modules a module imports or re-exports (static or dynamic), as paths relative to the web folder. */
function imports(file) {
  const source = readFileSync(path.join(WEB, file), 'utf8');
  const specs = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
    .map((m) => m[1] || m[2] || m[3]);
  return specs.map((s) => path.normalize(path.join(path.dirname(file), s)));
}

/** A cycle of the import graph from `entry` (["a.js", "b.js", "a.js"]), or null. */
function findCycle(entry) {
  const state = new Map(); // file → 'open' while on the path, 'done' after
  const trail = [];
  const visit = (file) => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file];
    state.set(file, 'open');
    trail.push(file);
    for (const next of imports(file)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(file, 'done');
    return null;
  };
  return visit(entry);
}

test('the JavaScript modules import each other without a cycle', () => {
  const modules = files().filter((f) => f.endsWith('.js'));
  // The scan sees the imports (a regression of the pattern would find none and pass for nothing).
  assert.ok(imports('js/app.js').includes(path.normalize('js/room.js')), imports('js/app.js').join(' '));
  assert.ok(imports('js/i18n.js').includes(path.normalize('js/i18n/fr.js')), imports('js/i18n.js').join(' '));
  for (const entry of modules) {
    const cycle = findCycle(entry);
    assert.equal(cycle, null, cycle && `import cycle: ${cycle.join(' → ')}`);
  }
});

test('a player\'s page keeps its state to itself: window.__parchis is for the tests\' pages only', { timeout: 60000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  try {
    const api = rest(srv.api);
    const ana = await api.player('Ana');
    const room = await api.createRoom({ rules: 'playgridia', mode: 'individual', players: 2, bots: [null, 'greedy'], turn_time_secs: null, public: true }, ana.token);
    await api.start(room.id, ana.token);
    // A browser as a player has it: no test harness.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${srv.url}/room/${room.id}`);
    await page.waitForSelector('svg.board [data-piece]', { timeout: 20000 });
    assert.equal(await page.evaluate(() => typeof window.__parchis), 'undefined');
    await context.close();
    // The tests' pages (e2e/lib/browser.js) reach it.
    const test = await newPage(browser);
    await test.page.goto(`${srv.url}/room/${room.id}`);
    await test.page.waitForSelector('svg.board [data-piece]', { timeout: 20000 });
    assert.equal(await test.page.evaluate(() => window.__parchis.state.room.id), room.id);
    await test.context.close();
  } finally { await browser.close(); await srv.stop(); }
});
