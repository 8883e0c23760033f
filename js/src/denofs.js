// @ts-check
// The default filesystem under Deno: Deno's own synchronous
// calls where they are cheaper than its node:fs, whose Stats objects
// (nodeFsStatToFileInfo, defineStatExtraProps, ...) were a fifth of a warm
// discovery: a node:fs fstatSync took 17-21 us there, Deno.statSync 3-5.
//
// Paths travel as bytes (bytePaths), as in nodefs.js. A path or name that
// is not UTF-8 cannot be spelt in Deno's string APIs: such calls go to the
// node:fs filesystem (nodefs.js), which passes the bytes through.
//
// readFileWithin (SPEC S44, wasm/ABI.md#read_file_within) opens with
// node:fs, whose descriptors are the kernel's under Deno 2, and asks the
// kernel about the file opened: Deno.readLinkSync of /proc/self/fd/N is its
// realpath, which must lie inside within; then it reads at offset 0, and
// only when that read does not settle it (nodefs.js readNamedWithin),
// Deno.statSync of /proc/self/fd/N (stat follows that link to the open
// file itself: 3-5 us, where node:fs's fstatSync costs 12-20) gives its
// type and size. Where /proc cannot be read (another system, or
// --allow-read without it) the node:fs filesystem's check is used.

import { createRequire } from 'node:module';
import { createNodeFS, readSettled } from './nodefs.js';

// node:buffer through require, as in platform/deno.js: Node loads this file
// too (platform/current.js) and would build the built-in's ES module face.
/** @type {typeof import('node:buffer')} */
const { Buffer } = createRequire(import.meta.url.startsWith('file:') ? import.meta.url : 'file:///')('node:buffer');

/**
 * @param {any} e
 * @param {string} code
 */
const withCode = (e, code) => Object.assign(e instanceof Error ? e : new Error(String(e)), { code });

/**
 * @param {{isFile: boolean, isDirectory: boolean, isSymlink: boolean}} s
 * @returns {'file' | 'dir' | 'symlink' | 'other'}
 */
const kind = (s) => (s.isFile ? 'file' : s.isDirectory ? 'dir' : s.isSymlink ? 'symlink' : 'other');

const LOSSY = '\uFFFD';

/** The most paths createDenoFS remembers as missing (missingError); then it forgets them all. */
const MISSING_KEEP = 4096;

/**
 * A FileSystem over Deno's synchronous calls.
 * @param {any} Deno the Deno namespace
 * @param {typeof import('node:fs')} nodefs Deno's node:fs
 * @returns {import('../index.js').FileSystem}
 */
