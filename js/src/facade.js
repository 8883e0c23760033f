// @ts-check
// createSkilldex (index.d.ts) over one runtime's platform module
// (src/platform/*.js: how that runtime reads files, hashes and loads the
// module). index.js binds it to the runtime's own file, which package.json
// "imports" chooses ('#platform'); the CLI, which knows its runtime, binds
// it to that file directly: Node resolving '#platform' took a one-shot run
// about 3.5 ms. Every decision is made in Go: this builds
// request JSON, calls the module through engine.js and turns error replies
// into SkilldexErrors.

import { Engine, SkilldexError, compileOnce, checkFileSystem } from './engine.js';
import { startWatch, DEFAULT_MAX_WATCHERS } from './watch.js';
import { abortable, checkSignal, throwIfAborted } from './abort.js';
import { toPath, toPathList } from './paths.js';

/**
 * What a runtime's platform module exports: every one exports these names
 * (the browser's are null where it cannot do a thing), typed here as Node's.
 * @typedef {typeof import('./platform/node.js')} Platform
 */

// Worker mode (src/worker.js) and a watch's dependency tracking
// (src/deps.js, and src/reply.js behind both) load at their first use: a
// program that only calls discover() does not load them.
/** @typedef {import('./worker.js').WorkerEngine} WorkerEngine */
/** @type {Promise<typeof import('./worker.js')> | undefined} */
let workerModule;
/** @type {Promise<typeof import('./deps.js')> | undefined} */
let depsModule;

const defaultWasmKey = {};

const defaultFrontmatterKey = {};
/** @type {WebAssembly.Module | null} the default frontmatter module, compiled once per process on first need */
let defaultFrontmatter = null;

/**
 * The createSkilldex of index.d.ts over platform: its default module,
 * filesystem, working and home directories, SHA-256 and read-ahead.
 * @param {Platform} platform
 */
