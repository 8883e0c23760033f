// @ts-check
// The host side of wasm/ABI.md: compiles the module once per process,
// instantiates it per engine, implements the skilldex_host_v6 imports over a
// JS filesystem object, serialises calls and replaces an instance after a
// trap. It translates only: requests go to Go as JSON, unvalidated. The
// frontmatter module (the complete YAML path) is instantiated only when the
// engine module first asks for it (ABI.md#parse_frontmatter).

import { createWasi, wasiMissing, WasiExit } from './wasi.js';

export const ABI_VERSION = 6;
const HOST_MODULE = 'skilldex_host_v6';
const WASI_MODULE = 'wasi_snapshot_preview1';

/** errno table of ABI.md#errno */
const ERRNO = /** @type {Record<string, number>} */ ({
  ENOENT: 1, ENOTDIR: 2, EISDIR: 3, EACCES: 4, ELOOP: 5, EIO: 6, EINVAL: 7, EFBIG: 8, ENAMETOOLONG: 9, EPERM: 10, EXDEV: 11, ENOSYS: 12,
});
const EIO = 6;
const ENOENT = 1;
const EISDIR = 3;
const EINVAL = 7;
const EXDEV = 11;
const ENOSYS = 12;
const EPERM = 10;
const BUFFER_TOO_SMALL = 100;

/**
 * A field of a file's version as a u64, or null when it is not a
 * non-negative integer (the filesystem then cannot vouch for the file).
 * @param {unknown} x
 * @returns {bigint | null}
 */
function u64(x) {
  if (typeof x === 'bigint') return x >= 0n ? BigInt.asUintN(64, x) : null;
  if (typeof x === 'number' && Number.isInteger(x) && x >= 0) return BigInt(x);
  return null;
}

/** file types of ABI.md#types */
const TYPE = /** @type {Record<string, number>} */ ({ other: 0, file: 1, dir: 2, symlink: 3 });

/** An error with a stable code: the engine's SPEC codes, or INTERNAL / ABI_MISMATCH from the host side. */
export class SkilldexError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{cause?: unknown}} [options]
   */
  constructor(code, message, options) {
    super(message, options);
    this.name = 'SkilldexError';
    this.code = code;
  }
}

/**
 * A user filesystem threw something that is not an fs error (no string
 * `code`): a bug in the host. It aborts the call (see fsErrno).
 */
const FS_METHODS = ['readDir', 'stat', 'lstat', 'readFile', 'realpath'];

/** @param {string} m */
const asyncMessage = (m) =>
  `the filesystem's ${m} returns a promise: skilldex calls the filesystem synchronously (pass node:fs or an object of synchronous methods, not fs.promises)`;

/**
 * Refuse at once a filesystem object skilldex cannot call: a missing
 * method, or one declared async (fs.promises), whose promises the engine
 * could only drop.
 * @param {any} fs
 */
export function checkFileSystem(fs) {
  if (fs === null || (typeof fs !== 'object' && typeof fs !== 'function')) {
    throw new SkilldexError('INVALID_ARGUMENT', 'the filesystem must be an object with readDir, stat, lstat, readFile and realpath');
  }
  for (const m of FS_METHODS) {
    if (typeof fs[m] !== 'function') throw new SkilldexError('INVALID_ARGUMENT', `the filesystem has no ${m} method`);
  }
  for (const m of [...FS_METHODS, 'readFileInto', 'readFileWithin']) {
    if (typeof fs[m] === 'function' && fs[m].constructor?.name === 'AsyncFunction') throw new SkilldexError('INVALID_ARGUMENT', asyncMessage(m));
  }
}

/**
 * r, unless it is a promise: then its rejection is absorbed (no unhandled
 * rejection) and the call fails with INVALID_ARGUMENT.
 * @template T @param {T} r @param {string} m @returns {T}
 */
function notPromise(r, m) {
  const t = /** @type {any} */ (r);
  if (t !== null && typeof t === 'object' && typeof t.then === 'function') {
    t.then(undefined, () => {});
    throw new HostAbort(new SkilldexError('INVALID_ARGUMENT', asyncMessage(m)));
  }
  return r;
}

