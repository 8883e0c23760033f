// The shipped filesystems: MemoryFS (Linux path semantics, like the Go
// memfs) and createNodeFS (node:fs, rooted or not, prefix reads straight
// into a buffer). Both are what the engine reads through (SPEC S2).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { MemoryFS, createNodeFS, createSkilldex } from '../index.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-fs-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const code = (f) => {
  try {
    f();
  } catch (e) {
    return e.code;
  }
  return 'no error';
};

function tree(m) {
  m.writeFile('/a/file.txt', 'hello');
  m.mkdir('/a/empty');
  m.symlink('file.txt', '/a/rel');
  m.symlink('/a', '/abs');
  m.symlink('../a/empty', '/a/up');
  m.symlink('loop2', '/loop1');
  m.symlink('loop1', '/loop2');
  m.symlink('missing', '/dangling');
  return m;
}

test('MemoryFS: types, links, errors like Linux (S2, S11)', () => {
  const m = tree(new MemoryFS());
  assert.deepEqual(m.readDir('/a').map((e) => [e.name, e.type]).sort(), [['empty', 'dir'], ['file.txt', 'file'], ['rel', 'symlink'], ['up', 'symlink']]);
  assert.equal(m.stat('/a/rel'), 'file');
  assert.equal(m.lstat('/a/rel'), 'symlink');
  assert.equal(m.stat('/abs/up'), 'dir');
  assert.equal(m.realpath('/abs/rel'), '/a/file.txt');
  assert.equal(m.realpath('/abs/up'), '/a/empty');
  assert.equal(m.realpath('/'), '/');
  assert.deepEqual(m.readDir('/abs').length, 4);
  assert.equal(new TextDecoder().decode(m.readFile('/abs/rel')), 'hello');
  assert.equal(code(() => m.stat('/loop1')), 'ELOOP');
  assert.equal(m.lstat('/loop1'), 'symlink');
  assert.equal(code(() => m.stat('/dangling')), 'ENOENT');
  assert.equal(code(() => m.stat('/a/file.txt/x')), 'ENOTDIR');
  assert.equal(code(() => m.readDir('/a/file.txt')), 'ENOTDIR');
  assert.equal(code(() => m.readFile('/a')), 'EISDIR');
  assert.equal(code(() => m.stat('relative')), 'EINVAL');
  assert.equal(code(() => m.realpath('/nope')), 'ENOENT');
  assert.equal(code(() => m.symlink('x', '/a/rel')), 'EEXIST');
  assert.equal(code(() => m.writeFile('/a', 'x')), 'EISDIR');
});

test('MemoryFS: a chain of 40 links resolves, 41 is ELOOP', () => {
  const m = new MemoryFS().writeFile('/t', 'x');
  m.symlink('/t', '/l0');
  for (let i = 1; i <= 40; i++) m.symlink(`/l${i - 1}`, `/l${i}`);
  assert.equal(m.stat('/l39'), 'file');
  assert.equal(code(() => m.stat('/l40')), 'ELOOP');
});

test('MemoryFS: readFileInto copies a prefix and returns the size', () => {
  const m = new MemoryFS().writeFile('/f', 'abcdef');
  const buf = new Uint8Array(4);
  assert.equal(m.readFileInto('/f', buf), 6);
  assert.equal(new TextDecoder().decode(buf), 'abcd');
  assert.equal(m.readFileInto('/f', new Uint8Array(10)), 6);
});

test('createNodeFS: rooted paths, realpath stripped, outside the root is ENOENT', () => {
  const root = path.join(tmp, 'rooted');
  fs.mkdirSync(path.join(root, 'a/b'), { recursive: true });
  fs.writeFileSync(path.join(root, 'a/b/f.txt'), 'data');
  fs.symlinkSync(path.join(root, 'a/b'), path.join(root, 'link'));
  fs.symlinkSync(os.tmpdir(), path.join(root, 'out'));
  const n = createNodeFS(fs, { root });
  const p = (s) => Buffer.from(s);
  const str = (b) => Buffer.from(b).toString();
  assert.equal(n.bytePaths, true);
  assert.equal(str(n.realpath(p('/link/f.txt'))), '/a/b/f.txt');
  assert.equal(str(n.realpath(p('/'))), '/');
  assert.equal(n.stat(p('/link')), 'dir');
  assert.equal(n.lstat(p('/link')), 'symlink');
  assert.equal(n.stat(p('/missing')), null);
  assert.deepEqual(n.readDir(p('/')).map((e) => [str(e.name), e.type]).sort(), [['a', 'dir'], ['link', 'symlink'], ['out', 'symlink']]);
  assert.equal(code(() => n.realpath(p('/out'))), 'ENOENT');
  assert.equal(code(() => n.readDir(p('/a/b/f.txt'))), 'ENOTDIR');
});

