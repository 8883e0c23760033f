// The generated workspaces of the benchmarks (js/bench/bench.mjs and
// js/bench/peers.mjs): `count` skill folders spread over the roots of every
// provider, deterministic for a given count, with every kind of folder a
// real workspace has:
//
//   - SKILL.md files shaped as published ones are (skillFile: the
//     frontmatter shapes, keys, description and body sizes of published
//     collections at their rates, docs/bench/WORKSPACE.md), some
//     descriptions with a character outside ASCII (a dash);
//   - names found in several roots (collisions: shadowed by name);
//   - symlinked skill folders pointing into a shared store, and links to
//     skills of another root (the same file reached twice: shadowed by
//     realpath);
//   - 1.5% invalid YAML (`description: Use when: ...`, which yaml.v3
//     rejects; SPEC S7 keeps the skill with a warning);
//   - nested groups (`<root>/group-N/<skill>/SKILL.md`, never discovered by
//     SPEC S10; engines that recurse find them);
//   - a plugin registry and folders with extra reference files.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The frontmatter shapes and their weights (internal/benchws/shapes.json,
 * described in docs/bench/WORKSPACE.md), shared with the Go benchmarks.
 */
export const SHAPES = JSON.parse(fs.readFileSync(new URL('../../internal/benchws/shapes.json', import.meta.url), 'utf8'));

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
  return { float: next, int: (/** @type {number} */ n) => Math.floor(next() * n) };
}

const WORDS = SHAPES.words;

// Which shapes file i has: a Weyl sequence per dimension (the fractional
// part of (i+1)·frac(√p), one prime p per dimension: file, crlf,
// description, nested, allowedTools, then one per entry of keys), so every
// prefix of the files holds each shape at its rate. Go's
// internal/benchws/skillfile.go is the same code: the two give the same
// bytes (js/test/bench-workspace.test.js).
const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97];

/** @param {number} d @param {number} i */
function weyl(d, i) {
  let a = Math.sqrt(PRIMES[d]);
  a -= Math.floor(a);
  const x = (i + 1) * a;
  return x - Math.floor(x);
}

/** @param {[string, number][]} table @param {number} u */
function pick(table, u) {
  let total = 0;
  for (const c of table) total += c[1];
  const x = u * total;
  let cum = 0;
  for (const c of table) {
    cum += c[1];
    if (x < cum) return c[0];
  }
  return table[table.length - 1][0];
}

/** @param {{quantiles: number[], values: number[]}} q @param {number} u */
function quantile(q, u) {
  let k = 0;
  while (k + 2 < q.quantiles.length && u >= q.quantiles[k + 1]) k++;
  const v = q.values[k] + ((q.values[k + 1] - q.values[k]) * (u - q.quantiles[k])) / (q.quantiles[k + 1] - q.quantiles[k]);
  return Math.floor(v);
}

/** @param {string} text @param {number} width */
function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line === '') line = w;
    else if (line.length + 1 + w.length > width) lines.push(line), (line = w);
    else line += ' ' + w;
  }
  lines.push(line);
  return lines;
}

/**
 * The i-th SKILL.md of a generated workspace, for a skill folder called
 * name: frontmatter with the shapes of published collections at their
 * rates (SHAPES), 1.5% invalid YAML (`description: Use when: ...`, which
 * yaml.v3 rejects; SPEC S7 keeps the skill with a warning), 15.5% without
 * frontmatter, descriptions and bodies of their sizes. The same bytes as
 * Go's benchws.SkillFile(i, name).
 * @param {number} i
 * @param {string} name
 * @returns {string}
 */
