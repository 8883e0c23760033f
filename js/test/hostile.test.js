// Trees built to take discovery down (SPEC S43-S45), through the
// CLI and the library as a user meets them. Trees are generated here, at
// test time, never committed.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeControlByteTree } from './hostile-tree.js';

const bin = fileURLToPath(new URL('../bin/skilldex.mjs', import.meta.url));
const runner = globalThis.Deno ? [globalThis.Deno.execPath(), 'run', '-A', bin] : [process.execPath, bin];

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-hostile-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));

// 720 skill folders sharing one 64 KB SKILL.md (hard links: 3 MB on disk)
// whose description is raw \x01 bytes, next to the user's own skill. Before
// S45 `list` ran 30-48 s to 3.7-4.1 GB and failed (a string over V8's limit),
// losing ~/.claude/skills/mine.
test('720 folders of control-byte descriptions: list exits 0, the user skill is listed, the reply under 64 MiB (S45)', () => {
  const { proj, home } = writeControlByteTree(root);
  const start = Date.now();
  const r = spawnSync(runner[0], [...runner.slice(1), 'list', '--json', '--cwd', proj, '--home', home], {
    encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, NO_COLOR: '1' },
  });
  const ms = Date.now() - start;
  if (r.error) throw r.error;
  assert.equal(r.status, 0, r.stderr.slice(0, 2000));
  assert.ok(Buffer.byteLength(r.stdout) < 64 << 20, `reply ${Buffer.byteLength(r.stdout)} bytes`);
  const res = JSON.parse(r.stdout);
  assert.ok(res.skills.some((s) => s.name === 'mine' && s.source === 'claude:user'), 'the user skill is lost');
  assert.equal(res.skills.length, 721);
  for (const s of res.skills) {
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(s.description), `${s.name}: a control character in the description`);
    assert.ok([...s.description].length <= 4096);
  }
  for (const w of res.warnings) assert.ok(w.message.length < 1000, `a warning of ${w.message.length} characters`);
  console.log(`# 720-folder tree: list --json in ${ms} ms, ${Buffer.byteLength(r.stdout)} bytes`);
});

// A 200 MB file inside a skill, under the 256 MiB bound of one host import
// result, ran the instance out of memory (3.5 GB RSS, a Go stack trace
// printed by the CLI). The module asks for at most 8 MiB
// (S45): TOO_LARGE with the size, at once.
test('read of a 200 MB file in a skill is TOO_LARGE, naming the size and the limit (S45)', () => {
  const home = path.join(root, 'big-home');
  const skill = path.join(home, '.claude/skills/x');
  fs.mkdirSync(skill, { recursive: true });
  fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\ndescription: d\n---\n');
  fs.writeFileSync(path.join(skill, 'big.bin'), '');
  fs.truncateSync(path.join(skill, 'big.bin'), 200 << 20); // sparse: nothing written
  const r = spawnSync(runner[0], [...runner.slice(1), 'read', 'skill://x/big.bin', '--json', '--cwd', home, '--home', home], {
    encoding: 'utf8', timeout: 60_000,
  });
  if (r.error) throw r.error;
  assert.equal(r.status, 1, r.stderr.slice(0, 2000));
  assert.deepEqual(JSON.parse(r.stdout), {
    error: { code: 'TOO_LARGE', message: `File too large: ${skill}/big.bin (209715200 bytes; the limit is 8 MiB)` },
  });
});

// A filesystem object whose methods return promises (fs.promises) gave 0
// skills, no error, and unhandled rejections that crash Node by default.
test('a filesystem of async methods is refused at once with INVALID_ARGUMENT', async () => {
  const { createSkilldex } = await import('../index.js');
  const asyncFS = { readDir: async () => [], stat: async () => null, lstat: async () => null, readFile: async () => new Uint8Array(), realpath: async (p) => p };
  assert.throws(() => createSkilldex({ fs: asyncFS }), (e) => e.code === 'INVALID_ARGUMENT' && /promise/.test(e.message));
  // Plain functions that return promises: found at the first call, which fails.
  const promiseFS = { readDir: () => Promise.resolve([]), stat: () => Promise.reject(new Error('x')), lstat: () => Promise.resolve(null), readFile: () => Promise.resolve(new Uint8Array()), realpath: (p) => Promise.resolve(p) };
  const sx = createSkilldex({ fs: promiseFS });
  await assert.rejects(sx.discover({ cwd: '/w', home: '/h' }), (e) => e.code === 'INVALID_ARGUMENT' && /promise/.test(e.message));
});

// startSwapper starts another process that, for seconds, swaps target
// between a regular copy of inside and a symlink to outside (rename over it,
// so the name never goes missing); stop() ends it and waits for its exit.
/** @param {string} target @param {string} inside @param {string} outside @param {number} seconds */
async function startSwapper(target, inside, outside, seconds) {
  const racer = `
    import fs from 'node:fs'; const end = Date.now() + ${seconds * 1000};
    const target = ${JSON.stringify(target)}, tmp = target + '.tmp';
    for (let i = 0; Date.now() < end; i++) {
      try { fs.rmSync(tmp, { force: true });
        if (i % 2) fs.symlinkSync(${JSON.stringify(outside)}, tmp); else fs.copyFileSync(${JSON.stringify(inside)}, tmp);
        fs.renameSync(tmp, target); } catch {}
    }`;
  const { spawn } = await import('node:child_process');
  const [exe, ...args] = globalThis.Deno ? [globalThis.Deno.execPath(), 'eval', racer] : [process.execPath, '--input-type=module', '-e', racer];
  const child = spawn(exe, args, { stdio: 'ignore' });
  const exited = new Promise((resolve) => {
    child.on('exit', resolve);
    child.on('error', resolve);
  });
  return { stop: () => (child.kill(), exited) };
}

