// @ts-check
// What a discovery depended on, for change watching. The engine
// decides which paths a discovery reads; rather than repeat those rules in
// JS (and drift from them), the filesystem the engine reads through records
// every path it touched during a watched discovery: the roots it listed,
// the roots it found missing, the SKILL.md files and skill folders, the
// plugin registry, the .git probes that bound the project. watchPlan turns
// that record into the directories to watch:
//
//   - a directory the engine listed is watched for any change of its entries;
//   - any other path (a file, a missing root, a symlinked entry) is watched
//     through its nearest existing ancestor directory, for changes of the one
//     entry on the way to it (so a new .claude/skills is noticed through its
//     nearest existing ancestor, and an unrelated file next to it is not);
//   - skill folders (watched for their SKILL.md) come last, so that when the
//     number of watchers is bounded the structure (roots, registry, project
//     bounds) is always watched and only some skill folders are not.
//
// DiscoveryTracker compares one discovery with the previous one: the key is
// the reply's digest (SPEC S54), and added/removed/changed are computed on
// the skills' JSON texts where the reply is, so that a worker does the work
// and the main thread only looks names up. A reply holds no skill's body
// (discovery reads a SKILL.md up to the end of its frontmatter), so the
// tracker also keeps each loaded skill's SKILL.md version, one stat each
// (S59): a skill whose version moved is changed even when the reply, and so
// its digest, did not.

import { scanMembers, isErrorReply } from './reply.js';

const decoder = new TextDecoder();

/**
 * @typedef {{op: string, path: string, ok: boolean}} Touch
 * @typedef {{path: string, names: string[] | null, id: string, real?: string}} WatchDir
 *   names: the entries that matter (null: any entry); id: device and inode, to notice a replaced directory;
 *   real: the directory's real path when path goes through a symlink
 * @typedef {{dirs: WatchDir[], unwatched: number}} WatchPlan
 */

const OPS = /** @type {const} */ (['readDir', 'stat', 'lstat', 'readFile', 'readFileInto', 'realpath']);

/**
 * A FileSystem that passes every call to inner and, while at least one
 * recording is open, notes the path and whether the call succeeded.
 * @param {import('../index.js').FileSystem} inner
 */
export function recordingFS(inner) {
  /** @type {Set<Touch[]>} */
  const open = new Set();
  /** @param {string | Uint8Array} p */
  const text = (p) => (typeof p === 'string' ? p : decoder.decode(p));
  /** @type {any} */
  const fs = { bytePaths: inner.bytePaths === true };
  const src = /** @type {any} */ (inner);
  for (const op of OPS) {
    if (typeof src[op] !== 'function') continue;
    // Fixed arity (readFileInto's buffer is the only second argument): no rest array per call.
    fs[op] = (/** @type {any} */ p, /** @type {any} */ buf) => {
      if (open.size === 0) return src[op](p, buf);
      const path = text(p);
      let ok = false;
      try {
        const r = src[op](p, buf);
        ok = r != null;
        return r;
      } finally {
        for (const rec of open) rec.push({ op, path, ok });
      }
    };
  }
  if (typeof src.readFileWithin === 'function') {
    // The file opened is checked by the filesystem itself (S44); the
    // touch is the path read.
    fs.readFileWithin = (/** @type {any} */ within, /** @type {any} */ p, /** @type {any} */ buf) => {
      if (open.size === 0) return src.readFileWithin(within, p, buf);
      const path = text(p);
      let ok = false;
      try {
        const r = src.readFileWithin(within, p, buf);
        ok = r != null;
        return r;
      } finally {
        for (const rec of open) rec.push({ op: 'readFile', path, ok });
      }
    };
  }
  return {
    fs: /** @type {import('../index.js').FileSystem} */ (fs),
    /** Start a recording; end(rec) returns what was touched since. */
    begin() {
      /** @type {Touch[]} */
      const rec = [];
      open.add(rec);
      return rec;
    },
    /** @param {Touch[]} rec */
    end(rec) {
      open.delete(rec);
      return rec;
    },
  };
}

/** @param {string} p */
const parentOf = (p) => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};
/** @param {string} p */
const baseOf = (p) => p.slice(p.lastIndexOf('/') + 1);

/**
 * The directories to watch for a discovery's touches, at most max of them.
 * @param {Touch[]} touched
 * @param {typeof import('node:fs')} nodefs
 * @param {number} max
 * @returns {WatchPlan}
 */
