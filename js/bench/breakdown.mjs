#!/usr/bin/env node
// Where one warm discovery's time goes, by timers rather than a sampling
// profiler, in Node or Deno:
//
//	node js/bench/breakdown.mjs [--size 1000] [--rounds 21] [--wasm path/to/skilldex.wasm]
//	deno run -A js/bench/breakdown.mjs ...
//
// Interleaved in one process, medians: the facade's discover() on the
// runtime's default filesystem, the plain JS loop (workspace.mjs), the same
// discovery with each filesystem method timed (replayfs.js timedFS), the
// discovery over a filesystem replayed from memory (the engine, the host
// glue and the reply alone), and JSON.parse of the reply. V8's profiler
// charges time spent in wasm to the last binding that ran, so it cannot
// split the engine from the system calls; these timers can.

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createSkilldex } from '../index.js';
import { defaultFileSystem } from '#platform';
import { generate, plainLoop, median } from './workspace.mjs';
import { timedFS, replayFS } from './replayfs.js';

const { values: flags } = parseArgs({
  args: globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2),
  options: {
    size: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '21' },
    wasm: { type: 'string' },
  },
});

const ws = generate(Number(flags.size));
try {
  const wasm = flags.wasm ? await WebAssembly.compile(fs.readFileSync(flags.wasm)) : undefined;
  const ctx = { cwd: ws.cwd, home: ws.home, options: ws.options };
  const base = /** @type {import('../index.js').FileSystem} */ (defaultFileSystem());
  const timed = timedFS(base);
  const replayed = replayFS(base);
  const plain = createSkilldex({ wasm, ...ctx });
  const withTimers = createSkilldex({ wasm, fs: timed.fs, ...ctx });
  const fromMemory = createSkilldex({ wasm, fs: replayed.fs, ...ctx });
  const request = { op: 'discover', ...ctx };
  await fromMemory.discover(); // record
  replayed.replay();
  for (let i = 0; i < 10; i++) {
    await plain.discover();
    await withTimers.discover();
    await fromMemory.discover();
    plainLoop(fs, ws.roots);
  }
  const reply = await plain.call(request);
  timed.reset();
  /** @type {Record<string, number[]>} */
  const t = { discover: [], loop: [], timed: [], replayed: [], replayedCall: [], parse: [] };
  const time = (/** @type {string} */ k, /** @type {() => any} */ f) => {
    const s = performance.now();
    const r = f();
    if (r instanceof Promise) return r.then(() => t[k].push(performance.now() - s));
    t[k].push(performance.now() - s);
  };
  const rounds = Number(flags.rounds);
  for (let i = 0; i < rounds; i++) {
    await time('discover', () => plain.discover());
    time('loop', () => plainLoop(fs, ws.roots));
    await time('timed', () => withTimers.discover());
    await time('replayed', () => fromMemory.discover());
    await time('replayedCall', () => fromMemory.call(request));
    time('parse', () => JSON.parse(reply));
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
  const runtime = globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`;
  console.log(`${runtime}, ${flags.size} skill folders (${ws.files} SKILL.md one level deep), medians of ${rounds} interleaved rounds; reply ${reply.length} characters`);
  console.log();
  console.log('| what | ms | × loop |');
  console.log('|---|---:|---:|');
  const row = (/** @type {string} */ label, /** @type {number} */ ms) => console.log(`| ${label} | ${ms.toFixed(1)} | ${(ms / m.loop).toFixed(2)} |`);
  row('discover() (default filesystem)', m.discover);
  row('the plain JS loop', m.loop);
  row('discover(), each filesystem method timed', m.timed);
  row('discover() over the filesystem replayed from memory (engine + glue + reply)', m.replayed);
  row('  the same, call() (reply as a string, not parsed)', m.replayedCall);
  row('  JSON.parse of the reply', m.parse);
  console.log();
  console.log('| filesystem method (timed run) | calls per discovery | ms per discovery | µs per call |');
  console.log('|---|---:|---:|---:|');
  for (const [k, s] of Object.entries(timed.spent)) {
    if (s.calls === 0) continue;
    const calls = s.calls / rounds;
    const ms = s.ms / rounds;
    console.log(`| ${k} | ${calls.toFixed(0)} | ${ms.toFixed(1)} | ${((1000 * ms) / calls).toFixed(1)} |`);
  }
} finally {
  fs.rmSync(ws.dir, { recursive: true, force: true });
}
