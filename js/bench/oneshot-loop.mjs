// The one-shot baseline of js/bench/bench.mjs: a fresh process doing only
// the filesystem calls any discovery needs (readdirSync of each root,
// readFileSync and realpathSync of each SKILL.md), no parsing, then exit.
//
//	node js/bench/oneshot-loop.mjs <roots JSON>
//	deno run -A js/bench/oneshot-loop.mjs <roots JSON>
import fs from 'node:fs';

const args = globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2);
let read = 0;
for (const root of JSON.parse(args[0])) {
  for (const name of fs.readdirSync(root)) {
    const file = root + '/' + name + '/SKILL.md';
    try {
      fs.readFileSync(file);
    } catch {
      continue; // a folder without SKILL.md
    }
    fs.realpathSync(file);
    read++;
  }
}
if (read === 0) throw new Error('no SKILL.md read');
