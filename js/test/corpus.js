// The conformance corpus loader for the JS drivers, written from
// testdata/conformance/README.md (which wins over this file and over
// internal/corpus when they disagree).

import fs from 'node:fs';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import { MemoryFS } from '../index.js';

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

const ORDER = ['dir', 'file', 'symlink'];

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

/** The case's tree in a MemoryFS mounted at "/". */
export function memTree(c) {
  const m = new MemoryFS();
  for (const kind of ORDER) {
    for (const e of c.entries) {
      if (e.type !== kind) continue;
      const p = e.path.toString('utf8');
      if (kind === 'dir') m.mkdir(p);
      else if (kind === 'file') m.writeFile(p, new Uint8Array(e.data));
      else m.symlink(e.target.toString('utf8'), p);
    }
  }
  return m;
}

/**
 * fs with the case's faults: op on exactly that path fails with that code; a
 * readFile fault also fails readFileInto. Keeps bytePaths and the presence
 * of readFileInto.
 */
export function withFaults(inner, faults) {
  if (!faults.length) return inner;
  const key = new Map(faults.map((f) => [`${f.op} ${f.path}`, f.code]));
  const str = (p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'));
  const check = (op, p) => {
    const code = key.get(`${op} ${str(p)}`);
    if (code) throw Object.assign(new Error(`${code}: injected ${op} ${str(p)}`), { code });
  };
  const out = {
    bytePaths: inner.bytePaths,
    readDir: (p) => (check('readDir', p), inner.readDir(p)),
    stat: (p) => (check('stat', p), inner.stat(p)),
    lstat: (p) => (check('lstat', p), inner.lstat(p)),
    readFile: (p) => (check('readFile', p), inner.readFile(p)),
    realpath: (p) => (check('realpath', p), inner.realpath(p)),
  };
  if (typeof inner.readFileInto === 'function') out.readFileInto = (p, b) => (check('readFile', p), inner.readFileInto(p, b));
  return out;
}

/** A FileSystem that forwards to .current (so one engine serves every case). */
export function switchFS(bytePaths) {
  const s = {
    current: null,
    bytePaths,
    readDir: (p) => s.current.readDir(p),
    stat: (p) => s.current.stat(p),
    lstat: (p) => s.current.lstat(p),
    readFile: (p) => s.current.readFile(p),
    readFileInto: (p, b) => s.current.readFileInto(p, b),
    realpath: (p) => s.current.realpath(p),
  };
  return s;
}

/**
 * Pretty-print compact JSON the way JSON.stringify(x, null, 2) and Go's
 * json.Indent do, without re-parsing (so every byte of the engine's output
 * is checked), plus a final newline.
 * @param {string} s
 */
export function indent(s) {
  let out = '';
  let depth = 0;
  const nl = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"') {
      let j = i + 1;
      while (s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      out += s.slice(i, j + 1);
      i = j;
    } else if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      if (s[i + 1] === close) {
        out += ch + close;
        i++;
      } else {
        depth++;
        out += ch + nl();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += nl() + ch;
    } else if (ch === ',') out += ',' + nl();
    else if (ch === ':') out += ': ';
    else out += ch;
  }
  return out + '\n';
}
