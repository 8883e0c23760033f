// Worker mode: createSkilldex({worker: true}) gives the same
// results and the same errors as in-thread, refuses a custom filesystem,
// starts lazily, is reused, never keeps the process alive while idle, and
// close() ends it. Also the cutting of large replies (src/reply.js): the
// assembled value is exactly JSON.parse's. Runs under node --test and
// deno test -A.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSkilldex, SkilldexError, MemoryFS } from '../index.js';
import { cutReply, assembleReply, SPLIT_MIN } from '../src/reply.js';
import { diskWorkspace } from './workspace.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-worker-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));
diskWorkspace(root);
// Scripts run from here: a package.json makes the folder a package, so that
// Deno resolves index.js's "#platform" import (package.json "imports").
fs.writeFileSync(path.join(root, 'package.json'), '{"type":"module"}\n');
const cwd = root + '/work/proj';
const home = root + '/home/u';

/** The runtime running the tests, to run a script with: node, or deno run -A. */
const runner = globalThis.Deno ? [globalThis.Deno.execPath(), 'run', '-A'] : [process.execPath];
const indexURL = new URL('../index.js', import.meta.url).href;

/** Run a module body in a fresh process; {status, stdout, stderr, ms}. */
function runScript(body, timeoutMs = 60000) {
  const file = path.join(root, `script-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, `import { createSkilldex } from ${JSON.stringify(indexURL)};\n${body}\n`);
  const t = performance.now();
  const r = spawnSync(runner[0], [...runner.slice(1), file], { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t };
}

const inThread = createSkilldex({ cwd, home });
const worker = createSkilldex({ cwd, home, worker: true });

/** What a call gives: its value, or its error's class, code and message. */
const outcome = (p) =>
  p.then(
    (v) => ({ value: v }),
    (e) => ({ error: [e instanceof SkilldexError, e.constructor.name, e.name, e.code, e.message] }),
  );

test('every operation gives the in-thread result or error', async () => {
  const calls = [
    (sk) => sk.discover(),
    (sk) => sk.discover({ options: { enabled: false } }),
    (sk) => sk.discover({ cwd: 'relative' }),
    (sk) => sk.discover({ options: { notAnOption: true } }),
    (sk) => sk.scanDir(home + '/.claude/skills', { source: 'claude:user' }),
    (sk) => sk.resolve('skill://pdf/reference.md'),
    (sk) => sk.resolve('skill://pdf/../../etc/passwd'),
    (sk) => sk.resolve('skill://nope/x'),
    (sk) => sk.listFiles('pdf'),
    (sk) => sk.renderPrompt({ format: 'xml' }),
    (sk) => sk.expandCommand('/skill:review now'),
    (sk) => sk.expandCommand('plain text'),
    (sk) => sk.commands(),
    (sk) => sk.contextFiles(),
    (sk) => sk.validate(cwd + '/bad'),
    (sk) => sk.explain('pdf'),
    (sk) => sk.call({ op: 'discover', cwd, home }),
    (sk) => sk.call('{"op":"nope"}'),
    (sk) => sk.call('not json'),
  ];
  for (const [i, c] of calls.entries()) {
    const [a, b] = [await outcome(c(inThread)), await outcome(c(worker))];
    assert.deepEqual(b, a, `call ${i}: ${c}`);
  }
  assert.equal(worker.stats().instances, 1, 'the worker is reused');
  assert.ok(worker.stats().calls >= calls.length);
});

test('calls started together are answered in order with the right results', async () => {
  const want = [JSON.stringify(await inThread.discover()), JSON.stringify(await inThread.commands())];
  const order = [];
  const jobs = Array.from({ length: 40 }, (_, i) =>
    (i % 2 ? worker.commands() : worker.discover()).then((r) => {
      order.push(i);
      return [i, JSON.stringify(r)];
    }),
  );
  for (const [i, got] of await Promise.all(jobs)) assert.equal(got, want[i % 2], `call ${i}`);
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
});

test('a discovery large enough to be cut into pieces gives the in-thread result', async () => {
  // 600 skills with non-ASCII text, quotes and backslashes: a reply of
  // several hundred KB, so the worker sends it as transferred bytes in
  // pieces (reply.js), each piece cut at an element boundary.
  const big = path.join(root, 'big');
  for (let i = 0; i < 600; i++) {
    const dir = path.join(big, 'proj/.claude/skills', `s-${i}`);
    fs.mkdirSync(dir, { recursive: true });
    const description = `Größe ${i}: "quoted" \\ back 😀 ${'é'.repeat(i % 97)} ${'word '.repeat(40 + (i % 60))}`;
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: s-${i}\ndescription: ${JSON.stringify(description)}\nglobs: ["**/*.${i}", "ü/**"]\n---\nbody ${i}\n`);
  }
  fs.mkdirSync(path.join(big, 'proj/.git'), { recursive: true });
  const ctx = { cwd: path.join(big, 'proj'), home: path.join(big, 'home') };
  const want = await inThread.discover(ctx);
  assert.equal(want.skills.length, 600);
  assert.ok(new TextEncoder().encode(JSON.stringify(want)).length > 4 * SPLIT_MIN, 'the reply is large enough to be cut');
  const got = await worker.discover(ctx);
  assert.deepEqual(got, want);
  assert.equal(JSON.stringify(got), JSON.stringify(want));
});

