#!/usr/bin/env node
// Where warm discovery spends its time, for the README's profile
// tables. `make profile-js` runs it (the module built with its name section):
//
//	node js/bench/profile.mjs [--size 1000] [--calls 40] [--wasm build/skilldex.raw.wasm] [--out build/prof/discover.cpuprofile] [--top 25] [--interval 100] [--replay]
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
// --wasm loads a module with its name section, so wasm frames carry Go's
// function names instead of wasm-function[N]: build/skilldex.raw.wasm, the
// engine's build before its snapshot (make wasm), whose functions are the
// shipped module's, index for index.
//
// Profiles taken elsewhere (say `node --cpu-prof` of one-shot CLI runs)
// are summarised with --summarise, one file or several (then
// the mean of a profile), and --names names the wasm-function[N] frames of
// the shipped module from build/skilldex.raw.wasm's name section:
//
//	node js/bench/profile.mjs --summarise a.cpuprofile,b.cpuprofile --names build/skilldex.raw.wasm
//
// --oneshot N profiles N one-shot runs of the CLI instead:
// `node --cpu-prof js/bin/skilldex.mjs list --json` on a generated
// workspace of --size skills, the shipped module as the CLI loads it, each
// run's profile written under build/prof/oneshot/; it prints their mean,
// named from build/skilldex.raw.wasm unless --names says otherwise.
// `make profile-cli` runs it.
//
// Only build/skilldex.raw.wasm's function indices are the shipped
// module's: a build of ./wasm without -ldflags=-buildid= has one function
// more, and names the frames after it wrongly (docs/PERF-NOTES.md, a
// later correction).

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
    summarise: { type: 'string' }, // print the top of existing .cpuprofile files (comma-separated: their mean)
    names: { type: 'string' }, // a module whose name section names wasm-function[N] frames
    oneshot: { type: 'string' }, // profile this many one-shot CLI runs instead
    top: { type: 'string', default: '25' },
    interval: { type: 'string', default: '100' }, // µs between samples
    replay: { type: 'boolean' }, // the filesystem answered from memory (replayfs.js): the engine alone
  },
});

if (flags.oneshot) {
  oneshot(Number(flags.oneshot));
} else if (flags.summarise) {
  const files = flags.summarise.split(',');
  const names = flags.names ? functionNames(fs.readFileSync(flags.names)) : undefined;
  if (files.length > 1) console.log(`the mean of ${files.length} profiles`), console.log();
  summarise(
    files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))),
    Number(flags.top),
    names,
  );
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
    summarise([prof], Number(flags.top));
  } finally {
    fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

/**
 * Profile n one-shot CLI runs on a generated workspace and print their mean.
 * @param {number} n
 */
function oneshot(n) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const repo = path.resolve(here, '../..');
  const out = path.join(repo, 'build/prof/oneshot');
  fs.rmSync(out, { recursive: true, force: true });
  const ws = generate(Number(flags.size));
  try {
    const settings = path.join(ws.dir, 'settings.json');
    fs.writeFileSync(settings, JSON.stringify(ws.options));
    const cli = [path.join(repo, 'js/bin/skilldex.mjs'), 'list', '--json', '--cwd', ws.cwd, '--home', ws.home, '--settings', settings];
    spawnSync(process.execPath, cli, { stdio: 'ignore' }); // the page cache
    for (let i = 0; i < n; i++) {
      const prof = ['--cpu-prof', `--cpu-prof-dir=${out}`, `--cpu-prof-name=run-${i}.cpuprofile`, `--cpu-prof-interval=${flags.interval}`];
      const r = spawnSync(process.execPath, [...prof, ...cli], { stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) throw new Error(`the CLI exited with ${r.status}`);
    }
  } finally {
    fs.rmSync(ws.dir, { recursive: true, force: true });
  }
  const files = fs.readdirSync(out).map((f) => path.join(out, f));
  console.log(`${n} one-shot runs of \`skilldex list --json\` on ${flags.size} skill folders, profiles in ${path.relative(repo, out)}/; their mean:`);
  console.log();
  const names = functionNames(fs.readFileSync(flags.names ?? path.join(repo, 'build/skilldex.raw.wasm')));
  summarise(
    files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))),
    Number(flags.top),
    names,
  );
}

/** @typedef {{nodes: {id: number, callFrame: {functionName: string, url: string}, children?: number[]}[], samples: number[], timeDeltas: number[]}} Profile */

/**
 * Self time by function over profs, in microseconds a profile.
 * @param {Profile[]} profs
 * @param {number} top
 * @param {Map<number, string>} [names] names of wasm-function[N] frames (functionNames)
 */
function summarise(profs, top, names) {
  const self = new Map();
  let total = 0;
  for (const prof of profs) {
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    for (let i = 0; i < prof.samples.length; i++) {
      const n = /** @type {Profile['nodes'][number]} */ (byId.get(prof.samples[i]));
      // A sample's delta is the time since the previous one: the time up
      // to the next sample is this one's.
      const dt = (prof.timeDeltas[i + 1] ?? 0) / profs.length;
      const f = n.callFrame;
      if (f.functionName === '(idle)') continue;
      const file = f.url ? path.basename(f.url.split('?')[0]) : '';
      const index = names && /^wasm-function\[(\d+)\]$/.exec(f.functionName);
      const fn = (index && names?.get(Number(index[1]))) || f.functionName || '(anonymous)';
      // Go's names in the name section: github.com_skilldex_skilldex_core.__jsonWriter_.str
      const name = fn.replace('github.com_skilldex_skilldex_', '').replace(/ \([0-9a-f]{8}\)$/, '');
      const key = `${name}${file && !/^wasm:/.test(f.url) ? ` (${file})` : /^wasm:/.test(f.url) ? ' [wasm]' : ''}`;
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    }
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
            : /^parse \((index|facade)\.js\)|^decode \(encoding\)|\(reply\.js\)/.test(k)
              ? 'reply: TextDecoder + JSON.parse (whole or in pieces, reply.js)'
              : /\(replayfs\.js\)/.test(k)
                ? "the bench's filesystem replayed from memory (--replay)"
                : k === '(garbage collector)'
                  ? "V8's GC"
                  : /^(compileForInternalLoader|compileSourceTextModule|compileFunction) |^(Module|Instance)$/.test(k)
                    ? "loading: Node's built-in modules, ES modules, WebAssembly.Module and Instance"
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

/**
 * The function names in a module's name section (its subsection 1), by
 * function index; empty when it has none.
 * @param {Uint8Array} bytes the module
 * @returns {Map<number, string>}
 */
function functionNames(bytes) {
  const names = new Map();
  const [section] = WebAssembly.Module.customSections(new WebAssembly.Module(bytes), 'name');
  if (!section) return names;
  const b = new Uint8Array(section);
  const text = new TextDecoder();
  let at = 0;
  const leb = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const c = b[at++];
      v += (c & 0x7f) * 2 ** shift;
      if (c < 0x80) return v;
    }
  };
  while (at < b.length) {
    const id = b[at++];
    const end = leb() + at;
    if (id === 1) {
      for (let n = leb(); n > 0; n--) {
        const index = leb();
        const len = leb();
        names.set(index, text.decode(b.subarray(at, at + len)));
        at += len;
      }
    }
    at = end;
  }
  return names;
}
