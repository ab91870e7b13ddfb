// RFC 6902 JSON Patch, applied in place (returns the possibly replaced root).

function unescape(s) { return s.replace(/~1/g, '/').replace(/~0/g, '~'); }
function parse(path) { return path === '' ? [] : path.split('/').slice(1).map(unescape); }

function getAt(doc, tokens) {
  let cur = doc;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object') throw new Error(`bad path at ${t}`);
    cur = Array.isArray(cur) ? cur[t === '-' ? cur.length : Number(t)] : cur[t];
  }
  return cur;
}

function clone(v) { return v === undefined ? v : JSON.parse(JSON.stringify(v)); }

export function applyPatch(doc, ops) {
  for (const op of ops) {
    const tokens = parse(op.path);
    if (op.op === 'test') {
      if (JSON.stringify(getAt(doc, tokens)) !== JSON.stringify(op.value)) throw new Error(`test failed at ${op.path}`);
      continue;
    }
    let value;
    if (op.op === 'move' || op.op === 'copy') {
      const from = parse(op.from);
      value = clone(getAt(doc, from));
      if (op.op === 'move') doc = remove(doc, from);
      doc = add(doc, tokens, value);
      continue;
    }
    if (op.op === 'remove') { doc = remove(doc, tokens); continue; }
    if (op.op === 'add') { doc = add(doc, tokens, clone(op.value)); continue; }
    if (op.op === 'replace') {
      if (!tokens.length) { doc = clone(op.value); continue; }
      const parent = getAt(doc, tokens.slice(0, -1));
      const key = tokens[tokens.length - 1];
      if (Array.isArray(parent)) parent[Number(key)] = clone(op.value); else parent[key] = clone(op.value);
      continue;
    }
    throw new Error(`unknown op ${op.op}`);
  }
  return doc;
}

function add(doc, tokens, value) {
  if (!tokens.length) return value;
  const parent = getAt(doc, tokens.slice(0, -1));
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    if (key === '-') parent.push(value); else parent.splice(Number(key), 0, value);
  } else parent[key] = value;
  return doc;
}

function remove(doc, tokens) {
  const parent = getAt(doc, tokens.slice(0, -1));
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
  return doc;
}
