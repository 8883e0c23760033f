// @ts-check
// The read-ahead worker (prefetch.js): the runtime's own default
// filesystem, read into the shared buffer of each hint the engine's thread
// sends, one hint at a time.
//
// workerData: {port, bell}: the port hints come on ({sab, listAt, listLen,
// cap, slots, slotSize}, prefetch.js Prefetcher.hint) and the doorbell rung
// after each.
// Nothing goes out: the results are in the shared buffers.
//
// The platform file is named here, not imported as #platform: Deno
// resolves a package's "imports" only for a program it knows to be in the
// package, and a worker started from a program elsewhere would not load.
// Deno has its own; Node and Bun share node.js (package.json).

import { workerData, receiveMessageOnPort } from 'node:worker_threads';
import { readAheadLoop } from './prefetch.js';

/** @type {{defaultFileSystem: () => import('../index.js').FileSystem | undefined}} */
const platform = /** @type {any} */ (globalThis).Deno ? await import('./platform/deno.js') : await import('./platform/node.js');
const fs = /** @type {import('../index.js').FileSystem} */ (platform.defaultFileSystem());
const { port, bell } = /** @type {{port: import('node:worker_threads').MessagePort, bell: Int32Array}} */ (workerData);
const io = { port, bell, receiveMessageOnPort, received: 0 };
port.on('message', (m) => readAheadLoop(fs, io, m));
