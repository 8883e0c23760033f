// @ts-check
// Reading ahead of the engine: the host side of the
// prefetch_within hint (wasm/ABI.md#prefetch_within). A warm discovery spent
// about half its time in the engine and half reading SKILL.md files, one
// after the other on one thread; here a worker thread reads the files the
// engine says it will ask for, with the same readFileWithin of the same
// default filesystem, while the engine works on the ones before, so the two
// halves overlap on a machine with a second core.
//
// # When
//
// Only over the runtime's own default filesystem (index.js passes the
// worker_threads module only then: never a caller's fs object, never the
// recording filesystem of a watch, never in a browser), and only for a hint
// of at least tuning.minRecords (32) reads: a small one is not worth a
// worker. The worker starts at the first such hint after the engine's
// first call (the reads of that hint run inline while it boots): loading
// node:worker_threads and starting a worker cost the engine's thread 10-30
// ms on a loaded 2-core machine, more than a one-shot process's single
// discovery could win back, so a process that discovers once
// never starts one. The worker is unref'd so it never keeps a process
// alive, and ends with the engine's close().
//
// # The answer is the host's own
//
// The list names paths, each to be read against itself (within = path)
// into buf_cap bytes: a record here is its path. A read_file_within call
// is answered from a read ahead only when its within and path are both a
// listed path, byte for byte, and its buffer is buf_cap bytes; the worker
// made exactly that call (the default filesystem's readFileWithin, SPEC
// S44's check included, into a buffer of exactly buf_cap bytes), and its
// result is passed on unchanged: the bytes, the returned size, or an
// error's code. An error without one of the codes of the errno table, or
// anything else the worker cannot pass on as it was, makes the main
// thread read the file inline instead, so it gets what it would have got
// without a worker.
//
// # Claiming work
//
// Each record has a state in shared memory: UNCLAIMED, READING (being
// read), DONE (its result is in its slot), TAKEN (the main thread reads it
// inline). A record is claimed with compareExchange from UNCLAIMED, so no
// read is made twice. The worker reads in the engine's order, from the
// main thread's cursor on (CURSOR: the record after the last one it took;
// the ones before are never asked for again), skipping what is claimed.
// When the engine's thread needs a record:
// - DONE: it takes the bytes from the slot;
// - UNCLAIMED (the worker has not got there: a hint's first records): it
//   reads it inline, and the worker goes on after it;
// - READING (the worker is on it: the worker's reads, slowed by the engine
//   thread's own, take longer than the engine's work on a skill): rather
//   than wait, it reads the next unclaimed records into their slots, as
//   the worker would, until the worker is done with it; with none left,
//   it waits SPIN_MS at most, then reads that one itself (a worker the
//   system has descheduled on a loaded machine never holds it up).
// So both threads read all the time and the worker never sits idle: in a
// warm 1,000-skill discovery under Deno the engine's thread makes about a
// fifth of the reads. (The worker used to read from the last record back
// while the engine's thread read from the first until they met: the
// engine's thread then made 40-60% of the reads, and the worker sat idle
// for the rest of the call.) Records share ARENA_BYTES of slots
// (4096 of 4 KiB, 2048 of 8 KiB) as a ring: record i's is slot i % slots,
// filled only once the cursor has passed record i - slots. A new hint, and
// the end of the engine's call, cancel the previous hint's remaining work.

// # Listing ahead
//
// A discovery lists every skills root before it reads any SKILL.md (core's
// scanContext), and the worker, which has nothing to read then, lists them
// instead: at the start of a call whose request the engine made before,
// the directories that call listed are sent to the worker (startCall),
// which lists them in that order with the same readDir of the same default
// filesystem and writes each listing into shared memory already in
// read_dir's form (wasm/ABI.md#read_dir); the engine's thread, meanwhile
// collecting the garbage of the call before, then copies each one into
// guest memory when the engine asks for that directory (takeDir), or lists
// it itself when the worker has not got to it. Only the list of paths is
// remembered from a call to the next, never an answer: every listing is
// made after the call began, as the engine's own would be (results come
// from this call's reads), and a directory the engine lists that is not on
// the list, or that the worker could not pass on as it was, is listed
// inline. Under Deno a listing costs 1.3 us an entry (a 1,000-skill
// discovery spent 2.5-3 ms of its 30 on its engine's thread listing 18
// directories).
//
// The job makes the stat, lstat and realpath calls of the request's last
// call too, in the order they came among its listings (takeProbe; a
// record is the call's byte, PROBE, then its path): a root's realpath, the
// lstat of a group folder's missing SKILL.md after its read failed, a
// linked folder's stat and realpath. They are answered as listings are:
// only a call of the same kind on the same path, at or after the last
// taken, made in this call. The hint no longer cancels the job, since
// these calls come during the reads as well. They had cost a warm
// 1,000-skill discovery's engine thread about 2.5 ms under Deno (about 70
// calls, a missing path's error the dearest), while the worker had time
// to spare: it is idle while the engine's thread ends the call.
//
// # Reading ahead from the call's start
//
// The engine sends its hint only once its thread has listed every root,
// so the worker, done with its listings, sat idle until then. So the first
// hint of a request is remembered too, as its list of paths, and at the
// start of the request's next call the worker is sent its reads right
// after the listing job (startCall): it starts on them as soon as it has
// listed. They are served only once the engine sends a hint byte for byte
// the same (the same paths and buf_cap): hint then adopts the running job,
// whose reads were all made after the call began, as the engine's own
// would be. Until then take serves none of them, and a different hint
// cancels them. Under Deno the engine's thread then made about 150 of a
// warm 1,000-skill discovery's reads instead of 200, and the hint's import
// took 0.1 ms instead of 0.5-0.9.

/**
 * minRecords: a hint with fewer records than this is not read ahead (the
 * worker is not worth it). Tests lower it to read the small workspaces of
 * the conformance corpus ahead too.
 */
export const tuning = { minRecords: 32 };

/** A hint whose buf_cap is larger than this is not read ahead (its slots would be large). */
const MAX_SLOT = 64 << 10;

