// The wasm boundary: calls are serialised, a crash becomes an
// INTERNAL error and the next call runs on a fresh instance with correct
// results, a module for another ABI is refused, memory stays bounded over
// many calls. Also the host imports' handling of filesystem errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSkilldex, SkilldexError, MemoryFS, ABI_VERSION } from '../index.js';
import { memoryWorkspace, cwd, home } from './workspace.js';
import { fakeSkilldex } from './wasmgen.js';

const isInternal = (e) => e instanceof SkilldexError && e.code === 'INTERNAL';

/** A FileSystem over fs that records how deep calls nest and can be told to misbehave. */
function instrumented(inner) {
  const state = { depth: 0, maxDepth: 0, calls: 0, throwOnce: null, onReadDir: null };
  const wrap = (name) => (...args) => {
    state.depth++;
    state.calls++;
    state.maxDepth = Math.max(state.maxDepth, state.depth);
    try {
      if (state.throwOnce && name === 'readDir') {
        const e = state.throwOnce;
        state.throwOnce = null;
        throw e;
      }
      if (name === 'readDir' && state.onReadDir) state.onReadDir();
      return inner[name](...args);
    } finally {
      state.depth--;
    }
  };
  const fs = {};
  for (const name of ['readDir', 'stat', 'lstat', 'readFile', 'readFileInto', 'realpath']) fs[name] = wrap(name);
  return { fs, state };
}

test('interleaved async calls are serialised, in order, not corrupted', async () => {
  const { fs, state } = instrumented(memoryWorkspace());
  const sk = createSkilldex({ fs, cwd, home });
  const want = {
    discover: JSON.stringify(await sk.discover()),
    commands: JSON.stringify(await sk.commands()),
    resolve: JSON.stringify(await sk.resolve('skill://pdf/reference.md')),
  };
  const order = [];
  const jobs = [];
  for (let i = 0; i < 60; i++) {
    const kind = ['discover', 'commands', 'resolve'][i % 3];
    const p = kind === 'resolve' ? sk.resolve('skill://pdf/reference.md') : sk[kind]();
    jobs.push(p.then((r) => (order.push(i), [kind, JSON.stringify(r)])));
    if (i % 7 === 0) jobs.push(sk.resolve('skill://nope').then(() => ['x', 'resolved'], (e) => ['error', e.code]));
  }
  for (const [kind, got] of await Promise.all(jobs)) {
    if (kind === 'error') assert.equal(got, 'UNKNOWN_SKILL');
    else assert.equal(got, want[kind], kind);
  }
  assert.deepEqual(order, [...order].sort((a, b) => a - b), 'calls completed out of order');
  assert.equal(state.maxDepth, 1, 'filesystem calls of two engine calls overlapped');
  assert.equal(sk.stats().instances, 1);
});

test('a call started from inside a filesystem callback waits for the current one', async () => {
  const { fs, state } = instrumented(memoryWorkspace());
  const sk = createSkilldex({ fs, cwd, home });
  const baseline = JSON.stringify(await sk.discover());
  let inner;
  state.onReadDir = () => {
    state.onReadDir = null;
    inner = sk.discover(); // queued, not run now
  };
  const outer = JSON.stringify(await sk.discover());
  assert.equal(outer, baseline);
  assert.equal(JSON.stringify(await inner), baseline);
  assert.equal(sk.stats().instances, 1);
});

test('fs errors with a code become errno, unknown codes EIO (S2, S12)', async () => {
  const m = memoryWorkspace();
  const root = '/home/u/.claude/skills';
  for (const [code, want, fix] of [
    ['EACCES', 'EACCES', `make ${root} readable by this user`],
    ['EWEIRD', 'EIO', undefined],
    ['ENOTDIR', 'ENOTDIR', `${root} runs through a file: skills folders are directories`],
  ]) {
    const fs = Object.create(m);
    fs.readDir = (p) => {
      if (p === root) throw Object.assign(new Error('host says no'), { code });
      return m.readDir(p);
    };
    const r = await createSkilldex({ fs, cwd, home }).discover();
    // S73: the message as before, and the warning as data.
    assert.deepEqual(r.warnings, [{
      skillPath: '', path: root, code: 'root-unreadable', severity: 'error',
      message: `[Claude Code] Failed to read skills directory: ${root} (${want})`, ...(fix ? { fix } : {}),
    }]);
    assert.ok(!JSON.stringify(r).includes('host says no'), 'a host message leaked into the result (S42)');
  }
});

