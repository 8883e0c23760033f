// The read-ahead of SKILL.md files (src/prefetch.js): a worker
// thread answers read_file_within only with what the default filesystem's
// own readFileWithin answered for exactly the same (path, path, buf_cap),
// errors included (SPEC S44's check runs in the worker as inline). These
// tests drive the Prefetcher with hand-built hint lists
// (wasm/ABI.md#prefetch_within); prefetch-e2e.test.js drives it through
// discover(). Runs under node --test, deno test and bun test.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { defaultFileSystem, workerThreads } from '#platform';
import { Prefetcher, parseHint, readAheadLoop, readAhead, listAhead, CODES } from '../src/prefetch.js';
import { hintList } from './prefetch-list.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-prefetch-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const enc = new TextEncoder();

/**
 * A root of count skill folders whose SKILL.md files are of every kind a
 * read can meet: short, longer than the cap, exactly the cap, empty,
 * missing, a directory, a link inside, a link outside (EXDEV), a name
 * that is not UTF-8.
 * @param {string} name @param {number} count
 */
function makeRoot(name, count) {
  const root = path.join(tmp, name);
  fs.mkdirSync(path.join(root, 'skills'), { recursive: true });
  fs.writeFileSync(path.join(root, 'outside.md'), '---\ndescription: OUTSIDE\n---\n');
  const skills = path.join(root, 'skills');
  /** @type {(string | Uint8Array)[]} the SKILL.md paths, each read against itself */
  const records = [];
  for (let i = 0; i < count; i++) {
    const dir = path.join(skills, `s${i}`);
    fs.mkdirSync(dir);
    const file = path.join(dir, 'SKILL.md');
    switch (i % 9) {
      case 0: fs.writeFileSync(file, `---\ndescription: ${'long '.repeat(1200)}\n---\n`); break; // > 4096
      case 1: fs.writeFileSync(file, 'x'.repeat(4096)); break; // exactly the cap
      case 2: fs.writeFileSync(file, ''); break;
      case 3: break; // missing: ENOENT
      case 4: fs.mkdirSync(file); break; // EISDIR
      case 5: fs.symlinkSync(path.join(root, 'outside.md'), file); break; // EXDEV (S44)
      case 6: fs.writeFileSync(path.join(dir, 'real.md'), `---\ndescription: linked ${i}\n---\n`); fs.symlinkSync('real.md', file); break;
      default: fs.writeFileSync(file, `---\nname: s${i}\ndescription: skill ${i}\n---\nbody ${i}\n`);
    }
    records.push(file);
  }
  // A folder whose name is not UTF-8 (bytes travel as they are).
  const odd = Buffer.concat([Buffer.from(skills + '/'), Buffer.from([0x6f, 0xff, 0x64])]);
  fs.mkdirSync(odd);
  fs.writeFileSync(Buffer.concat([odd, Buffer.from('/SKILL.md')]), '---\ndescription: odd\n---\n');
  records.push(new Uint8Array(Buffer.concat([odd, Buffer.from('/SKILL.md')])));
  return { root, skills, records };
}

/** What fn did: {n, bytes} or {code}. @param {(buf: Uint8Array) => number} fn @param {number} cap */
function outcome(fn, cap) {
  const buf = new Uint8Array(cap);
  try {
    const n = fn(buf);
    return { n, bytes: Buffer.from(buf.subarray(0, Math.max(0, Math.min(n, cap)))).toString('latin1') };
  } catch (e) {
    return { code: /** @type {any} */ (e).code };
  }
}

/** Wait until cond() holds (the worker boots in tens of milliseconds, more on a loaded machine). */
async function until(/** @type {() => boolean} */ cond, what = 'the worker', ms = 30000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what} did not get there in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Whether the worker has read every record of the current hint. @param {Prefetcher} pf */
const allRead = (pf) => pf.current !== null && pf.current.states.every((s) => s === 2);

const bytesOf = (/** @type {string | Uint8Array} */ s) => (typeof s === 'string' ? enc.encode(s) : s);

