// Builds and starts the real server binary for the tests, on a free port with a fresh SQLite file.
// If the binary does not serve the web client itself (GET / is not our index.html), a small Node
// static server (lib/static.js) serves crates/server/web and proxies the API and the WebSocket.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStatic } from './static.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '..', '..');
export const OUT = path.join(REPO, 'target', 'e2e');
const BIN = path.join(process.env.CARGO_TARGET_DIR || path.join(REPO, 'target'), 'debug', 'parchis-server');

let built = false;
export function build() {
  if (built || process.env.E2E_SKIP_BUILD) return;
  execFileSync('cargo', ['build', '-q', '-p', 'parchis-server'], { cwd: REPO, stdio: 'inherit' });
  built = true;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

async function waitHealthy(url, ms = 20000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try { const r = await fetch(`${url}/healthz`); if (r.ok) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not become healthy`);
}

/** Starts a server; `env` adds variables. Returns {url, api, restart(), stop(), log}. */
export async function startServer(env = {}) {
  build();
  if (!existsSync(BIN)) throw new Error(`missing ${BIN}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parchis-e2e-'));
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const fullEnv = {
    ...process.env,
    PORT: String(port), BIND: '127.0.0.1',
    DATABASE_URL: `sqlite://${dir}/e2e.db?mode=rwc`,
    BOT_DELAY_MS: '60', AWAY_GRACE_SECS: '3', TURN_TIMEOUT_SECS: '30',
    RUST_LOG: process.env.RUST_LOG || 'warn',
    ...env,
  };
  const state = { proc: null, log: [] };
  const launchProc = async () => {
    const proc = spawn(BIN, [], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (d) => state.log.push(String(d)));
    proc.stderr.on('data', (d) => state.log.push(String(d)));
    state.proc = proc;
    await waitHealthy(api);
  };
  await launchProc();
  let url = api;
  let stat = null;
  const index = await fetch(`${api}/`).then((r) => r.text()).catch(() => '');
  if (!index.includes('/js/app.js')) {
    stat = await startStatic(api);
    url = stat.url;
  }
  const stopProc = () => new Promise((resolve) => {
    const p = state.proc;
    if (!p || p.exitCode !== null) { resolve(); return; }
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
    setTimeout(() => { if (p.exitCode === null) p.kill('SIGKILL'); }, 5000);
  });
  return {
    url, api, dir, servesWeb: !stat, log: state.log,
    /** Stops and starts the server process again on the same port and database. */
    restart: async () => { await stopProc(); await launchProc(); },
    stop: async () => { await stopProc(); if (stat) await stat.close(); },
  };
}

/** Whether the server speaks the room WebSocket (GET …/ws without upgrade is not a 404). */
export async function hasWebSocket(api) {
  const r = await fetch(`${api}/api/rooms/ZZZZZZ/ws`).catch(() => null);
  if (!r) return false;
  const body = await r.text();
  return !(r.status === 404 && /not_found"/.test(body) && !/room_not_found/.test(body));
}

/** REST helpers for tests (outside the browser). */
export function rest(api) {
  const call = async (method, p, body, token) => {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const r = await fetch(api + p, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await r.text();
    const json = text ? JSON.parse(text) : null;
    if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return json;
  };
  return {
    /** Any call: its JSON answer; an error status throws with the status and the body. */
    call,
    player: (name) => call('POST', '/api/players', { display_name: name }),
    /** A player with an account: username `name` in lower case, password "correct horse". */
    member: async (name) => {
      const p = await call('POST', '/api/players', { display_name: name });
      const account = await call('POST', '/api/account', { username: name.toLowerCase(), password: 'correct horse' }, p.token);
      return { ...p, username: account.username };
    },
    room: (id, token) => call('GET', `/api/rooms/${id}`, undefined, token),
    record: (id) => call('GET', `/api/games/${id}/record`),
    replay: (id) => call('GET', `/api/games/${id}/replay`),
    analysis: (id, seq) => call('GET', `/api/games/${id}/analysis?seq=${seq}`),
    createRoom: (body, token) => call('POST', '/api/rooms', body, token),
    join: (id, token, body = {}) => call('POST', `/api/rooms/${id}/join`, body, token),
    start: (id, token) => call('POST', `/api/rooms/${id}/start`, undefined, token),
    report: (id, seq, token, reason = '') => call('POST', `/api/rooms/${id}/chat/${seq}/report`, { reason }, token),
    /** The host's list of reported messages (`adminToken`: the server's ADMIN_TOKEN). */
    reports: (adminToken) => call('GET', '/api/admin/reports', undefined, adminToken),
  };
}
