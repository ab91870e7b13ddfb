// Launches Debian's Chromium through playwright-core (never downloads a browser).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * A page that records console errors and page errors into `page.errors`. The server's Content
 * Security Policy forbids evaluating strings as script, which Playwright's polling waits need; pages
 * bypass it unless `csp` is set (the test that checks the client under its real policy sets it).
 * `colorScheme` is the device's light or dark setting the page sees (prefers-color-scheme); `userAgent`,
 * when given, the `User-Agent` it sends (what an account's list of devices calls it); `reducedMotion`
 * 'reduce' the device's wish for reduced motion; `autoMove` leaves the page's auto-move on; `customRoom` null
 * shows the home page as on a first visit (its "Create a room" folded on a phone).
 */
export async function newPage(browser, { viewport = { width: 1280, height: 800 }, locale = 'en-GB', isMobile = false, csp = false, colorScheme = 'light', userAgent, autoMove = false, reducedMotion, customRoom = 'open' } = {}) {
  const context = await browser.newContext({ viewport, locale, isMobile, hasTouch: isMobile, deviceScaleFactor: isMobile ? 2 : 1, bypassCSP: !csp, colorScheme, userAgent, reducedMotion });
  // Auto-move (on for players) is off unless a test asks for it: the tests that pick each move themselves stay
  // in charge of a turn with one legal move. The player's own choice, once made on the page, is kept.
  // The home page's "Create a room" opened, as a player who creates rooms keeps it, unless a test wants the
  // first visit's page (customRoom: null).
  if (customRoom) await context.addInitScript((v) => { if (localStorage.getItem('parchis.customRoom') === null) localStorage.setItem('parchis.customRoom', v); }, customRoom);
  if (!autoMove) await context.addInitScript(() => { if (localStorage.getItem('parchis.autoMove') === null) localStorage.setItem('parchis.autoMove', '0'); });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  return { context, page };
}