/** The slots' size in bytes, at most (fewer slots for larger caps). */
const ARENA_BYTES = 16 << 20;

/** How many buffers of past hints are kept for reuse (Prefetcher.reuse). */
const POOL = 3;

/**
 * The most data a listing job asks for (a listing takes about 30 bytes an
 * entry: 64 MiB is two million entries); listings beyond it are made
 * inline.
 */
const MAX_DIR_DATA = 64 << 20;

/** A listing job of fewer directories than this is not sent (the worker is not worth waking). */
const MIN_DIRS = 4;

/** Requests whose directories are remembered (startCall), the most recent ones. */
const KEEP_REQUESTS = 4;

/**
 * How long the engine's thread waits for a listing the worker is making
 * before it lists the directory itself (a listing of a hundred entries
 * takes Deno 0.1-0.3 ms; a worker the system has descheduled may take
 * milliseconds).
 */
const DIR_SPIN_MS = 0.5;

/** read_dir's entry types (wasm/ABI.md#read_dir; engine.js TYPE). */
const DIR_TYPE = /** @type {Record<string, number>} */ ({ other: 0, file: 1, dir: 2, symlink: 3 });

/** The types by DIR_TYPE's numbers: a stat or lstat made ahead passes its answer on as its number. */
const TYPE_NAMES = /** @type {const} */ (['other', 'file', 'dir', 'symlink']);

/**
 * The calls a listing job makes ahead (startCall), by the first byte of
 * each of its records (the path follows): read_dir's, and the probes of
 * stat, lstat and realpath the engine makes around its listings and
 * reads (a root's realpath, a group folder's missing SKILL.md, a linked
 * folder's target).
 */
const PROBE = /** @type {const} */ ({ readDir: 1, lstat: 2, stat: 3, realpath: 4 });

/** A stat or lstat made ahead found nothing (the filesystem's null: ENOENT). */
const MISSING = -2000;

/** The most calls of one call recorded for the next (Prefetcher.takeProbe). */
const MAX_PROBES = 1024;

/**
 * How long the main thread spins on a read the worker is making, when it
 * has none to make for it, before it reads the file itself (a read takes
 * 10-30 us; a worker the system has descheduled may take milliseconds).
 */
const SPIN_MS = 0.05;

// Record states (one Int32 each).
const UNCLAIMED = 0;
const READING = 1;
const DONE = 2;
const TAKEN = 3;

// The control words at the start of the shared buffer (Int32 indexes).
const CANCEL = 0; // 1: the hint is superseded; the worker stops
const FINISHED = 4; // the worker has left this hint: its buffer may be reused
const CURSOR = 5; // the main thread's cursor: it takes no record before it
const NEED = 6; // a listing job: the data bytes its listings needed, when they did not all fit
const CONTROL_WORDS = 8;

/**
 * The error codes a read ahead may end in and be passed on: those of the
 * errno table (ABI.md#errno), which engine.js maps one to one. The result
 * of record i is its size (>= 0), or -1 - the code's index here, or REDO.
 */
