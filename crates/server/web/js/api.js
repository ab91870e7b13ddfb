// REST client and the locally stored identity (player id + token).

import { errorText } from './i18n.js';

const KEY = 'parchis.player';

export function me() {
  try { return JSON.parse(localStorage.getItem(KEY) || 'null'); } catch { return null; }
}
export function forget() { localStorage.removeItem(KEY); }

export class ApiError extends Error {
  constructor(status, body) {
    super(errorText(body && body.code, (body && body.message) || `HTTP ${status}`, body && body.reason));
    this.status = status;
    this.code = body && body.code;
  }
}

/** `auth`: true sends the player's token, false none, a string that token (the host's admin token).
 * `extra`: more request headers. */
async function call(method, path, body, auth = true, extra = {}) {
  const headers = { accept: 'application/json', ...extra };
  const who = typeof auth === 'string' ? null : me();
  if (typeof auth === 'string') { if (auth) headers.authorization = `Bearer ${auth}`; }
  else if (auth && who && who.token) headers.authorization = `Bearer ${who.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { code: 'network', message: e.message });
  }
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  // The server no longer knows our token (an account's device signed out from another, or unused for too
  // long, or the database was reset, or moved): forget the identity, so the page asks for a name again
  // (or the password) instead of failing (and reconnecting) for ever.
  const dead = json && (json.code === 'invalid_token' || json.code === 'session_expired');
  if (res.status === 401 && dead && auth && who && me() && me().token === who.token) {
    forget();
    const why = json.code === 'session_expired' ? 'expired' : who.username ? 'revoked' : undefined;
    window.dispatchEvent(new CustomEvent('parchis:signed-out', { detail: why }));
  }
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

/** A fresh Idempotency-Key: a random UUID (crypto.randomUUID needs a secure page; its numbers do not). */
function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** A POST that creates something (a room, a player): sent with an Idempotency-Key, and sent once more with
 * the same key after a `503` or a lost answer, so that the retry gets the room the first one may have made
 * rather than a second one (PROTOCOL.md). */
async function create(path, body, auth = true) {
  const extra = { 'idempotency-key': newKey() };
  try {
    return await call('POST', path, body, auth, extra);
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 503 && e.status !== 0)) throw e;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return call('POST', path, body, auth, extra);
  }
}

export async function register(displayName) {
  const p = await create('/api/players', { display_name: displayName }, false);
  localStorage.setItem(KEY, JSON.stringify({ id: p.id, display_name: p.display_name, token: p.token }));
  return p;
}

/** Another name for the same player (same token, seats and games); the stored identity follows. */
export async function rename(displayName) {
  const who = me();
  const p = await call('PATCH', '/api/players/me', { display_name: displayName });
  if (who) localStorage.setItem(KEY, JSON.stringify({ ...who, display_name: p.display_name }));
  return p;
}

/** A username and password for this player, to sign in as them on other devices. */
export async function createAccount(username, password) {
  const p = await call('POST', '/api/account', { username, password });
  const who = me();
  if (who) localStorage.setItem(KEY, JSON.stringify({ ...who, username: p.username }));
  return p;
}

/** Signs in: this device becomes the account's player, with a token of its own. */
export async function signIn(username, password) {
  const p = await call('POST', '/api/sessions', { username, password }, false);
  localStorage.setItem(KEY, JSON.stringify({ id: p.id, display_name: p.display_name, token: p.token, username: p.username }));
  return p;
}

/** A new password (given the current one); the server signs this player's other devices out. */
export async function changePassword(password, newPassword) {
  await call('PATCH', '/api/account', { password, new_password: newPassword });
}

/** Signs this device out (its token stops working) and forgets the identity here. */
export async function signOut() {
  await call('DELETE', '/api/sessions/current');
  forget();
}

/** Signs every other device of this account out (this one stays signed in); how many were. */
export async function signOutOthers() {
  const r = await call('DELETE', '/api/sessions/others');
  return r.signed_out;
}

/** `{devices, signed_out_after_days}`: the devices signed in to this account, most recently used first
 * (`current`: this one), and after how many days unused one is signed out by itself (`null`: never). */
export async function devices() {
  return call('GET', '/api/sessions');
}

/** Signs one device of this account out by its id (a lost phone): its token stops working at once. */
export async function signOutDevice(id) {
  await call('DELETE', `/api/sessions/${encodeURIComponent(id)}`);
}

/** Everything the server keeps about this player, as a JSON file the browser saves. */
export async function downloadMyData() {
  const data = await call('GET', '/api/players/me/export');
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `parchis-data-${data.player.id}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Erases this player for good (name, account, chat messages, every device) and forgets it here.
 * `password`: an account's current password (a guest has none, and sends no body). */
export async function eraseMe(password) {
  await call('DELETE', '/api/players/me', password === undefined ? undefined : { password });
  forget();
}

/** Brings the stored name and username up to date (renamed or signed up on another device). */
export async function refreshMe() {
  const who = me();
  if (!who) return false;
  const p = await call('GET', '/api/players/me');
  const now = me();
  if (!now || now.token !== who.token) return false;
  const changed = now.display_name !== p.display_name || (now.username || null) !== (p.username || null);
  if (changed) localStorage.setItem(KEY, JSON.stringify({ ...now, display_name: p.display_name, username: p.username || undefined }));
  return changed;
}

/** The bot levels the server plays, weakest first (`random`, `greedy`, `expert`: easy, medium, hard). */
export const BOT_LEVELS = ['random', 'greedy', 'expert'];

export const api = {
  rules: () => call('GET', '/api/rules', undefined, false),
  createRoom: (req) => create('/api/rooms', req),
  listRooms: () => call('GET', '/api/rooms', undefined, false),
  listGames: () => call('GET', '/api/rooms?status=playing', undefined, false),
  room: (idOrCode) => call('GET', `/api/rooms/${encodeURIComponent(idOrCode)}`),
  join: (id, body = {}) => call('POST', `/api/rooms/${encodeURIComponent(id)}/join`, body),
  leave: (id) => call('POST', `/api/rooms/${encodeURIComponent(id)}/leave`),
  addLocal: (id, name, seat) => create(`/api/rooms/${encodeURIComponent(id)}/local-players`,
    seat === undefined ? { display_name: name } : { display_name: name, seat }),
  removeLocal: (id, seat) => call('DELETE', `/api/rooms/${encodeURIComponent(id)}/local-players/${seat}`),
  /** The owner's seat controls: `bot` a level, or `null` to take the bot out. */
  setSeatBot: (id, seat, bot) => call('PUT', `/api/rooms/${encodeURIComponent(id)}/seats/${seat}`, { bot }),
  removePlayer: (id, seat) => call('DELETE', `/api/rooms/${encodeURIComponent(id)}/seats/${seat}`),
  start: (id) => call('POST', `/api/rooms/${encodeURIComponent(id)}/start`),
  quickMatch: (req) => create('/api/quick-match', req),
  rematch: (id) => create(`/api/rooms/${encodeURIComponent(id)}/rematch`),
  myRooms: () => call('GET', '/api/players/me/rooms'),
  myStats: () => call('GET', '/api/players/me/stats'),
  playerStats: (username) => call('GET', `/api/accounts/${encodeURIComponent(username)}/stats`, undefined, false),
  ratingHistory: (username, rules = 'playgridia') => call('GET', `/api/accounts/${encodeURIComponent(username)}/ratings?rules=${encodeURIComponent(rules)}`, undefined, false),
  /** `by`: `wins` (most wins in the period) or `rating` (best non-provisional rating, played in the period). */
  leaderboard: (rules, days = 30, by = 'wins') => call('GET', `/api/leaderboard?rules=${encodeURIComponent(rules)}&days=${days}&by=${encodeURIComponent(by)}`, undefined, false),
  // With the token: the record of a private room's running game is only for its players.
  record: (gameId) => call('GET', `/api/games/${encodeURIComponent(gameId)}/record`),
  replay: (gameId) => call('GET', `/api/games/${encodeURIComponent(gameId)}/replay`),
  reportMessage: (roomId, seq, reason = '') => call('POST', `/api/rooms/${encodeURIComponent(roomId)}/chat/${encodeURIComponent(seq)}/report`, { reason }),
  analysis: (gameId, seq) => call('GET', `/api/games/${encodeURIComponent(gameId)}/analysis?seq=${encodeURIComponent(seq)}`, undefined, false),
};

/** The host's moderation, with the server's admin token (`''`: none, to learn whether moderation is on). */
export const admin = {
  reports: (token) => call('GET', '/api/admin/reports', undefined, token),
  dismiss: (token, roomId, seq) => call('DELETE', `/api/admin/reports/${encodeURIComponent(roomId)}/${encodeURIComponent(seq)}`, undefined, token),
  erasePlayer: (token, playerId) => call('DELETE', `/api/admin/players/${encodeURIComponent(playerId)}`, undefined, token),
};
