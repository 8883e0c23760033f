// The 720-folder hostile tree (SPEC S45), timed through the CLI
// as a user meets it: 720 skill folders sharing one 64 KB SKILL.md (hard
// links) whose description is raw \x01 bytes, next to the user's own
// ~/.claude/skills/mine. js/test/hostile.test.js builds the same tree and
// asserts what `list` gives; this measures it.
//
//	node js/bench/hostile-list.mjs [--runs N] [--keep DIR] [bin.mjs ...]
//
// Each bin (default: this package's js/bin/skilldex.mjs) runs `list --json`
// N times (default 5), the bins interleaved run by run so that a loaded
// machine weighs on each alike: compare an old build against a new one by
// passing both (copy the old js/ directory aside first). Prints, per bin,
// each run's wall time, CPU time (user + sys) and peak RSS (those two from
// /usr/bin/time when present), the medians, the reply's size, and the load
// average before and after. Under load, CPU time is the steadier figure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeControlByteTree } from '../test/hostile-tree.js';

const args = process.argv.slice(2);
let runs = 5;
let keep = '';
const bins = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--keep') keep = args[++i];
  else bins.push(path.resolve(args[i]));
}
if (bins.length === 0) bins.push(fileURLToPath(new URL('../bin/skilldex.mjs', import.meta.url)));

const root = keep || fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-hostile-bench-')));
const { proj, home } = writeControlByteTree(root);

const timeBin = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : '';
const results = bins.map(() => ({ ms: [], cpu: [], rssKB: [], bytes: 0 }));
console.log(`tree: ${root} (load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
for (let r = 0; r < runs; r++) {
  for (const [b, bin] of bins.entries()) {
    const cmd = [process.execPath, bin, 'list', '--json', '--cwd', proj, '--home', home];
    const argv = timeBin ? [timeBin, '-f', 'RSSKB=%M CPU=%U+%S', ...cmd] : cmd;
    const start = process.hrtime.bigint();
    const p = spawnSync(argv[0], argv.slice(1), { maxBuffer: 256 << 20, env: { ...process.env, NO_COLOR: '1' } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const stderr = p.stderr.toString();
    if (p.status !== 0) throw new Error(`${bin}: exit ${p.status}: ${stderr.slice(0, 2000)}`);
    const reply = JSON.parse(p.stdout.toString());
    if (!reply.skills.some((s) => s.name === 'mine')) throw new Error(`${bin}: the user's skill is not listed`);
    const rss = /RSSKB=(\d+) CPU=([\d.]+)\+([\d.]+)/.exec(stderr);
    results[b].ms.push(ms);
    if (rss) results[b].rssKB.push(Number(rss[1]));
    if (rss) results[b].cpu.push(Number(rss[2]) + Number(rss[3]));
    results[b].bytes = p.stdout.length;
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [b, bin] of bins.entries()) {
  const { ms, cpu, rssKB, bytes } = results[b];
  console.log(`${bin}\n  wall ms: ${ms.map((x) => x.toFixed(0)).join(' ')}  median ${median(ms).toFixed(0)}` +
    (cpu.length ? `\n  CPU s (user+sys): ${cpu.map((x) => x.toFixed(2)).join(' ')}  median ${median(cpu).toFixed(2)}` : '') +
    (rssKB.length ? `\n  max RSS MB: ${rssKB.map((x) => (x / 1024).toFixed(0)).join(' ')}` : '') +
    `\n  reply: ${bytes} bytes`);
}
console.log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (!keep) fs.rmSync(root, { recursive: true, force: true });
