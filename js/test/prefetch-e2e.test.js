// The read-ahead of SKILL.md files through discover() (src/prefetch.js,
// wasm/ABI.md#prefetch_within): over the runtime's default
// filesystem the engine's hints are read ahead on a worker, and every
// answer is byte for byte the one a discovery without it gives (the
// conformance corpus and a generated workspace); a caller's filesystem and
// a watch never read ahead; the worker never keeps a process alive.
// Runs under node --test, deno test and bun test.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createSkilldex, createNodeFS } from '../index.js';
import { tuning } from '../src/prefetch.js';
import { loadCorpus, writeTree } from './corpus.js';
import { generate, skillFiles, touchBody } from '../bench/workspace.mjs';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-prefetch-e2e-')));
const ws = generate(300);
after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(ws.dir, { recursive: true, force: true });
});

const ctx = { cwd: ws.cwd, home: ws.home, options: ws.options };

/**
 * Call f until the engine's read-ahead has served a read (the worker boots
 * while the first hints are read inline; a loaded machine may keep it from
 * a core for a while), at most rounds times. Before each call one SKILL.md
 * of roots changes (touch: a blank at the end of its body, or none): a
 * discovery of an unchanged tree is answered from the last reply, reading
 * nothing (wasm/ABI.md#file_version), so only one that follows a change
 * reads, and reads ahead.
 * @param {import('../index.js').Skilldex} sk @param {() => Promise<void>} f @param {string[]} [roots]
 */
