// A discovery whose inputs have not changed is answered from the last
// reply (wasm/ABI.md#file_version): the default filesystems give
// each file's version, which changes with the file, and a changed tree is
// always seen. Node, Deno and Bun run this file alike.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createNodeFS, createSkilldex } from '../index.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-version-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * The default filesystem of this runtime, as the engine reads through it
 * (its paths are bytes), with fileVersion taking a string.
 */
async function defaultFileSystem() {
  let fsys;
  if (globalThis.Deno) {
    const { createDenoFS } = await import('../src/denofs.js');
    fsys = /** @type {any} */ (createDenoFS(globalThis.Deno, fs));
  } else {
    fsys = /** @type {any} */ (createNodeFS(fs));
  }
  const enc = new TextEncoder();
  return { fileVersion: (/** @type {string} */ p) => fsys.fileVersion(enc.encode(p)) };
}

/**
 * A fresh engine's discovery of ctx, the answer a long-lived one must give.
 * @param {{cwd: string, home: string}} ctx
 */
async function freshDiscover(ctx) {
  const other = createSkilldex();
  try {
    return await other.discover(ctx);
  } finally {
    await other.close();
  }
}

const codeOf = (/** @type {() => unknown} */ f) => {
  try {
    f();
    return 'no error';
  } catch (e) {
    return /** @type {any} */ (e).code;
  }
};

test('fileVersion: a file\'s device, inode, size and times; a link at the end is not followed; it changes with the file (ABI.md#file_version, S61)', async () => {
  const dir = path.join(tmp, 'v');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'SKILL.md');
  fs.writeFileSync(file, 'one');
  fs.symlinkSync('SKILL.md', path.join(dir, 'link.md'));
  const fsys = await defaultFileSystem();
  const v = fsys.fileVersion(file);
  assert.equal(BigInt(v.size), 3n);
  assert.equal(BigInt(v.ino), BigInt(fs.statSync(file).ino));
  assert.ok(BigInt(v.ctimeNs) > 0n && BigInt(v.mtimeNs) > 0n);
  assert.equal(codeOf(() => fsys.fileVersion(path.join(dir, 'link.md'))), 'EINVAL');
  assert.deepEqual(fsys.fileVersion(file), v);
  assert.equal(fsys.fileVersion(path.join(dir, 'missing')) ?? null, null);
  assert.equal(codeOf(() => fsys.fileVersion(dir)), 'EISDIR');
  // A rewrite of the same size a second later: its times move.
  await new Promise((r) => setTimeout(r, 1100));
  fs.writeFileSync(file, 'two');
  const w = fsys.fileVersion(file);
  assert.equal(BigInt(w.size), 3n);
  assert.notEqual(BigInt(w.ctimeNs), BigInt(v.ctimeNs));
});