export function skillFile(i, name) {
  const r = rng((Math.imul(i, 0x9e3779b9) + 0x5eed) >>> 0);
  const word = () => WORDS[r.int(WORDS.length)];
  const words = (/** @type {number} */ n) => Array.from({ length: n }, word).join(' ');
  const list = (/** @type {string} */ key, /** @type {number} */ n) => {
    const items = Array.from({ length: n }, word);
    if (pick(SHAPES.listStyle, r.float()) === 'flow') return `${key}: [${items.join(', ')}]\n`;
    return `${key}:\n  - ${items.join('\n  - ')}\n`;
  };
  let b = '';
  const file = pick(SHAPES.file, weyl(0, i));
  if (file !== 'none') {
    b += `---\nname: ${name}\n`;
    const chars = quantile(SHAPES.descriptionChars, r.float());
    let style = pick(SHAPES.description, weyl(2, i));
    if (file === 'invalid') style = 'invalid';
    let text = style === 'invalid' ? 'Use when: you need to' : 'Use this skill to';
    // The additions below (the last word's overshoot, a dash, a quotation)
    // come to about 10 characters on average.
    while (text.length + 10 < chars) text += ' ' + word();
    if (style === 'plain' || style === 'double-quoted' || style === 'single-quoted' || style === 'invalid') {
      if (r.int(5) === 0) text += ` — ${words(2)}`; // a character outside ASCII, as people write
      text += '.';
      if (style === 'double-quoted') {
        if (r.int(4) === 0) text += ` Say \\"${word()}\\".`;
        text = `"${text}"`;
      } else if (style === 'single-quoted') {
        text = `'${text} It''s ${word()}.'`;
      }
      b += `description: ${text}\n`;
    } else {
      // A scalar over several lines.
      let head = /** @type {Record<string, string>} */ ({ folded: ' >', literal: ' |', continued: '' })[style];
      if (style === 'folded' && r.int(2) === 0) head = ' >-';
      b += `description:${head}\n`;
      for (const line of wrap(text + '.', 76)) b += `  ${line}\n`;
    }
    const allowed = pick(SHAPES.allowedTools, weyl(4, i));
    if (allowed === 'string') b += 'allowed-tools: Read, Grep, Bash\n';
    else if (allowed === 'list') b += list('allowed-tools', 2 + r.int(3));
    SHAPES.keys.forEach((/** @type {[string, number]} */ [key, weight], /** @type {number} */ k) => {
      if (weyl(5 + k, i) * SHAPES.keysOutOf >= weight) return;
      switch (key) {
        case 'license':
          b += `license: ${['MIT', 'Apache-2.0', 'Complete terms in LICENSE.txt'][r.int(3)]}\n`;
          break;
        case 'version':
          b += `version: 1.${r.int(10)}.0\n`;
          break;
        case 'triggers':
        case 'tags':
        case 'agents':
        case 'compatible_tools':
          b += list(key, 2 + r.int(3));
          break;
        case 'author':
          b += `author: team-${r.int(20)}\n`;
          break;
        case 'command':
          b += `command: /${word()}\n`;
          break;
        case 'compatibility':
          b += `compatibility: Works with ${words(4)}\n`;
          break;
        case 'effort':
          b += `effort: ${['low', 'medium', 'high'][r.int(3)]}\n`;
          break;
        case 'disable-model-invocation':
          b += 'disable-model-invocation: true\n';
          break;
        case 'context':
          b += 'context: fork\n';
          break;
        case 'argument-hint':
          b += `argument-hint: "[${word()}]"\n`;
          break;
        default: // type, category
          b += `${key}: ${word()}\n`;
      }
    });
    switch (pick(SHAPES.nested, weyl(3, i))) {
      case 'requires-flow': {
        const items = ['rube'];
        if (r.int(4) === 0) items.push(word());
        b += `requires:\n  mcp: [${items.join(', ')}]\n`;
        break;
      }
      case 'requires-block':
        b += 'requires:\n  mcp:\n    - rube\n';
        if (r.int(2) === 0) b += `    - ${word()}\n`;
        break;
      case 'metadata':
        b += `metadata:\n  author: team-${r.int(20)}\n  version: "1.${r.int(10)}"\n`;
        if (r.int(2) === 0) b += `  category: ${word()}\n`;
        break;
      case 'metadata-sequence-of-mappings':
        b += 'metadata:\n  contributors:\n';
        for (let k = 0; k < 2; k++) b += `    - name: ${word()}\n      org: ${word()}\n`;
        break;
    }
    b += '---\n\n';
  }
  const size = quantile(SHAPES.bodyBytes, r.float());
  let body = `# ${name}\n\n`;
  while (body.length < size) body += words(14) + '.\n';
  b += body;
  if (pick(SHAPES.crlf, weyl(1, i)) === 'crlf') b = b.replaceAll('\n', '\r\n');
  return b;
}

/** Whether a SKILL.md skillFile made has invalid YAML (the unquoted-colon kind). @param {string} text */
export const isInvalidYAML = (text) => /^description: Use when: /m.test(text);

/** Skill roots relative to the workspace, with a weight each (as internal/benchws). */
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

/** Every how many skills one sits in a nested group. */
const NESTED_EVERY = 89;

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
      const text = skillFile(n, name);
      n++;
      if (n % NESTED_EVERY === 0) {
        // A nested group: a folder without SKILL.md holding a skill folder.
        write(`${root}/group-${n}/${name}/SKILL.md`, text);
        nested++;
        continue;
      }
      const rel = `${root}/${name}`;
      seen.add(rel);
      if (n % 150 === 0) {
        // A symlinked skill folder pointing into a shared store.
        write(`shared/store/${name}/SKILL.md`, text);
        link(path.join(dir, 'shared/store', name), rel);
      } else {
        write(`${rel}/SKILL.md`, text);
        if (n % 8 === 0) write(`${rel}/reference.md`, sentence(40) + '\n');
        if (root === 'home/u/.claude/skills') claude.push(name);
      }
      if (isInvalidYAML(text)) badYaml++;
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