test('every read the worker made answers exactly as the filesystem does inline (S44 included)', async () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const { records } = makeRoot('same', 60);
  const pf = new Prefetcher(workerThreads, { startAfterCalls: 0 });
  try {
    pf.hint(hintList(records), 4096);
    await until(() => allRead(pf));
    const codes = new Set();
    for (const r of records) {
      const p = bytesOf(r);
      const got = outcome((buf) => {
        const n = pf.take(p.slice(), p, buf);
        assert.notEqual(n, -1, `${r}: not served by the worker`);
        return n;
      }, 4096);
      const want = outcome((buf) => fsys.readFileWithin(p, p, buf), 4096);
      assert.deepEqual(got, want, String(r));
      if (want.code) codes.add(want.code);
    }
    // The list covered the errors, and every read was served.
    assert.deepEqual([...codes].sort(), ['EISDIR', 'ENOENT', 'EXDEV']);
    assert.equal(pf.stats.served, records.length);
    assert.equal(pf.stats.inline, 0);
  } finally {
    await pf.close();
  }
});

test('only a read of exactly a listed (path, path, buf_cap), at or after the cursor, is served', async () => {
  const { records, skills } = makeRoot('exact', 48);
  const pf = new Prefetcher(workerThreads, { startAfterCalls: 0 });
  try {
    pf.hint(hintList(records), 4096);
    await until(() => allRead(pf));
    // Whether the worker's read answered (a size, or an error thrown with its code).
    const served = (/** @type {number} */ i, cap = 4096, within = records[i], p = bytesOf(records[i])) => {
      try {
        return pf.take(bytesOf(within), p, new Uint8Array(cap)) !== -1;
      } catch (e) {
        return typeof (/** @type {any} */ (e).code) === 'string';
      }
    };
    assert.equal(served(10, 4095), false, 'another cap');
    assert.equal(served(10, 4096, skills), false, 'another within');
    assert.equal(served(10, 4096, `${records[10]}x`, enc.encode(`${records[10]}x`)), false, 'a path not listed');
    assert.equal(served(10), true, 'the record at the cursor');
    assert.equal(served(20), true, 'a record further on (the ones between are skipped)');
    assert.equal(served(15), false, 'a record behind the cursor');
    assert.equal(served(21), true, 'the next record (a missing file: ENOENT)');
    assert.equal(pf.stats.served, 3);
  } finally {
    await pf.close();
  }
});

test('a new hint supersedes the last, the end of a call drops it, a small one is not read ahead', async () => {
  const a = makeRoot('supersede-a', 40).records;
  const b = makeRoot('supersede-b', 40).records;
  const pf = new Prefetcher(workerThreads, { startAfterCalls: 0 });
  try {
    pf.hint(hintList(a), 4096);
    await until(() => allRead(pf));
    pf.hint(hintList(b), 4096);
    const take = (/** @type {typeof a} */ rs, /** @type {number} */ i) => pf.take(bytesOf(rs[i]), bytesOf(rs[i]), new Uint8Array(4096));
    assert.equal(take(a, 7), -1, 'a record of the superseded hint');
    await until(() => allRead(pf));
    assert.ok(take(b, 7) >= 0);
    pf.endCall();
    assert.equal(take(b, 8), -1, 'after the call ended');
    pf.hint(hintList(b.slice(0, 31)), 4096);
    assert.equal(pf.current, null, 'a hint of 31 records');
    assert.equal(take(b, 0), -1);
    pf.hint(hintList(b), (64 << 10) + 1);
    assert.equal(pf.current, null, 'a hint of reads over 64 KiB');
  } finally {
    await pf.close();
  }
});

test('no worker starts before the engine\'s first call has ended (a one-shot process never pays for one)', async () => {
  const { records } = makeRoot('first-call', 40);
  let started = 0;
  const pf = new Prefetcher(() => {
    started++;
    return workerThreads();
  });
  try {
    pf.hint(hintList(records), 4096);
    assert.equal(pf.current, null);
    assert.equal(started, 0, 'node:worker_threads was loaded during the first call');
    pf.endCall();
    pf.hint(hintList(records), 4096);
    assert.equal(started, 1);
    await until(() => allRead(pf));
    assert.ok(pf.take(enc.encode(String(records[1])), enc.encode(String(records[1])), new Uint8Array(4096)) >= 0);
  } finally {
    await pf.close();
  }
});