export function facade(platform) {
  const { loadWasm, loadWasmSync, frontmatterWasmURL, defaultFS, defaultFileSystem, defaultCwd, defaultHome, sha256Sync, replyJSONText, randomFill, asciiReplies, workerThreads } = platform;

  /**
   * The loader of the module for a `wasm` option.
   * @param {import('../index.js').SkilldexOptions['wasm']} wasm
   * @returns {() => Promise<WebAssembly.Module>}
   */
  function moduleLoader(wasm) {
    if (wasm === undefined) return () => compileOnce(loadWasm, defaultWasmKey);
    if (wasm instanceof WebAssembly.Module) return () => Promise.resolve(wasm);
    if (typeof wasm === 'function') return () => compileOnce(wasm, wasm);
    if (wasm instanceof URL) return () => compileOnce(() => fetch(wasm), wasm);
    return () => compileOnce(async () => wasm, wasm);
  }

  /**
   * The loaders of the frontmatter module for a `frontmatterWasm` option: one
   * that may wait, and, where the module can be had without waiting (the
   * shipped file where the runtime reads files synchronously, bytes, a
   * module), one that returns it compiled, which lets the engine load it
   * lazily, only when its scanner first declines a file
   * (wasm/ABI.md#parse_frontmatter); null where it cannot (a URL, a
   * function, a browser).
   * @param {import('../index.js').SkilldexOptions['frontmatterWasm']} wasm
   * @returns {{frontmatter: () => Promise<WebAssembly.Module>, frontmatterSync: (() => WebAssembly.Module) | null}}
   */
  function frontmatterLoaders(wasm) {
    if (wasm === undefined) {
      return {
        frontmatter: () => compileOnce(() => loadWasm(frontmatterWasmURL), defaultFrontmatterKey),
        frontmatterSync: typeof loadWasmSync === 'function'
          ? () => (defaultFrontmatter ??= new WebAssembly.Module(loadWasmSync(frontmatterWasmURL)))
          : null,
      };
    }
    if (wasm instanceof WebAssembly.Module) return { frontmatter: () => Promise.resolve(wasm), frontmatterSync: () => wasm };
    if (typeof wasm === 'function') return { frontmatter: () => compileOnce(wasm, wasm), frontmatterSync: null };
    if (wasm instanceof URL) return { frontmatter: () => compileOnce(() => fetch(wasm), wasm), frontmatterSync: null };
    /** @type {WebAssembly.Module | null} */
    let compiled = null;
    return {
      frontmatter: () => compileOnce(async () => wasm, wasm),
      frontmatterSync: () => (compiled ??= new WebAssembly.Module(/** @type {BufferSource} */ (wasm))),
    };
  }

  /** @type {import('../index.js').createSkilldex} */
  function createSkilldex(opts = {}) {
    if (opts.worker && opts.fs) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        'createSkilldex: a worker-mode engine reads files with the runtime\'s own filesystem inside its worker, and a custom fs object cannot be moved into a worker: drop `fs`, or drop `worker: true` to use it in-thread',
      );
    }
    if (opts.fs !== undefined) checkFileSystem(opts.fs); // refused at once, not at the first call
    /** @type {Engine | WorkerEngine | undefined} */
    let engineRef;
    /** @type {Promise<{engine: Engine | WorkerEngine, processDefaults: boolean, base?: import('../index.js').FileSystem}> | undefined} */
    let setup;
    const init = () =>
      (setup ??= (async () => {
        let fs = opts.fs;
        if (!fs) {
          const nfs = defaultFS();
          if (!nfs) throw new SkilldexError('INVALID_ARGUMENT', 'no default filesystem in this runtime: pass opts.fs');
          if (!opts.worker) fs = defaultFileSystem();
        }
        const engine = opts.worker
          ? new (await (workerModule ??= import('./worker.js'))).WorkerEngine({ wasm: opts.wasm, frontmatterWasm: opts.frontmatterWasm, stderr: opts.stderr })
          : new Engine({ fs: /** @type {import('../index.js').FileSystem} */ (fs), module: moduleLoader(opts.wasm), ...frontmatterLoaders(opts.frontmatterWasm), stderr: opts.stderr, sha256: sha256Sync, jsonText: replyJSONText, randomFill,
            // Reading SKILL.md files ahead on a worker thread, over the default filesystem only (src/prefetch.js).
            workerThreads: opts.fs ? null : workerThreads });
        engineRef = engine;
        return { engine, processDefaults: !opts.fs, base: opts.fs ? undefined : fs };
      })());

    /**
     * What a relative path resolves against (S74): the process's working
     * directory where the engine reads the runtime's own filesystem; none
     * with a custom fs (a browser has no other).
     * @param {boolean} processDefaults
     */
    const pathBase = (processDefaults) =>
      processDefaults ? () => processValue('working directory', 'cwd', defaultCwd, 'a relative path') : null;

    /**
     * The load-context fields of a request: the call's, over the options',
     * over the process's (with the default filesystem only), as absolute
     * paths (S74: a string or a file: URL, a relative one resolved against
     * the process's working directory). The process is asked only for what
     * is still missing, so a Deno program that passes cwd and home needs no
     * permission to know them (ask the runtime only for what a call uses).
     * @param {import('../index.js').LoadContext | undefined} c
     */
    const withCtx = async (c) => {
      const { processDefaults } = await init();
      const base = pathBase(processDefaults);
      let cwd = toPath(c?.cwd ?? opts.cwd, 'cwd', base);
      let home = toPath(c?.home ?? opts.home, 'home', base);
      if (processDefaults) {
        cwd ??= processValue('working directory', 'cwd', defaultCwd);
        home ??= processValue('home directory', 'home', defaultHome);
      }
      let options = c?.options ?? opts.options;
      if (options && Array.isArray(options.customDirectories)) {
        options = { ...options, customDirectories: toPathList(options.customDirectories, 'options.customDirectories') };
      }
      return { cwd, home, options };
    };

    /**
     * A path argument of a call (scanDir's and validate's dir), absolute.
     * @param {unknown} p @param {string} what
     */
    const pathArg = async (p, what) => toPath(p, what, pathBase((await init()).processDefaults));

    /** @type {Promise<string[]> | undefined} */
    let envNames;
    /**
     * SPEC S66: with the default filesystem, a request that uses the agent
     * table (options.agents, or where) and gives no env gets the process's
     * values of the variables the table reads, as cwd and home come from
     * the process. Where the runtime refuses them (Deno without
     * --allow-env), none.
     * @template {import('../index.js').Request} R
     * @param {R} request
     * @returns {Promise<R>}
     */
    const withProcessEnv = async (request) => {
      const options = 'options' in request ? request.options : undefined;
      const uses = request.op === 'where' || (options?.agents?.length ?? 0) > 0;
      if (!uses || options?.env != null || !(await init()).processDefaults) return request;
      const names = await (envNames ??= run({ op: 'agents' }).then((t) => [...new Set(t.agents.flatMap((/** @type {{env: string[]}} */ a) => a.env))]));
      /** @type {Record<string, string>} */
      const env = {};
      for (const name of names) {
        try {
          const v = globalThis.process?.env?.[name];
          if (typeof v === 'string') env[name] = v;
        } catch {
          return request; // the runtime refuses the environment
        }
      }
      return { ...request, options: { ...options, env } };
    };

    /**
     * @param {import('../index.js').Request} request
     * @param {AbortSignal} [signal] skips the call when it aborts before the call's turn
     */
    const run = async (request, signal) => {
      const { engine } = await init();
      throwIfAborted(signal);
      request = await withProcessEnv(request);
      // The ASCII transport where the runtime parses it faster (platform/*.js asciiReplies): the same value.
      return engine.callValue(JSON.stringify(asciiReplies ? { ...request, asciiReply: true } : request), parse, () => throwIfAborted(signal));
    };

    /**
     * f, run under the signal of a call's options (S74): rejected with an
     * AbortError when the signal has aborted or aborts before the result.
     * @template T
     * @param {{signal?: AbortSignal} | undefined} o
     * @param {(signal: AbortSignal | undefined) => Promise<T>} f
     * @returns {Promise<T>}
     */
    const withSignal = (o, f) => {
      let signal;
      try {
        signal = checkSignal(o?.signal);
      } catch (e) {
        return Promise.reject(e);
      }
      return abortable((async () => {
        throwIfAborted(signal);
        return f(signal);
      })(), signal);
    };

    /** @type {ReturnType<typeof import('./deps.js').recordingFS> | undefined} */
    let recorder;
    let watches = 0;
    /** @type {import('../index.js').Skilldex['watch']} */
    const watch = (ctx, onChange, wopts = {}) => {
      checkSignal(wopts.signal);
      if (opts.fs) {
        throw new SkilldexError('INVALID_ARGUMENT', 'watch: watching needs the runtime\'s own filesystem; this engine reads a custom fs object (create one without `fs`)');
      }
      const session = ++watches;
      const max = wopts.maxWatchers ?? DEFAULT_MAX_WATCHERS;
      /** @type {import('./deps.js').DiscoveryTracker | undefined} */
      let tracker;
      const nodeFS = () => {
        const nfs = defaultFS();
        if (!nfs) throw new SkilldexError('INVALID_ARGUMENT', 'watch: no filesystem to watch in this runtime');
        return /** @type {typeof import('node:fs')} */ (/** @type {any} */ (nfs));
      };
      const source = {
        nodeFS: async () => nodeFS(),
        discover: async () => {
          const { engine, base } = await init();
          const request = JSON.stringify(await withProcessEnv({ op: 'discover', ...(await withCtx(ctx)) }));
          if (!(engine instanceof Engine)) return engine.callWatched(request, session, max, parse);
          const { recordingFS, DiscoveryTracker, watchedDiscover } = await (depsModule ??= import('./deps.js'));
          tracker ??= new DiscoveryTracker();
          if (!recorder) {
            // Read through a recorder from the next instance on (deps.js); engines that never watch pay nothing.
            recorder = recordingFS(/** @type {import('../index.js').FileSystem} */ (base));
            engine.fs = recorder.fs;
            await engine.close();
          }
          const { reply, watch } = await watchedDiscover(engine, recorder, tracker, request, nodeFS(), max);
          return { result: parse(new TextDecoder().decode(reply)), watch };
        },
        end: async () => {
          if (engineRef && !(engineRef instanceof Engine)) await engineRef.unwatch(session);
        },
      };
      return startWatch(source, /** @type {any} */ (onChange), wopts);
    };

    /** @type {import('../index.js').Skilldex} */
    const sk = {
      discover: (ctx) => withSignal(ctx, async (signal) => run({ op: 'discover', ...(await withCtx(ctx)) }, signal)),
      scanDir: (d, o) => withSignal(o, async (signal) => {
        const dir = await pathArg(d, 'scanDir: dir');
        return run({ op: 'scanDir', dir, source: o?.source }, signal);
      }),
      // A URL object is its text: skill:// URLs are written as strings or made with new URL.
      resolve: (u, ctx) => withSignal(ctx, async (signal) => {
        const url = typeof u === 'object' && u !== null ? String(u) : u;
        return run({ op: 'resolve', ...(await withCtx(ctx)), url }, signal);
      }),
      listFiles: (name, ctx) => withSignal(ctx, async (signal) => run({ op: 'listFiles', ...(await withCtx(ctx)), name }, signal)),
      renderPrompt: (o) => withSignal(o, async (signal) =>
        run({ op: 'renderPrompt', ...(await withCtx(o)), readTool: o?.readTool, format: o?.format, maxChars: o?.maxChars }, signal)),
      expandCommand: (text, o) => withSignal(o, async (signal) =>
        run({ op: 'expandCommand', ...(await withCtx(o)), text, enableSkillCommands: o?.enableSkillCommands }, signal)),
      commands: (ctx) => withSignal(ctx, async (signal) => run({ op: 'commands', ...(await withCtx(ctx)) }, signal)),
      contextFiles: (ctx) => withSignal(ctx, async (signal) => run({ op: 'contextFiles', ...(await withCtx(ctx)) }, signal)),
      validate: (d, o) => withSignal(o, async (signal) => {
        const dir = await pathArg(d, 'validate: dir');
        return run({ op: 'validate', dir }, signal);
      }),
      explain: (name, ctx) => withSignal(ctx, async (signal) => run({ op: 'explain', ...(await withCtx(ctx)), name }, signal)),
      match: (p, ctx) => withSignal(ctx, async (signal) => {
        const paths = toPathList(p, 'match: paths');
        return run({ op: 'match', ...(await withCtx(ctx)), paths }, signal);
      }),
      activate: (name, ctx) => withSignal(ctx, async (signal) => run({ op: 'activate', ...(await withCtx(ctx)), name }, signal)),
      toolDefinition: (ctx) => withSignal(ctx, async (signal) => run({ op: 'toolDefinition', ...(await withCtx(ctx)) }, signal)),
      agents: (o) => withSignal(o, async (signal) => run({ op: 'agents' }, signal)),
      where: (d, ctx) => withSignal(ctx, async (signal) => {
        const dir = await pathArg(d, 'where: dir');
        return run({ op: 'where', ...(await withCtx(ctx)), dir }, signal);
      }),
      call: (request, o) => withSignal(o, async (signal) => {
        const { engine } = await init();
        throwIfAborted(signal);
        return engine.call(typeof request === 'string' ? request : JSON.stringify(request));
      }),
      watch,
      ready: (o) => withSignal(o, async () => (await init()).engine.ready()),
      close: async () => {
        if (setup) await (await setup).engine.close();
      },
      stats: () => (engineRef ? engineRef.stats() : { memoryBytes: 0, instances: 0, frontmatterInstances: 0, frontmatterParses: 0, calls: 0, prefetchedReads: 0 }),
    };
    // For the package's own CLI only (bin/skilldex.mjs, --json), not API: a
    // call whose reply comes back as the module's UTF-8 bytes, which the CLI
    // writes to stdout as they are. Decoding a 1 MB reply that is not ASCII
    // and encoding it again cost a one-shot process 30-50 ms. The
    // bytes are a view of the module's memory, valid until the next call:
    // copying 1 MB into fresh memory cost a one-shot process 250 page faults.
    Object.defineProperty(sk, Symbol.for('skilldex.callBytes'), {
      value: async (/** @type {string} */ request) => {
        const { engine } = await init();
        return engine instanceof Engine ? engine.callBytes(request, true) : new TextEncoder().encode(await engine.call(request));
      },
    });
    return sk;
  }

  return createSkilldex;
}

/**
 * Parse a reply; an error reply becomes a SkilldexError.
 * @param {string} reply
 */
function parse(reply) {
  const v = JSON.parse(reply);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'error' in v && Object.keys(v)[0] === 'error') {
    throw new SkilldexError(String(v.error?.code ?? 'INTERNAL'), String(v.error?.message ?? reply));
  }
  return v;
}

/**
 * A default the runtime must be asked for. A refusal (Deno without the
 * permission) becomes an INVALID_ARGUMENT that names the two ways out.
 * @param {string} what @param {string} field @param {() => string | undefined} get
 * @param {string} [need] what needs it, when not a missing field ("a relative path")
 */
function processValue(what, field, get, need) {
  try {
    return /** @type {string} */ (get());
  } catch (e) {
    const hint = field === 'home' ? ' (Deno: --allow-sys=homedir)' : ' (Deno: --allow-read for it)';
    const why = need ? `${need} needs the ${what} and the runtime refused it: pass an absolute path` : `no ${field} given and the runtime refused the ${what}: pass ${field}`;
    throw new SkilldexError('INVALID_ARGUMENT', `${why}, or grant access${hint}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