export function watchPlan(touched, nodefs, max) {
  /** @type {Map<string, string | null>} directory -> "dev:ino", null when not a directory */
  const ids = new Map();
  /** @param {string} p */
  const dirId = (p) => {
    let id = ids.get(p);
    if (id === undefined) {
      id = null;
      try {
        const s = nodefs.statSync(p, { throwIfNoEntry: false });
        if (s && s.isDirectory()) id = `${s.dev}:${s.ino}`;
      } catch {
        // unreadable: watch further up
      }
      ids.set(p, id);
    }
    return id;
  };
  /** @type {Map<string, Set<string> | null>} */
  const want = new Map();
  /** @type {Set<string>} directories watched only for their SKILL.md */
  const skillFolders = new Set();
  for (const t of touched) {
    if (!t.path.startsWith('/')) continue;
    if (t.op === 'readDir' && t.ok && dirId(t.path)) {
      want.set(t.path, null);
      skillFolders.delete(t.path);
      continue;
    }
    let dir = parentOf(t.path);
    let name = baseOf(t.path);
    while (dir !== '/' && !dirId(dir)) {
      name = baseOf(dir);
      dir = parentOf(dir);
    }
    if (!dirId(dir)) continue;
    if (!want.has(dir)) {
      want.set(dir, new Set([name]));
      if (name === 'SKILL.md') skillFolders.add(dir);
    } else {
      const names = want.get(dir);
      if (names) {
        names.add(name);
        if (name !== 'SKILL.md') skillFolders.delete(dir);
      }
    }
  }
  /** @type {WatchDir[]} */
  const first = [];
  /** @type {WatchDir[]} */
  const last = [];
  for (const [path, names] of want) {
    const d = { path, names: names ? [...names].sort() : null, id: /** @type {string} */ (dirId(path)) };
    (skillFolders.has(path) ? last : first).push(d);
  }
  const dirs = first.concat(last);
  const chosen = dirs.slice(0, max);
  for (const d of chosen) {
    try {
      const real = nodefs.realpathSync.native(d.path);
      if (real !== d.path) d.real = real;
    } catch {
      // gone since: the watcher reports it
    }
  }
  return { dirs: chosen, unwatched: Math.max(0, dirs.length - max) };
}

/**
 * The skills' JSON texts of a discover reply by name, and its digest.
 * @param {Uint8Array} reply the reply's UTF-8 bytes
 */
function readDiscoverReply(reply) {
  const m = /"digest":"([0-9a-f]+)"\}$/.exec(decoder.decode(reply.subarray(Math.max(0, reply.length - 64))));
  /** @type {Map<string, string>} */
  const skills = new Map();
  const members = scanMembers(reply);
  const el = members?.find((x) => x.key === 'skills')?.elements;
  if (el) {
    for (let k = 0; k < el.length; k += 2) {
      const text = decoder.decode(reply.subarray(el[k], el[k + 1]));
      // A skill's first key is its name (SPEC section 12); anything else is parsed whole.
      let name;
      const q = text.indexOf('"', 9);
      if (text.startsWith('{"name":"') && !text.slice(9, q).includes('\\')) name = text.slice(9, q);
      else name = String(JSON.parse(text)?.name);
      skills.set(name, text);
    }
  } else {
    for (const s of JSON.parse(decoder.decode(reply)).skills ?? []) skills.set(String(s?.name), JSON.stringify(s));
  }
  return { digest: m ? m[1] : null, skills };
}

/**
 * The filePath of a skill's JSON text: its first "filePath" key (the
 * skill's own comes before its frontmatter, SPEC section 12; a string
 * value cannot hold an unescaped quote, so the match is a key).
 * @param {string} text
 */
