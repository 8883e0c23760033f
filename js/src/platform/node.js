// @ts-check
// The platform of Node and Bun (current.js chooses it): the module's bytes from disk, node:fs as the default
// filesystem, the process's cwd and home. Each is asked for only when a
// call needs it.
//
// The built-in modules come through require, not import statements (issue
// 10): Node builds the ES module face of a built-in by reading every one of
// its properties, and the getters among them load more modules. Importing
// node:process, node:crypto, node:fs and node:fs/promises took 17-20 ms of
// CPU, about a tenth of a one-shot discover() of a small workspace;
// requiring node:fs and node:os takes about 1 ms, and node:crypto is loaded
// only for a reply big enough to be worth it (sha256Sync).

import { createRequire } from 'node:module';
import { runtimeSHA256 } from '../digest.js';
import { createNodeFS } from '../nodefs.js';

// Only built-ins are required, which any base resolves: a package imported
// from an http URL (Deno) has no file URL of its own.
const require = createRequire(import.meta.url.startsWith('file:') ? import.meta.url : 'file:///');
/** @type {typeof import('node:fs')} */
const fs = require('node:fs');
/** @type {typeof import('node:os')} */
const os = require('node:os');
/** @type {typeof import('node:buffer')} */
const { Buffer, isAscii } = require('node:buffer');

export const wasmURL = new URL('../../skilldex.wasm', import.meta.url);
/** The frontmatter module (wasm/ABI.md#the-frontmatter-module), loaded only when the engine asks for it. */
export const frontmatterWasmURL = new URL('../../skilldex-frontmatter.wasm', import.meta.url);

/**
 * The bytes of a shipped module.
 * @param {URL} [url]
 * @returns {Promise<Buffer>}
 */
export const loadWasm = (url = wasmURL) =>
  new Promise((resolve, reject) => fs.readFile(url, (err, bytes) => (err ? reject(err) : resolve(bytes))));

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

/**
 * node:worker_threads, for the read-ahead of SKILL.md files over the
 * default filesystem (prefetch.js), required at the first hint that wants
 * a worker: a program whose discoveries are small never loads it.
 * @returns {typeof import('node:worker_threads')}
 */
export const workerThreads = () => require('node:worker_threads');

/** The process's working directory. */
export const defaultCwd = () => globalThis.process.cwd();

/** The user's home directory. */
export const defaultHome = () => os.homedir();

/** SHA-256 for S54's digest (wasm/ABI.md#sha256; digest.js). */
export const sha256Sync = runtimeSHA256(require);

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
 * JSON.parse (engine.js jsonText). Node 20 makes a string over
 * 128 KiB at 4-6 ms a MiB, ten times a smaller one's, through TextDecoder
 * and Buffer alike, but a Latin-1 string over EXTERNAL_LATIN1 characters
 * in a fraction of a millisecond. An ASCII reply is its own Latin-1: one
 * over 128 KiB is decoded so, padded with spaces past EXTERNAL_LATIN1 when
 * shorter (JSON.parse skips white space). A 1,000-skill reply (1 MB) then
 * costs 3 ms to decode and parse instead of 7.5 when measured alone (less
 * is saved inside a discovery, where V8's collections shift). The facade
 * asks for replies in the ASCII transport (asciiReplies), so a large reply
 * is ASCII whatever its descriptions hold; one that is not (a reply to a
 * request that could not be decoded) is decoded as UTF-8. Bun
 * (JavaScriptCore) has no such cost: TextDecoder.
 * @type {((reply: Uint8Array) => string) | null}
 */
export const replyJSONText =
  globalThis.process.versions.bun || typeof isAscii !== 'function'
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

/**
 * Whether the facade asks for replies in the ASCII transport (index.js;
 * wasm/ABI.md, the request field asciiReply): every non-ASCII character as
 * a \u escape, the same value. In Node every large reply then takes
 * replyJSONText's Latin-1 path, however many dashes its descriptions hold
 *. Not in Bun: JavaScriptCore's TextDecoder and JSON.parse
 * showed no steady difference between the two forms of a 1,000-skill
 * reply, and the escaping is engine work.
 */
export const asciiReplies = !globalThis.process.versions.bun;

/**
 * Random bytes for WASI's random_get (wasi.js), which the engine module's
 * _initialize calls once per instance for its hash key (ABI.md#the-module):
 * read from the kernel's /dev/urandom, since the first
 * crypto.getRandomValues of a process loads Node's Web Crypto, about 7 ms
 * of CPU in a one-shot run. Where /dev/urandom cannot be read
 * (Windows), crypto.getRandomValues.
 * @param {Uint8Array} buf
 */
export const randomFill = (buf) => {
  let fd = -1;
  try {
    fd = fs.openSync('/dev/urandom', 'r');
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, null);
      if (n <= 0) break;
      off += n;
    }
    if (off === buf.length) return;
  } catch {
    // no /dev/urandom here: Web Crypto below
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
  globalThis.crypto.getRandomValues(/** @type {Uint8Array<ArrayBuffer>} */ (buf));
};
