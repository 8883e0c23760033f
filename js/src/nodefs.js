// @ts-check
// The default filesystem: the runtime's synchronous node:fs (Node, and the
// node:fs of Deno and Bun). Paths travel as bytes (bytePaths), so file names
// that are not valid UTF-8 keep working, and no path is decoded per call.

/**
 * @param {any} e
 * @param {string} code
 */
const withCode = (e, code) => Object.assign(e instanceof Error ? e : new Error(String(e)), { code });

/**
 * @param {{isFile(): boolean, isDirectory(): boolean, isSymbolicLink(): boolean}} s
 * @returns {'file' | 'dir' | 'symlink' | 'other'}
 */
const kind = (s) => (s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other');

/**
 * Whether fs's descriptors are the kernel's: fs is the runtime's own
 * node:fs (its functions, not a wrapper's), whose openSync returns an
 * operating-system descriptor in Node, Deno 2 and Bun alike.
 * @param {any} fs @param {any} runtimeFS
 */
const kernelDescriptors = (fs, runtimeFS) =>
  runtimeFS != null && ['openSync', 'readSync', 'fstatSync', 'closeSync', 'readlinkSync'].every((m) => typeof fs[m] === 'function' && fs[m] === runtimeFS[m]);

/**
 * Whether the host path name (bytes) lies under /proc or /sys, whose files
 * report sizes (0, 4096) that are not their lengths, and whose reads may
 * stop short of the end.
 * @param {Uint8Array} name
 */
const pseudo = (name) =>
  name[0] === 0x2f &&
  ((name[1] === 0x70 && name[2] === 0x72 && name[3] === 0x6f && name[4] === 0x63 && name[5] === 0x2f) || // /proc/
    (name[1] === 0x73 && name[2] === 0x79 && name[3] === 0x73 && name[4] === 0x2f)); // /sys/

/** @param {string} s */
const isASCII = (s) => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
};

/**
 * Read the open file fd (whose fstat size is size) into buf with fs's
 * readSync, its first got bytes already there; the file's size, more than
 * buf.length when it goes on (here, and through readSettled in denofs.js).
 * @param {{readSync: typeof import('node:fs').readSync}} fs
 * @param {number} fd @param {number} size @param {Uint8Array} buf
 * @param {Uint8Array} probe 8 bytes of scratch
 * @param {number} [got] bytes already read into buf
 * @returns {number}
 */
export function readOpenFile(fs, fd, size, buf, probe, got = 0) {
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) break;
    got += n;
    if (size > 0 && got >= size) break;
  }
  if (got < buf.length) return got;
  if (size > got) return size;
  // The buffer is full and the size is unknown or equal: probe (8 bytes:
  // some /proc files refuse smaller reads; an error counts as more).
  try {
    const n = fs.readSync(fd, probe, 0, probe.length, got);
    return n === 0 ? got : Math.max(size, got + 1);
  } catch {
    return got + 1;
  }
}

/**
 * Read the open file fd, already checked to lie inside its within, into
 * buf (ABI.md#read_file_within): a read at offset 0 (pread), and fstat's
 * answer (check(): EISDIR, EINVAL, else the size) only when that read
 * cannot settle it alone. A short read (0 < n < buf.length) comes from a
 * regular file, whose short read is its end, since pread fails on a
 * directory (EISDIR) and on FIFOs, sockets and terminals (ESPIPE); an
 * error, an empty read or a full buffer asks check() for the type and the
 * size, as does a special file (under /proc or /sys, whose reads may stop
 * short of the end), and check()'s errors come first. Both node:fs hosts
 * (this file and denofs.js) read a named descriptor this way.
 * @param {{readSync: typeof import('node:fs').readSync}} fs
 * @param {number} fd @param {Uint8Array} buf @param {Uint8Array} probe 8 bytes of scratch
 * @param {boolean} special @param {() => number} check
 * @returns {number}
 */
export function readSettled(fs, fd, buf, probe, special, check) {
  let n;
  try {
    n = fs.readSync(fd, buf, 0, buf.length, 0);
  } catch (e) {
    check();
    throw e;
  }
  if (n > 0 && n < buf.length && !special) return n;
  const size = check();
  return n === 0 && buf.length > 0 ? 0 : readOpenFile(fs, fd, size, buf, probe, n);
}