test('a record the worker has not claimed is taken and read inline by the caller', () => {
  const { records } = makeRoot('unclaimed', 40);
  // A worker that never reads: every record stays unclaimed.
  const port = { unref() {}, postMessage() {}, close() {} };
  const idle = () => ({ Worker: class { unref() {} on() {} terminate() { return Promise.resolve(0); } }, MessageChannel: class { port1 = port; port2 = port; } });
  const pf = new Prefetcher(/** @type {any} */ (idle), { startAfterCalls: 0 });
  pf.hint(hintList(records), 4096);
  const h = /** @type {NonNullable<typeof pf.current>} */ (pf.current);
  assert.equal(pf.take(bytesOf(records[0]), bytesOf(records[0]), new Uint8Array(4096)), -1);
  assert.equal(h.states[0], 3, 'taken by the main thread: the worker will not read it');
  assert.equal(h.cursor, 1, 'the next read is looked for after it');
  assert.equal(pf.stats.inline, 1);
});

/** A Prefetcher whose worker never reads; its messages are kept in posted. @param {any} [fs] */
function idlePrefetcher(fs) {
  /** @type {any[]} */
  const posted = [];
  const port = { unref() {}, postMessage(/** @type {any} */ m) { posted.push(m); }, close() {} };
  const idle = () => ({ Worker: class { unref() {} on() {} terminate() { return Promise.resolve(0); } }, MessageChannel: class { port1 = port; port2 = port; } });
  return { pf: new Prefetcher(/** @type {any} */ (idle), { startAfterCalls: 0, fs }), posted };
}

/**
 * A listing in read_dir's form (wasm/ABI.md#read_dir): each entry's type,
 * its name's length (u32, little-endian) and its bytes.
 * @param {{name: string | Uint8Array, type: string}[]} entries
 */
function readDirForm(entries) {
  const types = /** @type {Record<string, number>} */ ({ other: 0, file: 1, dir: 2, symlink: 3 });
  /** @type {number[]} */
  const out = [];
  for (const e of entries) {
    const name = bytesOf(e.name);
    out.push(types[e.type], name.length & 0xff, (name.length >> 8) & 0xff, (name.length >> 16) & 0xff, name.length >>> 24, ...name);
  }
  return new Uint8Array(out);
}

