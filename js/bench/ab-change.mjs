#!/usr/bin/env node
// A/B of the discovery after a change (SPEC S61): copies of the JS package
// (say main's and a branch's) on one generated workspace, called alternately
// in one process. Each round changes one SKILL.md (touchBody) and times each
// engine's next discovery (after a change) and the one after it (unchanged),
// beside the plain loop timed warm in the same round; medians and ratios of
// the same run.
//
//	node js/bench/ab-change.mjs --size 1000 --rounds 21 <pkgdir>[:inline] ...
//
// A package dir suffixed ":inline" passes the runtime's filesystem as a
// caller's object: no read-ahead worker.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, median, plainLoop, skillFiles, touchBody } from './workspace.mjs';

const { values: flags, positionals: pkgs } = parseArgs({
  allowPositionals: true,
  options: { size: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '21' } },
});

const ws = generate(Number(flags.size));
try {
  await new Promise((r) => setTimeout(r, 3500)); // versions stand for bytes
  const engines = [];
  for (const spec of pkgs) {
    const [dir, mode] = spec.split(':');
    const mod = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
    const opts = { cwd: ws.cwd, home: ws.home, options: ws.options, ...(mode === 'inline' ? { fs: mod.createNodeFS(fs) } : {}) };
    const sk = mod.createSkilldex(opts);
    for (let i = 0; i < 3; i++) await sk.discover();
    engines.push({ spec, sk, change: [], same: [] });
  }
  const files = skillFiles(ws.roots, Number(flags.rounds) + 5);
  const loop = [];
  for (let r = 0; r < Number(flags.rounds) + 3; r++) {
    for (const e of engines) {
      touchBody(files[r % files.length]);
      let t = performance.now();
      await e.sk.discover();
      const change = performance.now() - t;
      t = performance.now();
      await e.sk.discover();
      const same = performance.now() - t;
      if (r >= 3) e.change.push(change), e.same.push(same);
    }
    const t = performance.now();
    plainLoop(fs, ws.roots);
    if (r >= 3) loop.push(performance.now() - t);
  }
  const l = median(loop);
  console.log(`${flags.size} skills, ${flags.rounds} rounds; warm plain loop ${l.toFixed(1)} ms`);
  for (const e of engines) {
    const c = median(e.change), s = median(e.same);
    console.log(`${e.spec}: after a change ${c.toFixed(1)} ms (${(c / l).toFixed(2)}x the loop), unchanged ${s.toFixed(1)} ms (${(s / l).toFixed(2)}x); read ahead ${e.sk.stats().prefetchedReads}`);
    await e.sk.close();
  }
} finally {
  fs.rmSync(ws.dir, { recursive: true, force: true });
}
