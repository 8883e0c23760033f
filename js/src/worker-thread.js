// @ts-check
// The inside of a worker-mode engine (the outside is worker.js):
// the module and the runtime's own node:fs run here, off the caller's
// thread. It answers the messages of worker.js one at a time through an
// Engine (which queues calls as in-thread), and sends large replies as
// their bytes, transferred, with where to cut them (reply.js), so that the
// receiving thread never has one long deserialisation or JSON.parse to do.
//
// Messages in:  {id, kind: 'call', request, parsed, watch?: {session, max}}
//               {id, kind: 'ready'} | {id, kind: 'unwatch', session}
// Messages out: {id, stats, raw} or {id, stats, cut}, and for a watched
//               discovery also {watch: {plan, key, added, removed, changed}};
//               {id, error: {code, message} or {name, message}}; {stderr: text}.

import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { Engine, SkilldexError, compileOnce } from './engine.js';
import { platform } from './platform/current.js';
import { recordingFS, DiscoveryTracker, watchedDiscover } from './deps.js';
import { cutReply } from './reply.js';

const { loadWasm, wasmURL, frontmatterWasmURL, sha256Sync, defaultFileSystem } = platform;
const decoder = new TextDecoder();

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
 * @returns {(() => WebAssembly.Module) | null}
 */
function syncLoader(w) {
  /** @type {WebAssembly.Module | null} */
  let m = null;
  if (typeof w === 'string') return null;
  if (w instanceof WebAssembly.Module) return () => w;
  return () => (m ??= new WebAssembly.Module(/** @type {BufferSource} */ (w === undefined ? nodefs.readFileSync(frontmatterWasmURL) : w)));
}

const baseFS = /** @type {import('../index.js').FileSystem} */ (defaultFileSystem());
/** @type {ReturnType<typeof recordingFS> | null} */
let recorder = null;

const engine = new Engine({
  fs: baseFS,
  module: loader(data.wasm, wasmURL),
  frontmatter: loader(data.frontmatterWasm, frontmatterWasmURL),
  frontmatterSync: syncLoader(data.frontmatterWasm),
  stderr: data.stderr ? (text) => port.postMessage({ stderr: text }) : undefined,
  sha256: sha256Sync,
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
 * The reply as it travels, and the buffers to transfer with it: a cut
 * reply (reply.js) with its bytes' buffer transferred, not copied, so the
 * receiving thread gets it at no cost; a short reply or an error reply as
 * a string.
 * @param {Uint8Array} reply the reply's UTF-8 bytes (Engine.callBytes)
 * @returns {{out: {raw: string} | {cut: import('./reply.js').CutReply}, transfer: ArrayBuffer[]}}
 */
function delivery(reply) {
  const cut = cutReply(reply);
  if (!cut) return { out: { raw: decoder.decode(reply) }, transfer: [] };
  return { out: { cut }, transfer: [/** @type {ArrayBuffer} */ (cut.bytes.buffer)] };
}

/**
 * @param {any} msg
 * @returns {Promise<{out: object, transfer: ArrayBuffer[]}>}
 */
async function handle(msg) {
  switch (msg.kind) {
    case 'call': {
      if (msg.watch) {
        const rec = await useRecorder();
        let tracker = trackers.get(msg.watch.session);
        if (!tracker) trackers.set(msg.watch.session, (tracker = new DiscoveryTracker()));
        const { reply, watch } = await watchedDiscover(engine, rec, tracker, msg.request, nodefs, msg.watch.max);
        const d = delivery(reply);
        return { out: { ...d.out, watch }, transfer: d.transfer };
      }
      if (msg.parsed === true) return delivery(await engine.callBytes(msg.request));
      return { out: { raw: await engine.call(msg.request) }, transfer: [] };
    }
    case 'ready':
      await engine.ready();
      return { out: {}, transfer: [] };
    case 'unwatch':
      trackers.delete(msg.session);
      return { out: {}, transfer: [] };
    default:
      throw new SkilldexError('INTERNAL', `worker: unknown message ${JSON.stringify(msg.kind)}`);
  }
}

port.on('message', (msg) => {
  handle(msg).then(
    ({ out, transfer }) => port.postMessage({ id: msg.id, stats: engine.stats(), ...out }, transfer),
    (e) => {
      // A SkilldexError keeps its code; anything else (a CompileError of a bad module) its class name.
      const error = e instanceof SkilldexError ? { code: e.code, message: e.message } : { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) };
      port.postMessage({ id: msg.id, stats: engine.stats(), error });
    },
  );
});