test('createNodeFS: readFileInto reads at most the buffer, reports the size', () => {
  const n = createNodeFS(fs);
  const f = path.join(tmp, 'prefix.txt');
  fs.writeFileSync(f, 'abcdefgh');
  const p = Buffer.from(f);
  for (const [cap, size, got] of [[4, 8, 'abcd'], [8, 8, 'abcdefgh'], [20, 8, 'abcdefgh'], [0, 8, '']]) {
    const buf = new Uint8Array(cap);
    assert.equal(n.readFileInto(p, buf), size, `cap ${cap}`);
    assert.equal(Buffer.from(buf.subarray(0, Math.min(cap, size))).toString(), got);
  }
  fs.writeFileSync(f, '');
  assert.equal(n.readFileInto(p, new Uint8Array(4)), 0);
  assert.equal(code(() => n.readFileInto(Buffer.from(tmp), new Uint8Array(4))), 'EISDIR');
  assert.equal(code(() => n.readFileInto(Buffer.from(tmp + '/missing'), new Uint8Array(4))), 'ENOENT');
});

test('createNodeFS: readFileWithin trusts the kernel\'s name of a descriptor only from the runtime\'s own node:fs (S44)', { skip: !fs.existsSync('/proc/self/fd') && 'no /proc' }, () => {
  const dir = path.join(tmp, 'within');
  fs.mkdirSync(path.join(dir, 'skill'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skill/SKILL.md'), 'inside');
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'OUTSIDE');
  fs.symlinkSync('../outside.txt', path.join(dir, 'skill/link.md'));
  // An fs object counting its lstat calls; extra replaces some methods.
  const counting = (extra = {}) => {
    const c = { lstats: 0 };
    const w = Object.assign(Object.create(fs), { lstatSync: (/** @type {any[]} */ ...a) => (c.lstats++, fs.lstatSync(...a)) }, extra);
    return [w, c];
  };
  const within = Buffer.from(path.join(dir, 'skill'));
  const read = (/** @type {any} */ n, /** @type {string} */ name) => {
    const buf = new Uint8Array(64);
    const size = n.readFileWithin(within, Buffer.from(path.join(dir, 'skill', name)), buf);
    return Buffer.from(buf.subarray(0, size)).toString();
  };
  // The runtime's functions (inherited here): the kernel's name suffices.
  const [own, ownCount] = counting();
  const n = createNodeFS(own);
  assert.equal(read(n, 'SKILL.md'), 'inside');
  assert.equal(code(() => read(n, 'link.md')), 'EXDEV');
  assert.equal(ownCount.lstats, 0);
  // A wrapper's openSync may hand out numbers the kernel gives other
  // files: the name must also still be the file opened.
  const [wrapped, wrappedCount] = counting({ openSync: (/** @type {any[]} */ ...a) => fs.openSync(...a) });
  const w = createNodeFS(wrapped);
  assert.equal(read(w, 'SKILL.md'), 'inside');
  assert.equal(code(() => read(w, 'link.md')), 'EXDEV');
  assert.equal(wrappedCount.lstats, 1);
});

test('readFileWithin of the default filesystem: every outcome of ABI.md#read_file_within, whatever the read alone shows (S44)', { skip: !fs.existsSync('/proc/self/fd') && 'no /proc' }, async () => {
  const { defaultFileSystem } = await import('#platform');
  const { spawnSync } = await import('node:child_process');
  const dir = path.join(tmp, 'outcomes');
  const w = path.join(dir, 'w');
  fs.mkdirSync(path.join(w, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'outdir'));
  fs.writeFileSync(path.join(w, 'small'), 'small file');
  fs.writeFileSync(path.join(w, 'exact'), 'x'.repeat(16));
  fs.writeFileSync(path.join(w, 'big'), 'y'.repeat(5000));
  fs.writeFileSync(path.join(w, 'empty'), '');
  fs.writeFileSync(path.join(dir, 'outside'), 'OUTSIDE');
  fs.symlinkSync('../outside', path.join(w, 'out'));
  fs.symlinkSync('../outdir', path.join(w, 'outdirlink'));
  fs.symlinkSync('small', path.join(w, 'in'));
  const fifo = spawnSync('mkfifo', [path.join(w, 'fifo')]).status === 0 && spawnSync('mkfifo', [path.join(dir, 'outfifo')]).status === 0;
  if (fifo) fs.symlinkSync('../outfifo', path.join(w, 'outfifolink'));
  const d = /** @type {any} */ (defaultFileSystem());
  const within = Buffer.from(w);
  const read = (/** @type {string} */ p, /** @type {number} */ cap, /** @type {Uint8Array} */ wi = within) => {
    const buf = new Uint8Array(cap);
    try {
      const size = d.readFileWithin(wi, Buffer.from(p), buf);
      return [size, Buffer.from(buf.subarray(0, Math.min(size, cap))).toString()];
    } catch (e) {
      return /** @type {any} */ (e).code;
    }
  };
  const cases = [
    // name, cap, outcome: [size, the bytes written] or the error's code
    ['small', 64, [10, 'small file']],
    ['small', 4, [10, 'smal']],
    ['small', 0, [10, '']],
    ['exact', 16, [16, 'x'.repeat(16)]],
    ['big', 4096, [5000, 'y'.repeat(4096)]],
    ['empty', 64, [0, '']],
    ['in', 64, [10, 'small file']],
    ['out', 64, 'EXDEV'],
    ['sub', 64, 'EISDIR'],
    ['outdirlink', 64, 'EISDIR'], // a directory is EISDIR wherever it lies, as fstat first would say
    ['missing', 64, 'ENOENT'],
    ...(fifo ? [['fifo', 64, 'EINVAL'], ['outfifolink', 64, 'EINVAL']] : []),
  ];
  for (const [name, cap, want] of cases) assert.deepEqual(read(path.join(w, /** @type {string} */ (name)), /** @type {number} */ (cap)), want, `${name} into ${cap}`);
  // Rooted (paths and within are the engine's, under the root), and a
  // name that is not ASCII (the kernel's name compared as bytes).
  fs.mkdirSync(path.join(w, 'café'));
  fs.writeFileSync(path.join(w, 'café/SKILL.md'), 'accent');
  fs.symlinkSync('../../outside', path.join(w, 'café/out'));
  const rooted = /** @type {any} */ (createNodeFS(fs, { root: dir }, fs));
  const readRooted = (/** @type {string} */ wi, /** @type {string} */ p) => {
    const buf = new Uint8Array(64);
    try {
      return Buffer.from(buf.subarray(0, rooted.readFileWithin(Buffer.from(wi), Buffer.from(p), buf))).toString();
    } catch (e) {
      return /** @type {any} */ (e).code;
    }
  };
  for (const [wi, p, want] of [
    ['/w', '/w/small', 'small file'], ['/w/small', '/w/in', 'small file'], ['/w/sm', '/w/small', 'EXDEV'], ['/w', '/w/out', 'EXDEV'],
    ['/', '/outside', 'OUTSIDE'], ['/w/café', '/w/café/SKILL.md', 'accent'], ['/w/café', '/w/café/out', 'EXDEV'], ['/w/cafe', '/w/café/SKILL.md', 'EXDEV'],
  ]) assert.equal(readRooted(wi, p), want, `rooted: ${p} within ${wi}`);
  assert.deepEqual(read(path.join(w, 'café/SKILL.md'), 64, Buffer.from(path.join(w, 'café'))), [6, 'accent']);
  assert.equal(read(path.join(w, 'café/out'), 64, Buffer.from(path.join(w, 'café'))), 'EXDEV');
  // A /proc file reports size 0 and may stop a read short of its end: it is read to its end.
  const cmdline = fs.readFileSync('/proc/self/cmdline').toString();
  assert.deepEqual(read('/proc/self/cmdline', 65536, Buffer.from('/proc')), [Buffer.byteLength(cmdline), cmdline]);
  const [size] = read('/proc/self/cmdline', 2, Buffer.from('/proc'));
  assert.ok(size > 2, `a /proc file larger than the buffer reports more: ${size}`);
});

test('createDenoFS, Deno\'s default: every answer as createNodeFS\'s (S2, S44)', { skip: !globalThis.Deno && 'Deno only' }, async () => {
  const { createDenoFS } = await import('../src/denofs.js');
  const { spawnSync } = await import('node:child_process');
  const dir = path.join(tmp, 'deno');
  fs.mkdirSync(path.join(dir, 'skill/sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'skill/SKILL.md'), '---\ndescription: d\n---\n' + 'x'.repeat(5000));
  fs.writeFileSync(path.join(dir, 'outside.txt'), 'OUTSIDE');
  fs.symlinkSync('../outside.txt', path.join(dir, 'skill/out.md'));
  fs.symlinkSync('SKILL.md', path.join(dir, 'skill/in.md'));
  fs.symlinkSync('missing', path.join(dir, 'skill/dangling'));
  const odd = Buffer.concat([Buffer.from(path.join(dir, 'skill') + '/'), Buffer.from([0x78, 0xff, 0x79])]);
  fs.writeFileSync(odd, 'odd name');
  const fifo = spawnSync('mkfifo', [path.join(dir, 'skill/fifo')]).status === 0;
  const d = /** @type {any} */ (createDenoFS(globalThis.Deno, fs));
  const n = /** @type {any} */ (createNodeFS(fs));
  const outcome = (/** @type {() => any} */ f) => {
    try {
      const r = f();
      return r instanceof Uint8Array ? Buffer.from(r).toString('latin1') : r;
    } catch (e) {
      return 'error ' + /** @type {any} */ (e).code;
    }
  };
  const names = ['', '/SKILL.md', '/out.md', '/in.md', '/dangling', '/sub', '/missing', '/SKILL.md/x', ...(fifo ? ['/fifo'] : [])];
  const within = Buffer.from(path.join(dir, 'skill'));
  for (const name of names) {
    const p = Buffer.from(path.join(dir, 'skill') + name);
    for (const op of ['stat', 'lstat', 'realpath']) assert.deepEqual(outcome(() => d[op](p)), outcome(() => n[op](p)), `${op} ${name}`);
    if (name !== '/fifo') assert.deepEqual(outcome(() => d.readFile(p)), outcome(() => n.readFile(p)), `readFile ${name}`);
    for (const cap of [0, 16, 8192]) {
      const read = (/** @type {any} */ fsys) => {
        const buf = new Uint8Array(cap);
        return outcome(() => [fsys.readFileWithin(within, p, buf), Buffer.from(buf).toString('latin1')]);
      };
      assert.deepEqual(read(d), read(n), `readFileWithin ${name} into ${cap}`);
    }
  }
  const listing = (/** @type {any} */ fsys) => fsys.readDir(within).map((/** @type {any} */ e) => Buffer.from(typeof e.name === 'string' ? Buffer.from(e.name) : e.name).toString('hex') + ' ' + e.type).sort();
  assert.deepEqual(listing(d), listing(n));
  assert.equal(outcome(() => d.readDir(Buffer.from(path.join(dir, 'outside.txt')))), 'error ENOTDIR');
  // A path whose open failed with ENOENT is asked of stat first (denofs.js missingError): the same
  // answers, and a file that appears at that path is read.
  const later = Buffer.from(path.join(dir, 'skill/later.md'));
  for (let i = 0; i < 2; i++) assert.equal(outcome(() => d.readFileWithin(within, later, new Uint8Array(8))), 'error ENOENT');
  fs.writeFileSync(later, 'later');
  const into = new Uint8Array(8);
  assert.equal(d.readFileWithin(within, later, into), 5);
  assert.equal(Buffer.from(into.subarray(0, 5)).toString(), 'later');
  fs.rmSync(later);
  assert.equal(outcome(() => d.readFileWithin(within, later, new Uint8Array(8))), 'error ENOENT');
  // Its errors are made without a stack trace (denofs.js quiet), and the caller's limit is left as it was.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 7;
  try {
    assert.throws(() => d.readFileWithin(within, Buffer.from(path.join(dir, 'skill/missing')), new Uint8Array(8)), (e) => /** @type {any} */ (e).code === 'ENOENT');
    assert.equal(Error.stackTraceLimit, 7);
  } finally {
    Error.stackTraceLimit = limit;
  }
});

test('createNodeFS: a skill behind a name that is not UTF-8 is still read (bytes paths)', { skip: !!globalThis.Bun && 'Bun lists names as strings (see nodefs.js)' }, async () => {
  const root = path.join(tmp, 'bytes');
  const skills = path.join(root, 'h/.claude/skills');
  fs.mkdirSync(skills, { recursive: true });
  const dir = Buffer.concat([Buffer.from(skills + '/'), Buffer.from([0x78, 0xff, 0x79])]);
  fs.mkdirSync(dir);
  fs.writeFileSync(Buffer.concat([dir, Buffer.from('/SKILL.md')]), '---\nname: odd\ndescription: d\n---\n');
  const r = await createSkilldex({ fs: createNodeFS(fs, { root }), cwd: '/w', home: '/h' }).discover();
  assert.deepEqual(r.skills.map((s) => s.name), ['odd']);
  assert.deepEqual(r.warnings, []);
});
