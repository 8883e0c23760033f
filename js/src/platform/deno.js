// @ts-check
// The platform of Deno (current.js chooses it).
// Least privilege (wasm/ABI.md does not care; Deno's permissions do): the
// module is read with read access to this package's folder only, the
// working directory is asked for only when a call has no cwd (read access
// to it), and the home only when a call has no home (--allow-sys=homedir).
// A call given both cwd and home needs --allow-read scoped to the package
// and the directories it reads, nothing else.

import { createRequire } from 'node:module';
import { runtimeSHA256 } from '../digest.js';
import { createDenoFS } from '../denofs.js';

/** @type {any} */
const Deno = /** @type {any} */ (globalThis).Deno;
// Only built-ins are required, which any base resolves: a package imported
// from an http URL (Deno) has no file URL of its own.
const require = createRequire(import.meta.url.startsWith('file:') ? import.meta.url : 'file:///');
// Built-ins through require, not import statements, as in node.js: Node
// evaluates this file too (current.js), and builds an ES module face of a
// built-in imported by a statement, milliseconds it would spend for a file
// it never calls.
/** @type {typeof import('node:fs')} */
const fs = require('node:fs');
/** @type {typeof import('node:os')} */
const os = require('node:os');

export const wasmURL = new URL('../../skilldex.wasm', import.meta.url);
/** The frontmatter module (wasm/ABI.md#the-frontmatter-module), loaded only when the engine asks for it. */
export const frontmatterWasmURL = new URL('../../skilldex-frontmatter.wasm', import.meta.url);

/** The bytes of a shipped module (a Response where the package was imported from a URL, not a file). */
export const loadWasm = (url = wasmURL) => (url.protocol === 'file:' ? Deno.readFile(url) : fetch(url));

/**
 * The bytes of a shipped module, at once (the frontmatter module is
 * compiled inside an import, where nothing can be awaited); null where the
 * package came from a URL, which only fetch reads.
 * @type {((url: URL) => Uint8Array) | null}
 */
export const loadWasmSync = wasmURL.protocol === 'file:' ? (url) => Deno.readFileSync(url) : null;

/** Deno's node:fs, the default filesystem (what watch mode watches with). */
export const defaultFS = () => fs;

/**
 * The default filesystem as the engine reads it: Deno's own calls, and its
 * node:fs for descriptors (denofs.js).
 */
export const defaultFileSystem = () => createDenoFS(Deno, fs);

/**
 * node:worker_threads, for the read-ahead of SKILL.md files over the
 * default filesystem (prefetch.js): its Worker, unlike Deno's web Worker,
 * can be unref'd, so an idle one never keeps the process alive. Required
 * at the first hint that wants a worker.
 * @returns {typeof import('node:worker_threads')}
 */
export const workerThreads = () => require('node:worker_threads');

/** The process's working directory (Deno asks for read access to it). */
export const defaultCwd = () => Deno.cwd();

/** The user's home directory (Deno asks for --allow-sys=homedir). */
export const defaultHome = () => os.homedir();

/** SHA-256 for S54's digest (wasm/ABI.md#sha256; digest.js). */
export const sha256Sync = runtimeSHA256(require);

/** Deno's TextDecoder is quick at any size: the engine's default (engine.js jsonText). */
export const replyJSONText = null;

/**
 * The facade asks for replies in the ASCII transport (index.js; wasm/ABI.md,
 * the request field asciiReply): TextDecoder makes a one-byte string of an
 * ASCII reply, which V8's JSON.parse reads faster than the two-byte string
 * of a reply with a single dash.
 */
export const asciiReplies = true;

/** WASI's random_get draws from crypto.getRandomValues (wasi.js). */
export const randomFill = null;
