#!/usr/bin/env node
// Where warm discovery spends its time (issue 13), for the README's profile
// tables. `make profile-js` runs it (the module built with its name section):
//
//	node js/bench/profile.mjs [--size 1000] [--calls 40] [--wasm build/skilldex-prof.wasm] [--out build/prof/discover.cpuprofile] [--top 25] [--interval 100] [--replay]
//
// V8's profiler charges time spent in wasm to the binding that ran last, so
// with real system calls it overstates them (open, readlink) and understates
// Go; --replay answers the filesystem from memory (replayfs.js) and profiles
// the engine, the host glue and the reply alone. breakdown.mjs splits the two
// by timers.
//
// It generates a workspace (workspace.mjs), warms the facade up for 2 s,
// then runs --calls discoveries under V8's CPU profiler (started and stopped
// through node:inspector around the calls only, so neither the workspace's
// creation nor the warm-up is in it), writes the .cpuprofile (open it in
// Chrome's DevTools) and prints the functions with the most self time.
// --wasm loads a module built with its name section (make profile-js builds
// one without -s -w), so wasm frames carry Go's function names instead of
// wasm-function[N].

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generate } from './workspace.mjs';
import { replayFS } from './replayfs.js';
import { defaultFileSystem } from '#platform';

const { values: flags } = parseArgs({
  options: {
    size: { type: 'string', default: '1000' },
    calls: { type: 'string', default: '40' },
    wasm: { type: 'string' },
    out: { type: 'string', default: 'build/prof/discover.cpuprofile' },
    summarise: { type: 'string' }, // print the top of an existing .cpuprofile
    top: { type: 'string', default: '25' },
    interval: { type: 'string', default: '100' }, // µs between samples
    replay: { type: 'boolean' }, // the filesystem answered from memory (replayfs.js): the engine alone
  },
});

if (flags.summarise) {
  summarise(JSON.parse(fs.readFileSync(flags.summarise, 'utf8')), Number(flags.top));
} else {
  await profile();
}

async function profile() {
  const { createSkilldex } = await import('../index.js');
  const inspector = await import('node:inspector');
  const ws = generate(Number(flags.size));
  try {
    const wasm = flags.wasm ? await WebAssembly.compile(fs.readFileSync(flags.wasm)) : undefined;
    const replayed = flags.replay ? replayFS(/** @type {any} */ (defaultFileSystem())) : null;
    const sk = createSkilldex({ wasm, fs: replayed?.fs, cwd: ws.cwd, home: ws.home, options: ws.options });
    await sk.ready();
    if (replayed) {
      await sk.discover(); // record
      replayed.replay();
    }
    const until = performance.now() + 2000;
    while (performance.now() < until) await sk.discover();
    const session = new inspector.Session();
    session.connect();
    const post = (/** @type {string} */ method, /** @type {object} */ params = {}) =>
      new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: Number(flags.interval) });
    await post('Profiler.start');
    const t = performance.now();
    for (let i = 0; i < Number(flags.calls); i++) await sk.discover();
    const ms = (performance.now() - t) / Number(flags.calls);
    const { profile: prof } = /** @type {any} */ (await post('Profiler.stop'));
    session.disconnect();
    fs.mkdirSync(path.dirname(flags.out), { recursive: true });
    fs.writeFileSync(flags.out, JSON.stringify(prof));
    console.log(`${flags.calls} warm discoveries of ${flags.size} skill folders under the profiler: ${ms.toFixed(1)} ms each; ${flags.out}`);
    console.log();
    summarise(prof, Number(flags.top));
  } finally {
    fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

/**
 * @param {{nodes: {id: number, callFrame: {functionName: string, url: string}, children?: number[]}[], samples: number[], timeDeltas: number[]}} prof
 * @param {number} top
 */
function summarise(prof, top) {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const n = byId.get(prof.samples[i]);
    const dt = prof.timeDeltas[i] ?? 0;
    const f = n.callFrame;
    if (f.functionName === '(idle)') continue;
    const file = f.url ? path.basename(f.url.split('?')[0]) : '';
    // Go's names in the name section: github.com_skilldex_skilldex_core.__jsonWriter_.str
    const name = (f.functionName || '(anonymous)').replace('github.com_skilldex_skilldex_', '').replace(/ \([0-9a-f]{8}\)$/, '');
    const key = `${name}${file && !/^wasm:/.test(f.url) ? ` (${file})` : /^wasm:/.test(f.url) ? ' [wasm]' : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  }
  // Where the time goes, in kinds.
  const kinds = new Map();
  const kindOf = (/** @type {string} */ k) =>
    /^(lstat|stat|open|close|read|fstat|readdir|readlink|realpath|writeFileUtf8|mkdir|rmdir) *$/.test(k)
      ? 'system calls (node:fs bindings)'
      : /\(node:fs|\(utils\)|\(buffer\)|\(fs\)|\(errors\)|\(validators\)/.test(k)
        ? "node:fs's JS (Stats objects, argument checks, Buffers)"
        : /\((engine|nodefs)\.js\)|^wasm-to-js|^js-to-wasm/.test(k)
          ? 'host glue (engine.js, nodefs.js, wasm<->JS transitions)'
          : /\[wasm\]/.test(k)
            ? /^(runtime|internal_runtime|internal_bytealg|internal_abi|memchr|memmove|memclr|memeqbody|memcmp|sync)/.test(k)
              ? 'Go runtime in wasm (malloc, GC, memmove, atomics)'
              : 'Go code in wasm (core, hostfs, strings, bytes, ...)'
            : /^parse \(index\.js\)|^decode \(encoding\)|\(reply\.js\)/.test(k)
              ? 'reply: TextDecoder + JSON.parse (whole or in pieces, reply.js)'
              : /\(replayfs\.js\)/.test(k)
                ? "the bench's filesystem replayed from memory (--replay)"
                : k === '(garbage collector)'
                  ? "V8's GC"
                  : 'other';
  for (const [k, us] of self) kinds.set(kindOf(k), (kinds.get(kindOf(k)) ?? 0) + us);
  console.log('| kind | self ms | share |');
  console.log('|---|---:|---:|');
  for (const [k, us] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${(us / 1000).toFixed(1)} | ${((100 * us) / total).toFixed(1)}% |`);
  console.log();
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log('| function | self ms | share |');
  console.log('|---|---:|---:|');
  for (const [k, us] of rows) console.log(`| \`${k}\` | ${(us / 1000).toFixed(1)} | ${((100 * us) / total).toFixed(1)}% |`);
}
