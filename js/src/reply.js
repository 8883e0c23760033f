// @ts-check
// Delivering a large reply from the worker without blocking the thread that
// receives it (issue 12). JSON.parse of a 10,000-skill discovery (about
// 8 MB) blocks a thread for 50-180 ms on its own; a worker that only moved
// the discovery off the main thread would leave that block behind. So the
// worker, which has time, cuts the reply's top-level arrays into pieces
// along element boundaries (splitReply), and the receiving thread parses the
// pieces a few milliseconds at a time, yielding to its event loop in between
// (assembleReply). The value built is the one JSON.parse(reply) gives: same
// keys in the same order, same elements.
//
// Only a reply that is a JSON object is cut; anything else (and any reply
// under SPLIT_MIN characters) travels whole.

/** Replies shorter than this travel as one string: parsing them takes well under a millisecond. */
export const SPLIT_MIN = 64 * 1024;

/** The target size of one piece, in characters (about 0.2-0.5 ms of JSON.parse). */
const PIECE = 32 * 1024;

/** How long the receiving thread parses before it yields to its event loop. */
const SLICE_MS = 3;

/**
 * One top-level member of a cut reply: `value` is the member's JSON text,
 * or, for an array, `pieces` hold its elements' texts joined by commas
 * without the brackets, in order.
 * @typedef {{key: string, value?: string, pieces?: string[]}} ReplyMember
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * The index just past the string literal that starts at i (s[i] is '"').
 * Strings are most of a reply, so the closing quote is found with indexOf,
 * which is much faster than a loop over every character.
 * @param {string} s @param {number} i
 */
function skipString(s, i) {
  let j = i + 1;
  for (;;) {
    const q = s.indexOf('"', j);
    if (q < 0) throw new Error('unterminated string');
    // The quote is escaped when an odd number of backslashes precede it.
    let b = q - 1;
    while (b > i && s.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/**
 * The index just past the JSON value that starts at i (no white space:
 * the engine's replies are compact).
 * @param {string} s @param {number} i
 */
function skipValue(s, i) {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return skipString(s, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    for (; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const d = s.charCodeAt(j);
    if (d === QUOTE) {
      j = skipString(s, j) - 1;
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
 * @param {string} reply
 * @returns {{key: string, start: number, end: number, elements: number[] | null}[] | null}
 *   start/end: the value's text; elements: start and end index of each element, in pairs
 */
export function scanMembers(reply) {
  if (reply.charCodeAt(0) !== OPEN_BRACE) return null;
  try {
    /** @type {{key: string, start: number, end: number, elements: number[] | null}[]} */
    const members = [];
    let i = 1;
    if (reply.charCodeAt(i) === CLOSE_BRACE) return i === reply.length - 1 ? members : null;
    for (;;) {
      if (reply.charCodeAt(i) !== QUOTE) return null;
      const keyEnd = skipString(reply, i);
      const key = JSON.parse(reply.slice(i, keyEnd));
      if (reply.charCodeAt(keyEnd) !== COLON) return null;
      const start = keyEnd + 1;
      /** @type {number[] | null} */
      let elements = null;
      if (reply.charCodeAt(start) === OPEN_BRACKET) {
        elements = [];
        let j = start + 1;
        if (reply.charCodeAt(j) === CLOSE_BRACKET) {
          i = j + 1;
        } else {
          for (;;) {
            const e = skipValue(reply, j);
            elements.push(j, e);
            const c = reply.charCodeAt(e);
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
      const c = reply.charCodeAt(i);
      if (c === CLOSE_BRACE && i === reply.length - 1) return members;
      if (c !== COMMA) return null;
      i++;
    }
  } catch {
    return null;
  }
}

/**
 * Cut a compact JSON object reply into members, its arrays into pieces of
 * about PIECE characters. Returns null when the reply is short, not an
 * object, or not compact JSON as the engine writes it: the caller then
 * sends it whole.
 * @param {string} reply
 * @returns {ReplyMember[] | null}
 */
export function splitReply(reply) {
  if (reply.length < SPLIT_MIN) return null;
  const scanned = scanMembers(reply);
  if (!scanned) return null;
  return scanned.map(({ key, start, end, elements }) => {
    if (!elements || elements.length === 0) return { key, value: reply.slice(start, end) };
    /** @type {string[]} */
    const pieces = [];
    let from = elements[0];
    for (let k = 1; k < elements.length; k += 2) {
      const e = elements[k];
      if (e - from >= PIECE || k === elements.length - 1) {
        pieces.push(reply.slice(from, e));
        from = elements[k + 1];
      }
    }
    return { key, pieces };
  });
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
 * Build the value of a cut reply, parsing for at most SLICE_MS at a time.
 * @param {ReplyMember[]} members
 * @returns {Promise<Record<string, unknown>>}
 */
export async function assembleReply(members) {
  /** @type {Record<string, unknown>} */
  const out = {};
  let t = performance.now();
  const maybeYield = async () => {
    if (performance.now() - t >= SLICE_MS) {
      await yieldToLoop();
      t = performance.now();
    }
  };
  for (const m of members) {
    let v;
    if (m.pieces) {
      /** @type {unknown[]} */
      const arr = [];
      for (const p of m.pieces) {
        const part = JSON.parse('[' + p + ']');
        for (let k = 0; k < part.length; k++) arr.push(part[k]);
        await maybeYield();
      }
      v = arr;
    } else {
      v = JSON.parse(/** @type {string} */ (m.value));
      await maybeYield();
    }
    // defineProperty, not assignment: a "__proto__" key stays a plain key, as with JSON.parse.
    Object.defineProperty(out, m.key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
