// Landscape phones and tablets (issue 34): at 667×375, 844×390, 768×1024 and 1024×768 the game page has no
// sideways scroll, the whole board and, during the player's turn, the roll button and the legal moves are on
// the screen together, and every control and pickable piece is at least 24 × 24 CSS px (measured in the DOM).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot, pageState } from '../lib/checks.js';
import { waitBoard } from '../lib/flows.js';
import { measure, outOfView } from '../lib/layout.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const SCREENS = [
  { name: 'phone-landscape-667', width: 667, height: 375, touch: true },
  { name: 'phone-landscape-844', width: 844, height: 390, touch: true },
  { name: 'tablet-portrait-768', width: 768, height: 1024, touch: true },
  { name: 'tablet-landscape-1024', width: 1024, height: 768, touch: true },
];

for (const s of SCREENS) {
  test(`${s.width}×${s.height}: no sideways scroll, the board whole, the turn's controls in view, targets of 24 px`, { timeout: 120000 }, async () => {
    const { page, context } = await newPage(browser, { viewport: { width: s.width, height: s.height }, isMobile: s.touch, customRoom: null });
    await page.goto(`${srv.url}/`);
    await page.waitForSelector('#play-now');
    let m = await measure(page);
    assert.ok(m.scrollWidth <= m.viewport, `home page ${m.scrollWidth} px wide on a ${m.viewport} px screen`);
    assert.deepEqual(m.small, [], 'home page controls under 24 × 24 px');
    await page.tap('#play-now');
    await waitBoard(page, 'four');
    let sawMoves = false;
    for (let i = 0; i < 40 && !sawMoves; i++) {
      await page.waitForSelector('#roll:not([disabled]), #moves button', { timeout: 20000 });
      assert.deepEqual(await outOfView(page), [], `turn controls out of view at ${s.width}×${s.height}`);
      m = await measure(page);
      assert.ok(m.scrollWidth <= m.viewport, `game page ${m.scrollWidth} px wide on a ${m.viewport} px screen`);
      assert.ok(m.boardInView, `the board (${m.boardBox}) is not wholly on the ${m.viewport}×${m.height} screen`);
      assert.ok(m.board >= Math.min(m.viewport, m.height) * 0.6, `board ${m.board} px across on a ${m.viewport}×${m.height} screen`);
      assert.deepEqual(m.small, [], `game page controls under 24 × 24 px at ${s.width}×${s.height}`);
      if (await page.$('#moves button')) {
        sawMoves = true;
        await shot(page, `landscape-${s.name}`);
        break;
      }
      if (i === 0) await shot(page, `landscape-${s.name}-roll`);
      const before = (await pageState(page)).version;
      await page.tap('#roll');
      await page.waitForFunction((v) => window.__parchis.version > v, before, { timeout: 10000 });
    }
    assert.ok(sawMoves, 'a move was on offer within 40 turns');
    assertNoErrors(page);
    await context.close();
  });
}