export const CODES = ['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'ELOOP', 'EIO', 'EINVAL', 'EFBIG', 'ENAMETOOLONG', 'EPERM', 'EXDEV'];
/** The worker could not pass the result on as it was: the main thread reads the file itself. */
export const REDO = -1000;

/**
 * The records of a hint list (ABI.md#prefetch_within): paths, each
 * followed by a NUL byte. null when the list does not end with one (a
 * path cut short).
 * @param {Uint8Array} list
 * @returns {Uint8Array[] | null}
 */
export function parseHint(list) {
  const end = list.length;
  if (end > 0 && list[end - 1] !== 0) return null;
  const out = [];
  for (let at = 0; at < end; ) {
    const nul = list.indexOf(0, at);
    out.push(list.subarray(at, nul));
    at = nul + 1;
  }
  return out;
}

/**
 * The number of records of a hint list: its NUL bytes.
 * @param {Uint8Array} list
 */
function countRecords(list) {
  let n = 0;
  for (let at = list.indexOf(0); at >= 0; at = list.indexOf(0, at + 1)) n++;
  return n;
}

/**
 * The error a read or a listing made ahead ended in, passed on with its
 * code, without a stack trace: engine.js turns it into an errno at once,
 * and capturing the stack, through the module's frames, cost about 10 us
 * (a warm 1,000-skill discovery passes on about 15).
 * @param {string} code @param {string} what
 */
function codeError(code, what) {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return Object.assign(new Error(`${code}: ${what}`), { code });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** @param {Uint8Array} a @param {Uint8Array} b */
function sameBytes(a, b) {
  const n = a.length;
  if (n !== b.length) return false;
  // From the end: the paths of one hint differ in their last bytes.
  for (let i = n - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether a and b hold the same bytes, compared four at a time where
 * they can be (a hint list is about 100 bytes a record).
 * @param {Uint8Array} a @param {Uint8Array} b
 */
function equalBytes(a, b) {
  const n = a.length;
  if (n !== b.length) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = n >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    while (i < words && wa[i] === wb[i]) i++;
    i <<= 2;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** @param {Uint8Array} b a key for a Map (every byte kept) */
const keyOf = (b) => {
  let s = '';
  for (let i = 0; i < b.length; i += 4096) s += String.fromCharCode.apply(null, /** @type {any} */ (b.subarray(i, i + 4096)));
  return s;
};

/**
 * The shared buffer's layout for count records, slots slots of slotSize
 * bytes and a hint list of listLen bytes (the list travels in the shared
 * buffer: a Uint8Array in the message took Deno 0.4-0.7 ms to deliver, a
 * message of the buffer alone 50 us).
 * @param {number} count @param {number} slots @param {number} slotSize @param {number} [listLen]
 */
export function layout(count, slots, slotSize, listLen = 0) {
  const states = CONTROL_WORDS * 4;
  const results = (states + count * 4 + 7) & ~7;
  const versions = results + count * 8;
  const ring = versions + count * 40;
  const list = ring + slots * slotSize;
  return { states, results, versions, ring, list, bytes: list + listLen };
}

/**
 * One hint as both threads see it: views over one SharedArrayBuffer.
 */
class Hint {
  /**
   * @param {SharedArrayBuffer} sab @param {Uint8Array[]} records the paths
   * @param {number} cap every read's buf_cap
   * @param {number} slots @param {number} slotSize
   * @param {Uint8Array} [list] @param {boolean} [early]
   */
  constructor(sab, records, cap, slots, slotSize, list = new Uint8Array(0), early = false) {
    const count = records.length;
    const at = layout(count, slots, slotSize);
    this.sab = sab;
    this.records = records;
    /** the hint list the records are views of (the engine's copy, never a view of guest memory) */
    this.list = list;
    /** read ahead at the start of the call from the last call's hint (startCall), until the engine sends the same one (hint); its reads are not served before */
    this.early = early;
    this.cap = cap;
    this.slots = slots;
    this.slotSize = slotSize;
    this.ctrl = new Int32Array(sab, 0, CONTROL_WORDS);
    this.states = new Int32Array(sab, at.states, count);
    this.results = new Float64Array(sab, at.results, count);
    /** each read's file version (dev, ino, size, mtimeNs, ctimeNs) from the opened file; ino 0: none */
    this.versions = new BigUint64Array(sab, at.versions, count * 5);
    this.ring = new Uint8Array(sab, at.ring, slots * slotSize);
    this.cursor = 0; // the next record the main thread expects (CURSOR, shared)
    /** @type {Map<string, number> | null} records by path, built at the first read that is not at the cursor */
    this.byPath = null;
  }
}

/**
 * The shared buffer's layout of a listing job of count directories whose
 * paths take listLen bytes (a hint list) and dataLen bytes for their
 * listings: for each directory its state (Int32), where its listing starts
 * in the data (Int32) and its result (Float64: the listing's size in
 * read_dir's form, or -1 - a code's index in CODES, or REDO).
 * @param {number} count @param {number} listLen @param {number} dataLen
 */
export function dirLayout(count, listLen, dataLen) {
  const states = CONTROL_WORDS * 4;
  const starts = states + count * 4;
  const results = (starts + count * 4 + 7) & ~7;
  const list = results + count * 8;
  const data = list + listLen;
  return { states, starts, results, list, data, bytes: data + dataLen };
}

/**
 * One listing job as both threads see it: views over one SharedArrayBuffer.
 */
class DirJob {
  /** @param {SharedArrayBuffer} sab @param {number} count @param {number} listLen */
  constructor(sab, count, listLen) {
    const at = dirLayout(count, listLen, 0);
    this.ctrl = new Int32Array(sab, 0, CONTROL_WORDS);
    this.states = new Int32Array(sab, at.states, count);
    this.starts = new Int32Array(sab, at.starts, count);
    this.results = new Float64Array(sab, at.results, count);
    this.data = new Uint8Array(sab, at.data);
  }
}

/**
 * The read-ahead of one engine.
 */
export class Prefetcher {
  /**
   * @param {() => typeof import('node:worker_threads')} workerThreads loads node:worker_threads (Node, Deno and Bun all have
   *   it, and its Worker can be unref'd in all three)
   * @param {{startAfterCalls?: number, fs?: {readFileWithin?: (within: any, path: any, buf: Uint8Array, version?: any) => number, readDir?: (path: any) => any}}} [opts]
   *   startAfterCalls: the engine's calls (endCall) after which a hint may start the worker; fs: the
   *   default filesystem, which the main thread reads the next records ahead with while it waits for the worker
   */
  constructor(workerThreads, opts = {}) {
    this.workerThreads = workerThreads;
    this.fs = opts.fs ?? null;
    this.startAfterCalls = opts.startAfterCalls ?? 1;
    this.callsEnded = 0;
    /** @type {import('node:worker_threads').Worker | null} */
    this.worker = null;
    /** @type {import('node:worker_threads').MessagePort | null} where hints go to the worker */
    this.port = null;
    /** @type {Int32Array} the doorbell: its word 0 counts the hints sent (see readAheadLoop) */
    this.bell = new Int32Array(0);
    this.broken = false;
    /** @type {Hint | null} */
    this.current = null;
    /** @type {{sab: SharedArrayBuffer, ctrl: Int32Array}[]} the buffers of the last hints, reused once the worker has left them */
    this.pool = [];
    this.stats = { hints: 0, served: 0, inline: 0, waits: 0, helped: 0, listed: 0, early: 0 };
    /** @type {Map<string, Uint8Array[]>} the directories each recent request listed, in order (startCall) */
    this.dirsOf = new Map();
    /** @type {Uint8Array[] | null} the directories the running call lists, or null outside a call */
    this.dirLog = null;
    this.callKey = '';
    /** @type {{job: DirJob, records: Uint8Array[], cursor: number, own: Map<number, Made | null>} | null} the running call's listing job */
    this.dirs = null;
    /** @type {{sab: SharedArrayBuffer, ctrl: Int32Array} | null} the last listing job's buffer, reused once the worker has left it */
    this.dirBuffer = null;
    /** the data bytes a listing job asks for (what the last one needed, when its listings did not fit) */
    this.dirData = 256 << 10;
    /** @type {Map<string, {list: Uint8Array, records: Uint8Array[], cap: number}>} the hint each recent request sent first (startCall) */
    this.hintOf = new Map();
    /** @type {{list: Uint8Array, records: Uint8Array[], cap: number} | null} the first hint the running call sent */
    this.callHint = null;
  }

  /** Start the worker, unless it runs (or could not be started). */
  start() {
    if (this.worker || this.broken) return this.worker;
    try {
      const { Worker, MessageChannel } = this.workerThreads();
      const { port1, port2 } = new MessageChannel();
      const bell = new Int32Array(new SharedArrayBuffer(8));
      // No execArgv: the process's own flags are not the worker's business,
      // and some refuse a worker (Node's --input-type: a program run with -e).
      const w = new Worker(new URL('./prefetch-thread.js', import.meta.url), { execArgv: [], workerData: { port: port2, bell }, transferList: [port2] });
      w.unref();
      port1.unref();
      this.port = port1;
      this.bell = bell;
      // A worker that fails is not started again for this engine: every
      // read is then inline, as without it.
      const fail = () => {
        if (this.worker === w) {
          this.worker = null;
          this.broken = true;
          this.cancel();
        }
      };
      w.on('error', fail);
      w.on('exit', fail);
      this.worker = w;
    } catch {
      this.broken = true;
    }
    return this.worker;
  }

  /**
   * prefetch_within: a copy of the hint list (not a view of guest memory)
   * and the buf_cap of its reads. A hint of fewer than tuning.minRecords
   * reads, of reads over MAX_SLOT bytes, or a malformed one, only cancels
   * the previous one.
   * @param {Uint8Array} list @param {number} cap
   */
  hint(list, cap) {
    const h = this.current;
    const first = this.dirLog !== null && this.callHint === null;
    if (h && h.early && h.cap === cap && equalBytes(h.list, list)) {
      // The hint the worker has been reading since the call began (startCall): the reads it made are this call's.
      h.early = false;
      this.stats.hints++;
      this.stats.early++;
      if (first) this.callHint = { list: h.list, records: h.records, cap };
      return;
    }
    this.cancel();
    if (this.broken || cap > MAX_SLOT || (!this.worker && this.callsEnded < this.startAfterCalls)) return;
    if (countRecords(list) < tuning.minRecords) return;
    const records = parseHint(list);
    if (!records) return;
    if (!this.start()) return;
    if (first) this.callHint = { list, records, cap };
    this.readJob(list, records, cap, false);
  }

  /**
   * Send the worker a hint's reads (readAhead) and make it the current
   * one; early: read ahead from the last call's hint (startCall).
   * @param {Uint8Array} list @param {Uint8Array[]} records @param {number} cap @param {boolean} early
   */
  readJob(list, records, cap, early) {
    const slotSize = Math.max(8, (cap + 7) & ~7);
    const slots = Math.min(records.length, Math.max(1, Math.floor(ARENA_BYTES / slotSize)));
    const at = layout(records.length, slots, slotSize, list.length);
    const need = at.bytes;
    let sab = this.reuse(need);
    if (sab) new Int32Array(sab, 0, layout(records.length, 0, 0).results >> 2).fill(0);
    else sab = new SharedArrayBuffer(Math.max(need, 2 ** Math.ceil(Math.log2(need))));
    new Uint8Array(sab, at.list, list.length).set(list);
    this.current = new Hint(sab, records, cap, slots, slotSize, list, early);
    if (!early) this.stats.hints++;
    this.send({ sab, listAt: at.list, listLen: list.length, cap, slots, slotSize });
  }

  /**
   * Post a job to the worker, then ring the bell: a worker waiting on the
   * bell (it does, for a while after each job) takes the message at once,
   * without going back to its event loop (readAheadLoop).
   * @param {object} job
   */
  send(job) {
    /** @type {import('node:worker_threads').MessagePort} */ (this.port).postMessage(job);
    Atomics.add(this.bell, 0, 1);
    Atomics.notify(this.bell, 0);
  }

  /** Drop the current hint: the worker stops reading for it. */
  cancel() {
    const h = this.current;
    if (!h) return;
    this.current = null;
    Atomics.store(h.ctrl, CANCEL, 1);
    // Its buffer serves a later hint once the worker has left it.
    this.pool.push({ sab: h.sab, ctrl: h.ctrl });
    if (this.pool.length > POOL) {
      let small = 0;
      for (let i = 1; i < this.pool.length; i++) if (this.pool[i].sab.byteLength < this.pool[small].sab.byteLength) small = i;
      this.pool.splice(small, 1);
    }
  }

  /**
   * The smallest pooled buffer of at least need bytes that the worker has
   * left, taken out of the pool; null when none is. A new buffer costs a
   * page fault for each 4 KiB it comes to hold (13-15 us each on the
   * machine measured: a new one of ~400 KB for most roots of a 1,000-skill
   * discovery cost Deno's main thread more than the reads it saved;
   * ), so buffers are reused, and made a power of two in size so
   * that they fit the next roots.
   * @param {number} need
   */
  reuse(need) {
    let best = -1;
    for (let i = 0; i < this.pool.length; i++) {
      const b = this.pool[i];
      if (b.sab.byteLength >= need && Atomics.load(b.ctrl, FINISHED) === 1 && (best < 0 || b.sab.byteLength < this.pool[best].sab.byteLength)) best = i;
    }
    return best < 0 ? null : this.pool.splice(best, 1)[0].sab;
  }

  /**
   * The record of the current hint that path is, at or after the cursor;
   * -1 when none is.
   * @param {Hint} h @param {Uint8Array} path
   */
  find(h, path) {
    const recs = h.records;
    const c = h.cursor;
    if (c < recs.length && sameBytes(recs[c], path)) return c;
    if (!h.byPath) {
      h.byPath = new Map();
      // The first record of a path listed more than once: a later one is
      // found only at the cursor.
      for (let i = recs.length - 1; i >= 0; i--) h.byPath.set(keyOf(recs[i]), i);
    }
    const j = h.byPath.get(keyOf(path));
    return j === undefined || j < c ? -1 : j;
  }

  /**
   * read_file_within's answer from the read-ahead: the size (the bytes in
   * buf), or -1 when the caller must read the file itself: it is not a
   * listed read (within = path, buf_cap = buf.length) at or after the last
   * one taken, or the worker has not read it in time. An error the
   * worker's read ended in is thrown with its code. With version, a read
   * served sets its fields to the version of the file the worker read,
   * from its descriptor, when the filesystem gave one.
   * @param {Uint8Array} within @param {Uint8Array} path @param {Uint8Array} buf exactly cap bytes
   * @param {Record<string, unknown>} [version]
   * @returns {number}
   */
  take(within, path, buf, version) {
    const h = this.current;
    if (!h || h.early || buf.length !== h.cap || !sameBytes(within, path)) return -1;
    const j = this.find(h, path);
    if (j < 0) return -1;
    let s = Atomics.compareExchange(h.states, j, UNCLAIMED, TAKEN);
    if (s === READING) s = this.waitFor(h, j);
    if (s !== DONE) {
      // Read here; the worker goes on after it.
      this.advance(h, j + 1);
      this.stats.inline++;
      return -1;
    }
    const r = h.results[j];
    if (r >= 0) {
      const at = (j % h.slots) * h.slotSize;
      buf.set(h.ring.subarray(at, at + Math.min(r, h.cap)));
    }
    // Only now: the worker may refill record j's slot once the cursor is past it.
    this.advance(h, j + 1);
    if (r >= 0) {
      this.stats.served++;
      if (version && h.versions[j * 5 + 1] !== 0n) {
        const v = h.versions;
        Object.assign(version, { dev: v[j * 5], ino: v[j * 5 + 1], size: v[j * 5 + 2], mtimeNs: v[j * 5 + 3], ctimeNs: v[j * 5 + 4] });
      }
      return r;
    }
    const code = CODES[-1 - r];
    if (r === REDO || code === undefined) {
      this.stats.inline++;
      return -1;
    }
    this.stats.served++;
    throw codeError(code, 'read ahead');
  }

  /**
   * Move the cursor to c: records before it are never taken.
   * @param {Hint} h @param {number} c
   */
  advance(h, c) {
    h.cursor = c;
    Atomics.store(h.ctrl, CURSOR, c);
  }

  /**
   * Wait until the worker has read record j: meanwhile read the next
   * records nobody has claimed into their slots, as the worker would (it
   * then skips them), when there is a filesystem to read them with; then
   * spin for SPIN_MS. Its state then: still READING, the caller reads the
   * file itself, as the worker does (the same call, so the same answer;
   * the worker's is then dropped).
   * @param {Hint} h @param {number} j
   */
  waitFor(h, j) {
    this.stats.waits++;
    if (this.fs) {
      let k = j + 1;
      while (Atomics.load(h.states, j) === READING) {
        while (k < h.records.length && k - h.slots < h.cursor && Atomics.load(h.states, k) !== UNCLAIMED) k++;
        if (k >= h.records.length || k - h.slots >= h.cursor) break;
        if (Atomics.compareExchange(h.states, k, UNCLAIMED, READING) !== UNCLAIMED) continue;
        readRecord(this.fs, h, k);
        this.stats.helped++;
      }
    }
    const spinUntil = performance.now() + SPIN_MS;
    for (;;) {
      for (let i = 0; i < 64; i++) {
        const s = Atomics.load(h.states, j);
        if (s !== READING) return s;
      }
      if (performance.now() > spinUntil) return READING;
    }
  }

  /** The engine's call has ended: its hint's remaining reads are dropped. */
  endCall() {
    this.cancel();
    this.cancelDirs();
    const log = this.dirLog;
    this.dirLog = null;
    if (log) {
      this.hintOf.delete(this.callKey);
      if (this.callHint) {
        this.hintOf.set(this.callKey, this.callHint);
        if (this.hintOf.size > KEEP_REQUESTS) this.hintOf.delete(/** @type {string} */ (this.hintOf.keys().next().value));
      }
      this.callHint = null;
      this.dirsOf.delete(this.callKey);
      if (log.length >= MIN_DIRS) {
        this.dirsOf.set(this.callKey, log);
        if (this.dirsOf.size > KEEP_REQUESTS) this.dirsOf.delete(/** @type {string} */ (this.dirsOf.keys().next().value));
      }
    }
    this.callsEnded++;
  }

  /**
   * A call begins (request: its text, the key of the directories it
   * listed last time): when the worker runs and the same request listed
   * MIN_DIRS directories or more last time, the worker lists them now, in
   * that order (listAhead); the call's own listings are recorded for the
   * next (takeDir).
   * @param {string} request
   */
  startCall(request) {
    this.cancelDirs();
    this.cancel();
    this.dirLog = [];
    this.callHint = null;
    this.callKey = request;
    if (!this.worker || this.broken || !this.port) return;
    this.listJob(request);
    // Then the reads of the hint this request sent last time: the worker
    // starts on them once it has listed the directories, instead of
    // waiting for the engine's hint (which comes only after its thread has
    // listed them all); they are served only if the engine sends the same
    // hint (hint).
    const last = this.hintOf.get(request);
    if (last) this.readJob(last.list, last.records, last.cap, true);
  }

  /**
   * startCall's listing job: the directories request listed last time,
   * when there were MIN_DIRS of them or more.
   * @param {string} request
   */
  listJob(request) {
    const paths = this.dirsOf.get(request);
    if (!paths) return;
    let listLen = 0;
    for (const p of paths) listLen += p.length + 1;
    const at = dirLayout(paths.length, listLen, this.dirData);
    const b = this.dirBuffer;
    let sab;
    if (b && b.sab.byteLength >= at.bytes && Atomics.load(b.ctrl, FINISHED) === 1) {
      sab = b.sab;
      new Int32Array(sab, 0, at.starts >> 2).fill(0); // the control words and the states
    } else {
      sab = new SharedArrayBuffer(2 ** Math.ceil(Math.log2(at.bytes)));
    }
    const list = new Uint8Array(sab, at.list, listLen);
    let k = 0;
    for (const p of paths) {
      list.set(p, k);
      list[k + p.length] = 0;
      k += p.length + 1;
    }
    const job = new DirJob(sab, paths.length, listLen);
    this.dirBuffer = { sab, ctrl: job.ctrl };
    this.dirs = { job, records: paths, cursor: 0, own: new Map() };
    this.send({ dirs: paths.length, sab, listAt: at.list, listLen });
  }

  /** Drop the running call's listing job: the worker stops listing for it. */
  cancelDirs() {
    const d = this.dirs;
    if (!d) return;
    this.dirs = null;
    Atomics.store(d.job.ctrl, CANCEL, 1);
    const need = Atomics.load(d.job.ctrl, NEED);
    if (need > 0) this.dirData = Math.max(this.dirData, need);
  }

  /**
   * read_dir's answer from the listing job: the directory's listing in
   * read_dir's form (a view of shared memory, to be copied at once), or
   * null when the caller must list it itself: it is not on the job's list
   * at or after the last one taken, or the worker has not listed it in
   * time, or could not pass its result on. An error the worker's listing
   * ended in is thrown with its code. Every directory asked for is
   * recorded for the same request's next call.
   * @param {Uint8Array} path
   * @returns {Uint8Array | null}
   */
  takeDir(path) {
    const listed = this.takeProbe('readDir', path);
    return listed === undefined ? null : /** @type {Uint8Array} */ (listed);
  }

  /**
   * The answer of a call the listing job made ahead: readDir (as takeDir),
   * lstat and stat (the filesystem's type, or null for a missing path),
   * realpath (the UTF-8 bytes of the realpath, a view of shared memory to
   * be copied at once); undefined when the caller must make the call
   * itself (as takeDir's null). An error is thrown with its code. Every
   * call asked for (up to MAX_PROBES) is recorded for the same request's
   * next call.
   * @param {keyof typeof PROBE} name @param {Uint8Array} path
   * @returns {Uint8Array | string | null | undefined}
   */
  takeProbe(name, path) {
    const op = PROBE[name];
    if (this.dirLog && this.dirLog.length < MAX_PROBES) {
      const rec = new Uint8Array(1 + path.length);
      rec[0] = op;
      rec.set(path, 1);
      this.dirLog.push(rec);
    }
    const d = this.dirs;
    if (!d) return undefined;
    let j = d.cursor;
    while (j < d.records.length && !sameRecord(d.records[j], op, path)) j++;
    if (j >= d.records.length) return undefined;
    d.cursor = j; // not past it: read_dir and realpath ask again with a larger buffer when the answer did not fit
    const { states, results, starts, data } = d.job;
    let s = Atomics.compareExchange(states, j, UNCLAIMED, TAKEN);
    if (s === TAKEN) {
      // Made here while waiting for the worker (waitForDir), or inline.
      const own = d.own.get(j);
      if (!own) return undefined;
      this.stats.listed++;
      if (own.code) throw codeError(own.code, 'made ahead');
      return own.value;
    }
    if (s === READING) s = this.waitForDir(d, j);
    if (s !== DONE) return undefined;
    const r = results[j];
    if (r >= 0) {
      this.stats.listed++;
      return op === PROBE.lstat || op === PROBE.stat ? TYPE_NAMES[r] : data.subarray(starts[j], starts[j] + r);
    }
    if (r === MISSING) {
      this.stats.listed++;
      return null;
    }
    const code = CODES[-1 - r];
    if (r === REDO || code === undefined) return undefined;
    this.stats.listed++;
    throw codeError(code, 'made ahead');
  }

  /**
   * Wait until the worker has listed directory j: meanwhile list the next
   * directories nobody has claimed, here, as the worker would (in the
   * engine's thread's own memory: the job's data is the worker's), when
   * there is a filesystem to list them with; then spin for DIR_SPIN_MS.
   * Its state then: still READING, the caller lists it itself (a
   * directory of a few thousand entries takes Deno milliseconds: the
   * engine's thread used to list it a second time while the worker did).
   * @param {{job: DirJob, records: Uint8Array[], own: Map<number, Made | null>}} d
   * @param {number} j
   */
  waitForDir(d, j) {
    const { states } = d.job;
    const fs = this.fs;
    if (fs) {
      let k = j + 1;
      while (Atomics.load(states, j) === READING) {
        while (k < d.records.length && Atomics.load(states, k) !== UNCLAIMED) k++;
        if (k >= d.records.length) break;
        if (Atomics.compareExchange(states, k, UNCLAIMED, TAKEN) !== UNCLAIMED) continue;
        d.own.set(k, makeOwn(fs, d.records[k]));
      }
    }
    const until = performance.now() + DIR_SPIN_MS;
    let s;
    while ((s = Atomics.load(states, j)) === READING && performance.now() < until);
    return s;
  }

  /** End the worker (a later hint starts a new one). */
  close() {
    this.cancel();
    this.cancelDirs();
    this.pool = [];
    this.dirsOf.clear();
    this.hintOf.clear();
    this.dirBuffer = null;
    const w = this.worker;
    this.worker = null;
    this.broken = false;
    if (this.port) this.port.close();
    this.port = null;
    return w ? w.terminate().then(() => {}) : Promise.resolve();
  }
}

/**
 * Read record i, which the caller has claimed (READING), with
 * fs.readFileWithin into its slot, and mark it DONE with its result: the
 * size, an error's code, or REDO.
 * @param {{readFileWithin?: (within: any, path: any, buf: Uint8Array, version?: any) => number}} fs
 * @param {Hint} h @param {number} i
 */
function readRecord(fs, h, i) {
  const p = h.records[i];
  const at = (i % h.slots) * h.slotSize;
  let result = REDO;
  h.versions[i * 5 + 1] = 0n;
  try {
    if (typeof fs.readFileWithin === 'function') {
      /** @type {Record<string, unknown>} */
      const v = {};
      const n = fs.readFileWithin(p, p, h.ring.subarray(at, at + h.cap), v);
      if (typeof n === 'number' && n >= 0) result = n;
      // The version of the file read, from its descriptor (ABI.md#read_file_within),
      // as the engine takes a version: whole numbers (a time in ns may be a
      // double past 2^53, the same here and in fileVersion) or bigints.
      const fields = [v.dev, v.ino, v.size, v.mtimeNs, v.ctimeNs].map((x) =>
        typeof x === 'bigint' ? (x >= 0n ? x : null) : typeof x === 'number' && Number.isInteger(x) && x >= 0 ? BigInt(x) : null);
      if (!fields.includes(null) && fields[1] !== 0n) {
        for (let k = 0; k < 5; k++) h.versions[i * 5 + k] = BigInt.asUintN(64, /** @type {bigint} */ (fields[k]));
      }
    }
  } catch (e) {
    const code = e !== null && typeof e === 'object' ? /** @type {any} */ (e).code : undefined;
    const k = typeof code === 'string' ? CODES.indexOf(code) : -1;
    // Not EIO either: an unknown code maps to EIO in engine.js, but it
    // may be the reader's own trouble (EMFILE): read it again inline.
    if (k >= 0 && code !== 'EIO') result = -1 - k;
  }
  h.results[i] = result;
  Atomics.store(h.states, i, DONE);
}

/**
 * The worker's side of one hint (prefetch-thread.js): claim the records
 * in order from the main thread's cursor on, skipping the ones it took,
 * and read each with fs.readFileWithin into its slot, until the last
 * record or the hint is cancelled. A record whose slot still holds one
 * the main thread may take (slots records back, at or after its cursor)
 * waits for the cursor to move.
 * @param {{readFileWithin?: (within: any, path: any, buf: Uint8Array, version?: any) => number}} fs
 * @param {{sab: SharedArrayBuffer, listAt: number, listLen: number, cap: number, slots: number, slotSize: number}} m
 */
export function readAhead(fs, m) {
  // A copy: the records are the worker's own.
  const records = /** @type {Uint8Array[]} */ (parseHint(new Uint8Array(m.sab, m.listAt, m.listLen).slice()));
  const h = new Hint(m.sab, records, m.cap, m.slots, m.slotSize);
  const { ctrl, states, slots } = h;
  const count = records.length;
  try {
    for (let i = 0; ; i++) {
      if (Atomics.load(ctrl, CANCEL) === 1) return;
      let c = Atomics.load(ctrl, CURSOR);
      if (i < c) i = c;
      if (i >= count) return;
      while (i - slots >= c) {
        // The ring is full: the engine's thread has a slot's worth of reads to take.
        Atomics.wait(ctrl, CURSOR, c, 1);
        if (Atomics.load(ctrl, CANCEL) === 1) return;
        c = Atomics.load(ctrl, CURSOR);
      }
      if (i < c) {
        i = c - 1; // the cursor passed it while the worker waited
        continue;
      }
      if (Atomics.compareExchange(states, i, UNCLAIMED, READING) !== UNCLAIMED) continue;
      readRecord(fs, h, i);
    }
  } finally {
    Atomics.store(ctrl, FINISHED, 1);
  }
}

/**
 * A call of a listing job made on the engine's thread while it waits for
 * the worker (Prefetcher.waitForDir): value is its answer as takeProbe
 * returns it, in memory of its own; code an error's (one of CODES).
 * @typedef {{value?: Uint8Array | string | null, code?: string}} Made
 */

/**
 * The call of record rec (its op byte, then its path) made here: a
 * listing in read_dir's form, a type or null, a realpath's UTF-8 bytes;
 * an error with one of CODES (not EIO) as its code; null when it must be
 * made again inline (as listAhead's REDO).
 * @param {any} fs @param {Uint8Array} rec
 * @returns {Made | null}
 */
function makeOwn(fs, rec) {
  const p = rec.subarray(1);
  try {
    switch (rec[0]) {
      case PROBE.readDir: {
        if (typeof fs.readDir !== 'function') return null;
        const entries = fs.readDir(p);
        let size = 0;
        for (let i = 0; i < entries.length; i++) {
          const name = entries[i].name;
          size += 5 + (typeof name === 'string' ? 3 * name.length : name.length); // UTF-8 takes at most 3 bytes a UTF-16 unit
        }
        const buf = new Uint8Array(size);
        const n = encodeListing(entries, buf, 0, ownEncoder);
        return n < 0 ? null : { value: buf.subarray(0, n) };
      }
      case PROBE.lstat:
      case PROBE.stat: {
        const t = rec[0] === PROBE.lstat ? fs.lstat(p) : fs.stat(p);
        if (t == null) return { value: null };
        return typeof t === 'string' && DIR_TYPE[t] !== undefined ? { value: t } : null;
      }
      case PROBE.realpath: {
        const r = fs.realpath(p);
        return typeof r === 'string' ? { value: ownEncoder.encode(r) } : r instanceof Uint8Array ? { value: r } : null;
      }
      default:
        return null;
    }
  } catch (e) {
    const code = e !== null && typeof e === 'object' ? /** @type {any} */ (e).code : undefined;
    return typeof code === 'string' && code !== 'EIO' && CODES.includes(code) ? { code } : null;
  }
}

/**
 * The call of record rec made by the worker into data from at on: its
 * result as a listing job's results hold it (the bytes written for a
 * listing or a realpath, a type's number, MISSING), REDO when what it
 * wrote does not fit (-1 from encodeListing's side: the caller notes the
 * room), or an error thrown.
 * @param {any} fs @param {Uint8Array} rec @param {Uint8Array} data @param {number} at @param {TextEncoder} enc
 * @returns {number} -1: it did not fit
 */
function makeAhead(fs, rec, data, at, enc) {
  const p = rec.subarray(1);
  switch (rec[0]) {
    case PROBE.readDir:
      return typeof fs.readDir === 'function' ? encodeListing(fs.readDir(p), data, at, enc) : REDO;
    case PROBE.lstat:
    case PROBE.stat: {
      const t = rec[0] === PROBE.lstat ? fs.lstat(p) : fs.stat(p);
      if (t == null) return MISSING;
      const k = typeof t === 'string' ? DIR_TYPE[t] : undefined;
      return k === undefined ? REDO : k;
    }
    case PROBE.realpath: {
      const r = fs.realpath(p);
      if (typeof r === 'string') {
        const w = enc.encodeInto(r, data.subarray(at));
        return w.read < r.length ? -1 : w.written;
      }
      if (!(r instanceof Uint8Array)) return REDO;
      if (at + r.length > data.length) return -1;
      data.set(r, at);
      return r.length;
    }
    default:
      return REDO;
  }
}

/**
 * Whether rec is the record of op on path: its op byte, then path's bytes.
 * @param {Uint8Array} rec @param {number} op @param {Uint8Array} path
 */
function sameRecord(rec, op, path) {
  const n = path.length;
  if (rec.length !== n + 1 || rec[0] !== op) return false;
  // From the end: the paths of one job differ in their last bytes.
  for (let i = n - 1; i >= 0; i--) if (rec[i + 1] !== path[i]) return false;
  return true;
}

const ownEncoder = new TextEncoder();

/**
 * entries (a readDir's answer) in read_dir's form (wasm/ABI.md#read_dir:
 * each a type byte, the name's length as a little-endian u32 and its
 * bytes, as engine.js writes them) into data from at on; the bytes
 * written, or -1 when they do not fit.
 * @param {any} entries @param {Uint8Array} data @param {number} at @param {TextEncoder} enc
 */
function encodeListing(entries, data, at, enc) {
  let k = at;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (k + 5 > data.length) return -1;
    const name = e.name;
    let len;
    if (typeof name === 'string') {
      const r = enc.encodeInto(name, data.subarray(k + 5));
      if (r.read < name.length) return -1;
      len = r.written;
    } else {
      if (k + 5 + name.length > data.length) return -1;
      data.set(name, k + 5);
      len = name.length;
    }
    data[k] = DIR_TYPE[e.type] ?? 0;
    data[k + 1] = len & 0xff;
    data[k + 2] = (len >>> 8) & 0xff;
    data[k + 3] = (len >>> 16) & 0xff;
    data[k + 4] = len >>> 24;
    k += 5 + len;
  }
  return k - at;
}

/**
 * The worker's side of a listing job (Prefetcher.startCall): list each
 * directory nobody has claimed, in order, with fs.readDir, into the job's
 * data in read_dir's form, until the last or the job is cancelled. A
 * listing that does not fit in what is left of the data is left to the
 * engine's thread (REDO), and the room it needed noted (NEED) for the
 * next job.
 * @param {{readDir?: (path: any) => any}} fs
 * @param {{dirs: number, sab: SharedArrayBuffer, listAt: number, listLen: number}} m
 */
export function listAhead(fs, m) {
  const records = /** @type {Uint8Array[]} */ (parseHint(new Uint8Array(m.sab, m.listAt, m.listLen).slice()));
  const job = new DirJob(m.sab, m.dirs, m.listLen);
  const { ctrl, states, starts, results, data } = job;
  const enc = new TextEncoder();
  let at = 0;
  try {
    for (let i = 0; i < records.length; i++) {
      if (Atomics.load(ctrl, CANCEL) === 1) return;
      if (Atomics.compareExchange(states, i, UNCLAIMED, READING) !== UNCLAIMED) continue;
      let result = REDO;
      try {
        const op = records[i][0];
        const n = makeAhead(fs, records[i], data, at, enc);
        if (n === -1) {
          Atomics.store(ctrl, NEED, Math.min(2 * data.length, MAX_DIR_DATA)); // twice the room next time
        } else if (n >= 0 && (op === PROBE.readDir || op === PROBE.realpath)) {
          starts[i] = at;
          result = n;
          at += n;
        } else {
          result = n;
        }
      } catch (e) {
        const code = e !== null && typeof e === 'object' ? /** @type {any} */ (e).code : undefined;
        const k = typeof code === 'string' ? CODES.indexOf(code) : -1;
        if (k >= 0 && code !== 'EIO') result = -1 - k;
      }
      results[i] = result;
      Atomics.store(states, i, DONE);
    }
  } finally {
    Atomics.store(ctrl, FINISHED, 1);
  }
}

/** A message to the worker: a listing job (listAhead) or a hint (readAhead). */
const runJob = (/** @type {any} */ fs, /** @type {any} */ m) => (m.dirs ? listAhead(fs, m) : readAhead(fs, m));

/** How long the worker waits on the bell for the next hint before it goes back to its event loop. */
const IDLE_MS = 500;

/** How long the worker waits for a hint whose bell has rung to arrive on its port before it gives up on it. */
const IN_FLIGHT_MS = 50;

/**
 * The worker's loop from a hint message on: read it ahead, then wait on
 * the bell for the next one and take it from the port directly
 * (receiveMessageOnPort), for IDLE_MS after the last: the hints of calls
 * in a row (a discovery sends one for all its roots) then start in
 * microseconds, where a message through the event loop took milliseconds.
 * The bell counts the hints sent and io.received the ones taken: a bell
 * rung before its message has reached the port (under Deno it often has)
 * is waited for in short steps, not until the next hint rings it again
 * (which started each hint of a discovery ~2 ms late, ~24 reads into it;
 * ). Blocking in Atomics.wait keeps no process alive: the
 * runtimes end a worker waiting there when the process exits.
 * @param {Parameters<typeof readAhead>[0]} fs
 * @param {{port: import('node:worker_threads').MessagePort, bell: Int32Array,
 *   receiveMessageOnPort: typeof import('node:worker_threads').receiveMessageOnPort, received: number}} io
 * @param {Parameters<typeof readAhead>[1] | Parameters<typeof listAhead>[1]} first
 */
export function readAheadLoop(fs, io, first) {
  io.received++;
  runJob(fs, first);
  let inFlightSince = -1;
  for (;;) {
    const rung = Atomics.load(io.bell, 0);
    const next = io.receiveMessageOnPort(io.port);
    if (next) {
      io.received++;
      inFlightSince = -1;
      runJob(fs, next.message);
      continue;
    }
    if (rung - io.received > 0) {
      // Rung, not yet here: look again shortly.
      const t = performance.now();
      if (inFlightSince < 0) inFlightSince = t;
      if (t - inFlightSince < IN_FLIGHT_MS) {
        Atomics.wait(io.bell, 0, rung, 0.01);
        continue;
      }
      io.received = rung; // lost (a closed port): wait for the next
    }
    inFlightSince = -1;
    if (Atomics.wait(io.bell, 0, rung, IDLE_MS) === 'timed-out') return;
  }
}
