#!/usr/bin/env node
// What the first SKILL.md that needs the complete frontmatter path (the
// frontmatter module, yaml.v3) costs a fresh process's first discover():
// the example workspace as it is, and with one more skill whose
// frontmatter the engine's scanner declines (an anchor and an alias),
// each discovered by a fresh process, interleaved; medians.
//
//	node js/bench/complete-path-cost.mjs [--runs 11]
//	deno run -A js/bench/complete-path-cost.mjs

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './workspace.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '11' }, child: { type: 'string' } } });

if (flags.child) {
  // One fresh process's first discover(), timed from before the import.
  const t0 = performance.now();
  const { createSkilldex } = await import(pathToFileURL(path.join(here, '..', 'index.js')).href);
  const ws = JSON.parse(flags.child);
  const sk = createSkilldex();
  const r = await sk.discover({ cwd: ws.cwd, home: ws.home });
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ ms, skills: r.skills.length, parses: sk.stats().frontmatterParses ?? -1 }));
  await sk.close();
  process.exit(0);
}

const example = path.join(here, '..', '..', 'examples', 'workspace');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-complete-cost-')));
try {
  const plain = path.join(tmp, 'plain'), complete = path.join(tmp, 'complete');
  fs.cpSync(example, plain, { recursive: true, verbatimSymlinks: true });
  fs.cpSync(example, complete, { recursive: true, verbatimSymlinks: true });
  const extra = path.join(complete, 'home', '.claude', 'skills', 'anchored');
  fs.mkdirSync(extra, { recursive: true });
  fs.writeFileSync(path.join(extra, 'SKILL.md'), '---\nname: anchored\ndescription: &d Uses an anchor, which only the complete path reads.\nsummary: *d\n---\nBody.\n');
  const runtime = process.argv[0];
  const args = globalThis.Deno ? ['run', '-A', fileURLToPath(import.meta.url)] : [fileURLToPath(import.meta.url)];
  const times = { plain: /** @type {number[]} */ ([]), complete: /** @type {number[]} */ ([]) };
  const info = {};
  for (let i = 0; i < Number(flags.runs) + 1; i++) {
    for (const [k, dir] of /** @type {[keyof typeof times, string][]} */ ([['plain', plain], ['complete', complete]])) {
      const ws = { cwd: path.join(dir, 'projects', 'webapp'), home: path.join(dir, 'home') };
      const out = spawnSync(runtime, [...args, '--child', JSON.stringify(ws)], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(out.stderr);
      const r = JSON.parse(out.stdout.trim().split('\n').pop());
      if (i > 0) times[k].push(r.ms);
      /** @type {any} */ (info)[k] = r;
    }
  }
  const p = median(times.plain), c = median(times.complete);
  console.log(`${globalThis.Deno ? `Deno ${globalThis.Deno.version.deno}` : `Node ${process.version}`}: first discover() of a fresh process, medians of ${flags.runs}`);
  console.log(`  example workspace: ${p.toFixed(1)} ms (${JSON.stringify(info.plain)})`);
  console.log(`  + one skill on the complete path: ${c.toFixed(1)} ms (${JSON.stringify(info.complete)}); the complete path costs ${(c - p).toFixed(1)} ms`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