class HostAbort extends Error {
  /** @param {unknown} cause */
  constructor(cause) {
    super(`the filesystem threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'HostAbort';
  }
}

/**
 * The guest passed a range outside its memory (ABI.md#imports): the import
 * writes nothing and throws, which traps the call; the instance is then
 * replaced as after any trap.
 */
class GuestFault extends Error {
  /** @param {string} name @param {string} what @param {number} p @param {number} n @param {number} size */
  constructor(name, what, p, n, size) {
    super(`the module broke the ABI: ${name}: ${what} [${p}, +${n}) is outside its ${size}-byte memory`);
    this.name = 'GuestFault';
  }
}

/**
 * The errno for an exception thrown by a filesystem method. An error with a
 * string `code` (what node:fs, Deno and MemoryFS throw) maps through the
 * table, unknown codes to EIO. Anything else is a bug in the filesystem
 * object: it is rethrown, which unwinds the module (a trap), fails the call
 * with INTERNAL and replaces the instance.
 * @param {unknown} e
 */
function fsErrno(e) {
  const code = e !== null && typeof e === 'object' ? /** @type {any} */ (e).code : undefined;
  // Node's argument errors (ERR_INVALID_ARG_TYPE, ...) are bugs, not fs errors.
  if (typeof code === 'string' && !code.startsWith('ERR_')) return ERRNO[code] ?? EIO;
  if (e instanceof GuestFault) throw e;
  // Deno refuses a path outside --allow-read with an error that has no
  // code (NotCapable; PermissionDenied before Deno 2): EPERM, a refusal,
  // never taken for a missing file (SPEC S75). The engine reports it with
  // the grant to give (a skills root of home or of cwd, a custom
  // directory, validate's folder) and keeps silent only where the grant
  // bounds the walk up (a project root above cwd, a .git probe).
  if (e instanceof Error && (e.name === 'NotCapable' || e.name === 'PermissionDenied')) return EPERM;
  throw e instanceof HostAbort ? e : new HostAbort(e);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Whether the path real (bytes) is within (bytes) or lies below it.
 * @param {Uint8Array} real @param {Uint8Array} within
 */
function insideBytes(real, within) {
  if (within.length === 1 && within[0] === 0x2f) return real.length > 0 && real[0] === 0x2f;
  if (real.length < within.length || (real.length > within.length && real[within.length] !== 0x2f)) return false;
  for (let i = 0; i < within.length; i++) if (real[i] !== within[i]) return false;
  return true;
}

/**
 * @param {string | Uint8Array} s
 * @returns {Uint8Array}
 */
const bytesOf = (s) => (typeof s === 'string' ? encoder.encode(s) : s);

/**
 * The skilldex_host_v6 imports over fs; parseFrontmatter runs the
 * frontmatter module (it throws when that module fails); sha256, where the
 * runtime has a synchronous one, hashes S54's digest (null: the module
 * hashes it itself, ABI.md#sha256).
 * @param {import('../index.js').FileSystem} fs
 * @param {() => WebAssembly.Memory} memory
 * @param {(path: Uint8Array, text: Uint8Array) => Uint8Array} parseFrontmatter
 * @param {((data: Uint8Array) => Uint8Array | null) | null} [sha256]
 * @param {() => import('./prefetch.js').Prefetcher | null} [readAhead] the
 *   read-ahead on prefetch_within's hints, once there is one (fs is then the
 *   runtime's default filesystem)
 */
function hostImports(fs, memory, parseFrontmatter, sha256 = null, readAhead = () => null) {
  /** @type {ArrayBuffer | null} */
  let buf = null;
  /** @type {Uint8Array} */
  let u8 = new Uint8Array(0);
  /** @type {DataView} */
  let dv = new DataView(new ArrayBuffer(0));
  const refresh = () => {
    const b = memory().buffer;
    if (b !== buf) {
      buf = b;
      u8 = new Uint8Array(b);
      dv = new DataView(b);
    }
  };
  const bytePaths = fs.bytePaths === true;
  // Every i32 argument arrives as a signed JS number: a pointer at 2 GiB
  // or above is negative until it is read as unsigned (ABI.md#exports,
  // "All integers are unsigned"). Each import does that first (>>> 0).
  /** @type {(p: number, n: number) => any} */
  const pathArg = bytePaths ? (p, n) => u8.subarray(p, p + n) : (p, n) => decoder.decode(u8.subarray(p, p + n));
  /**
   * Refresh the views and check that the guest's ranges lie in its memory.
   * @param {string} name @param {number} p @param {number} n @param {number} buf @param {number} cap @param {number} out
   */
  const enter = (name, p, n, buf, cap, out) => {
    refresh();
    const size = u8.length;
    if (p + n > size) throw new GuestFault(name, 'path', p, n, size);
    if (buf + cap > size) throw new GuestFault(name, 'buffer', buf, cap, size);
    if (out + 4 > size) throw new GuestFault(name, 'out pointer', out, 4, size);
  };

  /**
   * @param {string} type
   * @returns {number}
   */
  const typeOf = (type) => TYPE[type] ?? 0;

  /** @param {'stat' | 'lstat'} name @param {(p: any) => string | null | undefined} op */
  const statImport = (name, op) => (/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ out) => {
    p >>>= 0;
    n >>>= 0;
    out >>>= 0;
    try {
      enter(name, p, n, 0, 0, out);
      // Made ahead by the worker at the call's start (prefetch.js takeProbe); undefined: make it here.
      const prefetcher = readAhead();
      let t = /** @type {string | null | undefined} */ (prefetcher ? prefetcher.takeProbe(name, u8.subarray(p, p + n)) : undefined);
      if (t === undefined) t = op(pathArg(p, n));
      if (t == null) return ENOENT;
      refresh();
      dv.setUint32(out, typeOf(t), true);
      return 0;
    } catch (e) {
      return fsErrno(e);
    }
  };

  /**
   * Write data (or report the size needed) for read_dir and realpath.
   * @param {Uint8Array} data @param {number} ptr @param {number} cap @param {number} outLen
   */
  const put = (data, ptr, cap, outLen) => {
    refresh();
    dv.setUint32(outLen, data.length, true);
    if (data.length > cap) return BUFFER_TOO_SMALL;
    u8.set(data, ptr);
    return 0;
  };

  /**
   * Report the size of a file read into guest memory by read_file or
   * read_file_within: more than cap (at least cap + 1) asks for a larger
   * buffer (ABI.md#read_file).
   * @param {number} size @param {number} cap @param {number} outLen
   */
  const sized = (size, cap, outLen) => {
    refresh();
    if (size > cap) {
      dv.setUint32(outLen, Math.min(Math.max(size, cap + 1), 0xffffffff), true);
      return BUFFER_TOO_SMALL;
    }
    dv.setUint32(outLen, size, true);
    return 0;
  };

  /**
   * The version fileVersion gives for a path, as five bigints, or null.
   * @param {Uint8Array} path @returns {(bigint | null)[] | null}
   */
  const versionOf = (path) => {
    if (typeof fs.fileVersion !== 'function') return null;
    try {
      const v = notPromise(fs.fileVersion(asPath(path)), 'fileVersion');
      return v == null ? null : [v.dev, v.ino, v.size, v.mtimeNs, v.ctimeNs].map(u64);
    } catch (e) {
      if (e instanceof GuestFault) throw e;
      return null;
    }
  };

  /** Whether fs.readFileWithin has given the version of a file it read. */
  let fillsVersion = false;

  /**
   * read_file_within asking for the version of the file read
   * (ABI.md#read_file_within), from the read-ahead when it read the file
   * (it gives the version of the file it opened), else read here.
   */
  const versionedRead = (/** @type {number} */ wp, /** @type {number} */ wn, /** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ ptr, /** @type {number} */ cap, /** @type {number} */ outLen, /** @type {number} */ vp) => {
    /** @type {(bigint | null)[] | null} */
    let fields = null;
    let size;
    try {
      enter('read_file_within', p, n, ptr, cap, outLen);
      if (wp + wn > u8.length) throw new GuestFault('read_file_within', 'within', wp, wn, u8.length);
      if (vp + 40 > u8.length) throw new GuestFault('read_file_within', 'version pointer', vp, 40, u8.length);
      const within = u8.slice(wp, wp + wn), path = u8.slice(p, p + n);
      u8.fill(0, vp, vp + 40);
      /** @type {{dev?: number | bigint, ino?: number | bigint, size?: number | bigint, mtimeNs?: number | bigint, ctimeNs?: number | bigint}} */
      const opened = {};
      const prefetcher = readAhead();
      // Read ahead by the worker, which gives the version of the file it
      // read (prefetch.js); -1: read it here.
      const ahead = prefetcher ? prefetcher.take(within, path, u8.subarray(ptr, ptr + cap), opened) : -1;
      const before = ahead >= 0 || fillsVersion ? null : versionOf(path);
      if (ahead >= 0) {
        size = ahead;
      } else if (typeof fs.readFileWithin === 'function') {
        size = notPromise(fs.readFileWithin(asPath(within), asPath(path), u8.subarray(ptr, ptr + cap), opened), 'readFileWithin');
      } else {
        const e = checkWithin(within, path);
        if (e !== 0) return e;
        const r = imports.read_file(p, n, ptr, cap, outLen);
        if (r !== 0 && r !== BUFFER_TOO_SMALL) return r;
        refresh();
        size = r === 0 ? dv.getUint32(outLen, true) : Math.max(dv.getUint32(outLen, true), cap + 1);
      }
      if (opened.ino !== undefined) {
        fillsVersion = true;
        fields = [opened.dev, opened.ino, opened.size, opened.mtimeNs, opened.ctimeNs].map(u64);
      } else if (before) {
        const after = versionOf(path);
        fields = after && after.every((x, i) => x !== null && x === before[i]) ? before : null;
      }
    } catch (e) {
      return fsErrno(e);
    }
    const r = sized(size, cap, outLen);
    if (fields && !fields.includes(null)) {
      for (let i = 0; i < 5; i++) dv.setBigUint64(vp + 8 * i, /** @type {bigint} */ (fields[i]), true);
    }
    return r;
  };

  /** @type {(b: Uint8Array) => any} a path as fs takes it (pathArg's form) */
  const asPath = bytePaths ? (b) => b : (b) => decoder.decode(b);

  /**
   * read_file_within's check over a filesystem that cannot check the file
   * it opens (no readFileWithin: MemoryFS, a caller's object), as Go's
   * core.ReadFileWithin makes it, call for call: the realpath of the path,
   * made of its folder's realpath and its name (the name's own when it is
   * a link), must lie inside within, and the path must be a regular file.
   * 0 when it may be read, else the errno. Since ABI 3 the module relies
   * on this check (ABI.md#read_file_within).
   * @param {Uint8Array} w @param {Uint8Array} pb
   */
  const checkWithin = (w, pb) => {
    const slash = pb.lastIndexOf(0x2f);
    const dir = slash <= 0 ? pb.subarray(0, 1) : pb.subarray(0, slash);
    const realDir = bytesOf(notPromise(fs.realpath(asPath(dir)), 'realpath'));
    let t = notPromise(fs.lstat(asPath(pb)), 'lstat');
    if (t == null) return ENOENT;
    /** @type {Uint8Array} */
    let real;
    if (t === 'symlink') {
      real = bytesOf(notPromise(fs.realpath(asPath(pb)), 'realpath'));
      t = notPromise(fs.stat(asPath(pb)), 'stat');
      if (t == null) return ENOENT;
    } else {
      const base = pb.subarray(slash + 1);
      const root = realDir.length === 1 && realDir[0] === 0x2f;
      real = new Uint8Array(realDir.length + (root ? 0 : 1) + base.length);
      real.set(realDir);
      real[root ? 0 : realDir.length] = 0x2f;
      real.set(base, root ? 1 : realDir.length + 1);
    }
    if (!insideBytes(real, w)) return EXDEV;
    if (t === 'dir') return EISDIR;
    if (t !== 'file') return EINVAL;
    return 0;
  };

  const imports = {
    stat: statImport('stat', (p) => notPromise(fs.stat(p), 'stat')),
    lstat: statImport('lstat', (p) => notPromise(fs.lstat(p), 'lstat')),

    read_dir(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ ptr, /** @type {number} */ cap, /** @type {number} */ outLen) {
      (p >>>= 0), (n >>>= 0), (ptr >>>= 0), (cap >>>= 0), (outLen >>>= 0);
      try {
        enter('read_dir', p, n, ptr, cap, outLen);
        const prefetcher = readAhead();
        if (prefetcher) {
          // Listed ahead by the worker, already in this form (prefetch.js
          // takeDir); null: list it here.
          const listed = prefetcher.takeDir(u8.subarray(p, p + n));
          if (listed) {
            refresh();
            dv.setUint32(outLen, listed.length, true);
            if (listed.length > cap) return BUFFER_TOO_SMALL;
            u8.set(listed, ptr);
            return 0;
          }
        }
        const entries = notPromise(fs.readDir(pathArg(p, n)), 'readDir');
        const names = new Array(entries.length);
        let total = 0;
        for (let i = 0; i < entries.length; i++) {
          const name = bytesOf(entries[i].name);
          names[i] = name;
          total += 5 + name.length;
        }
        refresh();
        dv.setUint32(outLen, total, true);
        if (total > cap) return BUFFER_TOO_SMALL;
        let at = ptr;
        for (let i = 0; i < entries.length; i++) {
          const name = names[i];
          dv.setUint8(at, typeOf(entries[i].type));
          dv.setUint32(at + 1, name.length, true);
          u8.set(name, at + 5);
          at += 5 + name.length;
        }
        return 0;
      } catch (e) {
        return fsErrno(e);
      }
    },

    read_file(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ ptr, /** @type {number} */ cap, /** @type {number} */ outLen) {
      (p >>>= 0), (n >>>= 0), (ptr >>>= 0), (cap >>>= 0), (outLen >>>= 0);
      try {
        enter('read_file', p, n, ptr, cap, outLen);
        const path = pathArg(p, n);
        let size;
        if (typeof fs.readFileInto === 'function') {
          // Straight into guest memory: no copy, no more than cap bytes read.
          size = notPromise(fs.readFileInto(path, u8.subarray(ptr, ptr + cap)), 'readFileInto');
        } else {
          const data = bytesOf(notPromise(fs.readFile(path), 'readFile'));
          refresh();
          u8.set(data.length > cap ? data.subarray(0, cap) : data, ptr);
          size = data.length;
        }
        return sized(size, cap, outLen);
      } catch (e) {
        return fsErrno(e);
      }
    },

    // read_file for a file that must lie inside within (ABI.md#read_file_within,
    // SPEC S44): the filesystem checks the file it opened. One without
    // readFileWithin (MemoryFS: nothing changes during a call) is checked
    // by its realpath first (checkWithin), then read as read_file.
    // With vp not 0, the engine asks for the version of the file read
    // (40 bytes, as file_version writes them; zeros when it cannot tell):
    // the filesystem's own, taken on the file it opened (readFileWithin's
    // fourth argument), else fileVersion's just before and just after the
    // read when the two are equal.
    read_file_within(/** @type {number} */ wp, /** @type {number} */ wn, /** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ ptr, /** @type {number} */ cap, /** @type {number} */ outLen, /** @type {number} */ vp) {
      (wp >>>= 0), (wn >>>= 0), (p >>>= 0), (n >>>= 0), (ptr >>>= 0), (cap >>>= 0), (outLen >>>= 0), (vp >>>= 0);
      if (vp !== 0) return versionedRead(wp, wn, p, n, ptr, cap, outLen, vp);
      if (typeof fs.readFileWithin !== 'function') {
        try {
          enter('read_file_within', p, n, ptr, cap, outLen);
          if (wp + wn > u8.length) throw new GuestFault('read_file_within', 'within', wp, wn, u8.length);
          const e = checkWithin(u8.slice(wp, wp + wn), u8.slice(p, p + n));
          if (e !== 0) return e;
        } catch (e) {
          return fsErrno(e);
        }
        return imports.read_file(p, n, ptr, cap, outLen);
      }
      try {
        enter('read_file_within', p, n, ptr, cap, outLen);
        if (wp + wn > u8.length) throw new GuestFault('read_file_within', 'within', wp, wn, u8.length);
        const prefetcher = readAhead();
        if (prefetcher) {
          // Read ahead by the worker, when a hint listed exactly this read
          // (prefetch.js); -1: read it here.
          const size = prefetcher.take(u8.subarray(wp, wp + wn), u8.subarray(p, p + n), u8.subarray(ptr, ptr + cap));
          if (size >= 0) return sized(size, cap, outLen);
        }
        const size = notPromise(fs.readFileWithin(pathArg(wp, wn), pathArg(p, n), u8.subarray(ptr, ptr + cap)), 'readFileWithin');
        return sized(size, cap, outLen);
      } catch (e) {
        return fsErrno(e);
      }
    },

    realpath(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ ptr, /** @type {number} */ cap, /** @type {number} */ outLen) {
      (p >>>= 0), (n >>>= 0), (ptr >>>= 0), (cap >>>= 0), (outLen >>>= 0);
      try {
        enter('realpath', p, n, ptr, cap, outLen);
        const prefetcher = readAhead();
        const made = prefetcher ? prefetcher.takeProbe('realpath', u8.subarray(p, p + n)) : undefined;
        if (made instanceof Uint8Array) return put(made, ptr, cap, outLen);
        return put(bytesOf(notPromise(fs.realpath(pathArg(p, n)), 'realpath')), ptr, cap, outLen);
      } catch (e) {
        return fsErrno(e);
      }
    },

    // The version of the regular file a path names (ABI.md#file_version):
    // with it the engine tells that a SKILL.md it read has not changed
    // without reading it again. A filesystem without fileVersion cannot
    // tell: ENOSYS, and the engine reads such files again.
    file_version(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ out) {
      (p >>>= 0), (n >>>= 0), (out >>>= 0);
      refresh();
      if (p + n > u8.length) throw new GuestFault('file_version', 'path', p, n, u8.length);
      if (out + 40 > u8.length) throw new GuestFault('file_version', 'out pointer', out, 40, u8.length);
      if (typeof fs.fileVersion !== 'function') return ENOSYS;
      try {
        const v = notPromise(fs.fileVersion(pathArg(p, n)), 'fileVersion');
        if (v == null) return ENOENT;
        const fields = [v.dev, v.ino, v.size, v.mtimeNs, v.ctimeNs].map(u64);
        if (fields.includes(null)) return ENOSYS;
        refresh();
        for (let i = 0; i < 5; i++) dv.setBigUint64(out + 8 * i, /** @type {bigint} */ (fields[i]), true);
        return 0;
      } catch (e) {
        return fsErrno(e);
      }
    },

    // S54's digest with the runtime's own SHA-256 (ABI.md#sha256): about
    // ten times the module's. EIO declines it: the module hashes itself.
    sha256(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ out) {
      (p >>>= 0), (n >>>= 0), (out >>>= 0);
      refresh();
      if (p + n > u8.length) throw new GuestFault('sha256', 'data', p, n, u8.length);
      if (out + 32 > u8.length) throw new GuestFault('sha256', 'out pointer', out, 32, u8.length);
      const sum = sha256 ? sha256(u8.subarray(p, p + n)) : null;
      if (!sum || sum.length !== 32) return EIO;
      refresh();
      u8.set(sum, out);
      return 0;
    },

    // A hint of the read_file_within calls to come (ABI.md#prefetch_within).
    // Without a read-ahead (a caller's filesystem, a browser) this host
    // reads when asked; with one, the list is copied out of guest memory
    // (which may grow before the reads) and read ahead on its worker. The
    // list must lie in memory either way; the engine ignores the result.
    prefetch_within(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ cap) {
      (p >>>= 0), (n >>>= 0), (cap >>>= 0);
      refresh();
      if (p + n > u8.length) throw new GuestFault('prefetch_within', 'list', p, n, u8.length);
      const prefetcher = readAhead();
      if (prefetcher) prefetcher.hint(u8.slice(p, p + n), cap);
      return 0;
    },

    parse_frontmatter(/** @type {number} */ pp, /** @type {number} */ pn, /** @type {number} */ tp, /** @type {number} */ tn, /** @type {number} */ ptr, /** @type {number} */ cap, /** @type {number} */ outLen) {
      (pp >>>= 0), (pn >>>= 0), (tp >>>= 0), (tn >>>= 0), (ptr >>>= 0), (cap >>>= 0), (outLen >>>= 0);
      // A range outside memory traps (thrown here, outside the try below).
      enter('parse_frontmatter', pp, pn, ptr, cap, outLen);
      if (tp + tn > u8.length) throw new GuestFault('parse_frontmatter', 'text', tp, tn, u8.length);
      const path = u8.slice(pp, pp + pn);
      const text = u8.slice(tp, tp + tn);
      let result;
      try {
        result = parseFrontmatter(path, text);
      } catch {
        return EIO; // the engine skips the skill with a warning naming it
      }
      return put(result, ptr, cap, outLen);
    },
  };
  return imports;
}

/** @type {WeakMap<object, Promise<WebAssembly.Module>>} */
const compiled = new WeakMap();

/**
 * Compile a module once per source object (per process for the default).
 * @param {() => Promise<BufferSource | WebAssembly.Module | Response>} load
 * @param {object} key
 * @returns {Promise<WebAssembly.Module>}
 */
export function compileOnce(load, key) {
  let p = compiled.get(key);
  if (!p) {
    p = (async () => {
      const src = await load();
      if (src instanceof WebAssembly.Module) return src;
      // Bytes first: in Node, the first mention of the global Response
      // loads its fetch implementation, 35-80 ms of a cold CLI run.
      const bytes = ArrayBuffer.isView(src) || src instanceof ArrayBuffer;
      if (!bytes && typeof Response !== 'undefined' && src instanceof Response) return WebAssembly.compileStreaming(src);
      return WebAssembly.compile(/** @type {BufferSource} */ (src));
    })();
    p.catch(() => compiled.delete(key));
    compiled.set(key, p);
  }
  return p;
}

/**
 * Check a module's imports (ABI.md#loading, step 2): the engine module's
 * are the host's and WASI's, the frontmatter module's WASI's only.
 * @param {WebAssembly.Module} module
 * @param {boolean} [frontmatter]
 */
function checkImports(module, frontmatter = false) {
  for (const imp of WebAssembly.Module.imports(module)) {
    if ((imp.module !== HOST_MODULE || frontmatter) && imp.module !== WASI_MODULE) {
      throw new SkilldexError('ABI_MISMATCH', `bad binary: the ${frontmatter ? 'frontmatter ' : ''}module imports ${imp.module}.${imp.name}; this host speaks ${HOST_MODULE}`);
    }
  }
}

/**
 * Instantiate synchronously where the runtime allows it (Node, Deno, Bun,
 * workers), else return null. An already compiled module instantiates in
 * a few milliseconds, and waiting for WebAssembly.instantiate's promise
 * was seen to stall for good in Node 20 when nothing else was pending
 * (js/test/engine.test.js with some module builds). A browser's main
 * thread refuses a large module with a RangeError: then the caller awaits
 * WebAssembly.instantiate. Other errors (a LinkError) are thrown.
 * @param {WebAssembly.Module} module
 * @param {WebAssembly.Imports} imports
 * @returns {WebAssembly.Instance | null}
 */
function instantiateModule(module, imports) {
  try {
    return new WebAssembly.Instance(module, imports);
  } catch (e) {
    if (e instanceof RangeError && /main thread|disallowed/i.test(String(e.message))) return null;
    throw e;
  }
}

const STDERR_KEEP = 8192;

/** The quiet after an engine's first call after which its read-ahead's worker starts (startReadAheadWhenIdle). */
const READ_AHEAD_IDLE_MS = 10;

/**
 * Let a timer keep no process alive: Node's and Bun's timers are objects
 * with unref, Deno's are numbers (Deno.unrefTimer).
 * @param {any} timer
 */
function unrefTimer(timer) {
  if (typeof timer === 'object' && timer && typeof timer.unref === 'function') timer.unref();
  else if (typeof timer === 'number' && /** @type {any} */ (globalThis).Deno?.unrefTimer) /** @type {any} */ (globalThis).Deno.unrefTimer(timer);
}

/**
 * One module instance at a time, over one filesystem, with calls in a
 * queue.
 */
export class Engine {
  /**
   * frontmatter loads the frontmatter module; frontmatterSync, where the
   * module can be had without waiting, returns it compiled: the engine then
   * calls it only when its scanner first declines a file. Without it (null:
   * a URL, a loader function, a browser) the module is loaded with the
   * engine module, not lazily.
   * @param {{fs: import('../index.js').FileSystem, module: () => Promise<WebAssembly.Module>,
   *   frontmatter: () => Promise<WebAssembly.Module>, frontmatterSync?: (() => WebAssembly.Module) | null,
   *   stderr?: (text: string) => void, sha256?: ((data: Uint8Array) => Uint8Array | null) | null,
   *   jsonText?: ((reply: Uint8Array) => string) | null, randomFill?: ((buf: Uint8Array) => void) | null,
   *   workerThreads?: (() => typeof import('node:worker_threads')) | null}} opts
   *   jsonText: the runtime's quickest text of a reply for JSON.parse (callValue), where TextDecoder is slow
   *   (platform/node.js); white space may follow the JSON.
   *   randomFill: the runtime's quickest random bytes for WASI's random_get (platform/node.js)
   *   workerThreads: loads node:worker_threads; given only when fs is the runtime's own default filesystem: the engine then reads
   *   SKILL.md files ahead on a worker (prefetch.js) while this.fs is still that filesystem
   */
  constructor(opts) {
    checkFileSystem(opts.fs);
    this.fs = opts.fs;
    /** @type {import('../index.js').FileSystem | null} the filesystem the read-ahead reads as (its worker builds its own) */
    this.prefetchFS = opts.workerThreads ? opts.fs : null;
    this.workerThreads = opts.workerThreads ?? null;
    /** @type {import('./prefetch.js').Prefetcher | null} */
    this.prefetcher = null;
    this.getModule = opts.module;
    this.getFrontmatter = opts.frontmatter;
    this.getFrontmatterSync = opts.frontmatterSync ?? null;
    /** @type {{exports: any, memory: WebAssembly.Memory} | null} the frontmatter module's instance, once needed */
    this.fm = null;
    /** @type {WebAssembly.Module | null} */
    this.fmModule = null;
    this.fmInstances = 0;
    /** frontmatters the frontmatter module was asked for (parse_frontmatter calls) */
    this.fmParses = 0;
    this.onStderr = opts.stderr;
    this.sha256 = opts.sha256 ?? null;
    this.jsonText = opts.jsonText ?? ((/** @type {Uint8Array} */ b) => decoder.decode(b));
    this.randomFill = opts.randomFill ?? null;
    /** @type {Promise<unknown>} */
    this.tail = Promise.resolve();
    /** @type {{exports: any, memory: WebAssembly.Memory, readAhead: boolean} | null} */
    this.inst = null;
    this.instances = 0;
    this.calls = 0;
    this.stderrTail = '';
  }

  /** Create a fresh instance: instantiate, _initialize, check the version. */
  async instantiate() {
    const module = await this.getModule();
    checkImports(module);
    /** @type {WebAssembly.Memory | null} */
    let memory = null;
    const mem = () => /** @type {WebAssembly.Memory} */ (memory);
    const wasi = createWasi(mem, (fd, text) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEEP);
      if (this.onStderr) this.onStderr(text);
    }, this.randomFill);
    // The read-ahead only over the default filesystem, not once a watch
    // has put its recording filesystem in its place (index.js); it is
    // made after the engine's first call (callNow).
    const readAhead = !!this.workerThreads && this.fs === this.prefetchFS;
    const host = hostImports(this.fs, mem, (path, text) => this.parseFrontmatter(path, text), this.sha256, readAhead ? () => this.prefetcher : undefined);
    /** @type {Record<string, Record<string, Function>>} */
    const imports = { [WASI_MODULE]: {}, [HOST_MODULE]: {} };
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.kind !== 'function') continue;
      const table = imp.module === WASI_MODULE ? wasi : /** @type {Record<string, Function>} */ (host);
      imports[imp.module][imp.name] = table[imp.name] ?? wasiMissing;
    }
    let instance = instantiateModule(module, /** @type {WebAssembly.Imports} */ (imports));
    if (!instance) {
      // Asynchronous instantiation only (a browser's main thread): the
      // frontmatter module cannot be made inside an import, so make it now.
      instance = await WebAssembly.instantiate(module, /** @type {WebAssembly.Imports} */ (imports));
      await this.prepareFrontmatter(true);
    } else {
      await this.prepareFrontmatter(false);
    }
    const ex = /** @type {any} */ (instance.exports);
    memory = ex.memory;
    try {
      ex._initialize();
    } catch (e) {
      throw this.crash(e, 'while initialising the module');
    }
    const v = ex.skilldex_abi_version();
    if (v !== ABI_VERSION) {
      throw new SkilldexError('ABI_MISMATCH', `bad binary: the module speaks skilldex ABI ${v}, this host ${ABI_VERSION}`);
    }
    this.instances++;
    return { exports: ex, memory: /** @type {WebAssembly.Memory} */ (memory), readAhead };
  }

  /**
   * Have the frontmatter module ready for parse_frontmatter: left to its
   * first use where it can be had synchronously then (the usual case: a
   * workspace the engine's scanner reads alone never loads it), else
   * loaded now, and with asyncOnly (no synchronous instantiation here)
   * instantiated now too.
   * @param {boolean} asyncOnly
   */
  async prepareFrontmatter(asyncOnly) {
    if (this.fm) return;
    // Not even compiled here when it can be had at first need: compiling
    // it (5 MB) on every first call cost a one-shot discover() 100-300 ms
    // that most workspaces never use.
    if (!asyncOnly && (this.fmModule || this.getFrontmatterSync)) return;
    if (!this.fmModule) {
      this.fmModule = await this.getFrontmatter();
      checkImports(this.fmModule, true);
    }
    if (asyncOnly) {
      const f = this.frontmatterImports();
      this.fm = f.start(await WebAssembly.instantiate(/** @type {WebAssembly.Module} */ (this.fmModule), f.imports));
    }
  }

  /**
   * The compiled frontmatter module, loaded now if it was not (it throws
   * when that fails), or null when it can only be had by waiting.
   * @returns {WebAssembly.Module | null}
   */
  frontmatterModuleSync() {
    if (!this.fmModule) {
      if (!this.getFrontmatterSync) return null;
      const m = this.getFrontmatterSync();
      checkImports(m, true);
      this.fmModule = m;
    }
    return this.fmModule;
  }

  /**
   * The imports of a frontmatter instance (WASI only) and the function that
   * starts it: _initialize and the version check.
   */
  frontmatterImports() {
    const module = /** @type {WebAssembly.Module} */ (this.fmModule);
    /** @type {WebAssembly.Memory | null} */
    let memory = null;
    const wasi = createWasi(() => /** @type {WebAssembly.Memory} */ (memory), (fd, text) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEEP);
      if (this.onStderr) this.onStderr(text);
    }, this.randomFill);
    /** @type {Record<string, Function>} */
    const table = {};
    for (const imp of WebAssembly.Module.imports(module)) if (imp.kind === 'function') table[imp.name] = wasi[imp.name] ?? wasiMissing;
    return {
      imports: /** @type {WebAssembly.Imports} */ ({ [WASI_MODULE]: table }),
      /** @param {WebAssembly.Instance} instance */
      start: (instance) => {
        const ex = /** @type {any} */ (instance.exports);
        memory = ex.memory;
        ex._initialize();
        const v = ex.skilldex_abi_version();
        if (v !== ABI_VERSION) throw new SkilldexError('ABI_MISMATCH', `bad binary: the frontmatter module speaks skilldex ABI ${v}, this host ${ABI_VERSION}`);
        this.fmInstances++;
        return { exports: ex, memory: /** @type {WebAssembly.Memory} */ (ex.memory) };
      },
    };
  }

  /**
   * parse_frontmatter's work (ABI.md#parse_frontmatter): run the complete
   * path in the frontmatter module, instantiated on first use, and return
   * a copy of the result. On any failure the frontmatter instance is
   * dropped and the error thrown (the import answers EIO).
   * @param {Uint8Array} path @param {Uint8Array} text
   * @returns {Uint8Array}
   */
  parseFrontmatter(path, text) {
    this.fmParses++;
    try {
      if (!this.fm) {
        const module = this.frontmatterModuleSync();
        if (!module) throw new Error('the frontmatter module is not loaded');
        const f = this.frontmatterImports();
        this.fm = f.start(new WebAssembly.Instance(module, f.imports));
      }
      const { exports: ex, memory } = this.fm;
      const ptr = ex.skilldex_alloc(path.length + text.length) >>> 0; // unsigned (ABI.md)
      if (ptr === 0) throw new Error('the frontmatter module refused the request size');
      const u8 = new Uint8Array(memory.buffer);
      u8.set(path, ptr);
      u8.set(text, ptr + path.length);
      const r = ex.skilldex_frontmatter_parse(ptr, path.length, text.length);
      const rp = Number(BigInt.asUintN(64, r) >> 32n);
      const rn = Number(BigInt.asUintN(32, r));
      return new Uint8Array(memory.buffer).slice(rp, rp + rn);
    } catch (e) {
      this.fm = null;
      const msg = `skilldex: the frontmatter module failed: ${e instanceof Error ? e.message : String(e)}\n`;
      this.stderrTail = (this.stderrTail + msg).slice(-STDERR_KEEP);
      if (this.onStderr) this.onStderr(msg);
      throw e;
    }
  }

  /**
   * The error for a trap: the instance is discarded.
   * @param {unknown} e @param {string} [when]
   */
  crash(e, when = 'during the call') {
    this.inst = null;
    this.fm = null;
    const cause = e instanceof HostAbort ? e.cause : e;
    if (cause instanceof SkilldexError && cause.code === 'INVALID_ARGUMENT') return cause; // a filesystem that returns promises
    let msg = e instanceof HostAbort ? e.message : `the engine crashed ${when}: ${e instanceof WasiExit ? e.message : e instanceof Error ? e.message : String(e)}`;
    const tail = this.stderrTail.trim();
    if (tail) msg += `\n${tail.split('\n').slice(0, 8).join('\n')}`;
    this.stderrTail = '';
    return new SkilldexError('INTERNAL', msg, { cause });
  }

  /**
   * Run one request (a JSON string) and return the reply string. Calls are
   * queued: each starts when the previous one has finished.
   * @param {string} request
   * @returns {Promise<string>}
   */
  call(request) {
    const run = this.tail.then(() => this.callNow(request, 'text'));
    this.tail = run.catch(() => {});
    return /** @type {Promise<string>} */ (run);
  }

  /**
   * The same as call, the reply given to parse (a JSON.parse that may
   * throw) and its value returned. The text parse gets is jsonText's, read
   * straight from the module's memory: it may end in white space, and is
   * not the reply string call returns.
   * @template T
   * @param {string} request @param {(text: string) => T} parse
   * @param {() => void} [before] called when the call's turn comes; a throw skips the call (an aborted signal)
   * @returns {Promise<T>}
   */
  callValue(request, parse, before) {
    const run = this.tail.then(async () => {
      before?.();
      return parse(/** @type {string} */ (await this.callNow(request, 'json')));
    });
    this.tail = run.catch(() => {});
    return run;
  }

  /**
   * The same as call, the reply as its UTF-8 bytes, copied out of the
   * module's memory and not decoded (a worker passes them on, reply.js);
   * with view, not copied: a view of the module's memory, valid only until
   * the engine's next call (the CLI writes it out at once).
   * @param {string} request
   * @param {boolean} [view]
   * @returns {Promise<Uint8Array>}
   */
  callBytes(request, view = false) {
    const run = this.tail.then(() => this.callNow(request, view ? 'view' : 'bytes'));
    this.tail = run.catch(() => {});
    return /** @type {Promise<Uint8Array>} */ (run);
  }

  /** Make sure an instance exists (the first call would otherwise). */
  ready() {
    const run = this.tail.then(async () => {
      this.inst ??= await this.instantiate();
    });
    this.tail = run.catch(() => {});
    return run;
  }

  /**
   * @param {string} request
   * @param {'text' | 'json' | 'bytes' | 'view'} as the reply string, jsonText's text of it, a copy of its bytes, or a view of them
   */
  async callNow(request, as) {
    this.inst ??= await this.instantiate();
    // From the engine's second call on: a process that makes one call (a
    // script, the CLI) never loads prefetch.js, and the worker never
    // started in a first call anyway (prefetch.js).
    if (this.inst.readAhead && !this.prefetcher && this.calls > 0) await this.makePrefetcher();
    const { exports: ex, memory } = this.inst;
    const req = encoder.encode(request);
    this.calls++;
    this.stderrTail = '';
    let reply;
    try {
      // Unsigned: an i32 result above 2 GiB arrives negative, an i64 with
      // its top bit set as a negative BigInt (ABI.md#skilldex_call).
      const ptr = ex.skilldex_alloc(req.length) >>> 0;
      if (ptr === 0) {
        throw new SkilldexError('BAD_REQUEST', `bad request: ${req.length} bytes is over the module's request limit`);
      }
      new Uint8Array(memory.buffer, ptr, req.length).set(req);
      // The worker lists the directories this request listed last time (prefetch.js startCall).
      if (this.prefetcher) this.prefetcher.startCall(request);
      let r;
      try {
        r = ex.skilldex_call(ptr, req.length);
      } finally {
        // A hint lives within its call: what is left of it is dropped.
        if (this.prefetcher) this.prefetcher.endCall();
      }
      const rp = Number(BigInt.asUintN(64, r) >> 32n);
      const rn = Number(BigInt.asUintN(32, r));
      const view = new Uint8Array(memory.buffer, rp, rn);
      reply = as === 'view' ? view : as === 'bytes' ? view.slice() : as === 'json' ? this.jsonText(view) : decoder.decode(view);
      if (this.calls === 1 && this.inst.readAhead) this.startReadAheadWhenIdle();
    } catch (e) {
      if (e instanceof SkilldexError) throw e;
      throw this.crash(e);
    }
    return reply;
  }

  /** The read-ahead (prefetch.js), loaded now. */
  async makePrefetcher() {
    const { Prefetcher } = await import('./prefetch.js');
    this.prefetcher ??= new Prefetcher(/** @type {() => typeof import('node:worker_threads')} */ (this.workerThreads), { fs: this.prefetchFS ?? undefined, startAfterCalls: 0 });
    return this.prefetcher;
  }

  /**
   * Start the read-ahead's worker once the process has been idle for
   * READ_AHEAD_IDLE_MS after the engine's first call, so that the second
   * call does not pay for starting it: a process that exits sooner (a
   * script, the CLI) never starts it, the timer keeps no process alive, and
   * a call or close() in between goes first (the queue).
   */
  startReadAheadWhenIdle() {
    const timer = setTimeout(() => {
      this.tail = this.tail
        .then(async () => {
          if (this.inst && this.inst.readAhead && !this.prefetcher) (await this.makePrefetcher()).start();
        })
        .catch(() => {});
    }, READ_AHEAD_IDLE_MS);
    unrefTimer(timer);
  }

  /** Drop the instance; the next call makes a new one. */
  close() {
    const run = this.tail.then(async () => {
      this.inst = null;
      this.fm = null;
      // The read-ahead's worker ends (a later hint starts a new one).
      if (this.prefetcher) await this.prefetcher.close();
    });
    this.tail = run.catch(() => {});
    return run;
  }

  stats() {
    return {
      memoryBytes: this.inst ? this.inst.memory.buffer.byteLength : 0,
      instances: this.instances,
      frontmatterInstances: this.fmInstances,
      frontmatterParses: this.fmParses,
      calls: this.calls,
      prefetchedReads: this.prefetcher ? this.prefetcher.stats.served : 0,
    };
  }
}