export function createDenoFS(Deno, nodefs) {
  const viaNode = createNodeFS(nodefs, {}, nodefs);
  const nodeOps = /** @type {any} */ (viaNode);
  const strict = new TextDecoder('utf-8', { fatal: true });
  const encoder = new TextEncoder();
  const openFlags = nodefs.constants.O_RDONLY | (nodefs.constants.O_NONBLOCK ?? 0);
  const probe = new Uint8Array(8);
  /** @type {Set<string>} paths whose open failed with ENOENT (a group folder's SKILL.md): stat is asked first (missingError) */
  const missing = new Set();
  let procFD = true; // /proc/self/fd can be read; false once it cannot

  /**
   * The path as a string, or null when its bytes are not UTF-8.
   * @param {Uint8Array} p
   */
  const text = (p) => {
    // Buffer's decoder is Deno's quickest (0.1 us for a path against 0.8
    // for a fatal TextDecoder's), and a string without U+FFFD came from
    // valid UTF-8; one with it is decided by the strict decoder.
    const s = Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('utf8');
    if (!s.includes(LOSSY)) return s;
    try {
      return strict.decode(p);
    } catch {
      return null;
    }
  };

  /**
   * Whether the path real (text) lies inside within (bytes).
   * @param {string} real @param {Uint8Array} within
   */
  const inside = (real, within) => {
    const r = encoder.encode(real);
    if (within.length === 1 && within[0] === 0x2f) return r.length > 0 && r[0] === 0x2f;
    if (r.length < within.length || (r.length > within.length && r[within.length] !== 0x2f)) return false;
    for (let i = 0; i < within.length; i++) if (r[i] !== within[i]) return false;
    return true;
  };

  /**
   * Whether the path real (text) lies inside within (bytes), without
   * encoding real when it is ASCII (a path almost always is).
   * @param {string} real @param {Uint8Array} within
   */
  const insideText = (real, within) => {
    const n = real.length;
    const m = within.length;
    for (let i = 0; i < n; i++) if (real.charCodeAt(i) >= 0x80) return inside(real, within);
    if (m === 1 && within[0] === 0x2f) return n > 0 && real.charCodeAt(0) === 0x2f;
    if (n < m || (n > m && real.charCodeAt(m) !== 0x2f)) return false;
    for (let i = 0; i < m; i++) if (real.charCodeAt(i) !== within[i]) return false;
    return true;
  };

  /**
   * The size of the open file named proc (/proc/self/fd/N: stat follows
   * it to the file opened), checked as a regular file.
   * @param {string} proc
   */
  const regular = (proc) => {
    const st = Deno.statSync(proc);
    if (st.isDirectory) throw withCode(new Error('EISDIR: illegal operation on a directory'), 'EISDIR');
    if (!st.isFile) throw withCode(new Error('EINVAL: not a regular file'), 'EINVAL');
    return st.size;
  };

  /**
   * For a path whose open failed with ENOENT before: Deno.statSync of it,
   * whose error is the open's (both resolve the whole path, following
   * links) and is made by Deno (about 20 us), where node:fs's openSync
   * builds its own with a full stack trace whatever Error.stackTraceLimit
   * says (120 us and more with the module's frames on the stack: a warm
   * 1,000-skill discovery meets about 12 such paths). It throws
   * that error with its code; when stat finds the path, or its error has
   * no code, it returns and the file is opened as any other.
   * @param {string} s
   */
  const missingError = (s) => {
    let e;
    try {
      Deno.statSync(s);
    } catch (err) {
      e = err;
    }
    const code = /** @type {any} */ (e)?.code;
    if (typeof code !== 'string') {
      missing.delete(s);
      return;
    }
    throw withCode(new Error(`${code}: open '${s}'`), code);
  };

  /**
   * The kind of p by Deno's statSync or lstatSync (denoStat), null when it
   * is missing (as nodefs.js: missing is no error); a path that is not
   * UTF-8 by node:fs (viaNode).
   * @param {Uint8Array} p @param {(s: string) => any} denoStat
   * @param {(p: Uint8Array) => 'file' | 'dir' | 'symlink' | 'other' | null} viaNode
   */
  const kindOf = (p, denoStat, viaNode) => {
    const s = text(p);
    if (s === null) return viaNode(p);
    try {
      return kind(denoStat(s));
    } catch (e) {
      if (/** @type {any} */ (e)?.code === 'ENOENT') return null;
      throw e;
    }
  };

  /** @type {import('../index.js').FileSystem} */
  const fsys = {
    bytePaths: true,

    readDir(p) {
      const s = text(p);
      if (s === null) return nodeOps.readDir(p);
      const out = [];
      for (const e of Deno.readDirSync(s)) {
        if (e.name.includes(LOSSY)) return nodeOps.readDir(p); // a name that is not UTF-8: its bytes
        out.push({ name: e.name, type: kind(e) });
      }
      return out;
    },

    stat: (p) => kindOf(p, Deno.statSync, nodeOps.stat),

    lstat: (p) => kindOf(p, Deno.lstatSync, nodeOps.lstat),

    readFile(p) {
      const s = text(p);
      return s === null ? nodeOps.readFile(p) : Deno.readFileSync(s);
    },

    readFileInto(p, buf) {
      return nodeOps.readFileInto(p, buf);
    },

    // Deno's own stat (one op; its times are in milliseconds): a Deno
    // without a change time cannot vouch for a file (ABI.md#file_version).
    fileVersion(p) {
      const s = text(p);
      if (s === null) return nodeOps.fileVersion(p);
      let st;
      try {
        st = Deno.lstatSync(s);
      } catch (e) {
        if (/** @type {any} */ (e)?.code === 'ENOENT') return null;
        throw e;
      }
      if (st.isDirectory) throw withCode(new Error('EISDIR: illegal operation on a directory'), 'EISDIR');
      if (!st.isFile) throw withCode(new Error('EINVAL: not a regular file'), 'EINVAL');
      const ctime = /** @type {any} */ (st).ctime;
      if (!(ctime instanceof Date) || !(st.mtime instanceof Date) || st.ino == null) throw withCode(new Error('ENOSYS: no change time'), 'ENOSYS');
      return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: BigInt(st.mtime.getTime()) * 1000000n, ctimeNs: BigInt(ctime.getTime()) * 1000000n };
    },

    readFileWithin(within, p, buf, version) {
      const s = text(p);
      if (s === null || !procFD) return nodeOps.readFileWithin(within, p, buf, version);
      if (missing.has(s)) missingError(s);
      let fd;
      try {
        fd = nodefs.openSync(s, openFlags);
      } catch (e) {
        if (/** @type {any} */ (e)?.code === 'ENOENT') {
          if (missing.size >= MISSING_KEEP) missing.clear();
          missing.add(s);
        }
        throw e;
      }
      try {
        const proc = '/proc/self/fd/' + fd;
        let name;
        try {
          name = Deno.readLinkSync(proc);
        } catch {
          procFD = false;
        }
        if (typeof name !== 'string' || name.includes(LOSSY)) return nodeOps.readFileWithin(within, p, buf, version);
        const w = typeof within === 'string' ? encoder.encode(within) : within;
        if (!insideText(name, w)) {
          regular(proc);
          throw withCode(new Error('EXDEV: the file opened lies outside ' + text(w)), 'EXDEV');
        }
        const special = name.startsWith('/proc/') || name.startsWith('/sys/');
        const n = readSettled(nodefs, fd, buf, probe, special, () => regular(proc));
        if (version) {
          const st = nodefs.fstatSync(fd, { bigint: true });
          Object.assign(version, { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });
        }
        return n;
      } finally {
        nodefs.closeSync(fd);
      }
    },

    realpath(p) {
      const s = text(p);
      if (s === null) return nodeOps.realpath(p);
      const r = Deno.realPathSync(s);
      return r.includes(LOSSY) ? nodeOps.realpath(p) : r;
    },
  };
  const f = /** @type {any} */ (fsys);
  return {
    bytePaths: true,
    readDir: quiet(f.readDir),
    stat: quiet(f.stat),
    lstat: quiet(f.lstat),
    readFile: quiet(f.readFile),
    readFileInto: quiet(f.readFileInto),
    fileVersion: quiet(f.fileVersion),
    readFileWithin: quiet(f.readFileWithin),
    realpath: quiet(f.realpath),
  };
}

/**
 * f with no stack trace captured for the errors thrown while it runs. The
 * engine turns every error of the default filesystem into an errno (a
 * missing file is an answer, not a bug) and never shows its stack, but
 * Deno builds one for each: with the module's frames on the stack, a
 * failed open cost the engine's thread 300-560 us, a failed lstat 54 us
 * (30 without the stack), and a warm 1,000-skill discovery meets about 30
 * missing files (a group folder has no SKILL.md).
 * @param {(a: any, b?: any, c?: any, d?: any) => any} f
 * @returns {(a: any, b?: any, c?: any, d?: any) => any}
 */
function quiet(f) {
  return (a, b, c, d) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return f(a, b, c, d);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
}
