#!/usr/bin/env node
// The worker-mode bench. `make bench` runs it; so can
//
//	node js/bench/worker.mjs [--sizes 1000,10000] [--rounds N]
//
// For each size it generates a workspace (workspace.mjs) and, round after
// round, alternating the order, runs one warm discover() in each of three
// ways while perf_hooks' monitorEventLoopDelay (1 ms resolution) samples the
// main thread's event loop:
//
//   - in-thread: createSkilldex(), the module on the main thread;
//   - worker: createSkilldex({worker: true}), the module in a worker, the
//     reply's bytes transferred and decoded and parsed a few milliseconds
//     at a time (js/src/reply.js);
//   - idle: nothing, for as long as the worker's call took, sampled the same
//     way: the noise of the machine itself (a shared, loaded box), to read
//     the others against;
//   - another thread spinning: a worker that only spins for as long, the
//     main thread waiting: the noise with one core taken, as a worker-mode
//     call takes one.
//
// What the histogram holds: monitorEventLoopDelay records the time between
// two runs of its 1 ms timer, so a loop that never blocks records 1-2 ms
// (the resolution itself, and libuv's millisecond timer clock), and a
// block of d ms records about d + 1 ms. The figures are printed as
// recorded. Nothing of the bench runs on the main thread inside a measured
// window but the call itself (the workspace is generated and the results
// compared before the rounds); the garbage of the previous round's result
// is collected whenever V8 chooses, in any window, as in an editor.
//
// It prints the medians over rounds of the loop delay's 99th percentile and
// maximum, the worst maximum, the warm discovery time of both modes with
// their ratio, and the main thread's CPU time during the call (Linux), and
// the load average at the start and at the end. The targets: worker p99 <= 5 ms and max <= 20 ms at
// 1,000 skills; worker max <= 10% of the in-thread block at 10,000; worker
// warm discovery <= 1.1x in-thread.

import fs from 'node:fs';
import os from 'node:os';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { generate } from './workspace.mjs';
import { createSkilldex } from '../index.js';

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    rounds: { type: 'string' }, // rounds per size; default by size
  },
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The CPU time the main thread has run, in ms, where the system says
 * (Linux: /proc/self/task/<pid>/schedstat, whose first field is the
 * thread's time on a CPU in ns; the main thread's id is the process id);
 * else NaN. On a loaded machine the loop delay counts the time the thread
 * waited for a CPU too; this counts only what it ran.
 */
function mainThreadCPU() {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Run f while sampling the event loop; its duration, the loop delay's p99 and max, and the main thread's CPU time, in ms. */
async function sample(f) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  // Let the sampler tick first: a block before its first tick is not recorded.
  await new Promise((r) => setTimeout(r, 5));
  const t = performance.now();
  const cpu = mainThreadCPU();
  await f();
  const ms = performance.now() - t;
  const cpuMs = mainThreadCPU() - cpu;
  // One more turn, so that a block at the very end is sampled too.
  await new Promise((r) => setTimeout(r, 2));
  h.disable();
  return { ms, p99: h.percentile(99) / 1e6, max: h.max / 1e6, cpu: cpuMs };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Keep one other thread busy for ms (a worker that only spins), the main
 * thread waiting: on a 2-core machine a worker-mode call takes a core
 * away from everything else, so this is the noise the main thread sees
 * while a worker computes, without any work of skilldex on it. The
 * spinning worker is started once, before the rounds.
 */
const spinner = new Worker(
  'const { parentPort } = require("node:worker_threads"); parentPort.on("message", (ms) => { const end = Date.now() + ms; while (Date.now() < end); parentPort.postMessage(0); });',
  { eval: true },
);
spinner.unref();
/** @param {number} ms */
const spin = (ms) =>
  new Promise((resolve) => {
    spinner.ref();
    spinner.once('message', () => {
      spinner.unref();
      resolve(undefined);
    });
    spinner.postMessage(ms);
  });

async function bench(count) {
  const ws = generate(count);
  const ctx = { cwd: ws.cwd, home: ws.home, options: ws.options };
  const inThread = createSkilldex(ctx);
  const worker = createSkilldex({ ...ctx, worker: true });
  try {
    const t0 = performance.now();
    const want = JSON.stringify(await worker.discover());
    const firstWorker = performance.now() - t0;
    if (JSON.stringify(await inThread.discover()) !== want) throw new Error('worker and in-thread results differ');
    // Warm up both (V8 optimises the module's functions as they run).
    const warmUntil = performance.now() + 2000;
    for (let i = 0; i < 3 || performance.now() < warmUntil; i++) {
      await inThread.discover();
      await worker.discover();
    }
    const rounds = Number(flags.rounds ?? (count >= 10000 ? 7 : 15));
    const r = { in: [], worker: [], idle: [], busy: [] };
    for (let i = 0; i < rounds; i++) {
      const runIn = async () => r.in.push(await sample(() => inThread.discover()));
      const runWorker = async () => {
        const s = await sample(() => worker.discover());
        r.worker.push(s);
        r.idle.push(await sample(() => sleep(s.ms)));
        r.busy.push(await sample(() => spin(s.ms)));
      };
      if (i % 2) await runIn(), await runWorker();
      else await runWorker(), await runIn();
    }
    const sum = (xs) => ({
      ms: median(xs.map((x) => x.ms)),
      p99: median(xs.map((x) => x.p99)),
      max: median(xs.map((x) => x.max)),
      worst: Math.max(...xs.map((x) => x.max)),
      cpu: median(xs.map((x) => x.cpu)),
    });
    return { count, rounds, firstWorker, in: sum(r.in), worker: sum(r.worker), idle: sum(r.idle), busy: sum(r.busy) };
  } finally {
    await worker.close();
    fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

const cpus = os.cpus();
console.log(`skilldex worker bench: node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim()}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log();
console.log('| skills | mode | warm discover | loop delay p99 | loop delay max | worst max (rounds) | main thread CPU |');
console.log('|---:|---|---:|---:|---:|---:|---:|');
const f = (x) => (Number.isNaN(x) ? 'n/a' : `${x.toFixed(1)} ms`);
for (const n of flags.sizes.split(',').filter(Boolean).map(Number)) {
  const b = await bench(n);
  console.log(`| ${n} | in-thread | ${f(b.in.ms)} | ${f(b.in.p99)} | ${f(b.in.max)} | ${f(b.in.worst)} (${b.rounds}) | ${f(b.in.cpu)} |`);
  console.log(`| ${n} | worker | ${f(b.worker.ms)} (**${(b.worker.ms / b.in.ms).toFixed(2)}×**) | ${f(b.worker.p99)} | ${f(b.worker.max)} (**${((100 * b.worker.max) / b.in.max).toFixed(1)}%** of in-thread) | ${f(b.worker.worst)} (${b.rounds}) | ${f(b.worker.cpu)} |`);
  console.log(`| ${n} | idle (noise) | ${f(b.idle.ms)} | ${f(b.idle.p99)} | ${f(b.idle.max)} | ${f(b.idle.worst)} (${b.rounds}) | ${f(b.idle.cpu)} |`);
  console.log(`| ${n} | another thread spinning (noise) | ${f(b.busy.ms)} | ${f(b.busy.p99)} | ${f(b.busy.max)} | ${f(b.busy.worst)} (${b.rounds}) | ${f(b.busy.cpu)} |`);
  console.log(`| ${n} | worker, first call (start, compile) | ${f(b.firstWorker)} | | | | |`);
}
console.log();
console.log(`load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