function filePathOf(text) {
  const at = text.indexOf(',"filePath":"');
  if (at >= 0) {
    const start = at + 12;
    for (let i = start + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return String(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return String(JSON.parse(text)?.filePath);
}

/**
 * How long (ms) after a file's change time its version is settled: a file
 * system stamps times at the kernel's tick (up to 10 ms), so a second write
 * in the tick of a stat would leave the version the stat saw (git's
 * "racily clean" entries). A version younger than this is taken again
 * once it is this old.
 */
const SETTLE_MS = 50;

/**
 * The S59 version of a file: device, inode, size, modification and change
 * times, from one stat (which reads no byte and never blocks on a FIFO);
 * "" when it has none. ctime: its change time (ms), 0 when none.
 * @param {typeof import('node:fs')} nodefs
 * @param {string} p
 * @returns {{v: string, ctime: number}}
 */
function fileVersion(nodefs, p) {
  try {
    const s = nodefs.statSync(p, { throwIfNoEntry: false });
    if (s) return { v: `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`, ctime: s.ctimeMs };
  } catch {
    // no version: compared as ""
  }
  return { v: '', ctime: 0 };
}

/**
 * The S59 versions of the skills' SKILL.md files, by name. A version taken
 * within SETTLE_MS of its change time is taken again once it is settled
 * (at most three rounds: a file written without pause keeps the last).
 * @param {Map<string, string>} skills the skills' JSON texts by name
 * @param {typeof import('node:fs')} nodefs
 */
async function skillVersions(skills, nodefs) {
  /** @type {Map<string, {v: string, ctime: number}>} */
  const out = new Map();
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const [name, text] of skills) {
    const p = filePathOf(text);
    files.set(name, p);
    out.set(name, fileVersion(nodefs, p));
  }
  for (let round = 0; round < 3; round++) {
    const now = Date.now();
    let wait = 0;
    for (const x of out.values()) if (Math.abs(now - x.ctime) < SETTLE_MS) wait = Math.max(wait, x.ctime + SETTLE_MS - now);
    if (wait <= 0) break;
    await new Promise((r) => setTimeout(r, Math.min(wait, SETTLE_MS)));
    for (const [name, x] of out) {
      if (Math.abs(now - x.ctime) < SETTLE_MS) out.set(name, fileVersion(nodefs, /** @type {string} */ (files.get(name))));
    }
  }
  return out;
}

/**
 * The previous discovery of one watch, to compare the next with.
 */
export class DiscoveryTracker {
  constructor() {
    /** @type {Map<string, string> | null} */
    this.skills = null;
    /** @type {string | null} the last reply's digest */
    this.digest = null;
    /** @type {string | null} the last key given: the digest, or the digest and a count when only versions moved */
    this.key = null;
    /** @type {Map<string, {v: string, ctime: number}>} each skill's SKILL.md version, by name */
    this.versions = new Map();
    this.moves = 0;
  }

  /**
   * Compare a discover reply with the previous one. key is the S54 digest
   * (or, from a module without S54, a hash of the whole reply), extended
   * by a count when only SKILL.md versions moved (S59); it is the last key
   * again when nothing changed. With nodefs, a skill whose SKILL.md
   * version moved is changed too.
   * @param {Uint8Array} reply the reply's UTF-8 bytes
   * @param {typeof import('node:fs')} [nodefs]
   * @returns {Promise<{key: string, added: string[], removed: string[], changed: string[]}>}
   */
  async observe(reply, nodefs) {
    const { digest, skills } = readDiscoverReply(reply);
    const sum = digest ?? (await sha256(reply));
    const versions = nodefs ? await skillVersions(skills, nodefs) : new Map();
    const added = [];
    const removed = [];
    const changed = [];
    if (this.skills) {
      const same = sum === this.digest; // the same reply: the same skills, the same texts
      for (const [name, text] of skills) {
        const old = this.skills.get(name);
        if (old === undefined) {
          added.push(name);
          continue;
        }
        const was = this.versions.get(name);
        const cur = versions.get(name);
        if ((!same && old !== text) || (was && cur && was.v !== cur.v)) changed.push(name);
      }
      if (!same) for (const name of this.skills.keys()) if (!skills.has(name)) removed.push(name);
    }
    let key = sum;
    if (this.skills && sum === this.digest) key = changed.length ? `${sum}.${++this.moves}` : /** @type {string} */ (this.key);
    this.skills = skills;
    this.digest = sum;
    this.key = key;
    this.versions = versions;
    return { key, added, removed, changed };
  }
}

/** @param {Uint8Array} b */
async function sha256(b) {
  const h = new Uint8Array(await crypto.subtle.digest('SHA-256', /** @type {Uint8Array<ArrayBuffer>} */ (b)));
  return Array.from(h.subarray(0, 8), (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * Run one discover request on engine while recording what it touched, and
 * compare its reply with the previous one of the same watch. The reply
 * comes back as its UTF-8 bytes (Engine.callBytes): the in-thread caller
 * decodes them, a worker passes them on (reply.js).
 * @param {{callBytes(request: string): Promise<Uint8Array>}} engine
 * @param {ReturnType<typeof recordingFS>} recorder the filesystem engine reads through
 * @param {DiscoveryTracker} tracker
 * @param {string} request
 * @param {typeof import('node:fs')} nodefs
 * @param {number} max the bound on watched directories
 */
export async function watchedDiscover(engine, recorder, tracker, request, nodefs, max) {
  const rec = recorder.begin();
  let reply;
  try {
    reply = await engine.callBytes(request);
  } finally {
    recorder.end(rec);
  }
  if (isErrorReply(reply)) return { reply, watch: null };
  const plan = watchPlan(rec, nodefs, max);
  const diff = await tracker.observe(reply, nodefs);
  return { reply, watch: { plan, ...diff } };
}
