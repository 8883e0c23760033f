#!/usr/bin/env node
// The skilldex performance bench. `make bench` runs it; so can
//
//	node js/bench/bench.mjs [--sizes 100,1000,10000] [--rounds N] [--cold N] [--keep]
//
// It generates workspaces of 100, 1000 and 10000 skill folders in a
// temporary directory (js/bench/workspace.mjs: SKILL.md files with the
// frontmatter shapes, sizes and rates of published collections,
// docs/bench/WORKSPACE.md, spread over the roots of every provider, a
// plugin registry, symlinked skill folders, names found in several roots,
// 1.5% invalid YAML, nested groups; the workspace of core/bench_test.go)
// and prints one markdown table:
//
//   - fresh process: the first and the second discover() of a new process
//     with the runtime's default flags (fresh-calls.mjs; the first with
//     the module's compile and start), medians of --fresh runs on a tree
//     older than 3 s, interleaved with fresh processes running the plain
//     loop: the first call's ratio is to the first loop of a fresh
//     process, the second call's to the warm JS floor below;
//   - complete path: the share of the SKILL.md files the first call sent
//     to the frontmatter module (the complete YAML path; stats().
//     frontmatterParses);
//   - facade warm: the median of discover() through the JS package (request
//     JSON, the wasm call, JSON.parse of the reply), after 2 s of warm-up
//     calls (the first call is reported apart);
//   - JS floor: the median of a plain loop doing only the filesystem calls
//     any discovery needs: readdirSync of each root, readFileSync and
//     realpathSync of each SKILL.md, no parsing;
//   - ratio: facade / floor. The two run interleaved, round after round,
//     so a noisy machine slows both alike; medians of the same run.
//   - after a change: the median of three discover() calls, each right
//     after one SKILL.md was rewritten (the same size, the case of its
//     description's first letter changed): what an editor meets after a save. An
//     unchanged tree's discovery is answered from the last reply once
//     every file it read is confirmed unchanged (wasm/ABI.md#file_version);
//     a changed file makes the call read and parse in full, and record
//     what it read for the next;
//   - memory: the module's linear memory after the first discover and after
//     the last (wasm memory never shrinks), and at the largest size its
//     growth over --repeat (100) further calls.
//
// It runs under Deno as well (`deno run -A js/bench/bench.mjs --cold 0`):
// the facade and the loop then both use Deno's node:fs.
//
// Then the cold start of the CLI (`node js/bin/skilldex.mjs list --json` on
// examples/workspace) against a bare `node -e ''`, interleaved, and the
// module's size (raw, gzip, brotli).
//
// Then one-shot use: whole processes, each variant once per
// round in a rotating order, medians of the rounds and ratios of those
// medians: a program that imports the package and calls discover() once
// with the runtime's default flags (oneshot-discover.mjs, in Node and in
// Deno), `skilldex list --json`, against `node -e 0` (the example
// workspace) and against oneshot-loop.mjs, the bare calls of a discovery as
// a one-shot process (1000 generated skills). The cold and one-shot
// processes are timed before the warm runs, while this process is fresh
// (its collector reading their output after the warm runs lengthened the
// ones that print much), and reported after them.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, median, plainLoop, skillFiles } from './workspace.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const repo = path.resolve(pkg, '..');

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,10000' },
    rounds: { type: 'string' }, // warm rounds per size; default by size
    cold: { type: 'string', default: '15' }, // cold CLI runs (each of CLI and bare node)
    keep: { type: 'boolean', default: false }, // keep the generated workspaces
    repeat: { type: 'string', default: '100' }, // further calls at the largest size, for memory growth
    phases: { type: 'boolean', default: false }, // internal: one cold in-process run, JSON on stdout
    'default-flags': { type: 'boolean', default: false }, // internal: --phases without the CLI's --liftoff-only
    oneshot: { type: 'string', default: '11' }, // one-shot runs of each variant (0: skip)
    fresh: { type: 'string', default: '7' }, // fresh processes per size timing their first and second discover() (0: skip)
    deno: { type: 'string' }, // the deno binary for the one-shot runs (default: build/tools, then PATH)
    readme: { type: 'boolean', default: false }, // write the summary table into README.md (make bench)
  },
});

if (flags.phases) {
  await phases();
  process.exit(0);
}

