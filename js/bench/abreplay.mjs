#!/usr/bin/env node
// A/B of the engine alone: several builds of skilldex.wasm on one
// generated workspace, each over the filesystem replayed from memory
// (replayfs.js), called alternately in one process; medians and ratios to
// the first build, so a loaded machine slows every build alike. On a busy
// machine the fastest call of each is the steadier figure.
//
//	node js/bench/abreplay.mjs --size 1000 --rounds 31 old.wasm new.wasm ...
//	deno run -A js/bench/abreplay.mjs ...
//
// call() is timed (the reply as a string), so the figures are the Go code,
// the host glue and the reply's decoding, without JSON.parse.

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createSkilldex } from '../index.js';
import { defaultFileSystem } from '#platform';
import { generate, median } from './workspace.mjs';
import { replayFS } from './replayfs.js';

const { values: flags, positionals: files } = parseArgs({
  args: globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2),
  allowPositionals: true,
  options: {
    size: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '31' },
  },
});

const ws = generate(Number(flags.size));
try {
  const ctx = { cwd: ws.cwd, home: ws.home, options: ws.options };
  const request = { op: 'discover', ...ctx };
  const engines = [];
  for (const file of files) {
    const replayed = replayFS(/** @type {any} */ (defaultFileSystem()));
    const sk = createSkilldex({ wasm: await WebAssembly.compile(fs.readFileSync(file)), fs: replayed.fs, ...ctx });
    const reply = await sk.call(request); // record
    replayed.replay();
    engines.push({ file, sk, reply, times: /** @type {number[]} */ ([]) });
  }
  for (const e of engines) {
    if (e.reply !== engines[0].reply) console.log(`${e.file}: the reply differs from ${engines[0].file}'s`);
  }
  const until = performance.now() + 2000;
  while (performance.now() < until) for (const e of engines) await e.sk.call(request);
  for (let i = 0; i < Number(flags.rounds); i++) {
    for (const e of engines) {
      const s = performance.now();
      await e.sk.call(request);
      e.times.push(performance.now() - s);
    }
  }
  const base = median(engines[0].times);
  const runtime = globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`;
  console.log(`${runtime}, ${flags.size} skill folders, replayed filesystem, medians of ${flags.rounds} interleaved rounds`);
  for (const e of engines) {
    const m = median(e.times);
    const least = Math.min(...e.times);
    console.log(`${e.file}: median ${m.toFixed(2)} ms = ${(m / base).toFixed(3)}x, fastest ${least.toFixed(2)} ms = ${(least / Math.min(...engines[0].times)).toFixed(3)}x`);
  }
} finally {
  fs.rmSync(ws.dir, { recursive: true, force: true });
}