test('a call lists ahead the directories its request listed the last time, each listing made in this call and written as read_dir writes it', () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const base = path.join(tmp, 'dirs');
  const d0 = path.join(base, 'd0');
  const d1 = path.join(base, 'd1');
  const d2 = path.join(base, 'd2');
  fs.mkdirSync(path.join(d0, 'x'), { recursive: true });
  fs.writeFileSync(path.join(d0, 'f.md'), 'f');
  fs.symlinkSync('x', path.join(d0, 'l'));
  fs.mkdirSync(Buffer.concat([Buffer.from(d0 + '/'), Buffer.from([0x6e, 0xff])])); // a name that is not UTF-8
  fs.mkdirSync(d1);
  for (let i = 0; i < 50; i++) fs.mkdirSync(path.join(d2, `skill-${i}-réglé`), { recursive: true });
  fs.writeFileSync(path.join(base, 'file'), 'not a directory');
  const dirs = [d0, d1, d2, path.join(base, 'missing'), path.join(base, 'file')].map((p) => enc.encode(p));

  const { pf, posted } = idlePrefetcher();
  pf.start();
  // The first call lists inline and is remembered.
  pf.startCall('request');
  assert.equal(posted.length, 0, 'nothing to list ahead yet');
  for (const p of dirs) assert.equal(pf.takeDir(p), null);
  pf.endCall();
  // The tree changes between the calls: the next one sees the change.
  fs.mkdirSync(path.join(d0, 'added'));
  pf.startCall('request');
  assert.equal(posted.length, 1);
  listAhead(fsys, posted[0]); // as the worker would
  for (const p of dirs) {
    /** @type {any} */
    let want;
    try {
      want = readDirForm(fsys.readDir(p));
    } catch (e) {
      want = /** @type {any} */ (e).code;
    }
    /** @type {any} */
    let got;
    try {
      got = pf.takeDir(p);
      assert.ok(got, `${p}: not listed ahead`);
      got = new Uint8Array(got);
      // The same listing again: read_dir asks again when its buffer was too small.
      assert.deepEqual(new Uint8Array(/** @type {Uint8Array} */ (pf.takeDir(p))), got);
    } catch (e) {
      got = /** @type {any} */ (e).code;
    }
    assert.deepEqual(got, want, Buffer.from(p).toString());
    if (p === dirs[0]) assert.ok(Buffer.from(got).includes('added'), 'a listing of this call, not of the last');
  }
  assert.equal(pf.takeDir(enc.encode(path.join(base, 'elsewhere'))), null, 'a directory not on the list');
  pf.endCall();
  assert.equal(pf.takeDir(dirs[0]), null, 'no listing outside its call');
  // Another request lists inline.
  pf.startCall('another request');
  assert.equal(posted.length, 1);
  pf.endCall();
  // A directory the engine's thread gets to first is its own: the worker skips it.
  pf.startCall('request');
  assert.equal(pf.takeDir(dirs[0]), null);
  listAhead(fsys, posted[1]);
  assert.equal(pf.takeDir(dirs[0]), null, 'taken by the engine\'s thread: listed there');
  assert.ok(pf.takeDir(dirs[1]), 'the next one listed ahead');
  for (const p of dirs.slice(2)) {
    try {
      pf.takeDir(p); // asked for, so on the next call's list
    } catch {
      // listed ahead, with an error
    }
  }
  pf.endCall();
  // A listing that does not fit in the job's data is left to the engine's thread, and the next job has room for it.
  pf.dirData = 64;
  pf.dirBuffer = null; // a new buffer of that size, not the last one
  pf.startCall('request');
  listAhead(fsys, posted[2]);
  assert.ok(pf.takeDir(dirs[0]) && pf.takeDir(dirs[1]));
  assert.equal(pf.takeDir(dirs[2]), null, 'too large for the data left');
  pf.endCall();
  assert.ok(pf.dirData > 64);
});

