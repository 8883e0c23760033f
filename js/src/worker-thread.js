// @ts-check
// The inside of a worker-mode engine (issue 12; the outside is worker.js):
// the module and the runtime's own node:fs run here, off the caller's
// thread. It answers the messages of worker.js one at a time through an
// Engine (which queues calls as in-thread), and sends large replies cut
// into pieces (reply.js) so that the receiving thread never has one long
// JSON.parse to do.
//
// Messages in:  {id, kind: 'call', request, parsed, watch?: {session, max}}
//               {id, kind: 'ready'} | {id, kind: 'unwatch', session}
// Messages out: {id, stats, raw} or {id, stats, members}, and for a watched
//               discovery also {watch: {plan, key, added, removed, changed}};
//               {id, error: {code, message} or {name, message}}; {stderr: text}.

import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { Engine, SkilldexError, compileOnce } from './engine.js';
import { createNodeFS } from './nodefs.js';
import { loadWasm, wasmURL, frontmatterWasmURL } from '#platform';
import { recordingFS, DiscoveryTracker, watchedDiscover } from './deps.js';
import { splitReply } from './reply.js';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** @typedef {WebAssembly.Module | Uint8Array | string | undefined} PostedWasm a wasm option as worker.js posts it (a URL as its href) */
/** @type {{wasm?: PostedWasm, frontmatterWasm?: PostedWasm, stderr?: boolean}} */
const data = workerData ?? {};

const nodefs = /** @type {typeof import('node:fs')} */ (/** @type {any} */ (fs).default ?? fs);

/**
 * The loader of a posted wasm option, as index.js's for the same option
 * in-thread (undefined: the shipped file at defaultURL).
 * @param {PostedWasm} w @param {URL} defaultURL
 * @returns {() => Promise<WebAssembly.Module>}
 */
function loader(w, defaultURL) {
  const key = {};
  if (w === undefined) return () => compileOnce(() => loadWasm(defaultURL), key);
  if (w instanceof WebAssembly.Module) return () => Promise.resolve(w);
  if (typeof w === 'string') return () => compileOnce(() => fetch(new URL(w)), key);
  return () => compileOnce(async () => w, key);
}

/**
 * The frontmatter module compiled at once, where it can be (the default
 * file, bytes, a module), so the engine loads it only when it needs it
 * (wasm/ABI.md#parse_frontmatter); null for a URL.
 * @param {PostedWasm} w
 * @returns {() => WebAssembly.Module | null}
 */
function syncLoader(w) {
  /** @type {WebAssembly.Module | null} */
  let m = null;
  if (typeof w === 'string') return () => null;
  if (w instanceof WebAssembly.Module) return () => w;
  return () => (m ??= new WebAssembly.Module(/** @type {BufferSource} */ (w === undefined ? nodefs.readFileSync(frontmatterWasmURL) : w)));
}

const baseFS = createNodeFS(nodefs);
/** @type {ReturnType<typeof recordingFS> | null} */
let recorder = null;

const engine = new Engine({
  fs: baseFS,
  module: loader(data.wasm, wasmURL),
  frontmatter: loader(data.frontmatterWasm, frontmatterWasmURL),
  frontmatterSync: syncLoader(data.frontmatterWasm),
  stderr: data.stderr ? (text) => port.postMessage({ stderr: text }) : undefined,
});

/** @type {Map<number, DiscoveryTracker>} */
const trackers = new Map();

/**
 * The filesystem recorder, installed at the first watched discovery: the
 * engine reads through it from its next instance on, so engines that never
 * watch pay nothing for it.
 */
async function useRecorder() {
  if (!recorder) {
    recorder = recordingFS(baseFS);
    engine.fs = recorder.fs;
    await engine.close();
  }
  return recorder;
}

/**
 * The reply as it travels: whole when short or an error, else in pieces.
 * @param {string} reply
 * @param {boolean} parsed the caller wants the value, not the text
 */
function delivery(reply, parsed) {
  if (!parsed) return { raw: reply };
  const members = splitReply(reply);
  if (!members || members[0]?.key === 'error') return { raw: reply };
  return { members };
}

/** @param {any} msg */
async function handle(msg) {
  switch (msg.kind) {
    case 'call': {
      if (msg.watch) {
        const rec = await useRecorder();
        let tracker = trackers.get(msg.watch.session);
        if (!tracker) trackers.set(msg.watch.session, (tracker = new DiscoveryTracker()));
        const { reply, watch } = await watchedDiscover(engine, rec, tracker, msg.request, nodefs, msg.watch.max);
        return { ...delivery(reply, true), watch };
      }
      return delivery(await engine.call(msg.request), msg.parsed === true);
    }
    case 'ready':
      await engine.ready();
      return {};
    case 'unwatch':
      trackers.delete(msg.session);
      return {};
    default:
      throw new SkilldexError('INTERNAL', `worker: unknown message ${JSON.stringify(msg.kind)}`);
  }
}

port.on('message', (msg) => {
  handle(msg).then(
    (out) => port.postMessage({ id: msg.id, stats: engine.stats(), ...out }),
    (e) => {
      // A SkilldexError keeps its code; anything else (a CompileError of a bad module) its class name.
      const error = e instanceof SkilldexError ? { code: e.code, message: e.message } : { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) };
      port.postMessage({ id: msg.id, stats: engine.stats(), error });
    },
  );
});
