// @ts-check
// The platform of Deno (package.json "imports" #platform, condition "deno").
// Least privilege (wasm/ABI.md does not care; Deno's permissions do): the
// module is read with read access to this package's folder only, the
// working directory is asked for only when a call has no cwd (read access
// to it), and the home only when a call has no home (--allow-sys=homedir).
// A call given both cwd and home needs --allow-read scoped to the package
// and the directories it reads, nothing else.

import fs from 'node:fs';
import os from 'node:os';

/** @type {any} */
const Deno = /** @type {any} */ (globalThis).Deno;

export const wasmURL = new URL('../../skilldex.wasm', import.meta.url);
/** The frontmatter module (wasm/ABI.md#the-frontmatter-module), loaded only when the engine asks for it. */
export const frontmatterWasmURL = new URL('../../skilldex-frontmatter.wasm', import.meta.url);

/** The bytes of a shipped module. */
export const loadWasm = (url = wasmURL) => Deno.readFile(url);

/**
 * The bytes of a shipped module, at once (the frontmatter module is
 * compiled inside an import, where nothing can be awaited).
 * @param {URL} url
 * @returns {Uint8Array}
 */
export const loadWasmSync = (url) => Deno.readFileSync(url);

/** Deno's node:fs, the default filesystem. */
export const defaultFS = () => fs;

/** The process's working directory (Deno asks for read access to it). */
export const defaultCwd = () => Deno.cwd();

/** The user's home directory (Deno asks for --allow-sys=homedir). */
export const defaultHome = () => os.homedir();