test('stat may return null for a missing path', async () => {
  const m = memoryWorkspace();
  const fs = Object.create(m);
  fs.stat = (p) => {
    try {
      return m.stat(p);
    } catch (e) {
      if (e.code === 'ENOENT') return null;
      throw e;
    }
  };
  const sk = createSkilldex({ fs, cwd, home });
  assert.deepEqual(await sk.discover(), await createSkilldex({ fs: m, cwd, home }).discover());
});

test('a filesystem that throws a non-fs error: INTERNAL, then a fresh instance gives correct results', async () => {
  const { fs, state } = instrumented(memoryWorkspace());
  const sk = createSkilldex({ fs, cwd, home });
  const baseline = JSON.stringify(await sk.discover());
  for (const bad of [new TypeError('boom'), 'a string', Object.assign(new TypeError('arg'), { code: 'ERR_INVALID_ARG_TYPE' })]) {
    const before = sk.stats().instances;
    state.throwOnce = bad;
    await assert.rejects(sk.discover(), (e) => {
      assert.ok(isInternal(e), String(e));
      assert.match(e.message, /the filesystem threw/);
      assert.equal(e.cause, bad);
      return true;
    });
    assert.equal(JSON.stringify(await sk.discover()), baseline, 'the call after the crash is wrong');
    assert.equal(sk.stats().instances, before + 1, 'the instance was not replaced');
  }
  // Other operations work too on the new instance.
  assert.equal((await sk.resolve('skill://pdf/reference.md')).content, '# PDF reference\n');
});

test('the module exiting (proc_exit, a Go fatal error) is INTERNAL and the next call gets a new instance', async () => {
  const sk = createSkilldex({ fs: new MemoryFS(), wasm: fakeSkilldex({ exit: true }) });
  for (let i = 1; i <= 3; i++) {
    await assert.rejects(sk.call('{}'), (e) => isInternal(e) && /exited with status 3/.test(e.message));
    assert.equal(sk.stats().instances, i);
  }
});

test('a module of another ABI version is refused (ABI_MISMATCH)', async () => {
  for (const version of [1, 2, 3, 4, 5]) {
    const sk = createSkilldex({ fs: new MemoryFS(), wasm: fakeSkilldex({ version }) });
    await assert.rejects(sk.call('{}'), { code: 'ABI_MISMATCH', message: new RegExp(`ABI ${version}, this host ${ABI_VERSION}`) });
  }
  const foreign = createSkilldex({
    fs: new MemoryFS(),
    wasm: fakeSkilldex({ extraImport: { module: 'skilldex_host_v1', name: 'read_dir' } }),
  });
  await assert.rejects(foreign.call('{}'), { code: 'ABI_MISMATCH', message: /skilldex_host_v1\.read_dir/ });
});

test('the wasm option accepts bytes, a compiled module and a loader', async () => {
  const bytes = fakeSkilldex();
  const mod = await WebAssembly.compile(bytes);
  for (const wasm of [bytes, mod, async () => bytes]) {
    assert.equal(await createSkilldex({ fs: new MemoryFS(), wasm }).call('{}'), '');
  }
});

test('10000 consecutive calls keep linear memory bounded', async () => {
  const sk = createSkilldex({ fs: memoryWorkspace(), cwd, home });
  for (let i = 0; i < 100; i++) await sk.commands();
  const warm = sk.stats().memoryBytes;
  const calls = Number(globalThis.process?.env?.SKILLDEX_MEMORY_CALLS ?? 10000);
  for (let i = 0; i < calls; i++) {
    if (i % 2) await sk.commands();
    else await sk.resolve('skill://pdf/reference.md');
  }
  const after = sk.stats().memoryBytes;
  // Linear memory never shrinks, so a leak shows as growth.
  assert.ok(after - warm <= 4 << 20, `memory grew from ${warm} to ${after} bytes over ${calls} calls`);
  assert.equal(sk.stats().instances, 1);
  console.log(`# memory: ${(warm / 2 ** 20).toFixed(1)} MiB after 100 calls, ${(after / 2 ** 20).toFixed(1)} MiB after ${calls} more`);
});

test('a large reply and request do not break later calls', async () => {
  const m = new MemoryFS();
  const big = 'x'.repeat(3 << 20);
  m.writeFile('/h/.claude/skills/big/SKILL.md', `---\nname: big\ndescription: d\n---\n${big}\n`);
  const sk = createSkilldex({ fs: m, cwd: '/w', home: '/h' });
  const r = await sk.resolve('skill://big');
  assert.equal(r.size, big.length + 34);
  const long = 'y'.repeat(2 << 20);
  assert.equal(await sk.expandCommand(long), null);
  assert.deepEqual((await sk.commands()).commands.map((c) => c.name), ['skill:big']);
});

