// @ts-check
// Change watching: Skilldex.watch(ctx, onChange, opts).
//
// A watch runs a discovery that records what it read (deps.js), watches the
// directories that record names, and after a change waits for a quiet
// period of debounceMs, runs the discovery again and calls onChange only
// when the reply's digest (SPEC S54) differs from the last one, or a loaded
// skill's SKILL.md changed, body included (S59: the version of the file, one
// stat each, moved; deps.js DiscoveryTracker). After every
// discovery the watched set is brought up to date (a new root, a swapped
// symlink, a deleted folder), and when it grew, one more discovery runs:
// a file written between the discovery's read and the new watcher's start
// would otherwise go unnoticed.
//
// # Rules
//
//   - Events are ignored unless they concern an entry the discovery depended
//     on: any entry of a listed root, the SKILL.md of a skill folder, the
//     next component towards a missing root, the registry or a .git probe.
//     An unrelated file in a watched directory costs nothing.
//   - A burst of events gives one discovery debounceMs after the last of
//     them; events during a discovery give one more after it. A stream of
//     events that never pauses still gives a discovery every
//     max(1000, 10 × debounceMs) ms.
//   - At most maxWatchers directories are watched (default 1000; one inotify
//     watch each on Linux, counted against fs.inotify.max_user_watches).
//     Past the bound, the skill folders that do not fit are not watched one
//     by one: adding, removing or renaming them is still seen (their root is
//     watched), and edits of their SKILL.md are picked up by a discovery
//     every pollMs (default 5000). The same polling covers directories the
//     OS refused to watch (ENOSPC, EMFILE).
//   - Node and Bun use node:fs.watch, one per directory; Deno uses one
//     Deno.watchFs over all of them (each Deno.watchFs is an inotify
//     instance, of which a user has only 128).
//   - Context files (XCSH.md) are not watched: a discover result does not
//     depend on them, so its digest cannot change with them. The first
//     discovery's result is handle.ready, not an onChange call.
//   - With persistent: true (the default, as fs.watch) an open watch keeps
//     the process alive; with false it does not (Node, Bun; Deno's
//     watchFs always does). close() ends every watcher and timer, and so
//     does an abort of opts.signal (SPEC S74).

import { abortable, throwIfAborted } from './abort.js';

/** @typedef {import('./deps.js').WatchPlan} WatchPlan */
/** @typedef {import('./deps.js').WatchDir} WatchDir */

/**
 * @typedef {{plan: WatchPlan, key: string, added: string[], removed: string[], changed: string[]}} WatchInfo
 * @typedef {{result: any, watch: WatchInfo | null}} WatchedDiscovery
 * @typedef {{debounceMs?: number, maxWatchers?: number, pollMs?: number, persistent?: boolean,
 *   onError?: (e: unknown) => void, signal?: AbortSignal}} WatchOptions
 */

export const DEFAULT_DEBOUNCE_MS = 100;
export const DEFAULT_MAX_WATCHERS = 1000;
export const DEFAULT_POLL_MS = 5000;

/** @type {any} */
const g = globalThis;
const isDeno = typeof g.Deno?.watchFs === 'function';

/**
 * Watchers over a set of directories, one OS watcher each (node:fs.watch).
 */
class NodeWatchers {
  /**
   * @param {typeof import('node:fs')} fs
   * @param {(dir: string, name: string | null) => void} onEvent
   * @param {boolean} persistent
   */
  constructor(fs, onEvent, persistent) {
    this.fs = fs;
    this.onEvent = onEvent;
    this.persistent = persistent;
    /** @type {Map<string, {id: string, w: import('node:fs').FSWatcher}>} */
    this.watchers = new Map();
  }

