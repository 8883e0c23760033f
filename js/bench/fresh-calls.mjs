// The first and second discover() of a fresh process, as an agent starting
// or an editor opening a folder meets them: js/bench/bench.mjs runs it
// beside its warm runs, with the runtime's default flags. Prints JSON: the
// first call's ms (createSkilldex and discover(): the module's compile and
// start included), the second's, the files the first sent to the complete
// frontmatter path (stats().frontmatterParses), and the skills found.
// With --loop, the same for the plain loop of workspace.mjs over roots
// (its baseline: the bare calls of a discovery, in a fresh process).
//
//	node js/bench/fresh-calls.mjs <cwd> <home> [options JSON]
//	node js/bench/fresh-calls.mjs --loop <roots JSON>
//	deno run -A js/bench/fresh-calls.mjs ...
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

const args = globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2);
if (args[0] === '--loop') {
  const { plainLoop } = await import('./workspace.mjs');
  const roots = JSON.parse(args[1]);
  const t0 = performance.now();
  const read = plainLoop(fs, roots);
  const t1 = performance.now();
  plainLoop(fs, roots);
  const t2 = performance.now();
  if (read === 0) throw new Error('no SKILL.md read');
  console.log(JSON.stringify({ first: t1 - t0, second: t2 - t1 }));
} else {
  const { createSkilldex } = await import('../index.js');
  const [cwd, home, options] = args;
  const t0 = performance.now();
  const sk = createSkilldex({ cwd, home, options: options ? JSON.parse(options) : undefined });
  const r = await sk.discover();
  const t1 = performance.now();
  const completePath = sk.stats().frontmatterParses;
  await sk.discover();
  const t2 = performance.now();
  await sk.close();
  if (r.skills.length === 0) throw new Error('no skills found');
  console.log(JSON.stringify({ first: t1 - t0, second: t2 - t1, completePath, skills: r.skills.length }));
}
