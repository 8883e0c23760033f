// @ts-check
// The platform of Node and Bun (package.json "imports" #platform, conditions
// "node" and "bun"): the module's bytes from disk, node:fs as the default
// filesystem, the process's cwd and home. Each is asked for only when a
// call needs it.

import { Buffer, isAscii } from 'node:buffer';
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

/**
 * V8's largest regular object: a string longer than this is a "large
 * object".
 */
const LARGE_STRING = 128 * 1024;

/**
 * Node makes a Latin-1 string longer than this "external" (its bytes kept
 * outside the V8 heap: EXTERN_APEX in Node's src/string_bytes.cc).
 */
const EXTERNAL_LATIN1 = 0xfbee9;

const utf8 = new TextDecoder();

/**
 * The text of a reply (its UTF-8 bytes in the module's memory) for
 * JSON.parse (engine.js jsonText; issue 13). Node 20 makes a string over
 * 128 KiB at 4-6 ms a MiB, ten times a smaller one's, through TextDecoder
 * and Buffer alike, but a Latin-1 string over EXTERNAL_LATIN1 characters
 * in a fraction of a millisecond. An ASCII reply (the usual case: every
 * reply of the bench) is its own Latin-1: one over 128 KiB is decoded so,
 * padded with spaces past EXTERNAL_LATIN1 when shorter (JSON.parse skips
 * white space). A 1,000-skill reply (1 MB) then costs 3 ms to decode and
 * parse instead of 7.5. Bun (JavaScriptCore) has no such cost: TextDecoder.
 * @type {((reply: Uint8Array) => string) | null}
 */
export const replyJSONText =
  process.versions.bun || typeof isAscii !== 'function'
    ? null
    : (reply) => {
        const n = reply.length;
        const bytes = Buffer.from(reply.buffer, reply.byteOffset, n);
        if (n <= LARGE_STRING || !isAscii(bytes)) return utf8.decode(reply);
        if (n > EXTERNAL_LATIN1) return bytes.toString('latin1');
        const padded = Buffer.allocUnsafeSlow(EXTERNAL_LATIN1 + 1);
        padded.set(bytes);
        padded.fill(0x20, n);
        return padded.toString('latin1');
      };