/**
 * A FileSystem over node:fs.
 * @param {typeof import('node:fs')} fs the node:fs module
 * @param {{root?: string}} [opts] root: serve this host directory as "/" (realpath strips it back off)
 * @param {any} [runtimeFS] the runtime's own node:fs (internal): when fs is
 *   it, a descriptor is the kernel's, and /proc/self/fd names it alone
 * @returns {import('../index.js').FileSystem}
 */
export function createNodeFS(fs, opts = {}, runtimeFS = undefined) {
  const B = globalThis.Buffer;
  const probe = new Uint8Array(8);
  const encoder = new TextEncoder();
  const openFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

  /** @type {Buffer | null} */
  let root = null;
  if (opts.root != null && opts.root !== '') {
    const r = fs.realpathSync.native(opts.root);
    if (r !== '/') root = B.from(r);
  }
  const rootLen = root ? root.length : 0;

  /** The host path of an engine path (a Uint8Array view into guest memory). */
  const host = root
    ? (/** @type {Uint8Array} */ p) => B.concat([/** @type {Buffer} */ (root), p])
    : (/** @type {Uint8Array} */ p) => B.from(p.buffer, p.byteOffset, p.byteLength);

  let direntBytes = true;

  /** @param {any[]} list */
  const entries = (list) => {
    const out = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const d = list[i];
      out[i] = { name: d.name, type: kind(d) };
    }
    return out;
  };

  const realpathNative = fs.realpathSync.native ?? fs.realpathSync;

  /** @param {number} fd @param {number} size @param {Uint8Array} buf */
  const readInto = (fd, size, buf) => readOpenFile(fs, fd, size, buf, probe);

  /** @param {any} a @param {any} b */
  const sameFile = (a, b) => a.ino === b.ino && a.dev === b.dev;

  /**
   * Whether the engine path real (bytes) lies inside within (bytes or text).
   * @param {Uint8Array} real @param {Uint8Array | string} within
   */
  const inside = (real, within) => {
    const wb = typeof within === 'string' ? encoder.encode(within) : within;
    const w = B.from(wb.buffer, wb.byteOffset, wb.byteLength); // a view, not a copy
    const r = B.from(real.buffer, real.byteOffset, real.byteLength);
    if (w.length === 1 && w[0] === 0x2f) return r.length > 0 && r[0] === 0x2f;
    return r.equals(w) || (r.length > w.length && r[w.length] === 0x2f && r.subarray(0, w.length).equals(w));
  };

  let procFD = true; // /proc/self/fd names descriptors; false once it does not
  // The runtime's own descriptors are the kernel's: the kernel's name for
  // one is the file opened, and needs no second look. Another fs object's
  // "descriptor" might be a number the kernel gives another file, so its
  // name must then still be the file opened (device and inode).
  const trustFD = kernelDescriptors(fs, runtimeFS);

  /**
   * Whether the open file fd (stat st) lies inside within.
   * @param {number} fd @param {any} st @param {Uint8Array | string} within @param {any} p
   */
  const openedWithin = (fd, st, within, p) => {
    if (procFD) {
      let name = null;
      try {
        const link = /** @type {Uint8Array} */ (fs.readlinkSync('/proc/self/fd/' + fd, { encoding: 'buffer' }));
        name = B.from(link.buffer, link.byteOffset, link.byteLength); // a Buffer (Deno's node:fs gives a Uint8Array)
      } catch {
        procFD = false;
      }
      if (name) {
        const v = virtual(name);
        if (v === null || !inside(v, within)) return false;
        if (trustFD) return true;
        const now = fs.lstatSync(name, { throwIfNoEntry: false });
        return now != null && sameFile(now, st);
      }
    }
    const hp = host(p);
    const r1 = /** @type {Buffer} */ (realpathNative(hp, { encoding: 'buffer' }));
    const v = virtual(r1);
    if (v === null || !inside(v, within)) return false;
    const now = fs.lstatSync(r1, { throwIfNoEntry: false });
    if (now == null || !sameFile(now, st)) return false;
    const r2 = /** @type {Buffer} */ (realpathNative(hp, { encoding: 'buffer' }));
    return r2.equals(r1);
  };

  /**
   * The open file fd, checked as a regular file: its stat.
   * @param {number} fd
   */
  const regular = (fd) => {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw withCode(new Error('EISDIR: illegal operation on a directory'), 'EISDIR');
    if (!st.isFile()) throw withCode(new Error('EINVAL: not a regular file'), 'EINVAL');
    return st;
  };

  /**
   * A stat's version in numbers (a third cheaper than in bigints); its
   * times keep a quarter of a microsecond.
   * @param {import('node:fs').Stats} s
   */
  const versionOfStat = (s) => ({ dev: s.dev, ino: s.ino, size: s.size, mtimeNs: Math.round(s.mtimeMs * 1e6), ctimeNs: Math.round(s.ctimeMs * 1e6) });

  /**
   * The version of the file open at fd, after its bytes were read.
   * @param {number} fd
   */
  const fdVersion = (fd) => {
    const s = fs.fstatSync(fd);
    if (Number.isSafeInteger(s.ino) && Number.isSafeInteger(s.dev)) return versionOfStat(s);
    const b = fs.fstatSync(fd, { bigint: true });
    return { dev: b.dev, ino: b.ino, size: b.size, mtimeNs: b.mtimeNs, ctimeNs: b.ctimeNs };
  };

  /**
   * readFileWithin over the runtime's own descriptors where the kernel
   * names them (the usual case on Linux): the kernel's name for fd must lie
   * inside within (else fstat's errors, EISDIR and EINVAL, before EXDEV);
   * then readSettled. -1: /proc cannot name fd.
   * @param {number} fd @param {Uint8Array | string} within @param {Uint8Array} buf
   */
  const readNamedWithin = (fd, within, buf) => {
    const proc = '/proc/self/fd/' + fd;
    let ok, special;
    try {
      // As a string (1-1.5 us less than a Buffer in Node): an ASCII name
      // is its own bytes; any other is asked for again as bytes.
      const text = /** @type {string} */ (fs.readlinkSync(proc));
      if (isASCII(text)) {
        ok = insideASCII(text, within);
        special = text.startsWith('/proc/') || text.startsWith('/sys/');
      } else {
        const link = /** @type {Uint8Array} */ (fs.readlinkSync(proc, { encoding: 'buffer' }));
        const name = B.from(link.buffer, link.byteOffset, link.byteLength); // a Buffer (Deno's node:fs gives a Uint8Array)
        const v = virtual(name);
        ok = v !== null && inside(v, within);
        special = pseudo(name);
      }
    } catch {
      procFD = false;
      return -1;
    }
    if (!ok) {
      regular(fd);
      throw withCode(new Error('EXDEV: the file opened lies outside ' + String(within)), 'EXDEV');
    }
    return readSettled(fs, fd, buf, probe, special, () => regular(fd).size);
  };

  /**
   * Whether the host realpath name (an ASCII string, so its own bytes)
   * lies inside within (an engine path), as virtual and inside decide for
   * bytes.
   * @param {string} name @param {Uint8Array | string} within
   */
  const insideASCII = (name, within) => {
    const w = typeof within === 'string' ? encoder.encode(within) : within;
    const wRoot = w.length === 1 && w[0] === 0x2f;
    let at = 0;
    if (root) {
      if (name.length < rootLen) return false;
      for (let i = 0; i < rootLen; i++) if (name.charCodeAt(i) !== root[i]) return false;
      if (name.length === rootLen) return wRoot; // the root itself: "/"
      if (name.charCodeAt(rootLen) !== 0x2f) return false;
      at = rootLen;
    }
    const n = name.length - at;
    if (wRoot) return n > 0 && name.charCodeAt(at) === 0x2f;
    if (n < w.length || (n > w.length && name.charCodeAt(at + w.length) !== 0x2f)) return false;
    for (let i = 0; i < w.length; i++) if (name.charCodeAt(at + i) !== w[i]) return false;
    return true;
  };

  /**
   * The engine path of a host realpath, or null outside the served tree.
   * @param {Buffer} r
   * @returns {Uint8Array | null}
   */
  const virtual = (r) => {
    if (!root) return r;
    if (r.length === rootLen && r.equals(root)) return B.from('/');
    if (r.length > rootLen && r[rootLen] === 0x2f && r.subarray(0, rootLen).equals(root)) return r.subarray(rootLen);
    return null;
  };

  return {
    bytePaths: true,

    readDir(p) {
      const h = host(p);
      if (direntBytes) {
        const list = fs.readdirSync(h, { withFileTypes: true, encoding: 'buffer' });
        if (list.length === 0 || typeof list[0].isFile === 'function') return entries(list);
        // Bun ignores withFileTypes with encoding 'buffer': list by name
        // from now on (names that are not UTF-8 then come back lossy).
        direntBytes = false;
      }
      return entries(fs.readdirSync(h, { withFileTypes: true }));
    },

    stat(p) {
      const s = fs.statSync(host(p), { throwIfNoEntry: false });
      return s ? kind(s) : null;
    },

    lstat(p) {
      const s = fs.lstatSync(host(p), { throwIfNoEntry: false });
      return s ? kind(s) : null;
    },

    readFile(p) {
      return fs.readFileSync(host(p));
    },

    // The file's device, inode, size and times (ABI.md#file_version). A
    // stat in numbers costs a third less than one in bigints;
    // its times keep a quarter of a microsecond, and an inode number too
    // large for a double is asked again in bigints.
    // No link is followed at the path's end: a version stands for a read
    // that allowed none there (SPEC S61).
    fileVersion(p) {
      const h = host(p);
      const s = fs.lstatSync(h, { throwIfNoEntry: false });
      if (!s) return null;
      if (s.isDirectory()) throw withCode(new Error('EISDIR: illegal operation on a directory'), 'EISDIR');
      if (!s.isFile()) throw withCode(new Error('EINVAL: not a regular file'), 'EINVAL');
      if (!Number.isSafeInteger(s.ino) || !Number.isSafeInteger(s.dev)) {
        const b = fs.lstatSync(h, { bigint: true });
        return { dev: b.dev, ino: b.ino, size: b.size, mtimeNs: b.mtimeNs, ctimeNs: b.ctimeNs };
      }
      return versionOfStat(s);
    },

    readFileInto(p, buf) {
      const fd = fs.openSync(host(p), openFlags);
      try {
        const st = fs.fstatSync(fd);
        if (st.isDirectory()) throw withCode(new Error('EISDIR: illegal operation on a directory'), 'EISDIR');
        return readInto(fd, st.size, buf);
      } finally {
        fs.closeSync(fd);
      }
    },

    // SPEC S44: read only when the file actually opened lies inside within
    // (ABI.md#read_file_within). On Linux the kernel names the descriptor
    // (/proc/self/fd), and the name must still be that same file (so a
    // runtime whose descriptors were not the kernel's could not fool it);
    // elsewhere the realpath, checked before and after, must be the opened
    // file (device and inode).
    // With version given, its fields are set to the version of the file
    // opened, from the descriptor's fstat (ABI.md#read_file_within).
    readFileWithin(within, p, buf, version) {
      const fd = fs.openSync(host(p), openFlags);
      try {
        if (trustFD && procFD) {
          const n = readNamedWithin(fd, within, buf);
          if (n >= 0) {
            if (version) Object.assign(version, fdVersion(fd));
            return n;
          }
        }
        const st = fs.fstatSync(fd);
        if (st.isDirectory()) throw withCode(new Error('EISDIR: illegal operation on a directory'), 'EISDIR');
        if (!st.isFile()) throw withCode(new Error('EINVAL: not a regular file'), 'EINVAL');
        if (!openedWithin(fd, st, within, p)) throw withCode(new Error('EXDEV: the file opened lies outside ' + String(within)), 'EXDEV');
        const n = readInto(fd, st.size, buf);
        if (version) Object.assign(version, fdVersion(fd));
        return n;
      } finally {
        fs.closeSync(fd);
      }
    },

    realpath(p) {
      const r = /** @type {Buffer} */ (realpathNative(host(p), { encoding: 'buffer' }));
      if (!root) return r;
      if (r.length === rootLen && r.equals(root)) return '/';
      if (r.length > rootLen && r[rootLen] === 0x2f && r.subarray(0, rootLen).equals(root)) return r.subarray(rootLen);
      // Outside the served tree: to the engine it does not exist (as osfs.Dir).
      throw withCode(new Error('ENOENT: outside the root'), 'ENOENT');
    },
  };
}