const sizes = flags.sizes.split(',').filter(Boolean).map(Number);
const coldRuns = Number(flags.cold);

// ---------------------------------------------------------------- measures

/** The JS floor (workspace.mjs's plain loop) over node:fs. */
const floor = (roots, realpath = fs.realpathSync) => plainLoop(fs, roots, realpath);

const time = (f) => {
  const t = performance.now();
  const r = f();
  return [performance.now() - t, r];
};
const timeAsync = async (f) => {
  const t = performance.now();
  const r = await f();
  return [performance.now() - t, r];
};

const MiB = (b) => (b / 1048576).toFixed(1);

/**
 * The first and second discover() of fresh processes (fresh-calls.mjs,
 * default runtime flags) over ws, interleaved with fresh processes running
 * the plain loop twice (fresh-calls.mjs --loop): medians of runs, after
 * one run of each for the page cache. Under Deno, Deno's processes.
 * @param {import('./workspace.mjs').Workspace} ws @param {number} runs
 */
function fresh(ws, runs) {
  const script = path.join(here, 'fresh-calls.mjs');
  const one = (/** @type {string[]} */ args) => {
    const cmd = /** @type {any} */ (globalThis).Deno ? ['run', '-A', '--no-lock', script, ...args] : [script, ...args];
    const r = spawnSync(process.execPath, cmd, { encoding: 'utf8', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } });
    if (r.status !== 0) throw new Error(`fresh-calls.mjs: exit ${r.status}\n${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const discover = [ws.cwd, ws.home, JSON.stringify(ws.options)];
  const loop = ['--loop', JSON.stringify(ws.roots)];
  one(discover);
  one(loop);
  const ds = [];
  const ls = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) ls.push(one(loop));
    ds.push(one(discover));
    if (!(i % 2)) ls.push(one(loop));
  }
  return {
    first: median(ds.map((r) => r.first)),
    second: median(ds.map((r) => r.second)),
    loopFirst: median(ls.map((r) => r.first)),
    loopSecond: median(ls.map((r) => r.second)),
    completePath: ds[0].completePath,
  };
}

async function warm(count) {
  const { createSkilldex } = await import('../index.js');
  const ws = generate(count);
  const madeAt = performance.now();
  // Fresh processes first, on a tree older than 3 s as users' trees are
  // (one just written is read in full on every call; see the warm-up below).
  const freshRuns = Number(flags.fresh);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, madeAt + 3500 - performance.now())));
  const fr = freshRuns > 0 ? fresh(ws, freshRuns) : null;
  /** @type {import('../index.js').Skilldex | undefined} */
  let sk;
  try {
    sk = createSkilldex({ cwd: ws.cwd, home: ws.home, options: ws.options });
    await sk.ready();
    const [first, res] = await timeAsync(() => sk.discover());
    // The share of the SKILL.md files the first call sent to the complete
    // frontmatter path (the frontmatter module).
    const completePath = sk.stats().frontmatterParses / ws.files;
    const bad = res.warnings.filter((w) => /Failed to|not closed|larger than/.test(w.message));
    const badYaml = res.warnings.filter((w) => /invalid YAML/.test(w.message)).length;
    const realpathShadowed = res.shadowed.filter((s) => s.reason === 'realpath').length;
    if (res.skills.length < count * 0.9 || bad.length || badYaml !== ws.badYaml || realpathShadowed < Math.min(5, count / 150)) {
      throw new Error(`workspace of ${count}: ${res.skills.length} skills, ${realpathShadowed} shadowed by realpath, ${badYaml} invalid YAML warnings (want ${ws.badYaml}), warnings ${JSON.stringify(bad.slice(0, 3))}`);
    }
    const memFirst = sk.stats().memoryBytes;
    const read = floor(ws.roots);
    if (read !== ws.files) throw new Error(`floor read ${read} SKILL.md files, want ${ws.files}`);

    const rounds = Number(flags.rounds ?? (count >= 10000 ? 9 : count >= 1000 ? 21 : 41));
    // Warm up: V8 first runs the module's baseline (Liftoff) code and
    // optimises each function once it has run enough, so a small workspace
    // needs many calls to reach its steady state: at least 3 calls and 2 s.
    // And the tree must be an unchanged one: the engine takes a file's
    // version for its bytes only once it is 3 s old (a file changed twice
    // within its filesystem's clock tick keeps its version,
    // wasm/ABI.md#file_version), so a tree just written is read in full
    // until then; the warm-up waits for that.
    const warmUntil = Math.max(performance.now() + 2000, madeAt + 3500);
    for (let i = 0; i < 3 || performance.now() < warmUntil; i++) {
      await sk.discover();
      floor(ws.roots);
      floor(ws.roots, fs.realpathSync.native);
    }
    const facade = [];
    const flr = [];
    const native = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate the order, so neither always runs right after the other.
      const fl = () => flr.push(time(() => floor(ws.roots))[0]);
      const fn = () => native.push(time(() => floor(ws.roots, fs.realpathSync.native))[0]);
      if (i % 2) fl(), fn();
      facade.push((await timeAsync(() => sk.discover()))[0]);
      if (!(i % 2)) fn(), fl();
    }
    const memLast = sk.stats().memoryBytes;
    const changed = [];
    const withFrontmatter = skillFiles(ws.roots, 20).filter((f) => fs.readFileSync(f, 'latin1').startsWith('---'));
    for (const file of withFrontmatter.slice(0, 3)) {
      // The case of the description's first letter, whatever its shape.
      const text = fs.readFileSync(file, 'latin1');
      let at = text.indexOf('description:');
      while (!/[A-Za-z]/.test(text[at + 12])) at++;
      at += 12;
      const c = text[at];
      fs.writeFileSync(file, text.slice(0, at) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + text.slice(at + 1), 'latin1');
      changed.push((await timeAsync(() => sk.discover()))[0]);
    }
    // Memory over many further calls (the largest size only): wasm memory
    // never shrinks, so any per-call leak or fragmentation shows here.
    const repeat = count === Math.max(...sizes) ? Number(flags.repeat) : 0;
    for (let i = 0; i < repeat; i++) await sk.discover();
    const memRepeat = sk.stats().memoryBytes;
    return {
      count,
      skills: res.skills.length,
      shadowed: res.shadowed.length,
      first,
      facade: median(facade),
      floor: median(flr),
      native: median(native),
      changed: median(changed),
      completePath,
      fresh: fr,
      calls: sk.stats().calls,
      memFirst,
      memLast,
      repeat,
      memRepeat,
    };
  } finally {
    // The engine and its read-ahead worker go before the next size is
    // measured.
    await sk?.close();
    if (!flags.keep) fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

/** Cold CLI against bare node, interleaved. */
function cold(runs) {
  const ws = path.join(repo, 'examples/workspace');
  const cli = [path.join(pkg, 'bin/skilldex.mjs'), 'list', '--json', '--cwd', path.join(ws, 'projects/webapp'), '--home', path.join(ws, 'home')];
  const run = (args) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    return ms;
  };
  run(cli); // the page cache
  run(['-e', '']);
  const c = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) b.push(run(['-e', '']));
    c.push(run(cli));
    if (!(i % 2)) b.push(run(['-e', '']));
  }
  // Where a cold in-process run spends its time (medians of a few runs).
  const phaseRuns = (extra) => {
    const ph = [];
    for (let i = 0; i < Math.min(7, runs); i++) {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--phases', ...extra], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`--phases: exit ${r.status}\n${r.stderr}`);
      ph.push(JSON.parse(r.stdout));
    }
    const phase = {};
    for (const k of Object.keys(ph[0])) phase[k] = median(ph.map((p) => p[k]));
    return phase;
  };
  return { cli: median(c), bare: median(b), phase: phaseRuns([]), phaseDefault: phaseRuns(['--default-flags']) };
}

/**
 * One cold run in this process, split in phases: with the CLI's V8 flags,
 * or with --default-flags the runtime's defaults (a library user's). The
 * example workspace's broken SKILL.md is an unquoted colon, which the
 * scanner recovers itself: the frontmatter module is not loaded.
 */
async function phases() {
  const ws = path.join(repo, 'examples/workspace');
  const t0 = performance.now();
  if (!flags['default-flags']) {
    const v8 = await import('node:v8');
    v8.setFlagsFromString('--liftoff-only');
  }
  const { createSkilldex } = await import('../index.js');
  const t1 = performance.now();
  const bytes = fs.readFileSync(path.join(pkg, 'skilldex.wasm'));
  const module = await WebAssembly.compile(bytes);
  const t2 = performance.now();
  const sk = createSkilldex({ wasm: module, cwd: path.join(ws, 'projects/webapp'), home: path.join(ws, 'home') });
  await sk.ready();
  const t3 = performance.now();
  await sk.call({ op: 'discover', cwd: path.join(ws, 'projects/webapp'), home: path.join(ws, 'home') });
  const t4 = performance.now();
  await sk.call({ op: 'discover', cwd: path.join(ws, 'projects/webapp'), home: path.join(ws, 'home') });
  const t5 = performance.now();
  process.stdout.write(JSON.stringify({ import: t1 - t0, compile: t2 - t1, init: t3 - t2, first: t4 - t3, second: t5 - t4 }));
}

/** The deno binary, or null. */
function denoBinary() {
  const candidates = [flags.deno, path.join(repo, 'build/tools/node_modules/@deno/linux-x64-glibc/deno')];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  const r = spawnSync('deno', ['--version']);
  return r.status === 0 ? 'deno' : null;
}

/**
 * One-shot processes, interleaved: each round runs every variant once, in
 * an order rotated from round to round. Returns the median ms per variant.
 * @param {number} runs
 * @param {Record<string, [string, string[]]>} variants name -> [binary, args]
 */
function interleaved(runs, variants) {
  const names = Object.keys(variants);
  const run = (name) => {
    const [bin, args] = variants[name];
    const t = performance.now();
    const r = spawnSync(bin, args, { encoding: 'utf8', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`${name}: ${bin} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    return ms;
  };
  for (const n of names) run(n); // the page cache, Deno's caches
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(i + j) % names.length];
      times[n].push(run(n));
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

