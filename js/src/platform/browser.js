// @ts-check
// The platform of browsers and every other runtime without node:fs
// (through current-browser.js, which package.json "browser" and a page's
// import map put in current.js's place):
// the module is fetched next to the package; there is no default
// filesystem, cwd or home, so a caller passes opts.fs (a MemoryFS, or any
// object with the five operations) and the directories.

export const wasmURL = new URL('../../skilldex.wasm', import.meta.url);
/** The frontmatter module (wasm/ABI.md#the-frontmatter-module), loaded only when the engine asks for it. */
export const frontmatterWasmURL = new URL('../../skilldex-frontmatter.wasm', import.meta.url);

/** A Response for a shipped module (compiled while it streams in). */
export const loadWasm = (url = wasmURL) => fetch(url);

/**
 * No synchronous load here: the engine loads the frontmatter module
 * before its calls instead (wasm/ABI.md#parse_frontmatter).
 * @type {null | ((url: URL) => Uint8Array)}
 */
export const loadWasmSync = null;

/** @returns {undefined} no default filesystem here */
export const defaultFS = () => undefined;

/** @returns {undefined} no default filesystem here */
export const defaultFileSystem = () => undefined;

/** @returns {undefined} */
export const defaultCwd = () => undefined;

/** @returns {undefined} */
export const defaultHome = () => undefined;

/**
 * No synchronous SHA-256 here (crypto.subtle's is a promise): the module
 * hashes S54's digest itself (wasm/ABI.md#sha256).
 * @type {null | ((data: Uint8Array) => Uint8Array | null)}
 */
export const sha256Sync = null;

/** TextDecoder, the engine's default (engine.js jsonText). */
export const replyJSONText = null;

/** Replies in the canonical form: the ASCII transport is not measured in browsers (platform/deno.js). */
export const asciiReplies = false;

/** WASI's random_get draws from crypto.getRandomValues (wasi.js). */
export const randomFill = null;

/** No worker threads to read ahead with here (prefetch.js): every read is inline. */
/** @type {null | (() => typeof import('node:worker_threads'))} */
export const workerThreads = null;
