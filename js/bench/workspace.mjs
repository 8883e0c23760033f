// The generated workspaces of the benchmarks (js/bench/bench.mjs and
// js/bench/peers.mjs): `count` skill folders spread over the roots of every
// provider, deterministic for a given count, with every kind of folder a
// real workspace has:
//
//   - realistic SKILL.md files of 1-8 KB with 5-10 frontmatter keys, some
//     descriptions with a character outside ASCII (a dash);
//   - names found in several roots (collisions: shadowed by name);
//   - symlinked skill folders pointing into a shared store, and links to
//     skills of another root (the same file reached twice: shadowed by
//     realpath);
//   - invalid YAML (`description: Use when: ...`, which yaml.v3 rejects;
//     SPEC S7 keeps the skill with a warning);
//   - nested groups (`<root>/group-N/<skill>/SKILL.md`, never discovered by
//     SPEC S10; engines that recurse find them);
//   - long descriptions (a folded block scalar of about 1 KB);
//   - a plugin registry and folders with extra reference files.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A small deterministic PRNG (mulberry32), so every run builds the same tree. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n) => Math.floor(next() * n) };
}

const WORDS = (
  'the a skill for when you need to review test deploy write format lint pdf ' +
  'tables charts commit message release notes database schema migration api client server ' +
  'frontend backend docs security audit performance profile trace logs metrics'
).split(' ');

/** Skill roots relative to the workspace, with a weight each (as core/bench_test.go). */
export const ROOTS = [
  ['home/u/.xcsh/agent/skills', 15],
  ['home/u/.claude/skills', 20],
  ['home/u/.agents/skills', 8],
  ['home/u/.agent/skills', 2],
  ['home/u/.codex/skills', 5],
  ['work/repo/pkg/.xcsh/skills', 10],
  ['work/repo/pkg/.claude/skills', 8],
  ['work/repo/.claude/skills', 6],
  ['work/repo/.agents/skills', 6],
  ['work/repo/pkg/.codex/skills', 3],
  ['plugins/kit/skills', 6],
  ['plugins/docs/skills', 4],
  ['opt/team-skills', 7],
];

/** Every how many skills one has invalid YAML, a long description, sits in a nested group. */
const BAD_YAML_EVERY = 101;
const LONG_DESCRIPTION_EVERY = 67;
const NESTED_EVERY = 89;

/**
 * A SKILL.md of 1-8 KB with 5-10 frontmatter keys.
 * @param {{int(n: number): number}} r
 * @param {string} name
 * @param {(n: number) => string} sentence
 * @param {'plain' | 'bad-yaml' | 'long'} kind
 */
function skillFile(r, name, sentence, kind) {
  let s = '---\n';
  s += `name: ${name}\n`;
  if (kind === 'bad-yaml') {
    s += `description: Use when: ${sentence(10 + r.int(10))}\n`; // "mapping values are not allowed here"
  } else if (kind === 'long') {
    s += 'description: >-\n';
    for (let i = 0; i < 14; i++) s += `  ${sentence(12)}\n`;
  } else {
    // One in five with a dash (—), as people write: a collection's reply is then
    // not ASCII, as a real one's seldom is.
    s += `description: Use this skill to ${sentence(12 + r.int(20))}${r.int(5) === 0 ? ` — ${sentence(4)}` : ''}.\n`;
  }
  const extras = [
    `version: 1.${r.int(10)}.0\n`,
    'license: MIT\n',
    'globs: ["**/*.ts", "src/**/*.go"]\n',
    'alwaysApply: false\n',
    'allowed-tools: [read, bash, edit]\n',
    `metadata:\n  author: team-${r.int(20)}\n  category: ${sentence(1)}\n`,
    `tags: [${sentence(3).replaceAll(' ', ', ')}]\n`,
    `compatibility: Works with ${sentence(4)}\n`,
  ];
  // A random 3 to 8 of the extras: 5 to 10 keys in all.
  const order = extras.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const i of order.slice(0, 3 + r.int(6))) s += extras[i];
  s += `---\n\n# ${name}\n\n`;
  const size = 1024 + r.int(7 * 1024);
  while (s.length < size) s += sentence(14) + '.\n';
  return s;
}

/**
 * @typedef {object} Workspace
 * @property {string} dir the workspace (a new temporary directory, realpath'd)
 * @property {string} cwd where discovery runs (work/repo/pkg)
 * @property {string} home the user's home (home/u)
 * @property {{customDirectories: string[]}} options skilldex options (opt/team-skills is a custom directory)
 * @property {string[]} roots every skills root, absolute
 * @property {number} files SKILL.md files one level deep in the roots (what the JS loop reads)
 * @property {number} folders skill folders written (count)
 * @property {number} badYaml skills with invalid YAML reachable one level deep
 * @property {number} nested skills in nested groups
 */

/**
 * Write a workspace of count skill folders under a new temporary directory.
 * @param {number} count
 * @returns {Workspace}
 */