/** The one-shot table. */
function oneShot(runs) {
  const node = process.execPath;
  const deno = denoBinary();
  const discoverScript = path.join(here, 'oneshot-discover.mjs');
  const loopScript = path.join(here, 'oneshot-loop.mjs');
  const cli = path.join(pkg, 'bin/skilldex.mjs');
  const ex = path.join(repo, 'examples/workspace');
  const exCwd = path.join(ex, 'projects/webapp');
  const exHome = path.join(ex, 'home');
  const ws = generate(1000);
  const settings = path.join(ws.dir, 'settings.json');
  fs.writeFileSync(settings, JSON.stringify(ws.options));
  const opts = JSON.stringify(ws.options);
  const roots = JSON.stringify(ws.roots);
  /** @type {Record<string, [string, string[]]>} */
  const v = {
    'node -e 0': [node, ['-e', '0']],
    'example: discover() in Node': [node, [discoverScript, exCwd, exHome]],
    'example: skilldex list --json': [node, [cli, 'list', '--json', '--cwd', exCwd, '--home', exHome]],
    '1000: loop in Node': [node, [loopScript, roots]],
    '1000: discover() in Node': [node, [discoverScript, ws.cwd, ws.home, opts]],
    '1000: skilldex list --json': [node, [cli, 'list', '--json', '--cwd', ws.cwd, '--home', ws.home, '--settings', settings]],
  };
  if (deno) {
    v['example: discover() in Deno'] = [deno, ['run', '-A', '--no-lock', discoverScript, exCwd, exHome]];
    v['1000: loop in Deno'] = [deno, ['run', '-A', '--no-lock', loopScript, roots]];
    v['1000: discover() in Deno'] = [deno, ['run', '-A', '--no-lock', discoverScript, ws.cwd, ws.home, opts]];
  }
  try {
    return { m: interleaved(runs, v), deno: !!deno };
  } finally {
    if (!flags.keep) fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

function moduleSize(file = 'skilldex.wasm') {
  const b = fs.readFileSync(path.join(pkg, file));
  return {
    raw: b.length,
    gzip: zlib.gzipSync(b, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

// ---------------------------------------------------------------- report

const cpus = os.cpus();
const runtime = typeof Deno !== 'undefined' ? `deno ${Deno.version.deno}` : typeof Bun !== 'undefined' ? `bun ${Bun.version}` : `node ${process.version}`;
const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
// The one-shot processes first, while this process is fresh (see the top
// of the file): after the warm runs its collector lengthened the ones that
// print much (the CLI at 1,000 skills: 1.54-1.68x the loop, 1.49x before).
const c = coldRuns > 0 ? cold(coldRuns) : null;
// The one-shot table spawns Node (process.execPath) beside Deno: only the
// Node run prints it (under Deno, execPath is deno and its rows would lie).
const oneShotRuns = /** @type {any} */ (globalThis).Deno ? 0 : Number(flags.oneshot);
const once = oneShotRuns > 0 ? oneShot(oneShotRuns) : null;
console.log(`skilldex bench: ${runtime}, ${cpus.length} cores (${cpus[0]?.model.trim()}), load average ${load}`);
console.log();
console.log('| skills | facade warm | JS floor | ratio | floor with realpath.native | ratio | fresh process: 1st call | its loop | ratio | 2nd call | ratio to JS floor | first call | after a change | complete path | memory after 1 call | after last call (calls) | growth over further calls |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
/** @type {Map<number, any>} each size's warm results, for the README summary */
const bySize = new Map();
for (const n of sizes) {
  const r = await warm(n);
  bySize.set(n, r);
  const f = r.fresh;
  const freshCells = f
    ? `${f.first.toFixed(1)} ms | ${f.loopFirst.toFixed(1)} ms | **${(f.first / f.loopFirst).toFixed(2)}×** | ${f.second.toFixed(1)} ms | **${(f.second / r.floor).toFixed(2)}×**`
    : '- | - | - | - | -';
  console.log(
    `| ${n} (${r.skills} loaded) | ${r.facade.toFixed(1)} ms | ${r.floor.toFixed(1)} ms | **${(r.facade / r.floor).toFixed(2)}×** | ${r.native.toFixed(1)} ms | ${(r.facade / r.native).toFixed(2)}× | ${freshCells} | ${r.first.toFixed(1)} ms | ${r.changed.toFixed(1)} ms | ${(100 * r.completePath).toFixed(1)}% | ${MiB(r.memFirst)} MiB | ${MiB(r.memLast)} MiB (${r.calls}) | ${r.repeat ? `${MiB(r.memRepeat - r.memLast)} MiB (${r.repeat})` : '-'} |`,
  );
}
console.log();
console.log(
  `Fresh process: the first and second discover() of a new ${runtime.split(' ')[0]} process with default flags (js/bench/fresh-calls.mjs; the first includes compiling and starting the module), medians of ${flags.fresh} interleaved with fresh processes running the plain loop (its loop: the first loop of a fresh process); the first call's ratio is to that loop, the second call's to the warm JS floor. First call: the first discover() of an engine in this process. Complete path: the share of the SKILL.md files the first call sent to the frontmatter module (stats().frontmatterParses).`,
);
console.log();
if (c) {
  console.log(`| cold start (median of ${coldRuns}, interleaved) | ms |`);
  console.log('|---|---:|');
  console.log(`| \`node js/bin/skilldex.mjs list --json\` (examples/workspace) | ${c.cli.toFixed(1)} |`);
  console.log(`| bare \`node -e ''\` | ${c.bare.toFixed(1)} |`);
  console.log(`| ratio | **${(c.cli / c.bare).toFixed(2)}×** |`);
  for (const [label, p] of [['--liftoff-only (the CLI)', c.phase], ['default flags', c.phaseDefault]]) {
    console.log(
      `| in process, ${label}: import ${p.import.toFixed(1)}, compile ${p.compile.toFixed(1)}, instantiate + _initialize ${p.init.toFixed(1)}, first discover ${p.first.toFixed(1)}, second ${p.second.toFixed(1)} | |`,
    );
  }
  console.log();
}
if (once) {
  const { m: t, deno } = once;
  const row = (name, base) => {
    if (t[name] === undefined) return;
    const ratio = base && t[base] !== undefined ? `**${(t[name] / t[base]).toFixed(2)}×** ${base}` : '';
    console.log(`| ${name} | ${t[name].toFixed(1)} | ${ratio} |`);
  };
  console.log(`| one-shot, whole process (median of ${oneShotRuns} interleaved rounds; default runtime flags) | ms | ratio |`);
  console.log('|---|---:|---|');
  row('node -e 0');
  row('example: discover() in Node', 'node -e 0');
  row('example: discover() in Deno', 'node -e 0');
  row('example: skilldex list --json', 'node -e 0');
  row('1000: loop in Node');
  row('1000: loop in Deno');
  row('1000: discover() in Node', '1000: loop in Node');
  row('1000: discover() in Deno', '1000: loop in Node');
  if (deno) row('1000: discover() in Deno', '1000: loop in Deno');
  row('1000: skilldex list --json', '1000: loop in Node');
  console.log();
}
for (const file of ['skilldex.wasm', 'skilldex-frontmatter.wasm']) {
  if (!fs.existsSync(path.join(pkg, file))) continue;
  const m = moduleSize(file);
  console.log(`module js/${file}: ${(m.raw / 1e6).toFixed(2)} MB raw, ${(m.gzip / 1e6).toFixed(2)} MB gzip -9, ${(m.brotli / 1e6).toFixed(2)} MB brotli`);
}

if (flags.readme) writeReadmeSummary();

/**
 * The README's performance table (between its bench-summary markers): the
 * figures of this run, which is also printed above for docs/bench/ (a test
 * checks that every figure of the table is in docs/bench/).
 */
function writeReadmeSummary() {
  const ms = (/** @type {number} */ x) => `${x.toFixed(1)} ms`;
  const x = (/** @type {number} */ a, /** @type {number} */ b) => `**${(a / b).toFixed(2)}×**`;
  const rows = [];
  /** one row per figure, a cell for each size: `label` and the cell of a size's results (or null) */
  const bySizes = (/** @type {string} */ label, /** @type {(r: any) => string | null} */ cell, /** @type {string} */ against) => {
    const cells = [...bySize].map(([n, r]) => [n, cell(r)]).filter(([, c]) => c !== null);
    if (cells.length) rows.push([label, cells.map(([n, c]) => `${n}: ${c}`).join('; '), against]);
  };
  bySizes('discover(), warm (skills: ms)', (r) => `${ms(r.facade)} against ${ms(r.floor)}, ${x(r.facade, r.floor)}`, 'the JS floor (a warm loop of the bare calls)');
  bySizes('discover() after a SKILL.md changed', (r) => `${ms(r.changed)}, ${x(r.changed, r.floor)}`, 'the JS floor');
  bySizes("a fresh process's first discover()", (r) => (r.fresh ? `${ms(r.fresh.first)}, ${x(r.fresh.first, r.fresh.loopFirst)}` : null), 'the loop in a fresh process');
  bySizes('its second discover()', (r) => (r.fresh ? `${ms(r.fresh.second)}, ${x(r.fresh.second, r.floor)}` : null), 'the JS floor');
  bySizes('files on the complete frontmatter path', (r) => `${(100 * r.completePath).toFixed(1)}%`, '');
  if (once) {
    const t = once.m;
    for (const [name, base] of [['example: skilldex list --json', 'node -e 0'], ['example: discover() in Node', 'node -e 0'], ['example: discover() in Deno', 'node -e 0'],
      ['1000: discover() in Node', '1000: loop in Node'], ['1000: discover() in Deno', '1000: loop in Deno'], ['1000: skilldex list --json', '1000: loop in Node']]) {
      if (t[name] !== undefined && t[base] !== undefined) rows.push([`one-shot ${name}`, `${t[name].toFixed(1)} ms: ${x(t[name], t[base])}`, base]);
    }
  }
  const m = moduleSize('skilldex.wasm');
  rows.push(['engine module', `${(m.raw / 1e6).toFixed(2)} MB raw, ${(m.gzip / 1e6).toFixed(2)} MB gzip -9`, 'budget 4 MB']);
  const rowsText = ['| what users meet | measured | against |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  console.log();
  console.log(rowsText); // docs/bench/ keeps what README.md shows
  const table = [
    `${runtime}, ${cpus.length} cores, load average ${load}; \`make bench\` writes this table (full runs in [docs/bench/](docs/bench/),`,
    'the workspace in [docs/bench/WORKSPACE.md](docs/bench/WORKSPACE.md), what each piece of machinery gains in',
    '[docs/PERF-NOTES.md](docs/PERF-NOTES.md)).',
    '',
    rowsText,
  ].join('\n');
  const readme = path.join(pkg, '..', 'README.md');
  const text = fs.readFileSync(readme, 'utf8');
  const begin = '<!-- bench-summary: begin -->\n', end = '<!-- bench-summary: end -->';
  const i = text.indexOf(begin), j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error('README.md has no bench-summary markers');
  fs.writeFileSync(readme, text.slice(0, i + begin.length) + table + '\n' + text.slice(j));
}
