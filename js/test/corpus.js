// The conformance corpus loader for the JS drivers, written from
// testdata/conformance/README.md (which wins over this file and over
// internal/corpus when they disagree).

import fs from 'node:fs';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import { ORDER } from './corpus-tree.js';

export const corpusDir = fileURLToPath(new URL('../../testdata/conformance/', import.meta.url));

const OPS = ['readDir', 'stat', 'lstat', 'readFile', 'realpath'];
const WS = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

/** The section name of a marker line, or null. @param {Buffer} line */
function markerName(line) {
  if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
  if (line.length < 6) return null;
  if (line.toString('latin1', 0, 3) !== '-- ' || line.toString('latin1', line.length - 3) !== ' --') return null;
  let a = 3;
  let b = line.length - 3;
  while (a < b && WS.has(line[a])) a++;
  while (b > a && WS.has(line[b - 1])) b--;
  return a < b ? line.subarray(a, b) : null;
}

/**
 * Split a txtar archive: {comment, files: [{name: Buffer, data: Buffer, line}]}.
 * @param {Buffer} data
 */
export function parseTxtar(data) {
  const lines = [];
  for (let i = 0; i < data.length; ) {
    const j = data.indexOf(0x0a, i);
    const end = j < 0 ? data.length : j + 1;
    lines.push(data.subarray(i, end));
    i = end;
  }
  const fix = (chunks) => {
    let b = Buffer.concat(chunks);
    if (b.length > 0 && b[b.length - 1] !== 0x0a) b = Buffer.concat([b, Buffer.from('\n')]);
    return b;
  };
  let comment = [];
  const files = [];
  let cur = null;
  lines.forEach((l, i) => {
    const body = l[l.length - 1] === 0x0a ? l.subarray(0, l.length - 1) : l;
    const name = markerName(body);
    if (name) {
      if (cur) cur.data = fix(cur.chunks);
      cur = { name, chunks: [], line: i + 1 };
      files.push(cur);
    } else if (cur) cur.chunks.push(l);
    else comment.push(l);
  });
  if (cur) cur.data = fix(cur.chunks);
  return { comment: fix(comment).toString('utf8'), files: files.map(({ name, data, line }) => ({ name, data, line })) };
}

/**
 * Load one case: {name, rules, faults, request, want, entries}.
 * Entry paths are Buffers of the absolute virtual path.
 */
export function loadCase(file) {
  const { comment, files } = parseTxtar(fs.readFileSync(file));
  const name = path.basename(file, '.txtar');
  const c = { name, file, rules: [], faults: [], request: null, want: null, entries: [] };
  let rules = 0;
  comment.split('\n').forEach((raw, i) => {
    const line = raw.replace(/[ \t\r]+$/, '');
    if (line.startsWith('rules:')) {
      rules++;
      c.rules = line.slice(6).trim().split(/[ \t]+/).filter(Boolean);
      if (!c.rules.length || !c.rules.every((r) => /^S[0-9]+$/.test(r))) throw new Error(`${file}:${i + 1}: bad rules: line`);
    } else if (line.startsWith('fault:')) {
      const f = line.slice(6).trim().split(/\s+/);
      if (f.length !== 3 || !OPS.includes(f[0]) || !f[1].startsWith('/') || !/^E[A-Z0-9]+$/.test(f[2])) {
        throw new Error(`${file}:${i + 1}: bad fault: line`);
      }
      c.faults.push({ op: f[0], path: f[1], code: f[2] });
    }
  });
  if (rules !== 1) throw new Error(`${file}:1: want exactly one rules: line`);
  for (const f of files) {
    const n = f.name.toString('utf8');
    if (n === 'request.json') c.request = f.data;
    else if (n === 'want.json') c.want = f.data;
    else if (f.name.includes(' -> ')) {
      const i = f.name.indexOf(' -> ');
      c.entries.push({ type: 'symlink', path: Buffer.concat([Buffer.from('/'), f.name.subarray(0, i)]), target: f.name.subarray(i + 4) });
    } else if (n.endsWith('/')) {
      c.entries.push({ type: 'dir', path: Buffer.concat([Buffer.from('/'), f.name.subarray(0, f.name.length - 1)]) });
    } else {
      c.entries.push({ type: 'file', path: Buffer.concat([Buffer.from('/'), f.name]), data: f.data });
    }
  }
  if (!c.request) throw new Error(`${file}:1: missing -- request.json --`);
  return c;
}

/** Every case, in byte order of file names. */
export function loadCorpus(dir = corpusDir) {
  const names = fs.readdirSync(dir).filter((n) => n.endsWith('.txtar')).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return names.map((n) => loadCase(path.join(dir, n)));
}


/** The UTF-8 string of a name (corpus names are UTF-8; the README allows any Unicode). */
function utf8(b) {
  const s = b.toString('utf8');
  if (Buffer.compare(Buffer.from(s), b) !== 0) throw new Error(`name is not valid UTF-8: ${b.toString('hex')}`);
  return s;
}

/** Write the case's tree under the host directory root (README, "Running a case"). */
export function writeTree(c, root) {
  for (const kind of ORDER) {
    for (const e of c.entries) {
      if (e.type !== kind) continue;
      const h = root + utf8(e.path);
      if (kind === 'dir') {
        fs.mkdirSync(h, { recursive: true });
        continue;
      }
      fs.mkdirSync(path.dirname(h), { recursive: true });
      if (kind === 'file') fs.writeFileSync(h, e.data);
      else {
        const t = utf8(e.target);
        fs.symlinkSync(t.startsWith('/') ? root + t : t, h);
      }
    }
  }
}

// The parts a browser can run too (no node: imports) live in corpus-tree.js.
export { memTree, withFaults, switchFS, indent } from './corpus-tree.js';