export function generate(count) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `skilldex-bench-${count}-`)));
  const r = rng(count);
  const sentence = (/** @type {number} */ n) => Array.from({ length: n }, () => WORDS[r.int(WORDS.length)]).join(' ');
  const write = (/** @type {string} */ rel, /** @type {string} */ data) => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, data);
  };
  const link = (/** @type {string} */ target, /** @type {string} */ rel) => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.symlinkSync(target, p);
  };
  write('work/repo/.git/HEAD', 'ref: refs/heads/main\n');
  write(
    'home/u/.claude/plugins/installed_plugins.json',
    JSON.stringify({
      version: 2,
      plugins: {
        'kit@market': [{ scope: 'user', installPath: path.join(dir, 'plugins/kit'), version: '1.2.0' }],
        'docs@market': [{ scope: 'project', installPath: path.join(dir, 'plugins/docs'), projectPath: path.join(dir, 'work/repo') }],
      },
    }),
  );
  const total = ROOTS.reduce((t, [, w]) => t + Number(w), 0);
  const width = String(count).length;
  /** @type {string[]} */
  const claude = [];
  const seen = new Set();
  let n = 0;
  let files = 0;
  let badYaml = 0;
  let nested = 0;
  ROOTS.forEach(([root, weight], ri) => {
    const k = ri === ROOTS.length - 1 ? count - n : Math.floor((count * Number(weight)) / total);
    for (let i = 0; i < k; i++) {
      let name = `skill-${String(n).padStart(width, '0')}-${WORDS[r.int(WORDS.length)]}`;
      // A name found in several roots (once per root).
      if (n % 97 === 0 && n > 0 && !seen.has(`${root}/shared-${n % 5}`)) name = `shared-${n % 5}`;
      n++;
      const kind = n % BAD_YAML_EVERY === 0 ? 'bad-yaml' : n % LONG_DESCRIPTION_EVERY === 0 ? 'long' : 'plain';
      if (n % NESTED_EVERY === 0) {
        // A nested group: a folder without SKILL.md holding a skill folder.
        write(`${root}/group-${n}/${name}/SKILL.md`, skillFile(r, name, sentence, kind));
        nested++;
        continue;
      }
      const rel = `${root}/${name}`;
      seen.add(rel);
      if (n % 150 === 0) {
        // A symlinked skill folder pointing into a shared store.
        write(`shared/store/${name}/SKILL.md`, skillFile(r, name, sentence, kind));
        link(path.join(dir, 'shared/store', name), rel);
      } else {
        write(`${rel}/SKILL.md`, skillFile(r, name, sentence, kind));
        if (n % 8 === 0) write(`${rel}/reference.md`, sentence(40) + '\n');
        if (root === 'home/u/.claude/skills') claude.push(name);
      }
      if (kind === 'bad-yaml') badYaml++;
      files++;
    }
  });
  // A few links to skills of another root: the same file reached twice.
  for (let i = 0; i < 5 && i < claude.length; i++) {
    link(`../../.claude/skills/${claude[i]}`, `home/u/.agents/skills/linked-${i + 1}`);
    files++;
  }
  return {
    dir,
    cwd: path.join(dir, 'work/repo/pkg'),
    home: path.join(dir, 'home/u'),
    options: { customDirectories: [path.join(dir, 'opt/team-skills')] },
    roots: ROOTS.map(([root]) => path.join(dir, String(root))),
    files,
    folders: count,
    badYaml,
    nested,
  };
}

/**
 * The plain JS loop: the bare calls any discovery needs (readdirSync of
 * each root, readFileSync and realpathSync of each SKILL.md), no parsing.
 * Returns the SKILL.md files read.
 * @param {typeof import('node:fs')} fsm node:fs
 * @param {string[]} roots
 * @param {(p: string) => string} [realpath]
 */
export function plainLoop(fsm, roots, realpath = fsm.realpathSync) {
  let read = 0;
  for (const root of roots) {
    for (const name of fsm.readdirSync(root)) {
      const file = root + '/' + name + '/SKILL.md';
      try {
        fsm.readFileSync(file);
      } catch {
        continue; // a folder without SKILL.md
      }
      realpath(file);
      read++;
    }
  }
  return read;
}

/** @param {number[]} xs */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The SKILL.md files of the first n skill folders (sorted by name, links
 * left out) of the roots, root after root.
 * @param {string[]} roots @param {number} n
 * @returns {string[]}
 */
export function skillFiles(roots, n) {
  const out = [];
  for (const root of roots) {
    for (const name of fs.readdirSync(root).sort()) {
      if (out.length >= n) return out;
      const file = path.join(root, name, 'SKILL.md');
      if (fs.lstatSync(path.join(root, name)).isDirectory() && fs.existsSync(file)) out.push(file);
    }
  }
  return out;
}

/**
 * Change a SKILL.md's body, not what a discovery reports: a blank at its
 * end, or none. A discovery after it reads in full (an unchanged tree is
 * answered from the last reply, wasm/ABI.md#file_version).
 * @param {string} file
 */
export function touchBody(file) {
  const text = fs.readFileSync(file, 'latin1');
  fs.writeFileSync(file, text.endsWith(' ') ? text.slice(0, -1) : text + ' ', 'latin1');
}
