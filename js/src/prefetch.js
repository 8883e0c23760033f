// @ts-check
// Reading ahead of the engine (issue 13): the host side of the
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
// discovery could win back (issue 10), so a process that discovers once
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
// for the rest of the call; issue 13.) Records share ARENA_BYTES of slots
// (4096 of 4 KiB, 2048 of 8 KiB) as a ring: record i's is slot i % slots,
// filled only once the cursor has passed record i - slots. A new hint, and
// the end of the engine's call, cancel the previous hint's remaining work.

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

/** @param {Uint8Array} a @param {Uint8Array} b */
function sameBytes(a, b) {
  const n = a.length;
  if (n !== b.length) return false;
  // From the end: the paths of one hint differ in their last bytes.
  for (let i = n - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
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
 * message of the buffer alone 50 us; issue 13).
 * @param {number} count @param {number} slots @param {number} slotSize @param {number} [listLen]
 */
export function layout(count, slots, slotSize, listLen = 0) {
  const states = CONTROL_WORDS * 4;
  const results = (states + count * 4 + 7) & ~7;
  const ring = results + count * 8;
  const list = ring + slots * slotSize;
  return { states, results, ring, list, bytes: list + listLen };
}

/**
 * One hint as both threads see it: views over one SharedArrayBuffer.
 */
class Hint {
  /**
   * @param {SharedArrayBuffer} sab @param {Uint8Array[]} records the paths
   * @param {number} cap every read's buf_cap
   * @param {number} slots @param {number} slotSize
   */
  constructor(sab, records, cap, slots, slotSize) {
    const count = records.length;
    const at = layout(count, slots, slotSize);
    this.sab = sab;
    this.records = records;
    this.cap = cap;
    this.slots = slots;
    this.slotSize = slotSize;
    this.ctrl = new Int32Array(sab, 0, CONTROL_WORDS);
    this.states = new Int32Array(sab, at.states, count);
    this.results = new Float64Array(sab, at.results, count);
    this.ring = new Uint8Array(sab, at.ring, slots * slotSize);
    this.cursor = 0; // the next record the main thread expects (CURSOR, shared)
    /** @type {Map<string, number> | null} records by path, built at the first read that is not at the cursor */
    this.byPath = null;
  }
}

/**
 * The read-ahead of one engine.
 */
export class Prefetcher {
  /**
   * @param {() => typeof import('node:worker_threads')} workerThreads loads node:worker_threads (Node, Deno and Bun all have
   *   it, and its Worker can be unref'd in all three)
   * @param {{startAfterCalls?: number, fs?: {readFileWithin?: (within: any, path: any, buf: Uint8Array) => number}}} [opts]
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
    this.stats = { hints: 0, served: 0, inline: 0, waits: 0, helped: 0 };
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
    this.cancel();
    if (this.broken || cap > MAX_SLOT || (!this.worker && this.callsEnded < this.startAfterCalls)) return;
    if (countRecords(list) < tuning.minRecords) return;
    const records = parseHint(list);
    if (!records) return;
    const slotSize = Math.max(8, (cap + 7) & ~7);
    const slots = Math.min(records.length, Math.max(1, Math.floor(ARENA_BYTES / slotSize)));
    const at = layout(records.length, slots, slotSize, list.length);
    const need = at.bytes;
    const w = this.start();
    if (!w) return;
    let sab = this.reuse(need);
    if (sab) new Int32Array(sab, 0, layout(records.length, 0, 0).results >> 2).fill(0);
    else sab = new SharedArrayBuffer(Math.max(need, 2 ** Math.ceil(Math.log2(need))));
    new Uint8Array(sab, at.list, list.length).set(list);
    this.current = new Hint(sab, records, cap, slots, slotSize);
    this.stats.hints++;
    // Posted, then the bell rung: a worker waiting on the bell (it does,
    // for a while after each hint) takes the message at once, without going
    // back to its event loop (readAheadLoop).
    /** @type {import('node:worker_threads').MessagePort} */ (this.port).postMessage({ sab, listAt: at.list, listLen: list.length, cap, slots, slotSize });
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
   * issue 13), so buffers are reused, and made a power of two in size so
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
   * worker's read ended in is thrown with its code.
   * @param {Uint8Array} within @param {Uint8Array} path @param {Uint8Array} buf exactly cap bytes
   * @returns {number}
   */
  take(within, path, buf) {
    const h = this.current;
    if (!h || buf.length !== h.cap || !sameBytes(within, path)) return -1;
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
      return r;
    }
    const code = CODES[-1 - r];
    if (r === REDO || code === undefined) {
      this.stats.inline++;
      return -1;
    }
    this.stats.served++;
    throw Object.assign(new Error(`${code}: read ahead`), { code });
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
    this.callsEnded++;
  }

  /** End the worker (a later hint starts a new one). */
  close() {
    this.cancel();
    this.pool = [];
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
 * @param {{readFileWithin?: (within: any, path: any, buf: Uint8Array) => number}} fs
 * @param {Hint} h @param {number} i
 */
function readRecord(fs, h, i) {
  const p = h.records[i];
  const at = (i % h.slots) * h.slotSize;
  let result = REDO;
  try {
    if (typeof fs.readFileWithin === 'function') {
      const n = fs.readFileWithin(p, p, h.ring.subarray(at, at + h.cap));
      if (typeof n === 'number' && n >= 0) result = n;
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
 * @param {{readFileWithin?: (within: any, path: any, buf: Uint8Array) => number}} fs
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
 * issue 13). Blocking in Atomics.wait keeps no process alive: the
 * runtimes end a worker waiting there when the process exits.
 * @param {Parameters<typeof readAhead>[0]} fs
 * @param {{port: import('node:worker_threads').MessagePort, bell: Int32Array,
 *   receiveMessageOnPort: typeof import('node:worker_threads').receiveMessageOnPort, received: number}} io
 * @param {Parameters<typeof readAhead>[1]} first
 */
export function readAheadLoop(fs, io, first) {
  io.received++;
  readAhead(fs, first);
  let inFlightSince = -1;
  for (;;) {
    const rung = Atomics.load(io.bell, 0);
    const next = io.receiveMessageOnPort(io.port);
    if (next) {
      io.received++;
      inFlightSince = -1;
      readAhead(fs, next.message);
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
