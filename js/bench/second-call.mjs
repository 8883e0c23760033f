// One fresh process as an editor meets it: the first discover(), 100 ms of
// other work, one SKILL.md changed, then the second and third discover().
// Prints their ms as JSON. For an A/B of two builds of the package, run it
// alternately with each package folder over one workspace (workspace.mjs
// generate(N), its JSON in a file):
//
//	node js/bench/second-call.mjs <package folder> <workspace.json>
import fs from 'node:fs';
const [pkg, wsFile] = process.argv.slice(2);
const ws = JSON.parse(fs.readFileSync(wsFile, 'utf8'));
const { createSkilldex } = await import(pkg + '/index.js');
const sk = createSkilldex({ cwd: ws.cwd, home: ws.home, options: ws.options });
let t = performance.now();
const r = await sk.discover();
const first = performance.now() - t;
await new Promise((res) => setTimeout(res, 100));
fs.appendFileSync(r.skills[7].filePath, '\nmore\n');
t = performance.now();
await sk.discover();
const second = performance.now() - t;
t = performance.now();
await sk.discover();
const third = performance.now() - t;
await sk.close();
console.log(JSON.stringify({ first, second, third }));
