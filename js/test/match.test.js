// match (S55) through the JS API, in-thread and in worker mode, and the
// `skilldex match <path>...` command; the digest (S54) on discover results.
// The rules' exact bytes are the corpus's business (s54-*, s55-*); here the
// facade's translation is checked. Runs under node --test and deno test -A.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSkilldex, MemoryFS, SkilldexError } from '../index.js';

const skill = (name, extra) => `---\nname: ${name}\ndescription: ${name} skill\n${extra}---\nbody\n`;
const tree = [
  ['/w/p/.claude/skills/ts/SKILL.md', skill('ts', 'globs: ["*.ts", "src/**/*.tsx"]\n')],
  ['/w/p/.claude/skills/always/SKILL.md', skill('always', 'alwaysApply: true\n')],
  ['/w/p/.claude/skills/docs/SKILL.md', skill('docs', 'globs: ["/notes/*.md", "[bad"]\n')],
  ['/w/p/.claude/skills/plain/SKILL.md', skill('plain', '')],
];

function memory() {
  const m = new MemoryFS();
  m.mkdir('/w/p/.git');
  for (const [p, c] of tree) m.writeFile(p, c);
  return m;
}

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-match-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));
fs.mkdirSync(root + '/w/p/.git', { recursive: true });
fs.mkdirSync(root + '/h', { recursive: true });
for (const [p, c] of tree) {
  fs.mkdirSync(path.dirname(root + p), { recursive: true });
  fs.writeFileSync(root + p, c);
}

test('match: alwaysApply, base-name and path globs, a bad pattern (S55)', async () => {
  const sk = createSkilldex({ fs: memory(), cwd: '/w/p', home: '/h' });
  const r = await sk.match(['src/a.ts', 'notes/x.md', 'src/ui/b.tsx', '/elsewhere/c.ts', 'notes/sub/y.md']);
  assert.deepEqual(r.skills, [
    { name: 'always', reason: 'alwaysApply', paths: [] },
    { name: 'docs', reason: 'globs', paths: ['notes/x.md'] },
    { name: 'ts', reason: 'globs', paths: ['src/a.ts', 'src/ui/b.tsx'] },
  ]);
  assert.equal(r.warnings.length, 1);
  assert.equal(r.warnings[0].skillPath, '/w/p/.claude/skills/docs/SKILL.md');
  assert.match(r.warnings[0].message, /"\[bad".*docs/);
  assert.deepEqual((await sk.match([])).skills, [{ name: 'always', reason: 'alwaysApply', paths: [] }]);
  await assert.rejects(sk.match(['a.ts'], { cwd: 'relative' }), (e) => e instanceof SkilldexError && e.code === 'INVALID_ARGUMENT');
  await assert.rejects(sk.call({ op: 'match', cwd: '/w/p', home: '/h', paths: 'a.ts' }).then((r) => {
    throw new SkilldexError(JSON.parse(r).error.code, r);
  }), (e) => e.code === 'BAD_REQUEST');
});

test('match and digest are the same in worker mode', async () => {
  const ctx = { cwd: root + '/w/p', home: root + '/h' };
  const a = createSkilldex(ctx);
  const b = createSkilldex({ ...ctx, worker: true });
  const paths = ['src/a.ts', root + '/w/p/notes/x.md'];
  assert.deepEqual(await b.match(paths), await a.match(paths));
  const [da, db] = [await a.discover(), await b.discover()];
  assert.match(da.digest, /^[0-9a-f]{16}$/);
  assert.equal(db.digest, da.digest);
  await b.close();
});

test('skilldex match <path>...', () => {
  const bin = fileURLToPath(new URL('../bin/skilldex.mjs', import.meta.url));
  const runner = globalThis.Deno ? [globalThis.Deno.execPath(), 'run', '-A', bin] : [process.execPath, bin];
  const cli = (...args) => spawnSync(runner[0], [...runner.slice(1), ...args, '--home', root + '/h'], { cwd: root + '/w/p', encoding: 'utf8' });
  let r = cli('match', 'src/a.ts', 'notes/x.md');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^NAME\s+REASON\s+PATHS\n/);
  assert.match(r.stdout, /\nts\s+globs\s+src\/a\.ts\n/);
  assert.match(r.stdout, /\ndocs\s+globs\s+notes\/x\.md\n/);
  assert.match(r.stdout, /\nalways\s+alwaysApply\n/);
  assert.match(r.stderr, /warning: .*"\[bad"/);
  r = cli('match', 'src/a.ts', '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.skills.find((m) => m.name === 'ts').paths, [root + '/w/p/src/a.ts']);
  r = cli('match');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /match: missing <path>/);
});

// Patterns that made the backtracking matcher run for seconds (the first),
// exhaust the module's memory (the second: 2.1 GB, then the instance died)
// or double per repetition (the third), and one over the S57 bound.
const hostileGlobs = [
  '*?*?*?*?*?*?*?*?*?#*',
  '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*ac*',
  '{a,a}'.repeat(40) + '{b,c}',
  '*a'.repeat(4000) + 'c*',
];
const hostilePaths = ['src-components-button.test.js', 'a'.repeat(250), 'a'.repeat(4096)];
const hostileSkill = skill('hostile', `globs: ${JSON.stringify(hostileGlobs)}\n`);

test('hostile globs: the module answers match at once, no pattern backtracks (S57)', async () => {
  // First in a child process with a deadline: before S57 this ran for
  // minutes or killed the instance, and must fail the test, not hang it.
  const dir = root + '/hostile';
  fs.mkdirSync(dir + '/p/.git', { recursive: true });
  fs.mkdirSync(dir + '/h/.claude/skills/hostile', { recursive: true });
  fs.writeFileSync(dir + '/h/.claude/skills/hostile/SKILL.md', hostileSkill);
  const bin = fileURLToPath(new URL('../bin/skilldex.mjs', import.meta.url));
  const runner = globalThis.Deno ? [globalThis.Deno.execPath(), 'run', '-A', bin] : [process.execPath, bin];
  const r = spawnSync(runner[0], [...runner.slice(1), 'match', ...hostilePaths, '--home', dir + '/h', '--json'], {
    cwd: dir + '/p',
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.error, undefined, `the match did not return within 60 s: ${r.error}`);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.skills, []);
  assert.equal(j.warnings.length, 1);
  assert.match(j.warnings[0].message, /glob-too-complex: the glob pattern "(\*a){100}…" in globs of skill "hostile" is 8002 bytes long/);

  // Then in this thread, through the API over a MemoryFS.
  const m = memory();
  m.writeFile('/w/p/.claude/skills/hostile/SKILL.md', hostileSkill);
  const sk = createSkilldex({ fs: m, cwd: '/w/p', home: '/h' });
  const t0 = performance.now();
  const got = await sk.match(hostilePaths);
  const ms = performance.now() - t0;
  assert.deepEqual(got.skills.map((s) => s.name), ['always']);
  assert.equal(got.warnings.filter((w) => w.message.includes('glob-too-complex')).length, 1);
  assert.ok(ms < 30_000, `${ms} ms`);
});
