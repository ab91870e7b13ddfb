// A tiny static server for the web client and the fixtures, proxying API and WebSocket requests to the
// real server. Used only when the server binary does not (yet) serve the client itself, and for the
// board dev page (/fixtures/dev.html).
import http from 'node:http';
import net from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = path.resolve(here, '..', '..', 'crates', 'server', 'web');
const FIXTURES = path.resolve(here, '..', 'fixtures');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};
const API = /^\/(api|healthz|readyz|metrics|api-docs|swagger|ws)(\/|$|\?)/;

async function file(root, rel) {
  const p = path.resolve(root, '.' + rel);
  if (!p.startsWith(root)) return null;
  try { if ((await stat(p)).isFile()) return { body: await readFile(p), type: TYPES[path.extname(p)] || 'application/octet-stream' }; } catch { /* none */ }
  return null;
}

/** Starts the server; `upstream` is `http://127.0.0.1:PORT` of the real server (optional). */
export function startStatic(upstream) {
  const up = upstream ? new URL(upstream) : null;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (up && API.test(url.pathname)) {
      const preq = http.request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers }, (pres) => {
        res.writeHead(pres.statusCode, pres.headers);
        pres.pipe(res);
      });
      preq.on('error', () => { res.writeHead(502); res.end('upstream down'); });
      req.pipe(preq);
      return;
    }
    let f = url.pathname.startsWith('/fixtures/') ? await file(FIXTURES, url.pathname.slice('/fixtures'.length)) : await file(WEB_DIR, url.pathname);
    if (!f && !path.extname(url.pathname)) f = await file(WEB_DIR, '/index.html');
    if (!f) { res.writeHead(404); res.end('not found'); return; }
    res.writeHead(200, { 'content-type': f.type, 'cache-control': 'no-store' });
    res.end(f.body);
  });
  server.on('upgrade', (req, socket, head) => {
    if (!up) { socket.destroy(); return; }
    const conn = net.connect(Number(up.port), up.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      conn.write(lines.join('\r\n') + '\r\n\r\n');
      if (head && head.length) conn.write(head);
      conn.pipe(socket);
      socket.pipe(conn);
    });
    conn.on('error', () => socket.destroy());
    socket.on('error', () => conn.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await startStatic(process.argv[2]);
  console.log(`serving ${WEB_DIR} at ${s.url} (dev page: ${s.url}/fixtures/dev.html)`);
}
