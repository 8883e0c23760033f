// @ts-check
// The outside of a worker-mode engine: createSkilldex({worker:
// true}) calls this instead of an in-thread Engine. The module and the
// runtime's own node:fs run in a worker (worker-thread.js), so a discovery
// never blocks the caller's thread; a large reply comes back as its bytes,
// transferred, and is decoded and parsed a few milliseconds at a time
// (reply.js).
//
// # Lifecycle
//
// The worker starts at the first call (or ready()), is reused by every later
// call, and does not keep the process alive while no call is waiting: it is
// unref'd whenever nothing is pending and ref'd while a call is. close()
// waits for the calls already made, then ends the worker; a call after
// close() starts a new one. A worker that dies (a crash of the runtime, not
// of the module: those are handled inside as in-thread) fails the calls
// waiting on it with INTERNAL, and the next call starts a new worker.
//
// # Why node:worker_threads in every runtime
//
// Node, Deno and Bun all have node:worker_threads, and only its Worker can
// be unref'd in all three: Deno's web Worker has no unref and keeps an idle
// process alive. A worker-mode engine therefore needs node:worker_threads
// (there is no default filesystem elsewhere anyway).

import { SkilldexError } from './engine.js';
import { assembleReply } from './reply.js';

/**
 * @typedef {{plan: import('./deps.js').WatchPlan, key: string, added: string[], removed: string[], changed: string[]}} WatchInfo
 * @typedef {{id?: number, stats?: import('../index.js').EngineStats, raw?: string,
 *   cut?: import('./reply.js').CutReply, watch?: WatchInfo | null, error?: {code?: string, name?: string, message: string}, stderr?: string}} Reply
 */

/** The classes an error from the worker is rebuilt with, by name (other names: Error). */
const ERROR_CLASSES = /** @type {Record<string, new (message: string) => Error>} */ ({
  CompileError: WebAssembly.CompileError,
  LinkError: WebAssembly.LinkError,
  RuntimeError: WebAssembly.RuntimeError,
  TypeError,
  RangeError,
  SyntaxError,
});

/**
 * The error a call in the worker failed with, rebuilt on this side: a
 * SkilldexError with its code, or an error of the same class and message.
 * @param {{code?: string, name?: string, message: string}} e
 */
function remoteError(e) {
  if (e.code !== undefined) return new SkilldexError(e.code, e.message);
  const Ctor = ERROR_CLASSES[e.name ?? ''] ?? Error;
  const err = new Ctor(e.message);
  if (Ctor === Error && e.name) err.name = e.name;
  return err;
}

const workerURL = new URL('./worker-thread.js', import.meta.url);

export class WorkerEngine {
  /**
   * @param {{wasm?: unknown, frontmatterWasm?: unknown, stderr?: (text: string) => void}} opts
   */
  constructor(opts) {
    this.wasm = opts.wasm;
    this.frontmatterWasm = opts.frontmatterWasm;
    this.onStderr = opts.stderr;
    /** @type {import('node:worker_threads').Worker | null} */
    this.worker = null;
    /** @type {Promise<import('node:worker_threads').Worker> | null} */
    this.starting = null;
    /** @type {Map<number, {resolve: (r: Reply) => void, reject: (e: unknown) => void}>} */
    this.pending = new Map();
    this.nextId = 1;
    /** @type {import('../index.js').EngineStats} the current worker's engine, as of its last reply */
    this.lastStats = { memoryBytes: 0, instances: 0, frontmatterInstances: 0, frontmatterParses: 0, calls: 0, prefetchedReads: 0 };
    /** counts of workers that ended, so stats() keeps counting across them */
    this.past = { instances: 0, frontmatterInstances: 0, frontmatterParses: 0, calls: 0 };
    /** @type {Set<Promise<Reply>>} calls sent and not answered, for close() */
    this.inflight = new Set();
    /** @type {Promise<unknown>} */
    this.closing = Promise.resolve();
  }

  /**
   * A wasm option (wasm, frontmatterWasm) in a form that can be posted to a worker.
   * @param {unknown} w
   */
  async forWorker(w) {
    if (typeof w === 'function') w = await w();
    if (w === undefined || w instanceof WebAssembly.Module) return w;
    if (w instanceof URL) return w.href;
    if (typeof Response !== 'undefined' && w instanceof Response) return new Uint8Array(await w.arrayBuffer());
    if (w instanceof ArrayBuffer) return new Uint8Array(w.slice(0));
    if (ArrayBuffer.isView(w)) return new Uint8Array(w.buffer, w.byteOffset, w.byteLength).slice();
    return w; // let the worker's compile reject it as in-thread
  }