test('the listing job makes ahead the stat, lstat and realpath calls of the request\'s last call too, each answered as the filesystem does', () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const base = path.join(tmp, 'probes');
  fs.mkdirSync(path.join(base, 'root/group'), { recursive: true });
  fs.mkdirSync(path.join(base, 'root/skill'), { recursive: true });
  fs.writeFileSync(path.join(base, 'root/skill/SKILL.md'), 'x');
  fs.symlinkSync('skill', path.join(base, 'root/linked'));
  fs.symlinkSync('nowhere', path.join(base, 'root/dangling'));
  const P = (/** @type {string} */ rel) => enc.encode(path.join(base, rel));
  /** @type {[('readDir' | 'lstat' | 'stat' | 'realpath'), Uint8Array][]} */
  const calls = [
    ['lstat', P('root/.git')], ['readDir', P('root')], ['realpath', P('root')], ['lstat', P('root/group/SKILL.md')],
    ['stat', P('root/linked')], ['lstat', P('root/dangling')], ['stat', P('root/dangling')], ['realpath', P('root/linked')],
    ['realpath', P('root/missing')], ['lstat', P('root/skill/SKILL.md/x')],
  ];
  /** What the filesystem answers (bytes for a realpath or a listing), or the error's code. */
  const answer = (/** @type {string} */ op, /** @type {Uint8Array} */ p) => {
    try {
      const r = fsys[op](p);
      if (op === 'readDir') return readDirForm(r);
      return op === 'realpath' ? [...bytesOf(r)] : r;
    } catch (e) {
      return /** @type {any} */ (e).code;
    }
  };
  const taken = (/** @type {Prefetcher} */ pf, /** @type {'readDir' | 'lstat' | 'stat' | 'realpath'} */ op, /** @type {Uint8Array} */ p) => {
    try {
      const r = pf.takeProbe(op, p);
      return r instanceof Uint8Array ? (op === 'readDir' ? new Uint8Array(r) : [...r]) : r;
    } catch (e) {
      return /** @type {any} */ (e).code;
    }
  };
  const { pf, posted } = idlePrefetcher();
  pf.start();
  pf.startCall('request');
  for (const [op, p] of calls) assert.equal(pf.takeProbe(op, p), undefined, 'made inline the first time');
  pf.endCall();
  pf.startCall('request');
  assert.equal(posted.length, 1);
  listAhead(fsys, posted[0]); // as the worker would
  assert.equal(pf.takeProbe('stat', P('root/.git')), undefined, 'another call on the same path is not served');
  for (const [op, p] of calls) {
    const got = taken(pf, op, p);
    assert.notEqual(got, undefined, `${op} ${Buffer.from(p)}: not made ahead`);
    assert.deepEqual(got, answer(op, p), `${op} ${Buffer.from(p)}`);
  }
  assert.deepEqual([answer('lstat', P('root/.git')), answer('lstat', P('root/dangling')), answer('realpath', P('root/missing'))], [null, 'symlink', 'ENOENT']);
  pf.endCall();
  // While the worker makes the first, the engine's thread makes the rest, each as the worker would.
  const help = idlePrefetcher(fsys);
  help.pf.start();
  help.pf.startCall('request');
  for (const [op, p] of calls) help.pf.takeProbe(op, p);
  help.pf.endCall();
  help.pf.startCall('request');
  const job = /** @type {any} */ (help.pf.dirs).job;
  Atomics.store(job.states, 0, 1); // the worker is on the first (READING), and stays there
  assert.equal(help.pf.takeProbe(calls[0][0], calls[0][1]), undefined, 'still being made by the worker: made inline');
  for (const [op, p] of calls.slice(1)) assert.deepEqual(taken(help.pf, op, p), answer(op, p), `made here: ${op} ${Buffer.from(p)}`);
  help.pf.endCall();
});

test('while the worker lists the directory the engine needs, the engine\'s thread lists the next ones itself', () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const base = path.join(tmp, 'dirs-help');
  const dirs = ['a', 'b', 'c', 'd'].map((n) => path.join(base, n));
  for (const [i, d] of dirs.entries()) for (let k = 0; k <= i; k++) fs.mkdirSync(path.join(d, `e${k}`), { recursive: true });
  const paths = [...dirs, path.join(base, 'missing')].map((p) => enc.encode(p));
  const { pf, posted } = idlePrefetcher(fsys);
  pf.start();
  pf.startCall('request');
  for (const p of paths) assert.equal(pf.takeDir(p), null);
  pf.endCall();
  pf.startCall('request');
  assert.equal(posted.length, 1);
  const job = /** @type {any} */ (pf.dirs).job;
  Atomics.store(job.states, 0, 1); // the worker is on the first (READING), and stays there
  assert.equal(pf.takeDir(paths[0]), null, 'still being listed by the worker: listed inline');
  assert.deepEqual([...job.states], [1, 3, 3, 3, 3], 'the rest taken by the engine\'s thread');
  for (const p of paths.slice(1, 4)) {
    const got = pf.takeDir(p);
    assert.ok(got, 'listed while it waited');
    assert.deepEqual(new Uint8Array(got), readDirForm(fsys.readDir(p)));
  }
  assert.throws(() => pf.takeDir(paths[4]), { code: 'ENOENT' });
  pf.endCall();
});