  /**
   * Watch exactly dirs. Returns how many could not be watched.
   * @param {WatchDir[]} dirs
   */
  set(dirs) {
    const keep = new Set(dirs.map((d) => d.path));
    for (const [path, x] of this.watchers) {
      if (!keep.has(path)) {
        x.w.close();
        this.watchers.delete(path);
      }
    }
    let failed = 0;
    for (const d of dirs) {
      const x = this.watchers.get(d.path);
      if (x && x.id === d.id) continue;
      if (x) x.w.close();
      this.watchers.delete(d.path);
      try {
        const w = this.fs.watch(d.path, { persistent: this.persistent }, (_type, name) => {
          this.onEvent(d.path, name == null ? null : String(name));
        });
        w.on('error', () => {
          // The directory went away: drop the watcher and rediscover.
          w.close();
          if (this.watchers.get(d.path)?.w === w) this.watchers.delete(d.path);
          this.onEvent(d.path, null);
        });
        this.watchers.set(d.path, { id: d.id, w });
      } catch {
        failed++;
        this.onEvent(d.path, null);
      }
    }
    return failed;
  }

  get size() {
    return this.watchers.size;
  }

  close() {
    for (const x of this.watchers.values()) x.w.close();
    this.watchers.clear();
  }
}

/**
 * One Deno.watchFs per directory (Deno multiplexes them over one inotify
 * instance). A directory reached through a symlink is watched at its real
 * path: Deno's watchers of one path share state, and closing the watcher of
 * a link's old target would also end the new one when both have the link's
 * path (seen with Deno 2.9 when a linked skill folder is swapped).
 */
class DenoWatchers {
  /** @param {(dir: string, name: string | null) => void} onEvent */
  constructor(onEvent) {
    this.onEvent = onEvent;
    /** @type {Map<string, {id: string, w: any}>} */
    this.watchers = new Map();
  }

  /** @param {WatchDir[]} dirs */
  set(dirs) {
    const keep = new Set(dirs.map((d) => d.path));
    for (const [path, x] of this.watchers) {
      if (!keep.has(path)) {
        this.stop(x.w);
        this.watchers.delete(path);
      }
    }
    let failed = 0;
    for (const d of dirs) {
      const x = this.watchers.get(d.path);
      if (x && x.id === d.id) continue;
      if (x) this.stop(x.w);
      this.watchers.delete(d.path);
      const at = d.real ?? d.path;
      let w;
      try {
        w = g.Deno.watchFs(at, { recursive: false });
      } catch {
        failed++;
        this.onEvent(d.path, null);
        continue;
      }
      this.watchers.set(d.path, { id: d.id, w });
      (async () => {
        try {
          for await (const ev of w) {
            for (const p of ev.paths) {
              const s = String(p);
              const i = s.lastIndexOf('/');
              // An event on the directory itself (deleted, moved) has no entry name.
              this.onEvent(d.path, s === at ? null : s.slice(0, i) === at ? s.slice(i + 1) : null);
            }
          }
        } catch {
          // the watcher failed: rediscover, which sets it up again
          if (this.watchers.get(d.path)?.w === w) this.onEvent(d.path, null);
        }
      })();
    }
    return failed;
  }

  /** @param {any} w */
  stop(w) {
    try {
      w.close();
    } catch {
      // already closed
    }
  }

  get size() {
    return this.watchers.size;
  }

  close() {
    for (const x of this.watchers.values()) this.stop(x.w);
    this.watchers.clear();
  }
}

/**
 * Start a watch.
 * @param {{discover: () => Promise<WatchedDiscovery>, end: () => Promise<void>, nodeFS: () => Promise<typeof import('node:fs')>}} source
 * @param {(change: {result: any, added: any[], removed: any[], changed: any[]}) => void} onChange
 * @param {WatchOptions} [opts]
 */