test('discover: an unchanged tree gives the same result call after call, and every change is seen', async () => {
  const dir = path.join(tmp, 'd');
  const skills = path.join(dir, 'home/.claude/skills');
  const write = (/** @type {string} */ name, /** @type {string} */ description) => {
    fs.mkdirSync(path.join(skills, name), { recursive: true });
    fs.writeFileSync(path.join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`);
  };
  for (let i = 0; i < 40; i++) write(`s${String(i).padStart(2, '0')}`, 'alpha');
  // The engine takes a file's version for its bytes once the file is 3 s
  // old: wait, so that the calls below are answered by versions, not by
  // reading again.
  await new Promise((r) => setTimeout(r, 3200));
  const ctx = { cwd: path.join(dir, 'home'), home: path.join(dir, 'home') };
  const sk = createSkilldex();
  const fresh = () => freshDiscover(ctx);
  try {
    const first = await sk.discover(ctx);
    assert.equal(first.skills.length, 40);
    for (let i = 0; i < 4; i++) assert.deepEqual(await sk.discover(ctx), first);
    const changes = [
      ['a same-size rewrite', () => write('s07', 'omega')],
      ['a new skill', () => write('s40', 'added')],
      ['a removed skill', () => fs.rmSync(path.join(skills, 's03'), { recursive: true })],
      ['a folder replaced by a link', () => {
        fs.rmSync(path.join(skills, 's11'), { recursive: true });
        fs.symlinkSync('s12', path.join(skills, 's11'));
      }],
    ];
    for (const [what, change] of changes) {
      /** @type {() => void} */ (change)();
      const want = await fresh();
      assert.notDeepEqual(want, first, what);
      assert.deepEqual(await sk.discover(ctx), want, what);
      assert.deepEqual(await sk.discover(ctx), want, `${what}, the call after`);
    }
  } finally {
    await sk.close();
  }
});

test('discover: a SKILL.md replaced by a link to the same file moved out, and folders exchanged around a read, are seen by a long-lived engine (S61)', async () => {
  const dir = path.join(tmp, 'attack');
  const skills = path.join(dir, 'home/.claude/skills');
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(outside, { recursive: true });
  const write = (/** @type {string} */ name) => {
    fs.mkdirSync(path.join(skills, name), { recursive: true });
    fs.writeFileSync(path.join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: the skill ${name}\n---\nbody\n`);
  };
  for (let i = 0; i < 40; i++) write(`s${String(i).padStart(2, '0')}`);
  await new Promise((r) => setTimeout(r, 3200)); // versions stand for bytes from now on
  const ctx = { cwd: path.join(dir, 'home'), home: path.join(dir, 'home') };
  const fresh = () => freshDiscover(ctx);
  // mv a ../outside/a; mkdir a; ln -s ../outside/a/SKILL.md a/SKILL.md
  const sk = createSkilldex();
  try {
    await sk.discover(ctx);
    await sk.discover(ctx);
    await sk.discover(ctx);
    fs.renameSync(path.join(skills, 's05'), path.join(outside, 's05'));
    fs.mkdirSync(path.join(skills, 's05'));
    fs.symlinkSync(path.join(outside, 's05', 'SKILL.md'), path.join(skills, 's05', 'SKILL.md'));
    const want = await fresh();
    assert.ok(!want.skills.some((s) => s.name === 's05'), 'a fresh engine refuses the link (S43)');
    assert.deepEqual(await sk.discover(ctx), want);
    assert.deepEqual(await sk.discover(ctx), want, 'the call after');
  } finally {
    await sk.close();
  }

  // s10 and s11 exchanged just before the engine's read of s10/SKILL.md
  // and back just after: the read gets s11's file under s10's name.
  const base = createNodeFS(fs);
  let exchangeAt = '';
  const exchange = () => {
    const a = path.join(skills, 's10'), b = path.join(skills, 's11'), t = path.join(skills, '.swap');
    fs.renameSync(a, t);
    fs.renameSync(b, a);
    fs.renameSync(t, b);
  };
  const text = (/** @type {any} */ p) => (typeof p === 'string' ? p : new TextDecoder().decode(p));
  const swapping = {
    ...base,
    readFileWithin(/** @type {any} */ within, /** @type {any} */ p, /** @type {Uint8Array} */ buf, /** @type {any} */ version) {
      if (exchangeAt && text(p).endsWith(exchangeAt)) {
        exchangeAt = '';
        exchange();
        try {
          return /** @type {any} */ (base).readFileWithin(within, p, buf, version);
        } finally {
          exchange();
        }
      }
      return /** @type {any} */ (base).readFileWithin(within, p, buf, version);
    },
  };
  const sk2 = createSkilldex({ fs: /** @type {any} */ (swapping) });
  try {
    const before = await sk2.discover(ctx);
    exchangeAt = '/s10/SKILL.md';
    await sk2.discover(ctx); // recorded, around the exchange
    assert.equal(exchangeAt, '', 'the read was made');
    const want = await fresh();
    assert.deepEqual(want, before);
    assert.deepEqual(await sk2.discover(ctx), want);
  } finally {
    await sk2.close();
  }
});