test('while the worker reads the record the engine needs, the engine\'s thread reads the next ones for it', () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const { records } = makeRoot('helping', 40);
  /** @type {Prefetcher} */
  let pf;
  let reads = 0;
  // The filesystem the engine's thread reads with: the worker (simulated)
  // finishes record 3 while the engine's thread reads its first record.
  const viaMain = {
    readFileWithin(/** @type {any} */ w, /** @type {any} */ p, /** @type {Uint8Array} */ buf) {
      if (reads++ === 0) {
        const h = /** @type {any} */ (pf.current);
        h.results[3] = 5;
        h.ring.set(enc.encode('three'), 3 * h.slotSize);
        Atomics.store(h.states, 3, 2);
      }
      return fsys.readFileWithin(w, p, buf);
    },
  };
  ({ pf } = idlePrefetcher(viaMain));
  pf.hint(hintList(records), 4096);
  const h = /** @type {any} */ (pf.current);
  Atomics.store(h.states, 3, 1); // the worker is reading record 3
  Atomics.store(h.states, 5, 2); // and has read record 5
  const buf = new Uint8Array(4096);
  const p3 = bytesOf(records[3]);
  assert.equal(pf.take(p3, p3, buf), 5, 'record 3 as the worker read it');
  assert.equal(Buffer.from(buf.subarray(0, 5)).toString(), 'three');
  assert.equal(reads, 1, 'one read while it waited: record 4, the next unclaimed one');
  assert.equal(pf.stats.helped, 1);
  assert.equal(h.states[4], 2, 'record 4 is read (DONE), in its slot');
  const p4 = bytesOf(records[4]);
  assert.deepEqual(outcome((b) => pf.take(p4, p4, b), 4096), outcome((b) => fsys.readFileWithin(p4, p4, b), 4096), 'record 4 from its slot');
  const p6 = bytesOf(records[6]);
  assert.equal(pf.take(p6, p6, buf), -1, 'record 6, which nobody had claimed: read it inline');
  assert.equal(pf.stats.served, 2, 'records 3 and 4');
  assert.equal(pf.stats.inline, 1);
  assert.equal(h.states[6], 3, 'record 6 is the caller\'s (TAKEN)');
});

test('a call reads ahead the hint its request sent last time from its start, served only once the engine sends the same hint', () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const { records } = makeRoot('early', 40);
  const other = makeRoot('early-other', 40).records;
  const list = hintList(records);
  const { pf, posted } = idlePrefetcher();
  pf.start();
  // The first call sends its hint: remembered for the request's next call.
  pf.startCall('request');
  assert.equal(posted.length, 0, 'nothing to read ahead yet');
  pf.hint(list.slice(), 4096);
  assert.equal(posted.length, 1);
  pf.endCall();
  // The tree changes between the calls: the reads are this call's.
  const p0 = bytesOf(records[7]);
  fs.writeFileSync(Buffer.from(p0), '---\ndescription: changed\n---\n');
  pf.startCall('request');
  assert.equal(posted.length, 2, 'the reads of the last hint, sent at the call\'s start');
  const early = /** @type {any} */ (pf.current);
  assert.equal(early.early, true);
  readAhead(fsys, posted[1]); // as the worker would
  const buf = new Uint8Array(4096);
  assert.equal(pf.take(p0, p0, buf), -1, 'not served before the engine sends the hint');
  assert.equal(early.states[7], 2, 'and left as the worker read it');
  pf.hint(list.slice(), 4096);
  assert.equal(posted.length, 2, 'the same hint: no new job');
  assert.equal(pf.current, early);
  assert.equal(pf.stats.early, 1);
  for (const i of [3, 4, 5, 7, 8]) {
    const p = bytesOf(records[i]);
    const got = outcome((b) => pf.take(p, p, b), 4096);
    assert.deepEqual(got, outcome((b) => fsys.readFileWithin(p, p, b), 4096), String(records[i]));
    if (i === 7) assert.match(String(got.bytes), /changed/, 'read in this call');
  }
  assert.equal(pf.stats.served, 5);
  pf.endCall();
  // A call whose hint differs from the last: the early reads are dropped and the new hint read.
  pf.startCall('request');
  assert.equal(posted.length, 3);
  const dropped = /** @type {any} */ (pf.current);
  pf.hint(hintList(other), 4096);
  assert.equal(posted.length, 4, 'a new job for the new hint');
  assert.equal(Atomics.load(dropped.ctrl, 0), 1, 'the early one cancelled');
  assert.notEqual(pf.current, dropped);
  pf.endCall();
  // Another request reads nothing ahead; the next call of this one reads the hint it sent last.
  pf.startCall('another request');
  assert.equal(posted.length, 4);
  pf.endCall();
  pf.startCall('request');
  assert.equal(posted.length, 5);
  assert.equal(/** @type {any} */ (posted[4]).listLen, hintList(other).length);
  pf.endCall();
  assert.equal(pf.stats.early, 1);
});

