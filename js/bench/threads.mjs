#!/usr/bin/env node
// The CPU time of each thread of the process over warm discoveries (issue
// 13), in Node or Deno (Linux: it reads /proc/self/task):
//
//	node js/bench/threads.mjs [--size 1000] [--warm 60] [--calls 100] [--loop]
//	deno run -A js/bench/threads.mjs ...
//
// It makes --calls discover() calls in a row through the facade, after
// --warm more (with --loop, the plain JS loop runs between them, as in
// bench.mjs), and prints the wall time a call and each thread's CPU time
// (user + system) a call. On a machine shared with other work the wall
// swings; the engine's thread's CPU time swings much less, and when it is
// close to the wall that thread is the critical path: work moved from it
// to the read-ahead worker (prefetch.js) is then won one for one.

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { createSkilldex } from '../index.js';
import { generate, plainLoop } from './workspace.mjs';

const { values: flags } = parseArgs({
  args: globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2),
  options: {
    size: { type: 'string', default: '1000' },
    warm: { type: 'string', default: '60' },
    calls: { type: 'string', default: '100' },
    loop: { type: 'boolean', default: false },
  },
});

/** CPU milliseconds (user + system) of each thread of this process, by thread id, with its name. */
function threads() {
  /** @type {Map<string, {name: string, ms: number}>} */
  const out = new Map();
  for (const t of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(t, { name, ms: ((Number(f[11]) + Number(f[12])) * 1000) / 100 }); // clock ticks of 10 ms
    } catch {
      // the thread ended
    }
  }
  return out;
}

const ws = generate(Number(flags.size));
try {
  const sk = createSkilldex({ cwd: ws.cwd, home: ws.home, options: ws.options });
  const call = async () => {
    await sk.discover();
    if (flags.loop) plainLoop(fs, ws.roots);
  };
  for (let i = 0; i < Number(flags.warm); i++) await call();
  const calls = Number(flags.calls);
  const before = threads();
  const t = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const wall = (performance.now() - t) / calls;
  const after = threads();
  const rt = globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`;
  console.log(`${rt}, ${flags.size} skill folders, ${calls} calls${flags.loop ? ' (each with the plain loop after it)' : ''}: ${wall.toFixed(1)} ms a call`);
  const rows = [...after].map(([id, { name, ms }]) => ({ id, name, ms: (ms - (before.get(id)?.ms ?? 0)) / calls })).filter((r) => r.ms > 0.05);
  for (const r of rows.sort((a, b) => b.ms - a.ms)) console.log(`  thread ${r.id} ${r.name.padEnd(16)} ${r.ms.toFixed(2)} ms of CPU a call`);
} finally {
  fs.rmSync(ws.dir, { recursive: true, force: true });
}
