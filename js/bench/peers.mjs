#!/usr/bin/env node
// skilldex against its peers. `make bench-peers` runs it; so can
//
//	node js/bench/peers.mjs [--sizes 1000,10000] [--rounds 5] [--passes 2] [--keep]
//
// The peers are installed on demand, at the pinned versions below, into
// build/peers (ignored by git; nothing of theirs enters the tree) with
// `npm install --ignore-scripts`: oh-my-pi runs under Bun (from the npm
// package @oven/bun-linux-x64), pi-mono and skilldex under this Node.
//
// For each size it generates one workspace (js/bench/workspace.mjs: every
// kind of skill folder) and runs every engine in its own process
// (js/bench/peer-run.mjs: a warm-up, then --rounds timed calls interleaved
// with as many runs of the plain JS loop, readdir + readFile + realpath of
// each SKILL.md, in the same runtime), in --passes passes of alternating
// order. An engine's figure is the median of all its timed calls; its ratio
// is to the median of the loops timed beside it in the same processes, so a
// shared machine's changing load cancels out. The loop column is the loop
// under Node (the skilldex and pi-mono processes).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, median } from './workspace.mjs';

/** Pinned peer versions (`npm view <package> version`; oh-my-pi 18.3.4 does not install: its @oh-my-pi/omp-stats@18.3.4 is not published). */
export const PEERS = {
  '@oh-my-pi/pi-coding-agent': '18.2.3',
  '@mariozechner/pi-coding-agent': '0.73.1',
  '@oven/bun-linux-x64': '1.4.5',
};

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const prefix = path.join(repo, 'build/peers');
const modules = path.join(prefix, 'node_modules');
const bun = path.join(modules, '@oven/bun-linux-x64/bin/bun');

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    rounds: { type: 'string', default: '5' },
    passes: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});

/** Install the peers into build/peers unless the pinned versions are there. */
function install() {
  const have = (/** @type {string} */ name) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  };
  const missing = Object.entries(PEERS).filter(([name, v]) => have(name) !== v);
  if (missing.length === 0) return;
  console.error(`installing ${missing.map(([n, v]) => `${n}@${v}`).join(' ')} into ${path.relative(repo, prefix)} ...`);
  fs.mkdirSync(prefix, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', '--prefix', prefix, ...Object.entries(PEERS).map(([n, v]) => `${n}@${v}`)],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`npm install of the peers failed (exit ${r.status})`);
}

const ENGINES = [
  { id: 'skilldex', label: 'skilldex', cmd: () => process.execPath },
  { id: 'skilldex-changed', label: 'skilldex, a SKILL.md changed before each call', cmd: () => process.execPath },
  { id: 'oh-my-pi', label: `oh-my-pi ${PEERS['@oh-my-pi/pi-coding-agent']} (Bun ${PEERS['@oven/bun-linux-x64']})`, cmd: () => bun },
  { id: 'pi-mono', label: `pi-mono ${PEERS['@mariozechner/pi-coding-agent']}`, cmd: () => process.execPath },
];

/**
 * @param {typeof ENGINES[number]} e
 * @param {string} wsFile
 * @param {string} emptyHome
 * @returns {{times: number[], skills: number, runtime: string} | {error: string}}
 */
function runEngine(e, wsFile, emptyHome) {
  const r = spawnSync(e.cmd(), [path.join(here, 'peer-run.mjs'), e.id, wsFile, flags.rounds], {
    encoding: 'utf8',
    env: { ...process.env, HOME: emptyHome }, // the peers look under HOME; the workspace's home is passed explicitly
    maxBuffer: 1 << 26,
    timeout: 30 * 60 * 1000,
  });
  if (r.status !== 0) return { error: `exit ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' / ')}` };
  return JSON.parse(r.stdout);
}

install();
const cpus = os.cpus();
console.log(`skilldex bench-peers: node ${process.version}, ${cpus.length} cores (${cpus[0]?.model.trim()}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`in-process median of ${Number(flags.rounds) * Number(flags.passes)} warm calls per engine (${flags.passes} passes of ${flags.rounds}); ratio to the plain JS loop timed beside it in the same process`);
console.log();
console.log(`| skill folders | ${ENGINES.map((e) => e.label).join(' | ')} | plain JS loop (Node) |`);
console.log(`|---:|${ENGINES.map(() => '---:').join('|')}|---:|`);
for (const n of flags.sizes.split(',').filter(Boolean).map(Number)) {
  const ws = generate(n);
  const empty = path.join(ws.dir, 'peer-empty');
  fs.mkdirSync(path.join(empty, 'home'), { recursive: true });
  const wsFile = path.join(ws.dir, 'workspace.json');
  fs.writeFileSync(wsFile, JSON.stringify({ ...ws, empty }));
  try {
    /** @type {Record<string, {times: number[], loops: number[], skills: number[], runtime: string, errors: string[]}>} */
    const res = {};
    for (const e of ENGINES) res[e.id] = { times: [], loops: [], skills: [], runtime: '', errors: [] };
    for (let p = 0; p < Number(flags.passes); p++) {
      const order = p % 2 ? [...ENGINES].reverse() : ENGINES;
      for (const e of order) {
        const r = runEngine(e, wsFile, path.join(empty, 'home'));
        if ('error' in r) res[e.id].errors.push(r.error);
        else res[e.id].times.push(...r.times), res[e.id].loops.push(...r.loopTimes), res[e.id].skills.push(r.skills), (res[e.id].runtime = r.runtime);
      }
    }
    const nodeLoops = ENGINES.filter((e) => res[e.id].runtime.startsWith('node')).flatMap((e) => res[e.id].loops);
    const cell = (/** @type {string} */ id) => {
      const r = res[id];
      if (r.times.length === 0) return `failed (${r.errors[0]})`;
      const ms = median(r.times);
      const loop = median(r.loops);
      const bun = r.runtime.startsWith('bun') ? ` under Bun, ${loop.toFixed(1)} ms` : '';
      return `${ms.toFixed(1)} ms (**${(ms / loop).toFixed(2)}×** the loop${bun}; ${r.skills[0]} skills)`;
    };
    console.log(`| ${n.toLocaleString('en')} | ${ENGINES.map((e) => cell(e.id)).join(' | ')} | ${nodeLoops.length ? median(nodeLoops).toFixed(1) + ' ms' : '-'} (${ws.files} SKILL.md read) |`);
  } finally {
    if (!flags.keep) fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}
