// @ts-check
// S54's digest with the runtime's own SHA-256 (wasm/ABI.md#sha256), for the
// platform files of Node, Bun and Deno: node:crypto's, about ten times the
// module's own.

/**
 * The least reply hashed with node:crypto while that is not loaded yet:
 * loading it takes 3-10 ms, which a one-shot discover() of a few skills
 * should not pay, while the module's own SHA-256 costs a fresh instance
 * about 40 ms a MiB (V8's baseline code: the CLI on 1,000 skills, a 1 MB
 * reply, took 35 ms longer with it). The example workspace's
 * discovery reply is 4.4 KB, a thousand skills' about 1 MB.
 */
const loadCryptoAt = 128 << 10;

/**
 * The largest input whose digest is kept with a copy of it. An editor's
 * warm discoveries mostly hash the same reply again: comparing 1 MB with
 * the copy costs a twelfth of hashing it (0.05 against 0.6 ms at 1,000 skills;
 * ). Larger replies are hashed each time rather than held twice.
 */
const keepAt = 4 << 20;

/**
 * sha256Sync for a platform: null for data under loadCryptoAt until
 * node:crypto is loaded (the module then hashes the data itself), else the
 * digest. From the second hash on, the last input is kept (a copy) with its
 * digest, which answers the same bytes again: a process that discovers once
 * never makes the copy.
 * @param {NodeJS.Require} require the platform's, for node:crypto and node:buffer
 * @returns {(data: Uint8Array) => Uint8Array | null}
 */
export function runtimeSHA256(require) {
  /** @type {((data: Uint8Array) => Uint8Array) | null} */
  let hash = null;
  /** @type {typeof import('node:buffer').Buffer} */
  let Buffer;
  let hashed = 0;
  /** @type {Uint8Array | null} */
  let last = null;
  /** @type {Uint8Array | null} */
  let lastSum = null;
  return (data) => {
    if (!hash) {
      if (data.length < loadCryptoAt) return null;
      /** @type {typeof import('node:crypto')} */
      const crypto = require('node:crypto');
      hash = (d) => crypto.createHash('sha256').update(d).digest();
      Buffer = require('node:buffer').Buffer;
    }
    if (last && last.length === data.length && Buffer.compare(last, data) === 0) return lastSum;
    const sum = hash(data);
    if (hashed++ > 0 && data.length <= keepAt) {
      last = Buffer.from(data);
      lastSum = sum;
    } else {
      last = lastSum = null;
    }
    return sum;
  };
}
