// @ts-check
// Delivering a large reply from the worker without blocking the thread that
// receives it. A worker that only moved the discovery off the
// main thread would leave the reply's cost behind on it: a 10,000-skill
// discovery's reply is about 10 MB, and on the 2-core machine of the bench
// (docs/bench/worker.md) JSON.parse of it blocks a thread for 30-100 ms,
// and so does the structured clone of it as strings (deserialising 10 MB
// of strings took 50-170 ms there, in one piece, before any code of ours
// runs). So:
//
//   - the worker takes the reply's UTF-8 bytes straight out of the
//     module's memory (no string is made there), finds the reply's
//     top-level members and cuts its arrays along element boundaries
//     (cutReply), and posts the bytes with the buffer transferred, not
//     copied: the message costs the receiving thread next to nothing;
//   - the receiving thread decodes and parses one piece at a time and
//     yields to its event loop every SLICE_MS (assembleReply).
//
// What the receiving thread cannot avoid is building the result itself:
// every skill is a new object that survives until the caller drops the
// result, and V8's young-generation collections copy survivors (V8 11.3,
// Node 20, allocates what JSON.parse builds in the young generation
// whatever the text's size). Those collections are the longest stops left
// on the receiving thread (docs/bench/worker.md).
//
// The value built is the one JSON.parse gives for the whole reply: the same
// keys in the same order, the same elements. Only a reply that is a JSON
// object in the engine's compact form is cut; anything else (and any reply
// under SPLIT_MIN bytes) travels as a string.

/** Replies shorter than this travel as one string: parsing them takes well under a millisecond. */
export const SPLIT_MIN = 64 * 1024;

/**
 * The least size of one piece, in bytes (about 0.2-0.5 ms of decoding and
 * parsing on the bench's machine). Pieces of 16-120 KiB cost the same CPU
 * time there; 128 KiB and more doubled it (a string that large is a V8
 * "large object").
 */
const PIECE = 32 * 1024;

/** How long the receiving thread decodes and parses before it yields to its event loop. */
const SLICE_MS = 2;

/**
 * One top-level member of a cut reply: its key, and either the byte range
 * of its value's JSON text, or, for an array, `pieces`: start and end of
 * each run of elements (without the brackets, the elements joined by
 * commas), in pairs, in order.
 * @typedef {{key: string, start: number, end: number, pieces: number[] | null}} ReplyMember
 * @typedef {{bytes: Uint8Array, members: ReplyMember[]}} CutReply
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const decoder = new TextDecoder();

/**
 * The index just past the string literal that starts at i (b[i] is '"').
 * Strings are most of a reply, so the closing quote is found with indexOf.
 * @param {Uint8Array} b @param {number} i
 */
function skipString(b, i) {
  let j = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, j);
    if (q < 0) throw new Error('unterminated string');
    // The quote is escaped when an odd number of backslashes precede it.
    let k = q - 1;
    while (k > i && b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/**
 * The index just past the JSON value that starts at i (no white space:
 * the engine's replies are compact).
 * @param {Uint8Array} b @param {number} i
 */
function skipValue(b, i) {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    for (; j < b.length; j++) {
      const d = b[j];
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const d = b[j];
    if (d === QUOTE) {
      j = skipString(b, j) - 1;
    } else if (d === OPEN_BRACE || d === OPEN_BRACKET) {
      depth++;
    } else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      if (--depth === 0) return j + 1;
    }
  }
  throw new Error('unterminated value');
}

/**
 * The top-level members of a compact JSON object reply, with the element
 * boundaries of array values; null when the reply is not an object in the
 * engine's compact JSON.
 * @param {Uint8Array} reply the reply's UTF-8 bytes
 * @returns {{key: string, start: number, end: number, elements: number[] | null}[] | null}
 *   start/end: the value's bytes; elements: start and end of each element, in pairs
 */