  /** The worker, started at the first use. */
  start() {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= (async () => {
      try {
        const [wasm, frontmatterWasm] = await Promise.all([this.forWorker(this.wasm), this.forWorker(this.frontmatterWasm)]);
        const { Worker } = await import('node:worker_threads');
        const w = new Worker(workerURL, { workerData: { wasm, frontmatterWasm, stderr: typeof this.onStderr === 'function' } });
        w.unref();
        w.on('message', (/** @type {Reply} */ m) => this.receive(m));
        w.on('error', (e) => this.lost(w, e));
        w.on('exit', (code) => this.lost(w, new Error(`the worker exited with code ${code}`)));
        this.worker = w;
        return w;
      } finally {
        this.starting = null;
      }
    })();
    return this.starting;
  }

  /** @param {Reply} m */
  receive(m) {
    if (m.stderr !== undefined) {
      this.onStderr?.(m.stderr);
      return;
    }
    if (m.stats) this.lastStats = m.stats;
    const p = this.pending.get(/** @type {number} */ (m.id));
    if (!p) return;
    this.pending.delete(/** @type {number} */ (m.id));
    if (this.pending.size === 0) this.worker?.unref();
    if (m.error) p.reject(remoteError(m.error));
    else p.resolve(m);
  }

  /**
   * The worker died or was ended: fail what waits on it.
   * @param {import('node:worker_threads').Worker} w @param {unknown} e
   */
  lost(w, e) {
    if (this.worker !== w) return;
    this.worker = null;
    this.past.instances += this.lastStats.instances;
    this.past.frontmatterInstances += this.lastStats.frontmatterInstances;
    this.past.frontmatterParses += this.lastStats.frontmatterParses;
    this.past.calls += this.lastStats.calls;
    this.lastStats = { memoryBytes: 0, instances: 0, frontmatterInstances: 0, frontmatterParses: 0, calls: 0, prefetchedReads: 0 };
    const err = new SkilldexError('INTERNAL', `the skilldex worker stopped: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /**
   * Send one message and wait for its reply.
   * @param {object} msg
   * @returns {Promise<Reply>}
   */
  async send(msg) {
    await this.closing;
    const w = await this.start();
    const id = this.nextId++;
    /** @type {Promise<Reply>} */
    const p = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) w.ref();
      w.postMessage({ ...msg, id });
    });
    this.inflight.add(p);
    const done = () => this.inflight.delete(p);
    p.then(done, done);
    return p;
  }

  /**
   * The raw reply string of a request (Skilldex.call).
   * @param {string} request
   */
  async call(request) {
    return /** @type {string} */ ((await this.send({ kind: 'call', request, parsed: false })).raw);
  }

  /**
   * The value of a request's reply: parse(raw) for a short or error reply,
   * else the pieces assembled without blocking.
   * @param {string} request
   * @param {(raw: string) => any} parse
   * @param {() => void} [before] called before the request is sent; a throw skips it (an aborted signal)
   */
  async callValue(request, parse, before) {
    before?.();
    const r = await this.send({ kind: 'call', request, parsed: true });
    return r.cut ? assembleReply(r.cut) : parse(/** @type {string} */ (r.raw));
  }

  /**
   * A discovery for a watch: its value and what it depended on.
   * @param {string} request @param {number} session @param {number} max
   * @param {(raw: string) => any} parse
   * @returns {Promise<{result: any, watch: WatchInfo | null}>}
   */
  async callWatched(request, session, max, parse) {
    const r = await this.send({ kind: 'call', request, parsed: true, watch: { session, max } });
    const result = r.cut ? await assembleReply(r.cut) : parse(/** @type {string} */ (r.raw));
    return { result, watch: r.watch ?? null };
  }

  /** @param {number} session */
  async unwatch(session) {
    if (this.worker) await this.send({ kind: 'unwatch', session });
  }

  async ready() {
    await this.send({ kind: 'ready' });
  }

  /** Wait for the calls made so far, then end the worker. */
  close() {
    const waiting = Promise.allSettled(this.inflight);
    this.closing = (async () => {
      await waiting;
      if (this.starting) await this.starting.catch(() => {});
      const w = this.worker;
      if (!w) return;
      this.lost(w, new Error('closed'));
      await w.terminate();
    })();
    return this.closing.then(() => {});
  }

  stats() {
    return {
      memoryBytes: this.lastStats.memoryBytes,
      instances: this.past.instances + this.lastStats.instances,
      frontmatterInstances: this.past.frontmatterInstances + this.lastStats.frontmatterInstances,
      frontmatterParses: this.past.frontmatterParses + this.lastStats.frontmatterParses,
      calls: this.past.calls + this.lastStats.calls,
      prefetchedReads: 0, // the worker's engine reads SKILL.md files itself
    };
  }
}
