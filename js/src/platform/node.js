// @ts-check
// The platform of Node and Bun (package.json "imports" #platform, conditions
// "node" and "bun"): the module's bytes from disk, node:fs as the default
// filesystem, the process's cwd and home. Each is asked for only when a
// call needs it.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { createNodeFS } from '../nodefs.js';
import process from 'node:process';

export const wasmURL = new URL('../../skilldex.wasm', import.meta.url);
/** The frontmatter module (wasm/ABI.md#the-frontmatter-module), loaded only when the engine asks for it. */
export const frontmatterWasmURL = new URL('../../skilldex-frontmatter.wasm', import.meta.url);

/** The bytes of a shipped module. */
export const loadWasm = (url = wasmURL) => readFile(url);

/**
 * The bytes of a shipped module, at once (the frontmatter module is
 * compiled inside an import, where nothing can be awaited).
 * @param {URL} url
 */
export const loadWasmSync = (url) => fs.readFileSync(url);

/** The runtime's node:fs, the default filesystem. */
export const defaultFS = () => fs;

/** The default filesystem as the engine reads it: node:fs, its descriptors the kernel's. */
export const defaultFileSystem = () => createNodeFS(fs, {}, fs);

/** The process's working directory. */
export const defaultCwd = () => process.cwd();

/** The user's home directory. */
export const defaultHome = () => os.homedir();

/**
 * SHA-256 for S54's digest (wasm/ABI.md#sha256): node:crypto's, about ten
 * times the module's own.
 * @param {Uint8Array} data
 * @returns {Uint8Array}
 */
export const sha256Sync = (data) => createHash('sha256').update(data).digest();
