// The conformance corpus's trees and checks that need no node: module, so
// the browser test (browser-test/) runs them in Chromium exactly as the
// Node, Deno and Bun suites do: the case's tree in a MemoryFS, its injected
// faults, one engine over a switchable filesystem, and the pretty-printer
// the want.json sections are compared with.

import { MemoryFS } from '../index.js';

export const ORDER = ['dir', 'file', 'symlink'];

const decoder = new TextDecoder();
/** A path as a string: corpus entries hold Buffers (Node) or strings (the browser page). @param {string | Uint8Array} p */
const text = (p) => (typeof p === 'string' ? p : decoder.decode(p));

/** The case's tree in a MemoryFS mounted at "/". */
export function memTree(c) {
  const m = new MemoryFS();
  for (const kind of ORDER) {
    for (const e of c.entries) {
      if (e.type !== kind) continue;
      const p = text(e.path);
      if (kind === 'dir') m.mkdir(p);
      else if (kind === 'file') m.writeFile(p, new Uint8Array(e.data));
      else m.symlink(text(e.target), p);
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
  const str = (p) => (typeof p === 'string' ? p : decoder.decode(p));
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