// S54's digest comes from the host's SHA-256 when it has one (wasm/ABI.md#sha256,
// ), from the module's own when the host declines: the same reply,
// byte for byte, either way.
// The platform's SHA-256 (sha256Sync) loads node:crypto only for a reply
// of 128 KiB or more, and then at once: below that the module's own hash
// is cheaper than the load, above it the module's is the dearer by far on a
// fresh instance. In a fresh process of the same runtime, since
// what was loaded is the process's.
test('sha256Sync: null below 128 KiB until node:crypto is loaded, then SHA-256', async () => {
  const { execFileSync } = await import('node:child_process');
  const platform = new URL(globalThis.Deno ? '../src/platform/deno.js' : '../src/platform/node.js', import.meta.url).href;
  const script = `const { sha256Sync } = await import(${JSON.stringify(platform)});
    const { createHash } = await import('node:crypto');
    const hex = (d) => (d === null ? null : Buffer.from(d).toString('hex'));
    const small = new Uint8Array(100 << 10).fill(7), large = new Uint8Array(128 << 10).fill(9);
    const got = [hex(sha256Sync(small)), hex(sha256Sync(large)), hex(sha256Sync(small))];
    const want = [null, createHash('sha256').update(large).digest('hex'), createHash('sha256').update(small).digest('hex')];
    console.log(JSON.stringify({ got, want }));`;
  const [exe, ...args] = globalThis.Deno ? [globalThis.Deno.execPath(), 'eval', script] : [process.execPath, '--input-type=module', '-e', script];
  // Not as a test runner's child (NODE_TEST_CONTEXT), which times itself.
  const out = execFileSync(exe, args, { encoding: 'utf8', env: { ...process.env, NODE_TEST_CONTEXT: '' } });
  const { got, want } = JSON.parse(out);
  assert.deepEqual(got, want);
});

// Warm discoveries hash the same reply again and again: from the second
// hash on the platform's SHA-256 keeps the last input (a copy) with its
// digest (digest.js). Same bytes: the kept digest; other bytes
// of the same length, or the same buffer written since: hashed anew.
test('runtimeSHA256: the kept digest answers only the same bytes (S54)', async () => {
  const { runtimeSHA256 } = await import('../src/digest.js');
  const { createRequire } = await import('node:module');
  const { createHash } = await import('node:crypto');
  const sha = runtimeSHA256(createRequire(import.meta.url));
  const hex = (/** @type {Uint8Array | null} */ d) => (d === null ? null : Buffer.from(d).toString('hex'));
  const want = (/** @type {Uint8Array} */ d) => createHash('sha256').update(d).digest('hex');
  const a = new Uint8Array(200 << 10).fill(1);
  const b = a.slice();
  b[b.length - 1] = 2;
  for (const [i, d] of [a, a, a, b, b, a, b].entries()) assert.equal(hex(sha(d)), want(d), `input ${i}`);
  sha(a);
  a[0] = 9; // the same buffer, written since it was hashed
  assert.equal(hex(sha(a)), want(a));
  assert.equal(hex(sha(a.subarray(1))), want(a.subarray(1)));
});

test('the sha256 import: the host\'s hash or the module\'s, the same reply (S54, S42)', async () => {
  const { Engine } = await import('../src/engine.js');
  const { createHash } = await import('node:crypto');
  const fs = new MemoryFS();
  for (let i = 0; i < 60; i++) {
    fs.writeFile(`${home}/.claude/skills/s${i}/SKILL.md`, `---\nname: s${i}\ndescription: ${'a skill that is long enough '.repeat(4)}${i}\n---\nbody\n`);
  }
  const wasm = (await import('node:fs')).readFileSync(new URL('../skilldex.wasm', import.meta.url));
  const module = await WebAssembly.compile(wasm);
  let hashed = 0;
  const run = async (/** @type {any} */ sha256) => {
    const e = new Engine({ fs, module: async () => module, frontmatter: async () => { throw new Error('not needed'); }, frontmatterSync: () => { throw new Error('not needed'); }, sha256 });
    return e.call(JSON.stringify({ op: 'discover', cwd: home, home }));
  };
  const byHost = await run((/** @type {Uint8Array} */ d) => (hashed++, createHash('sha256').update(d).digest()));
  const declined = await run(() => null);
  const none = await run(null);
  assert.ok(byHost.length > 4096, 'a reply the module hands to the host');
  assert.equal(hashed, 1);
  assert.equal(declined, byHost);
  assert.equal(none, byHost);
  assert.match(byHost, /"digest":"[0-9a-f]{16}"}$/);
});
