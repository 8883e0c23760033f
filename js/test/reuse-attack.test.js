// The differential harness of SPEC S61 in the JS hosts: a long-lived engine
// over the runtime's default filesystem (read-ahead on) and a fresh engine
// are asked the same discovery after every change an attacker with a
// cloned repository can make: a SKILL.md moved out and replaced by a link
// to it, a folder moved out and replaced by a link, same-size rewrites,
// folders exchanged, and folders exchanged and back by a worker thread
// while the long-lived engine discovers. Once the changes stop, the
// long-lived engine must answer what the fresh one does.
//
// It runs for 3 seconds after a 3-second wait (a file's version stands for
// its bytes only once it is 3 s old); SKILLDEX_SOAK=30m runs it longer.
// Runs under node --test, deno test and bun test.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { Worker } from 'node:worker_threads';
import { createSkilldex } from '../index.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-reuse-attack-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** @param {string | undefined} s @returns {number} ms */
function duration(s) {
  if (!s) return 3000;
  const m = /^(\d+)(ms|s|m)$/.exec(s);
  if (!m) throw new Error(`SKILLDEX_SOAK: ${s}: want e.g. 30s or 10m`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000 }[/** @type {'ms' | 's' | 'm'} */ (m[2])];
}

// A worker that exchanges two folders and back (three renames each way)
// until told to stop, holding each state 0-2 ms.
const exchanger = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { a, b, t, stop } = workerData;
const flag = new Int32Array(stop);
const swap = () => { fs.renameSync(a, t); fs.renameSync(b, a); fs.renameSync(t, b); };
const hold = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let n = 0;
while (Atomics.load(flag, 0) === 0) { swap(); hold(Math.random() * 2); swap(); hold(Math.random() * 0.5); n++; Atomics.store(flag, 1, n); }
parentPort.postMessage(n);
`;

test('a long-lived engine answers as a fresh one after links, moves, rewrites and exchanges, some during its calls (S61)', async () => {
  const run = duration(process.env.SKILLDEX_SOAK);
  const home = path.join(tmp, 'home');
  const skills = path.join(home, '.claude/skills');
  const outside = path.join(tmp, 'outside');
  const spares = path.join(tmp, 'spares');
  const n = 16;
  const name = (/** @type {number} */ i) => `s${String(i).padStart(2, '0')}`;
  const writeTree = (/** @type {string} */ root) => {
    for (let i = 0; i < n; i++) {
      fs.mkdirSync(path.join(root, name(i)), { recursive: true });
      fs.writeFileSync(path.join(root, name(i), 'SKILL.md'), `---\nname: ${name(i)}\ndescription: skill number ${i}\n---\nThe instructions of ${name(i)}.\n`);
    }
  };
  // Spare trees to start again from: renamed into place, their files keep
  // their change times, so they are old enough when used.
  /** @type {{dir: string, made: number}[]} */
  const spare = [];
  let made = 0;
  const addSpares = (/** @type {number} */ k) => {
    for (let i = 0; i < k; i++) {
      const d = path.join(spares, String(made++));
      writeTree(d);
      spare.push({ dir: d, made: Date.now() });
    }
  };
  writeTree(skills);
  fs.mkdirSync(outside, { recursive: true });
  addSpares(8);
  await new Promise((r) => setTimeout(r, 3200));

  const ctx = { cwd: home, home };
  const fresh = async () => {
    const other = createSkilldex();
    try {
      return JSON.stringify(await other.discover(ctx));
    } finally {
      await other.close();
    }
  };
  const sk = createSkilldex();
  const stop = new SharedArrayBuffer(8); // [stop, exchanges made so far]
  /** @type {Record<string, number>} */
  const changes = {};
  let rounds = 0, exchanges = 0;
  try {
    await sk.discover(ctx);
    await sk.discover(ctx);
    const start = Date.now();
    for (; Date.now() - start < run; rounds++) {
      const i = Math.floor(Math.random() * n), j = Math.floor(Math.random() * n);
      const folder = (/** @type {number} */ k) => path.join(skills, name(k));
      const file = path.join(folder(i), 'SKILL.md');
      const kinds = ['link-file-out', 'link-folder-out', 'rewrite', 'exchange', 'exchange-and-back', 'exchange-and-back'];
      const kind = kinds[Math.floor(Math.random() * kinds.length)];
      const exists = (/** @type {string} */ p) => fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
      if (kind === 'link-file-out' && exists(file)) {
        const out = path.join(outside, `f${rounds}`);
        fs.renameSync(folder(i), out);
        fs.mkdirSync(folder(i));
        fs.symlinkSync(path.join(out, 'SKILL.md'), file);
      } else if (kind === 'link-folder-out' && exists(folder(i))) {
        const out = path.join(outside, `d${rounds}`);
        fs.renameSync(folder(i), out);
        fs.symlinkSync(out, folder(i));
      } else if (kind === 'rewrite' && exists(file) && !fs.lstatSync(file).isSymbolicLink()) {
        fs.writeFileSync(file, `---\nname: ${name(i)}\ndescription: rewritten ${String(rounds % 10000).padStart(4, '0')}\n---\nNew.\n`);
      } else if ((kind === 'exchange' || kind === 'exchange-and-back') && i !== j && exists(folder(i)) && exists(folder(j))) {
        const t = path.join(skills, '.swap');
        if (kind === 'exchange') {
          fs.renameSync(folder(i), t);
          fs.renameSync(folder(j), folder(i));
          fs.renameSync(t, folder(j));
        } else {
          Atomics.store(new Int32Array(stop), 0, 0);
          Atomics.store(new Int32Array(stop), 1, 0);
          const w = new Worker(exchanger, { eval: true, workerData: { a: folder(i), b: folder(j), t, stop } });
          const done = new Promise((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
          });
          // Discover while the exchanges go on (from the first one on).
          for (let k = 0; k < 400 && Atomics.load(new Int32Array(stop), 1) === 0; k++) await new Promise((r) => setTimeout(r, 5));
          for (let k = 0; k < 3; k++) await sk.discover(ctx);
          Atomics.store(new Int32Array(stop), 0, 1);
          exchanges += Number(await done);
          await w.terminate();
        }
      } else {
        continue;
      }
      changes[kind] = (changes[kind] ?? 0) + 1;
      const want = await fresh();
      const got = JSON.stringify(await sk.discover(ctx));
      assert.equal(got, want, `round ${rounds}, after ${kind} of ${name(i)}`);
      if (rounds % 16 === 15 && spare.length > 0 && Date.now() - spare[0].made > 3200) {
        // Start again from a clean tree now and then, so that links out
        // do not pile up.
        fs.rmSync(skills, { recursive: true, force: true });
        fs.renameSync(/** @type {{dir: string}} */ (spare.shift()).dir, skills);
        if (spare.length < 4) addSpares(4);
      }
    }
  } finally {
    await sk.close();
  }
  assert.ok(changes['exchange-and-back'] > 0 && changes['link-file-out'] > 0, JSON.stringify(changes));
  console.log(`# ${rounds} rounds in ${run} ms: ${JSON.stringify(changes)}, ${exchanges} exchanges and back during calls`);
});
