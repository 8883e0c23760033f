// One-shot library use, as a Deno script or an editor extension meets it:
// a fresh process imports the package, calls discover() once with the
// runtime's default flags, and exits. js/bench/bench.mjs times it as a
// whole process.
//
//	node js/bench/oneshot-discover.mjs <cwd> <home> [options JSON]
//	deno run -A js/bench/oneshot-discover.mjs <cwd> <home> [options JSON]
import { createSkilldex } from '../index.js';

const [cwd, home, options] = (globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2));
const sk = createSkilldex({ cwd, home, options: options ? JSON.parse(options) : undefined });
const r = await sk.discover();
if (r.skills.length === 0) throw new Error('no skills found');