// A racer swapping skill://x/ref.txt between a regular file and a link to a
// file outside the skill: no resolve returns the outside bytes (S44; issue
// 16 item 8: 80 of 1500 JS resolves did). The racer is another process.
test('resolve during a link-swapping race never returns outside bytes (S44)', async () => {
  const { createSkilldex } = await import('../index.js');
  const dir = path.join(root, 'race');
  const skill = path.join(dir, 'home/.claude/skills/x');
  fs.mkdirSync(skill, { recursive: true });
  fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\ndescription: x\n---\n');
  fs.writeFileSync(path.join(skill, 'inside.txt'), 'inside');
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'OUTSIDE');
  const seconds = Number(process.env.SKILLDEX_RACE_SECONDS || 2);
  const sx = createSkilldex();
  const ctx = { cwd: path.join(dir, 'home'), home: path.join(dir, 'home') };
  await sx.resolve('skill://x/inside.txt', ctx); // compile and instantiate before the race
  const swapper = await startSwapper(path.join(skill, 'ref.txt'), path.join(skill, 'inside.txt'), path.join(dir, 'outside.txt'), seconds);
  const end = Date.now() + seconds * 1000;
  let calls = 0, served = 0;
  try {
    while (Date.now() < end) {
      calls++;
      try {
        const r = await sx.resolve('skill://x/ref.txt', ctx);
        served++;
        assert.ok(!r.content.includes('OUTSIDE'), `call ${calls} returned the outside file`);
      } catch (e) {
        if (e instanceof assert.AssertionError || !['NOT_FOUND', 'PATH_ESCAPE'].includes(e.code)) throw e;
      }
    }
  } finally {
    await swapper.stop();
  }
  console.log(`# race: ${calls} resolves, ${served} served`);
});

/**
 * Discover over and over while startSwapper swaps one of count SKILL.md
 * files (all alike) for a link to an outside file, asserting that no call
 * loads the outside text. With untilPrefetched it goes on past the time
 * until the read-ahead has served a read. The Skilldex is closed after.
 * @param {string} name @param {number} count @param {{untilPrefetched?: boolean}} [opts]
 */
async function discoverDuringSwaps(name, count, opts = {}) {
  const { createSkilldex } = await import('../index.js');
  const dir = path.join(root, name);
  const skills = path.join(dir, 'home/.claude/skills');
  const inside = path.join(dir, 'inside.md');
  const outside = path.join(dir, 'outside.md');
  fs.mkdirSync(dir, { recursive: true });
  // With the read-ahead, files of 8 KiB: 40 of them just written are more
  // than a discovery's record keeps of files too recent to trust by their
  // version (internal/record/record.go), so the calls of the next seconds are made in
  // full, with the read-ahead, rather than answered from the last reply.
  const pad = opts.untilPrefetched ? 'x'.repeat(8192) : '';
  fs.writeFileSync(inside, '---\ndescription: inside\n---\n' + pad);
  fs.writeFileSync(outside, '---\ndescription: OUTSIDE\n---\n' + pad);
  for (let i = 0; i < count; i++) {
    fs.mkdirSync(path.join(skills, `x${i}`), { recursive: true });
    fs.copyFileSync(inside, path.join(skills, `x${i}`, 'SKILL.md'));
  }
  const seconds = Number(process.env.SKILLDEX_RACE_SECONDS || 2);
  const sx = createSkilldex();
  const ctx = { cwd: path.join(dir, 'home'), home: path.join(dir, 'home') };
  await sx.discover(ctx);
  const swapper = await startSwapper(path.join(skills, `x${count >> 1}`, 'SKILL.md'), inside, outside, seconds);
  const end = Date.now() + seconds * 1000;
  let calls = 0, loaded = 0;
  try {
    while (Date.now() < end || (opts.untilPrefetched && sx.stats().prefetchedReads === 0 && calls < 2000)) {
      calls++;
      const r = await sx.discover(ctx);
      loaded += r.skills.length;
      for (const s of r.skills) assert.notEqual(s.description, 'OUTSIDE', `call ${calls} loaded the outside file`);
    }
  } finally {
    await swapper.stop();
    await sx.close();
  }
  return { calls, loaded, served: sx.stats().prefetchedReads };
}

// The same race on discovery: a plain SKILL.md is read against
// its exact realpath without an lstat first (core/scan.go), so a SKILL.md
// swapped for a link to an outside file must never load the outside text.
test('discover during a SKILL.md link-swapping race never loads outside bytes (S44)', async () => {
  const { calls, loaded } = await discoverDuringSwaps('race-discover', 1);
  console.log(`# discover race: ${calls} calls, ${loaded} loads`);
});

// The same race with the read-ahead of src/prefetch.js: a root
// of 40 skills (a hint the worker reads ahead), one SKILL.md swapped. The
// worker runs the same check on the file it opens, so no outside text is
// loaded, through the worker or inline.
test('discover with the read-ahead during a SKILL.md link-swapping race never loads outside bytes (S44)', async () => {
  const { calls, loaded, served } = await discoverDuringSwaps('race-prefetch', 40, { untilPrefetched: true });
  assert.ok(served > 0, 'the read-ahead served no read: the race did not test it');
  console.log(`# discover race with the read-ahead: ${calls} calls, ${loaded} loads, ${served} reads served ahead`);
});