export function startWatch(source, onChange, opts = {}) {
  const debounceMs = Math.max(0, opts.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  const maxWatchers = Math.max(1, Math.floor(opts.maxWatchers ?? DEFAULT_MAX_WATCHERS));
  const pollMs = Math.max(100, opts.pollMs ?? DEFAULT_POLL_MS);
  const maxWaitMs = Math.max(1000, 10 * debounceMs);
  const persistent = opts.persistent !== false;
  const report = (/** @type {unknown} */ e) => {
    if (opts.onError) opts.onError(e);
  };

  let closed = false;
  let running = false;
  let dirty = false;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let poller = null;
  let burstStart = 0;
  /** @type {any} */
  let current = null;
  /** @type {string | null} */
  let key = null;
  /** @type {Map<string, string[] | null>} */
  let filters = new Map();
  let watchedPaths = new Set();

  /** @param {ReturnType<typeof setTimeout>} t */
  const unrefIf = (t) => {
    if (!persistent && typeof (/** @type {any} */ (t)).unref === 'function') /** @type {any} */ (t).unref();
    return t;
  };

  /** @param {string} dir @param {string | null} name */
  const onEvent = (dir, name) => {
    if (closed) return;
    if (name !== null) {
      const f = filters.get(dir);
      if (f === undefined || (f !== null && !f.includes(name))) return;
    }
    schedule();
  };

  /** @type {NodeWatchers | DenoWatchers | null} */
  let watchers = null;

  const schedule = () => {
    if (running) {
      dirty = true;
      return;
    }
    const now = Date.now();
    if (!timer) burstStart = now;
    else clearTimeout(timer);
    const wait = Math.min(debounceMs, Math.max(0, burstStart + maxWaitMs - now));
    timer = unrefIf(setTimeout(fire, wait));
  };

  /** @param {WatchPlan} plan */
  const apply = (plan) => {
    filters = new Map(plan.dirs.map((d) => [d.path, d.names]));
    const failed = watchers ? watchers.set(plan.dirs) : 0;
    const grew = plan.dirs.some((d) => !watchedPaths.has(d.path));
    watchedPaths = new Set(plan.dirs.map((d) => d.path));
    const needPoll = plan.unwatched > 0 || failed > 0;
    if (needPoll && !poller) {
      poller = setInterval(() => {
        if (!running && !timer) schedule();
      }, pollMs);
      unrefIf(poller);
    } else if (!needPoll && poller) {
      clearInterval(poller);
      poller = null;
    }
    return grew;
  };

  const fire = async () => {
    timer = null;
    if (closed) return;
    running = true;
    dirty = false;
    try {
      const { result, watch } = await source.discover();
      if (closed || !watch) return;
      if (apply(watch.plan)) dirty = true;
      if (watch.key === key) return;
      key = watch.key;
      const prev = current;
      current = result;
      const byName = (/** @type {any} */ r) => new Map((r?.skills ?? []).map((/** @type {any} */ s) => [s.name, s]));
      const now = byName(result);
      const before = byName(prev);
      try {
        onChange({
          result,
          added: watch.added.map((n) => now.get(n)),
          removed: watch.removed.map((n) => before.get(n)),
          changed: watch.changed.map((n) => now.get(n)),
        });
      } catch (e) {
        report(e);
      }
    } catch (e) {
      if (!closed) report(e);
    } finally {
      running = false;
      if (dirty && !closed) schedule();
    }
  };

  const signal = opts.signal ?? undefined;
  const ready = abortable((async () => {
    throwIfAborted(signal);
    const fs = await source.nodeFS();
    if (closed) throw new Error('watch: closed before it started');
    watchers = isDeno ? new DenoWatchers(onEvent) : new NodeWatchers(fs, onEvent, persistent);
    const { result, watch } = await source.discover();
    if (!watch) throw new Error('watch: the discovery gave no record');
    current = result;
    key = watch.key;
    if (!closed) apply(watch.plan);
    return result;
  })(), signal);
  ready.catch(() => handle.close());
  // S74: the signal ends the watch, as handle.close() does; ready, if it
  // has not settled, rejects with an AbortError.
  const onAbort = () => handle.close();
  signal?.addEventListener('abort', onAbort, { once: true });

  const handle = {
    /** The first discovery's result, once the watchers are set up; rejects when it fails (the watch is then closed). */
    ready,
    /** The latest result. */
    get result() {
      return current;
    },
    /** Directories watched now. */
    get watching() {
      return watchers ? watchers.size : 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      signal?.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
      if (poller) clearInterval(poller);
      timer = null;
      poller = null;
      watchers?.close();
      await source.end();
    },
  };
  return handle;
}