test('a hint whose message reaches the worker after its bell is still read ahead', async () => {
  const fsys = /** @type {any} */ (defaultFileSystem());
  const a = makeRoot('late-a', 40).records;
  const b = makeRoot('late-b', 40).records;
  const { pf, posted } = idlePrefetcher();
  pf.hint(hintList(a), 4096);
  pf.hint(hintList(b), 4096);
  const hb = /** @type {any} */ (pf.current);
  assert.equal(posted.length, 2);
  assert.equal(Atomics.load(pf.bell, 0), 2, 'both bells rung');
  // The second message shows up on the port only at the third look.
  let looks = 0;
  const io = {
    port: /** @type {any} */ ({}),
    bell: pf.bell,
    received: 0,
    receiveMessageOnPort: () => (++looks === 3 ? { message: posted[1] } : undefined),
  };
  readAheadLoop(fsys, io, posted[0]); // returns after IDLE_MS without a further hint
  assert.equal(io.received, 2);
  assert.ok(hb.states.every((/** @type {number} */ s) => s === 2), 'every record of the late hint read');
});

test('hint lists are parsed exactly, and one cut short is refused', () => {
  const paths = ['/w/a/SKILL.md', '', new Uint8Array([0xff, 0x2f, 0x80])];
  const list = hintList(paths);
  const got = /** @type {Uint8Array[]} */ (parseHint(list));
  assert.deepEqual(got.map((p) => Buffer.from(p).toString('latin1')), ['/w/a/SKILL.md', '', '\xff/\x80']);
  assert.deepEqual(parseHint(new Uint8Array(0)), []);
  for (let n = 1; n < list.length; n++) {
    const r = parseHint(list.subarray(0, n));
    if (list[n - 1] === 0) assert.equal(r?.length, list.subarray(0, n).filter((b) => b === 0).length, `cut at ${n}`);
    else assert.equal(r, null, `cut at ${n}`);
  }
  assert.ok(CODES.includes('EXDEV'));
});

test('the worker never keeps a process alive, even while it reads', () => {
  const records = makeRoot('alive', 40).records.slice(0, 40); // paths as text
  const script = `
    import * as workerThreads from 'node:worker_threads';
    import { Prefetcher } from ${JSON.stringify(new URL('../src/prefetch.js', import.meta.url).href)};
    import { hintList } from ${JSON.stringify(new URL('./prefetch-list.js', import.meta.url).href)};
    const records = ${JSON.stringify(records)};
    const pf = new Prefetcher(() => workerThreads, { startAfterCalls: 0 });
    pf.hint(hintList(records), 4096);
    const end = Date.now() + 20000;
    while (!pf.current.states.every((s) => s === 2)) {
      if (Date.now() > end) throw new Error('the worker read nothing');
      await new Promise((r) => setTimeout(r, 5));
    }
    const enc = new TextEncoder();
    console.log('served', pf.take(enc.encode(records[8]), enc.encode(records[8]), new Uint8Array(4096)));
    // The process ends while the worker reads a long hint.
    pf.hint(hintList(Array.from({ length: 4000 }, (_, i) => records[i % 40])), 4096);
    while (pf.current.states[0] === 0) await new Promise((r) => setTimeout(r, 1));
    console.log('reading');
  `;
  const exe = globalThis.Deno ? [globalThis.Deno.execPath(), 'eval', script] : [process.execPath, '--input-type=module', '-e', script];
  // Not a speed limit: a process held open by its worker would never exit.
  const r = spawnSync(exe[0], exe.slice(1), { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.signal, null, `the process did not exit by itself: ${r.stdout} ${r.stderr}`);
  assert.equal(r.status, 0, `${r.error ?? ''} ${r.stderr}`);
  assert.match(r.stdout, /^served \d+$/m, 'the worker served the read');
  assert.match(r.stdout, /^reading$/m);
});
