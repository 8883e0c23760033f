// Does skilldex find what oh-my-pi 18.2.3 finds (SPEC S62, S63)?
//
//	node js/bench/omp-parity.mjs [--json]
//
// Writes the tree of testdata/conformance/s62-omp-parity.txtar (a skill in
// every folder oh-my-pi's skill providers read, with name contests between
// them) to a temporary folder, then asks both engines for the skills of its
// cwd and home:
//   oh-my-pi   loadSkills({cwd}) of @oh-my-pi/pi-coding-agent 18.2.3, under
//              Bun, with HOME set to the tree's home and the user folders of
//              the other agents opted in (oh-my-pi 18 reads ~/.claude,
//              ~/.codex and ~/.config/opencode only when the user enables
//              them; skilldex reads them by default, S23);
//   skilldex   discover({cwd, home, options: {configDirName: '.omp'}}).
// and compares the skills each loads: name, file and source (oh-my-pi's
// provider "omp-managed" is skilldex's "managed"). Exit status 1 when they
// differ. --json prints oh-my-pi's answer, the data core/omp_parity_test.go
// holds.
//
// Not part of `make test`: it needs the peer installed
// (npm install --no-save --no-package-lock --ignore-scripts --prefix build/peers @oh-my-pi/pi-coding-agent@18.2.3)
// and Bun (build/tools).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const caseFile = path.join(repo, 'testdata/conformance/s62-omp-parity.txtar');
const ompSrc = path.join(repo, 'build/peers/node_modules/@oh-my-pi/pi-coding-agent/src');
const bun = path.join(repo, 'build/tools/node_modules/@oven/bun-linux-x64/bin/bun');

/** @typedef {{name: string, filePath: string, source: string}} Loaded */

if (process.argv[2] === '--omp') {
  // Under Bun: oh-my-pi's answer for the tree at process.argv[3], as JSON on stdout.
  const { cwd } = JSON.parse(process.argv[3]);
  const discovery = await import(pathToFileURL(path.join(ompSrc, 'discovery/index.ts')).href);
  const skills = await import(pathToFileURL(path.join(ompSrc, 'extensibility/skills.ts')).href);
  discovery.setEnabledProviders(['*']); // every agent's ~/ folders, as skilldex reads them
  const res = await skills.loadSkills({ cwd, enableCodexUser: true, enableClaudeUser: true });
  /** @type {Loaded[]} */
  const out = res.skills.map((/** @type {any} */ s) => ({ name: s.name, filePath: s.filePath, source: s.source }));
  process.stdout.write(JSON.stringify({ skills: out, warnings: res.warnings }));
  process.exit(0);
}

/**
 * The tree sections of a txtar corpus case (testdata/conformance/README.md):
 * files, empty folders ("a/") and links ("a -> b").
 * @param {string} text
 */
function treeOf(text) {
  /** @type {{path: string, data: string}[]} */
  const out = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const m = /^-- (.+) --$/.exec(line);
    if (m) {
      cur = { path: m[1].trim(), data: '' };
      out.push(cur);
    } else if (cur) {
      cur.data += line + '\n';
    }
  }
  return out.filter((s) => s.path !== 'request.json' && s.path !== 'want.json');
}

const text = fs.readFileSync(caseFile, 'utf8');
const request = JSON.parse(/-- request\.json --\n(.*)\n/.exec(text)?.[1] ?? '{}');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omp-parity-'));
try {
  for (const s of treeOf(text)) {
    const p = path.join(root, s.path);
    if (s.path.endsWith('/')) fs.mkdirSync(p, { recursive: true });
    else if (s.path.includes(' -> ')) throw new Error(`links are not used in ${caseFile}`);
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, s.data.replace(/\n$/, '') + '\n');
    }
  }
  const cwd = path.join(root, request.cwd);
  const home = path.join(root, request.home);
  const strip = (/** @type {string} */ p) => (p.startsWith(root) ? p.slice(root.length) : p);
  /** @param {Loaded[]} list */
  const normal = (list) =>
    list
      .map((s) => ({ name: s.name, filePath: strip(s.filePath), source: s.source.replace(/^omp-managed:/, 'managed:') }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const r = spawnSync(bun, [fileURLToPath(import.meta.url), '--omp', JSON.stringify({ cwd })], {
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`oh-my-pi under Bun failed (exit ${r.status}): ${r.stderr}`);
  const omp = JSON.parse(r.stdout);
  const ompSkills = normal(omp.skills);

  const { createSkilldex } = await import('../index.js');
  const sk = createSkilldex({ cwd, home });
  const ours = await sk.discover({ options: request.options });
  await sk.close();
  const ourSkills = normal(ours.skills);

  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify(ompSkills, null, 2) + '\n');
  }
  const key = (/** @type {Loaded} */ s) => `${s.name}\t${s.filePath}\t${s.source}`;
  const a = new Set(ompSkills.map(key));
  const b = new Set(ourSkills.map(key));
  const onlyOmp = [...a].filter((k) => !b.has(k));
  const onlyOurs = [...b].filter((k) => !a.has(k));
  console.error(`oh-my-pi 18.2.3: ${ompSkills.length} skills, ${omp.warnings.length} warnings; skilldex: ${ourSkills.length} skills, ${ours.warnings.length} warnings`);
  for (const k of onlyOmp) console.error(`only oh-my-pi: ${k}`);
  for (const k of onlyOurs) console.error(`only skilldex: ${k}`);
  console.error(onlyOmp.length + onlyOurs.length === 0 ? 'same names, winners and sources' : 'DIFFERENT');
  process.exitCode = onlyOmp.length + onlyOurs.length === 0 ? 0 : 1;
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
