// @ts-check
// A hint list of wasm/ABI.md#prefetch_within, built by hand for the tests
// of the read-ahead (prefetch.test.js and the processes it starts): the
// paths, each followed by a NUL byte.

const enc = new TextEncoder();

/** @param {(string | Uint8Array)[]} paths */
export function hintList(paths) {
  const parts = paths.map((p) => (typeof p === 'string' ? enc.encode(p) : p));
  const out = new Uint8Array(parts.reduce((t, p) => t + p.length + 1, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length + 1;
  }
  return out;
}
