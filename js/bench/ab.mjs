#!/usr/bin/env node
// A/B of warm discovery: two copies of the JS package (say main's
// and a branch's, each with its own skilldex.wasm) on one generated
// workspace, called alternately in one process, each against the plain JS
// loop timed beside it; medians and ratios of the same run, so a loaded
// machine slows every variant alike.
//
//	node js/bench/ab.mjs --size 1000 --rounds 21 <pkgdir> [<pkgdir> ...]
//	deno run -A js/bench/ab.mjs --size 1000 <pkgdir> ...
//
// --cpu times each call by the process's CPU time (user + system, every
// thread) instead of the clock: on a machine loaded by other work, waiting
// for a core then counts for nobody.
//
// A package dir is a folder holding index.js, src/, package.json and
// skilldex.wasm (a copy of js/, without node_modules, is enough).

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, median, plainLoop } from './workspace.mjs';

const { values: flags, positionals: pkgs } = parseArgs({
  allowPositionals: true,
  options: {
    size: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '21' },
    warm: { type: 'string', default: '2000' }, // ms of warm-up
    repeat: { type: 'string', default: '0' }, // further calls for memory growth
    cpu: { type: 'boolean' }, // CPU time, not the clock
  },
});

const now = flags.cpu
  ? () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    }
  : () => performance.now();

const ws = generate(Number(flags.size));
try {
  const engines = [];
  for (const dir of pkgs) {
    const { createSkilldex } = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
    const sk = createSkilldex({ cwd: ws.cwd, home: ws.home, options: ws.options });
    await sk.ready();
    const r = await sk.discover();
    engines.push({ dir, sk, skills: r.skills.length, json: JSON.stringify(r), times: [], mem1: sk.stats().memoryBytes });
  }
  for (const e of engines.slice(1)) if (e.json !== engines[0].json) console.log(`!! ${e.dir}: a different result than ${engines[0].dir}`);
  const floor = [];
  const until = performance.now() + Number(flags.warm);
  while (performance.now() < until) {
    for (const e of engines) await e.sk.discover();
    plainLoop(fs, ws.roots);
  }
  const rounds = Number(flags.rounds);
  for (let i = 0; i < rounds; i++) {
    const order = [...engines.keys(), -1];
    for (let k = 0; k < i % order.length; k++) order.push(order.shift());
    for (const j of order) {
      const t = now();
      if (j < 0) plainLoop(fs, ws.roots);
      else await engines[j].sk.discover();
      (j < 0 ? floor : engines[j].times).push(now() - t);
    }
  }
  const fl = median(floor);
  const rt = typeof Deno !== 'undefined' ? `deno ${Deno.version.deno}` : `node ${process.version}`;
  console.log(`${rt}, ${flags.size} skill folders, ${rounds} rounds${flags.cpu ? ', CPU time' : ''}; loop ${fl.toFixed(1)} ms`);
  for (const e of engines) {
    const m = median(e.times);
    const mem2 = e.sk.stats().memoryBytes;
    let mem3 = mem2;
    for (let i = 0; i < Number(flags.repeat); i++) await e.sk.discover();
    mem3 = e.sk.stats().memoryBytes;
    const MiB = (b) => (b / 1048576).toFixed(1);
    console.log(`${e.dir}: ${m.toFixed(1)} ms = ${(m / fl).toFixed(3)}x loop (${e.skills} skills; memory ${MiB(e.mem1)} -> ${MiB(mem2)} -> ${MiB(mem3)} MiB after ${flags.repeat} more)`);
  }
} finally {
  fs.rmSync(ws.dir, { recursive: true, force: true });
}