async function untilServed(sk, f, roots = ws.roots, rounds = 60) {
  const [file] = skillFiles(roots, 1);
  for (let i = 0; i < rounds && sk.stats().prefetchedReads === 0; i++) {
    touchBody(file);
    await f();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(sk.stats().prefetchedReads > 0, 'the read-ahead never served a read');
}

test('discover over the default filesystem reads ahead and answers byte for byte as a discovery without it', async () => {
  const ahead = createSkilldex(ctx);
  const inline = createSkilldex({ fs: createNodeFS(fs), ...ctx });
  try {
    const want = JSON.stringify(await inline.discover());
    assert.ok(JSON.parse(want).skills.length > 200);
    await untilServed(ahead, async () => assert.equal(JSON.stringify(await ahead.discover()), want));
    for (let i = 0; i < 5; i++) assert.equal(JSON.stringify(await ahead.discover()), want);
    assert.equal(inline.stats().prefetchedReads, 0, 'a caller\'s filesystem is never read ahead');
  } finally {
    await ahead.close();
    await inline.close();
  }
});

// The worker also lists ahead the directories a request listed the last
// time (prefetch.js startCall): each listing is made during the call, so a
// tree that changes between calls (a root appears, a skill goes, the root
// goes again) is seen as a discovery without the worker sees it.
test('directories listed ahead answer as the engine\'s own listings while the tree changes between calls (S42)', async () => {
  const w = generate(150);
  const c = { cwd: w.cwd, home: w.home, options: w.options };
  const ahead = createSkilldex(c);
  const inline = createSkilldex({ fs: createNodeFS(fs), ...c });
  const fresh = path.join(w.cwd, '.agents', 'skills'); // a root the workspace does not have
  const gone = path.join(w.roots[1], fs.readdirSync(w.roots[1]).sort()[3]);
  const steps = [
    () => {},
    () => {
      fs.mkdirSync(path.join(fresh, 'fresh-skill'), { recursive: true });
      fs.writeFileSync(path.join(fresh, 'fresh-skill', 'SKILL.md'), '---\nname: fresh-skill\ndescription: appeared between calls\n---\n');
    },
    () => fs.rmSync(gone, { recursive: true, force: true }),
    () => fs.rmSync(path.join(w.cwd, '.agents'), { recursive: true, force: true }),
  ];
  try {
    await untilServed(ahead, () => ahead.discover().then(() => {}), w.roots);
    for (const [i, step] of steps.entries()) {
      step();
      for (let k = 0; k < 3; k++) {
        const got = JSON.stringify(await ahead.discover());
        assert.equal(got, JSON.stringify(await inline.discover()), `step ${i}, call ${k}`);
        assert.equal(got.includes('"fresh-skill"'), i === 1 || i === 2, `step ${i}, call ${k}`);
      }
    }
  } finally {
    await ahead.close();
    await inline.close();
    fs.rmSync(w.dir, { recursive: true, force: true });
  }
});

// The corpus with every hint read ahead (one record is enough here): the
// tree under a temporary directory, the request's paths moved there, the
// reply of the default filesystem with the read-ahead against that of the
// same filesystem passed as a caller's object (no read-ahead), twice: the
// second call has its listings, stat, lstat and realpath calls made ahead.
// Cases with injected faults need a wrapped filesystem, which never reads
// ahead.
test('the conformance corpus answers the same with and without the read-ahead (S42, S44)', async () => {
  const saved = tuning.minRecords;
  tuning.minRecords = 1;
  const ahead = createSkilldex();
  const inline = createSkilldex({ fs: createNodeFS(fs) });
  try {
    await untilServed(ahead, () => ahead.discover(ctx).then(() => {}));
    const before = ahead.stats().prefetchedReads;
    let cases = 0;
    for (const c of loadCorpus()) {
      if (c.faults.length) continue;
      const root = path.join(tmp, c.name);
      fs.mkdirSync(root);
      writeTree(c, root);
      let request;
      try {
        request = JSON.parse(c.request.toString('utf8'));
      } catch {
        continue; // a malformed request reads nothing
      }
      if (request === null || typeof request !== 'object') continue;
      const at = (/** @type {unknown} */ p) => (typeof p === 'string' && p.startsWith('/') ? root + p : p);
      for (const k of ['cwd', 'home', 'dir']) if (k in request) request[k] = at(request[k]);
      if (Array.isArray(request.paths)) request.paths = request.paths.map(at);
      if (Array.isArray(request.options?.customDirectories)) request.options.customDirectories = request.options.customDirectories.map(at);
      const text = JSON.stringify(request);
      const want = await inline.call(text);
      assert.equal(await ahead.call(text), want, c.name);
      // Again: the calls of the first are now made ahead (prefetch.js startCall, takeProbe).
      assert.equal(await ahead.call(text), want, `${c.name}, made ahead`);
      cases++;
    }
    assert.ok(cases > 200, `only ${cases} cases ran`);
    assert.ok(ahead.stats().prefetchedReads > before, 'no corpus read was served by the read-ahead');
  } finally {
    tuning.minRecords = saved;
    await ahead.close();
    await inline.close();
  }
});

// A process that makes one call (a script, the CLI) never loads
// prefetch.js: the engine makes its read-ahead at its second call, the
// first whose hints may start the worker.
test('the read-ahead is made at the engine\'s second call, not before', async () => {
  const { Engine } = await import('../src/engine.js');
  const { defaultFileSystem, workerThreads, loadWasmSync, wasmURL, frontmatterWasmURL } = await import('#platform');
  const compile = (/** @type {URL} */ url) => new WebAssembly.Module(/** @type {Uint8Array} */ (loadWasmSync(url)));
  const module = compile(wasmURL);
  const fm = compile(frontmatterWasmURL);
  const e = new Engine({ fs: /** @type {any} */ (defaultFileSystem()), module: async () => module, frontmatter: async () => fm, frontmatterSync: () => fm, workerThreads });
  const request = JSON.stringify({ op: 'discover', ...ctx });
  try {
    const first = await e.call(request);
    assert.equal(e.prefetcher, null, 'a read-ahead after one call');
    assert.equal(await e.call(request), first);
    assert.notEqual(e.prefetcher, null, 'no read-ahead at the second call');
  } finally {
    await e.close();
  }
});

test('a watch reads through its recording filesystem, never ahead', async () => {
  const sk = createSkilldex(ctx);
  try {
    await untilServed(sk, () => sk.discover().then(() => {}));
    const w = sk.watch(ctx, () => {}, { persistent: false });
    try {
      await w.ready;
      const served = sk.stats().prefetchedReads;
      for (let i = 0; i < 3; i++) await sk.discover();
      assert.equal(sk.stats().prefetchedReads, served);
    } finally {
      await w.close();
    }
  } finally {
    await sk.close();
  }
});

test('a process that discovers with the read-ahead exits by itself', () => {
  const script = `
    import { createSkilldex } from ${JSON.stringify(new URL('../index.js', import.meta.url).href)};
    import { touchBody } from ${JSON.stringify(new URL('../bench/workspace.mjs', import.meta.url).href)};
    const sk = createSkilldex(${JSON.stringify(ctx)});
    const file = ${JSON.stringify(skillFiles(ws.roots, 1)[0])};
    for (let i = 0; i < 60 && sk.stats().prefetchedReads === 0; i++) {
      touchBody(file); // a change, so that the call reads (untilServed)
      await sk.discover();
      await new Promise((r) => setTimeout(r, 10));
    }
    console.log('served', sk.stats().prefetchedReads);
  `;
  const exe = globalThis.Deno ? [globalThis.Deno.execPath(), 'eval', script] : [process.execPath, '--input-type=module', '-e', script];
  // Not a speed limit: a process its worker held open would never exit.
  const r = spawnSync(exe[0], exe.slice(1), { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.signal, null, `the process did not exit by itself: ${r.stdout} ${r.stderr}`);
  assert.equal(r.status, 0, `${r.error ?? ''} ${r.stderr}`);
  assert.match(r.stdout, /^served [1-9]\d*$/m);
});
