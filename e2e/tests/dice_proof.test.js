// The page's own dice proof (web/js/sha256.js, which the end screen and the replay run on a finished game)
// against the worked example of PROTOCOL.md §5: the published seed hashes to the published commitment and
// gives the published rolls, through both of its SHA-256s (crypto.subtle in a secure context, the script's
// own elsewhere). No browser needed: node runs the same module (crates/proof checks the same lines in Rust).
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { verifySeed, dieOf } from '../../crates/server/web/js/sha256.js';

/** The `seed`, `seed_hash` and `rolls` lines of the example in PROTOCOL.md §5. */
async function publishedExample() {
  const doc = await readFile(new URL('../../PROTOCOL.md', import.meta.url), 'utf8');
  const start = doc.indexOf('## 5. ');
  assert.ok(start >= 0, 'PROTOCOL.md has §5');
  const end = doc.indexOf('\n## ', start + 3);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const value = (label) => {
    const line = section.split('\n').find((l) => l.split(/\s+/)[0] === label);
    assert.ok(line, `§5's example has a ${label} line`);
    return line.trim().split(/\s+/).slice(1);
  };
  return { seed: value('seed').join(''), seedHash: value('seed_hash').join(''), rolls: value('rolls').map(Number) };
}

const secure = globalThis.isSecureContext;
afterEach(() => { globalThis.isSecureContext = secure; });

for (const [name, isSecure] of [['the script\'s own SHA-256', undefined], ['crypto.subtle', true]]) {
  test(`the published seed verifies and gives the published rolls (${name})`, async () => {
    globalThis.isSecureContext = isSecure;
    const { seed, seedHash, rolls } = await publishedExample();
    assert.equal(seed, [...Array(32).keys()].map((b) => b.toString(16).padStart(2, '0')).join(''));
    assert.equal(rolls.length, 12);
    assert.equal(await verifySeed(seed, seedHash), true);
    assert.equal(await verifySeed(seed, '00'.repeat(32)), false);
    const derived = [];
    for (let i = 0; i < rolls.length; i++) derived.push(await dieOf(seed, i));
    assert.deepEqual(derived, rolls);
  });
}
