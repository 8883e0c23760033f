// @ts-check
// Filesystem wrappers for measuring where warm discovery's time goes
//: a timing wrapper that adds up the time spent in each method,
// and a recorder that, once switched to replay, answers every call from
// memory. A discovery over the replaying filesystem costs only the engine
// (Go in wasm), the host glue and the reply: the part the V8 profiler
// cannot tell apart from system calls (it charges wasm time to whatever
// binding ran last).

const READS = ['readFileInto', 'readFileWithin'];

/**
 * Wrap fs so the time spent in each of its methods is added up.
 * @param {import('../index.js').FileSystem} fs
 */
export function timedFS(fs) {
  /** @type {Record<string, {calls: number, ms: number}>} */
  const spent = {};
  /** @type {any} */
  const out = {};
  for (const [k, v] of Object.entries(fs)) {
    if (typeof v !== 'function') {
      out[k] = v;
      continue;
    }
    const s = (spent[k] = { calls: 0, ms: 0 });
    out[k] = (/** @type {any[]} */ ...a) => {
      const t = performance.now();
      try {
        return v.apply(fs, a);
      } finally {
        s.ms += performance.now() - t;
        s.calls++;
      }
    };
  }
  const reset = () => {
    for (const s of Object.values(spent)) s.calls = s.ms = 0;
  };
  return { fs: /** @type {import('../index.js').FileSystem} */ (out), spent, reset };
}

/**
 * Wrap fs so every answer (value, bytes read, or error) is recorded; after
 * replay() the same calls are answered from the record without touching
 * the disk (a call not seen while recording still goes to fs).
 * @param {import('../index.js').FileSystem} fs
 */
export function replayFS(fs) {
  /** @type {Map<string, {value?: any, bytes?: Uint8Array, error?: any}>} */
  const record = new Map();
  let replaying = false;
  const dec = new TextDecoder('latin1');
  /** @param {string} op @param {any[]} args */
  const key = (op, args) => op + '\0' + args.map((a) => (a instanceof Uint8Array ? dec.decode(a) : String(a))).join('\0');
  /** @type {any} */
  const out = { bytePaths: fs.bytePaths };
  for (const [k, v] of Object.entries(fs)) {
    if (typeof v !== 'function') continue;
    const read = READS.includes(k);
    out[k] = (/** @type {any[]} */ ...a) => {
      const buf = read ? /** @type {Uint8Array} */ (a[a.length - 1]) : null;
      const id = key(k, read ? a.slice(0, -1).concat([buf?.length]) : a);
      const hit = replaying ? record.get(id) : undefined;
      if (hit) {
        if (hit.error) throw hit.error;
        if (buf && hit.bytes) buf.set(hit.bytes);
        return hit.value;
      }
      try {
        const value = v.apply(fs, a);
        const copy = value instanceof Uint8Array ? value.slice() : value;
        record.set(id, { value: copy, bytes: buf ? buf.slice(0, Math.min(Number(value), buf.length)) : undefined });
        return value;
      } catch (error) {
        record.set(id, { error });
        throw error;
      }
    };
  }
  return {
    fs: /** @type {import('../index.js').FileSystem} */ (out),
    replay: () => {
      replaying = true;
    },
  };
}