test('a custom filesystem is refused with a clear error', () => {
  assert.throws(
    () => createSkilldex({ worker: true, fs: new MemoryFS() }),
    (e) => e instanceof SkilldexError && e.code === 'INVALID_ARGUMENT' && /worker/.test(e.message) && /fs/.test(e.message),
  );
});

test('the wasm option travels to the worker (bytes, module, function)', async () => {
  const bytes = fs.readFileSync(new URL('../skilldex.wasm', import.meta.url));
  const module = await WebAssembly.compile(bytes);
  const want = JSON.stringify(await inThread.commands());
  for (const wasm of [bytes, module, async () => bytes]) {
    const sk = createSkilldex({ cwd, home, worker: true, wasm });
    assert.equal(JSON.stringify(await sk.commands()), want);
    await sk.close();
  }
  const bad = createSkilldex({ cwd, home, worker: true, wasm: new Uint8Array([1, 2, 3]) });
  const [a, b] = [await outcome(createSkilldex({ cwd, home, wasm: new Uint8Array([1, 2, 3]) }).commands()), await outcome(bad.commands())];
  assert.ok(b.error, 'a bad module must fail');
  assert.deepEqual(b.error.slice(0, 4), a.error.slice(0, 4));
  await bad.close();
});

test('close() ends the worker; the next call starts a new one', async () => {
  const sk = createSkilldex({ cwd, home, worker: true });
  const first = JSON.stringify(await sk.discover());
  const pending = sk.commands(); // made before close(): answered before the worker ends
  await sk.close();
  assert.ok((await pending).commands.length > 0);
  assert.equal(JSON.stringify(await sk.discover()), first);
  assert.equal(sk.stats().instances, 2);
  await sk.close();
});

test('an idle worker-mode engine does not keep the process alive; a waiting call does', () => {
  // Exits on its own with the engine idle and open (no close()). The
  // timeout is a hang detector, not a timing assertion.
  const idle = runScript(`
    const sk = createSkilldex({ cwd: ${JSON.stringify(cwd)}, home: ${JSON.stringify(home)}, worker: true });
    const r = await sk.discover();
    console.log('skills', r.skills.length);`);
  assert.equal(idle.status, 0, `status ${idle.status} ${idle.signal ?? ''}: ${idle.stderr}`);
  assert.match(idle.stdout, /skills 3/);
  // The reply arrives although nothing but the worker is pending.
  const waiting = runScript(`
    const sk = createSkilldex({ cwd: ${JSON.stringify(cwd)}, home: ${JSON.stringify(home)}, worker: true });
    sk.discover().then((r) => console.log('skills', r.skills.length));`);
  assert.equal(waiting.status, 0, waiting.stderr);
  assert.match(waiting.stdout, /skills 3/);
});

// ---------------------------------------------------------------- reply.js

const utf8 = (s) => new TextEncoder().encode(s);

test('a large reply is cut and assembled into exactly what JSON.parse gives', async () => {
  const skill = (i) => ({
    name: `s-${i}`,
    description: `quote " backslash \\ \\" brace { } bracket [ ] comma , colon : unicode é 😀 ${'x'.repeat(i % 300)}`,
    frontmatter: { nested: [{ name: 'inner' }, [1, [2, [3]]], { a: { b: '}]' } }], n: i, f: 1.5e-7, t: true, z: null },
  });
  const value = { skills: Array.from({ length: 4000 }, (_, i) => skill(i)), warnings: [], shadowed: [{ name: 'x' }], digest: '0123456789abcdef', __proto__x: 1 };
  const reply = JSON.stringify(value);
  const bytes = utf8(reply);
  assert.ok(bytes.length > SPLIT_MIN);
  const cut = cutReply(bytes);
  assert.ok(cut, 'the reply was not cut');
  assert.deepEqual(cut.members.map((m) => m.key), Object.keys(value));
  assert.ok(cut.members[0].pieces.length / 2 > 4, 'the skills are in several pieces');
  assert.equal(JSON.stringify(await assembleReply(cut)), reply);
  // "__proto__" stays a plain key, as with JSON.parse.
  const proto = '{"__proto__":' + JSON.stringify(Array.from({ length: 3000 }, (_, i) => i)) + ',"a":' + JSON.stringify('y'.repeat(SPLIT_MIN)) + '}';
  const got = await assembleReply(/** @type {any} */ (cutReply(utf8(proto))));
  assert.deepEqual(Object.keys(got), ['__proto__', 'a']);
  assert.equal(Object.getPrototypeOf(got), Object.prototype);
  assert.equal(JSON.stringify(got), JSON.stringify(JSON.parse(proto)));
});

test('replies that are short, errors, not objects or not compact travel whole', () => {
  const big = 'z'.repeat(SPLIT_MIN);
  for (const r of ['{"skills":[]}', JSON.stringify([big]), JSON.stringify(big), `{ "a": ${JSON.stringify(big)} }`, `{"a":${JSON.stringify(big)}} `, `{"a":"${big}`, `{"error":{"code":"X","message":"${big}"}}`]) {
    assert.equal(cutReply(utf8(r)), null, r.slice(0, 20));
  }
});
