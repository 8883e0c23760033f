// One engine of js/bench/peers.mjs, in its own process:
//
//	node|bun js/bench/peer-run.mjs <engine> <workspace.json> <rounds>
//
// Imports the engine, runs one discovery to check what it finds, warms up
// (at least 2 calls and 2 s), then times <rounds> calls in this process,
// interleaved with as many runs of the plain JS loop in the same runtime,
// and prints {engine, runtime, times, loopTimes, skills} as JSON on stdout. The peers come
// from build/peers (installed by peers.mjs, never part of the tree); each is
// called through its public discovery function the way an agent calls it at
// startup.
//
// Engines:
//   skilldex   createSkilldex(...).discover() (this package; Node): an
//              unchanged tree, answered from the last reply once every file
//              is confirmed unchanged (wasm/ABI.md#file_version)
//   skilldex-changed   the same with one SKILL.md changed before each call
//              (a blank at the end of its body, or none): every call
//              discovers in full, reading every file, as the peers do
//   pi-mono    loadSkills({cwd, agentDir, skillPaths: roots, includeDefaults: false}) (Node)
//   oh-my-pi   loadSkills({cwd, customDirectories: roots}) with its file cache reset before each call (Bun)

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { plainLoop, skillFiles, touchBody } from './workspace.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.resolve(here, '../../build/peers/node_modules');

const [engine, wsFile, roundsArg] = process.argv.slice(2);
/** @type {import('./workspace.mjs').Workspace & {empty: string}} */
const ws = JSON.parse(fs.readFileSync(wsFile, 'utf8'));
const rounds = Number(roundsArg);

/** @returns {Promise<() => Promise<number>>} one discovery, resolving to the number of skills found */
async function load() {
  switch (engine) {
    case 'skilldex':
    case 'skilldex-changed': {
      const { createSkilldex } = await import('../index.js');
      const sk = createSkilldex({ cwd: ws.cwd, home: ws.home, options: ws.options });
      await sk.ready();
      if (engine === 'skilldex') return async () => (await sk.discover()).skills.length;
      const [file] = skillFiles(ws.roots, 1);
      return async () => {
        touchBody(file);
        return (await sk.discover()).skills.length;
      };
    }
    case 'pi-mono': {
      const pi = await import(pathToFileURL(path.join(peers, '@mariozechner/pi-coding-agent/dist/index.js')).href);
      // Its defaults are ~/.pi/agent/skills and <cwd>/.pi/skills; the
      // workspace's roots are given as explicit skill paths, and cwd and
      // the agent dir point at an empty folder.
      const opts = { cwd: ws.empty, agentDir: path.join(ws.empty, '.pi/agent'), skillPaths: ws.roots, includeDefaults: false };
      return async () => pi.loadSkills(opts).skills.length;
    }
    case 'oh-my-pi': {
      const src = path.join(peers, '@oh-my-pi/pi-coding-agent/src');
      const skills = await import(pathToFileURL(path.join(src, 'extensibility/skills.ts')).href);
      const discovery = await import(pathToFileURL(path.join(src, 'discovery/index.ts')).href);
      // Every root as a custom directory; cwd (and HOME, set by peers.mjs)
      // point at an empty folder, so its built-in providers find nothing
      // and no root is scanned twice. reset() drops its file-content cache:
      // a warm call must read the files again, as skilldex's does.
      const opts = { cwd: ws.empty, customDirectories: ws.roots };
      return async () => {
        discovery.reset();
        return (await skills.loadSkills(opts)).skills.length;
      };
    }
  }
  throw new Error(`unknown engine ${engine}`);
}

const run = await load();
const loop = async () => plainLoop(fs, ws.roots);
const skills = await run();
// At least 2 calls and 2 s; and the workspace at least 3.5 s old, since
// skilldex trusts a file's version only 3 s after its last change (a tree
// just written is discovered in full until then; wasm/ABI.md#file_version).
const madeAt = Date.now() - fs.statSync(wsFile).mtimeMs;
const warmUntil = performance.now() + Math.max(2000, 3500 - madeAt);
for (let i = 0; i < 2 || performance.now() < warmUntil; i++) await run(), await loop();
// The engine and the plain loop of this runtime, interleaved (alternating
// which goes first), so a change of load touches both alike.
const times = [];
const loopTimes = [];
const timed = async (/** @type {() => Promise<number>} */ f, /** @type {number[]} */ into) => {
  const t = performance.now();
  await f();
  into.push(performance.now() - t);
};
for (let i = 0; i < rounds; i++) {
  if (i % 2) await timed(loop, loopTimes);
  await timed(run, times);
  if (!(i % 2)) await timed(loop, loopTimes);
}
const runtime = typeof Bun !== 'undefined' ? `bun ${Bun.version}` : `node ${process.version}`;
process.stdout.write(JSON.stringify({ engine, runtime, times, loopTimes, skills }));
process.exit(0); // the peers may leave handles open