export function scanMembers(reply) {
  if (reply[0] !== OPEN_BRACE) return null;
  try {
    /** @type {{key: string, start: number, end: number, elements: number[] | null}[]} */
    const members = [];
    let i = 1;
    if (reply[i] === CLOSE_BRACE) return i === reply.length - 1 ? members : null;
    for (;;) {
      if (reply[i] !== QUOTE) return null;
      const keyEnd = skipString(reply, i);
      const key = JSON.parse(decoder.decode(reply.subarray(i, keyEnd)));
      if (reply[keyEnd] !== COLON) return null;
      const start = keyEnd + 1;
      /** @type {number[] | null} */
      let elements = null;
      if (reply[start] === OPEN_BRACKET) {
        elements = [];
        let j = start + 1;
        if (reply[j] === CLOSE_BRACKET) {
          i = j + 1;
        } else {
          for (;;) {
            const e = skipValue(reply, j);
            elements.push(j, e);
            const c = reply[e];
            if (c === CLOSE_BRACKET) {
              i = e + 1;
              break;
            }
            if (c !== COMMA) return null;
            j = e + 1;
          }
        }
      } else {
        i = skipValue(reply, start);
      }
      members.push({ key, start, end: i, elements });
      const c = reply[i];
      if (c === CLOSE_BRACE && i === reply.length - 1) return members;
      if (c !== COMMA) return null;
      i++;
    }
  } catch {
    return null;
  }
}

/**
 * The reply is an error reply (SPEC section 12): `{"error":...}`.
 * @param {Uint8Array} reply
 */
export function isErrorReply(reply) {
  const prefix = '{"error":';
  if (reply.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (reply[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/**
 * Cut a compact JSON object reply into members, its arrays into pieces of
 * PIECE bytes or more. Returns null when the reply is short, an error, not
 * an object, or not compact JSON as the engine writes it: the caller then
 * sends it as a string.
 * @param {Uint8Array} reply the reply's UTF-8 bytes
 * @returns {CutReply | null}
 */
export function cutReply(reply) {
  if (reply.length < SPLIT_MIN || isErrorReply(reply)) return null;
  const scanned = scanMembers(reply);
  if (!scanned) return null;
  const members = scanned.map(({ key, start, end, elements }) => {
    if (!elements || elements.length === 0) return { key, start, end, pieces: null };
    /** @type {number[]} */
    const pieces = [];
    let from = elements[0];
    for (let k = 1; k < elements.length; k += 2) {
      const e = elements[k];
      if (e - from >= PIECE || k === elements.length - 1) {
        pieces.push(from, e);
        from = elements[k + 1];
      }
    }
    return { key, start, end, pieces };
  });
  return { bytes: reply, members };
}

/** A macrotask turn: setImmediate where it exists (Node, Bun), else a MessageChannel message (Deno, browsers). */
const yieldToLoop = (() => {
  const g = /** @type {any} */ (globalThis);
  if (typeof g.setImmediate === 'function') return () => new Promise((r) => g.setImmediate(r));
  return () =>
    new Promise((r) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        r(undefined);
      };
      ch.port2.postMessage(null);
    });
})();

/**
 * The steps of building a cut reply's value: each yields after decoding
 * and parsing one piece, and the last returns the value (assembleReply).
 * @param {CutReply} cut
 * @returns {Generator<void, Record<string, unknown>>}
 */
function* assembleSteps({ bytes, members }) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const m of members) {
    let v;
    if (m.pieces) {
      /** @type {unknown[]} */
      const arr = [];
      for (let k = 0; k < m.pieces.length; k += 2) {
        const part = JSON.parse('[' + decoder.decode(bytes.subarray(m.pieces[k], m.pieces[k + 1])) + ']');
        for (let e = 0; e < part.length; e++) arr.push(part[e]);
        yield;
      }
      v = arr;
    } else {
      v = JSON.parse(decoder.decode(bytes.subarray(m.start, m.end)));
      yield;
    }
    // defineProperty, not assignment: a "__proto__" key stays a plain key, as with JSON.parse.
    Object.defineProperty(out, m.key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Build the value of a cut reply, decoding and parsing for about SLICE_MS
 * at a time.
 * @param {CutReply} cut
 * @returns {Promise<Record<string, unknown>>}
 */
export async function assembleReply(cut) {
  const steps = assembleSteps(cut);
  let t = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - t >= SLICE_MS) {
      await yieldToLoop();
      t = performance.now();
    }
  }
}
