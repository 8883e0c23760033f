// The skilldex CLI (bin/skilldex.mjs) as a user runs it: every subcommand,
// human and --json output, exit codes (0 ok, 1 failed operation, 2 usage),
// bad flags. Spawns the CLI with the runtime running the tests (node, deno
// run -A, or bun).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSkilldex } from '../index.js';
import { diskWorkspace } from './workspace.js';

const bin = fileURLToPath(new URL('../bin/skilldex.mjs', import.meta.url));
const pkgDir = fileURLToPath(new URL('..', import.meta.url));

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-cli-')));
/**
 * Under Deno the CLI runs with least privilege: read access to
 * the package and the workspace, nothing else; every test here gives
 * --home, or needs no home (validate).
 */
const denoRun = (/** @type {string[]} */ perms) => [globalThis.Deno.execPath(), 'run', '--no-prompt', ...perms, bin];
const runner = globalThis.Deno ? denoRun([`--allow-read=${pkgDir},${root}`]) : [process.execPath, bin];
after(() => fs.rmSync(root, { recursive: true, force: true }));
diskWorkspace(root);
const cwd = root + '/work/proj';
const home = root + '/home/u';
const ctx = ['--cwd', cwd, '--home', home];

/** Run the CLI: {status, stdout, stderr}. */
function cli(args, opts = {}) {
  const cmd = opts.runner ?? runner;
  // Only PATH (and what a test sets): under Deno, handing the child the whole environment needs env access for all of it.
  const env = { PATH: process.env.PATH ?? '', ...opts.env };
  const r = spawnSync(cmd[0], [...cmd.slice(1), ...args], { encoding: 'utf8', cwd: opts.cwd ?? root, env });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ok = (r) => {
  assert.equal(r.status, 0, `exit ${r.status}, stderr: ${r.stderr}`);
  return r;
};

const engine = createSkilldex();
/** The library's raw reply for a request, plus the newline the CLI adds. */
const raw = async (req) => (await engine.call(req)) + '\n';

test('list: an aligned table, then the counts', () => {
  const r = ok(cli(['list', ...ctx]));
  assert.equal(r.stderr, '');
  assert.equal(
    r.stdout,
    [
      'NAME    SOURCE          DESCRIPTION',
      'lint    claude:user     Lint the code',
      'pdf     native:user     Read and fill PDF forms',
      'review  claude:project  Review a change',
      '3 skills, 1 not loaded (skilldex explain <name>; list --all shows them):',
      '  name taken (1): pdf',
      '',
    ].join('\n'),
  );
});

test('list: warnings go to stderr, the table stays on stdout', () => {
  const bad = root + '/bad-settings.json';
  fs.writeFileSync(bad, JSON.stringify({ ignoredSkills: ['[z-a]'] }));
  const r = ok(cli(['list', ...ctx, '--settings', bad]));
  assert.match(r.stderr, /^warning: Invalid glob pattern "\[z-a\]" in ignoredSkills/);
  assert.doesNotMatch(r.stdout, /warning/);
  assert.match(r.stdout, /^NAME/);
});

test('list --all: the skills not loaded are rows with their reason', () => {
  const r = ok(cli(['list', '--all', ...ctx]));
  assert.equal(
    r.stdout,
    [
      'NAME    SOURCE          DESCRIPTION',
      'lint    claude:user     Lint the code',
      'pdf     native:user     Read and fill PDF forms',
      `pdf     claude:user     (not loaded: name taken by ${home}/.xcsh/agent/skills/pdf/SKILL.md)`,
      'review  claude:project  Review a change',
      '3 skills, 1 not loaded (skilldex explain <name>)',
      '',
    ].join('\n'),
  );
});

test('list: descriptions cut to the width ($COLUMNS, or the terminal) with …, whole with --wide', () => {
  const long = root + '/long';
  const lhome = long + '/home';
  const desc = 'Extract text and tables from PDF files, fill forms, merge and split documents. Use when the user mentions PDFs.';
  fs.mkdirSync(lhome + '/.claude/skills/pdf', { recursive: true });
  fs.writeFileSync(lhome + '/.claude/skills/pdf/SKILL.md', `---\nname: pdf\ndescription: ${desc}\n---\nBody.\n`);
  const args = ['list', '--cwd', long, '--home', lhome];
  // Deno reads $COLUMNS only when allowed to (without, it uses the terminal's width alone).
  const withEnv = globalThis.Deno ? { runner: denoRun([`--allow-read=${pkgDir},${root}`, '--allow-env=COLUMNS']) } : {};
  const narrow = ok(cli(args, { env: { COLUMNS: '60' }, ...withEnv }));
  const row = narrow.stdout.split('\n')[1];
  assert.equal([...row].length, 60, row);
  assert.ok(row.endsWith('…'), row);
  assert.ok(row.startsWith('pdf   claude:user  Extract text'), row);
  const wide = ok(cli([...args, '--wide'], { env: { COLUMNS: '60' }, ...withEnv }));
  assert.ok(wide.stdout.includes(desc));
  const piped = ok(cli(args)); // not a terminal, no $COLUMNS: whole
  assert.ok(piped.stdout.includes(desc));
});

test('--json prints the engine\'s exact JSON for every command', async () => {
  const cases = [
    [['list'], { op: 'discover', cwd, home }],
    [['read', 'skill://pdf/reference.md'], { op: 'resolve', cwd, home, url: 'skill://pdf/reference.md' }],
    [['files', 'pdf'], { op: 'listFiles', cwd, home, name: 'pdf' }],
    [['prompt', '--format', 'xml', '--max-chars', '60'], { op: 'renderPrompt', cwd, home, format: 'xml', maxChars: 60 }],
    [['prompt', '--no-read-tool'], { op: 'renderPrompt', cwd, home, readTool: false }],
    [['expand', '/skill:review now'], { op: 'expandCommand', cwd, home, text: '/skill:review now' }],
    [['expand', 'hello'], { op: 'expandCommand', cwd, home, text: 'hello' }],
    [['commands'], { op: 'commands', cwd, home }],
    [['context'], { op: 'contextFiles', cwd, home }],
    [['validate', cwd + '/.claude/skills/review'], { op: 'validate', dir: cwd + '/.claude/skills/review' }],
    [['explain', 'pdf'], { op: 'explain', cwd, home, name: 'pdf' }],
    [['activate', 'pdf'], { op: 'activate', cwd, home, name: 'pdf' }],
    [['tool'], { op: 'toolDefinition', cwd, home }],
    [['list', '--untrusted'], { op: 'discover', cwd, home, options: { trustedProject: false } }],
  ];
  for (const [args, req] of cases) {
    const r = ok(cli([...args, ...ctx, '--json']));
    // validate takes many directories: its replies are one array.
    const want = req.op === 'validate' ? '[' + (await raw(req)).trimEnd() + ']\n' : await raw(req);
    assert.equal(r.stdout, want, args.join(' '));
  }
  assert.equal(ok(cli(['expand', 'hello', ...ctx, '--json'])).stdout, 'null\n');
});

test('--untrusted (S68)', () => {
  // The project's skill is not loaded, nor its XCSH.md.
  const l = ok(cli(['list', '--untrusted', ...ctx]));
  assert.match(l.stdout, /^2 skills, 2 not loaded .*\n  name taken \(1\): pdf\n  project not trusted \(1\): review\n$/m);
  const gone = cli(['read', 'skill://review', '--untrusted', ...ctx]);
  assert.equal(gone.status, 1);
  assert.match(gone.stderr, /^skilldex: Unknown skill: review\n/);
  assert.doesNotMatch(ok(cli(['context', '--untrusted', ...ctx])).stdout, /project instructions/);
  // --untrusted wins over the settings file's trustedProject.
  const settings = root + '/trusting-settings.json';
  fs.writeFileSync(settings, JSON.stringify({ trustedProject: true, ignoredSkills: ['lint'] }));
  const r = JSON.parse(ok(cli(['list', '--untrusted', '--settings', settings, '--json', ...ctx])).stdout);
  assert.deepEqual(r.skills.map((/** @type {any} */ k) => k.name), ['pdf']);
});

test('activate, tool (S69, S71)', () => {
  const a = ok(cli(['activate', 'pdf', ...ctx]));
  assert.equal(a.stderr, '');
  assert.equal(
    a.stdout,
    `<skill_content name="pdf">\nUse scripts/fill.py.\n\nSkill directory: ${home}/.xcsh/agent/skills/pdf\n` +
      'Relative paths in this skill resolve against that directory.\n\n<skill_resources>\n' +
      '  <file>reference.md</file>\n  <file>scripts/fill.py</file>\n</skill_resources>\n</skill_content>\n',
  );
  const t = JSON.parse(ok(cli(['tool', ...ctx])).stdout);
  assert.deepEqual(t.inputSchema.properties.name.enum, ['lint', 'pdf', 'review']);
  // An untrusted project's skill is neither in the tool nor activated (S68).
  assert.deepEqual(JSON.parse(ok(cli(['tool', '--untrusted', ...ctx])).stdout).inputSchema.properties.name.enum, ['lint', 'pdf']);
  const gone = cli(['activate', 'review', '--untrusted', ...ctx]);
  assert.equal(gone.status, 1);
  assert.match(gone.stderr, /^skilldex: Unknown skill: review\n/);
  // No skill to activate: no tool, said on stderr; --json prints null.
  const none = root + '/none-settings.json';
  fs.writeFileSync(none, JSON.stringify({ enabled: false }));
  const n = ok(cli(['tool', '--settings', none, ...ctx]));
  assert.equal(n.stdout, '');
  assert.equal(n.stderr, 'no skill can be activated: no tool\n');
  assert.equal(ok(cli(['tool', '--settings', none, '--json', ...ctx])).stdout, 'null\n');
});

test('read, files: the content and the file list', () => {
  assert.equal(ok(cli(['read', 'skill://pdf/reference.md', ...ctx])).stdout, '# PDF reference\n');
  assert.equal(ok(cli(['files', 'pdf', ...ctx])).stdout, 'SKILL.md\nreference.md\nscripts/fill.py\n');
});

test('an error message is one line: a newline in an argument cannot fake a second (S58)', () => {
  const fake = '\nskilldex: all good';
  for (const [args, start] of [
    [['read', `skill://pdf/none${fake}.md`, ...ctx], `skilldex: File not found: ${home}/.xcsh/agent/skills/pdf/none\\x0askilldex: all good.md`],
    [['validate', `${root}/none${fake}`], `skilldex: Directory not found: ${root}/none\\x0askilldex: all good`],
    [['list', ...ctx, '--settings', `${root}/none${fake}`], `skilldex: settings ${root}/none\\x0askilldex: all good: ENOENT`],
    [[`li${fake}\r\x1b[2J`], 'skilldex: unknown command "li\\x0askilldex: all good\\x0d\\x1b[2J"'],
  ]) {
    const r = cli(args);
    assert.notEqual(r.status, 0);
    const lines = r.stderr.split('\n');
    assert.ok(lines[0].startsWith(start), `${JSON.stringify(args)}: ${r.stderr}`);
    assert.ok(!lines.slice(1).some((l) => l.startsWith('skilldex: all good')), r.stderr);
    assert.ok(!/[\r\x1b]/.test(r.stderr), r.stderr);
  }
  // S50's own lines stay; the typed name's newline does not make one (the engine quotes it as S58 says).
  const r = cli(['files', `pd${fake}`, ...ctx]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr, 'skilldex: Unknown skill: pd\uFFFDskilldex: all good\nAvailable: lint, pdf, review\n');
});

test('a failed operation: exit 1, the message on stderr, or the error object with --json', () => {
  const r = cli(['read', 'skill://nope', ...ctx]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'skilldex: Unknown skill: nope\nAvailable: lint, pdf, review\n');
  const j = cli(['read', 'skill://pdf/../x', ...ctx, '--json']);
  assert.equal(j.status, 1);
  assert.deepEqual(JSON.parse(j.stdout), { error: { code: 'PATH_TRAVERSAL', message: 'Path traversal (..) is not allowed in skill:// URLs' } });
  assert.equal(cli(['files', 'nope', ...ctx]).status, 1);
  assert.equal(cli(['explain', 'nope', ...ctx]).status, 1);
  assert.equal(cli(['validate', root + '/nowhere']).status, 1);
});

test('prompt: markdown, xml, no read tool, a bound', () => {
  assert.match(ok(cli(['prompt', ...ctx])).stdout, /^# Skills\n[\s\S]*## pdf\n/);
  assert.match(ok(cli(['prompt', '--format', 'xml', ...ctx])).stdout, /<available_skills>/);
  assert.equal(ok(cli(['prompt', '--no-read-tool', ...ctx])).stdout, '');
  const cut = ok(cli(['prompt', '--max-chars', '60', ...ctx]));
  assert.ok(cut.stdout.length <= 61, cut.stdout);
  assert.match(cut.stderr, /^note: (omitted|shortened) /m);
});

test('expand: the message, or the text unchanged', () => {
  assert.equal(ok(cli(['expand', '/skill:review now', ...ctx])).stdout, `Review carefully.\n\n---\n\nSkill: ${cwd}/.claude/skills/review/SKILL.md\nUser: now\n`);
  assert.equal(ok(cli(['expand', 'just text', ...ctx])).stdout, 'just text\n');
});

test('commands, context, explain: readable output', () => {
  assert.equal(
    ok(cli(['commands', ...ctx])).stdout,
    'COMMAND        DESCRIPTION\n/skill:lint    Lint the code\n/skill:pdf     Read and fill PDF forms\n/skill:review  Review a change\n',
  );
  const c = ok(cli(['context', ...ctx])).stdout;
  assert.equal(c, `==> ${home}/.xcsh/agent/XCSH.md (user) <==\nuser instructions\n\n==> ${cwd}/XCSH.md (project, depth 0) <==\nproject instructions\n`);
  const e = ok(cli(['explain', 'pdf', ...ctx])).stdout;
  assert.match(e, new RegExp(`^pdf: loaded from ${home}/\\.xcsh/agent/skills/pdf/SKILL\\.md \\(native:user\\)\n`));
  assert.match(e, /^OUTCOME +SOURCE +FILE +REASON$/m);
  assert.match(e, /^shadowed +claude:user +\S+\/\.claude\/skills\/pdf\/SKILL\.md +the name "pdf" was already taken/m);
});

test('validate: one block per skill, a summary, exit 1 when a diagnostic is an error; relative dirs', () => {
  const bad = cli(['validate', cwd + '/bad']);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, new RegExp(`^${cwd}/bad: 2 errors, 1 warning\n  error    2  name-charset   name "Bad_Name" may contain only`));
  assert.match(bad.stdout, /\n  warning  -  empty-body     SKILL.md has no instructions after the frontmatter\n/);
  assert.match(bad.stdout, /\n1 skill checked: 2 errors, 1 warning\n$/);
  assert.equal(cli(['validate', cwd + '/bad', '--json']).status, 1);
  const good = ok(cli(['validate', 'work/proj/.claude/skills/review'], { cwd: root }));
  assert.equal(good.stdout, 'work/proj/.claude/skills/review: ok\n1 skill checked: 0 errors, 0 warnings\n');
});

test('validate: many directories and skills roots in one process (S51); --json is one array of the replies', async () => {
  const dirs = [home + '/.claude/skills', cwd + '/.claude/skills/review', cwd + '/bad'];
  const r = cli(['validate', ...dirs], { cwd: '/' }); // paths outside the shell's directory stay absolute
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stdout.replace(/^  .*\n/gm, ''),
    [
      `${home}/.claude/skills/lint: 1 warning`,
      `${home}/.claude/skills/pdf: 1 warning`,
      `${cwd}/.claude/skills/review: ok`,
      `${cwd}/bad: 2 errors, 1 warning`,
      '4 skills checked: 2 errors, 3 warnings',
      '',
    ].join('\n'),
  );
  const j = cli(['validate', ...dirs, '--json']);
  assert.equal(j.status, 1);
  const want = [];
  for (const dir of dirs) want.push(JSON.parse(await raw({ op: 'validate', dir })));
  assert.deepEqual(JSON.parse(j.stdout), want);
  assert.equal(want[0].skills.length, 2);
  const fine = ok(cli(['validate', home + '/.claude/skills', '--json']));
  assert.equal(fine.stdout, '[' + (await raw({ op: 'validate', dir: home + '/.claude/skills' })).trimEnd() + ']\n');
  const missing = cli(['validate', cwd + '/.claude/skills/review', root + '/nowhere'], { cwd: '/' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^skilldex: Directory not found: .*nowhere\n$/);
  assert.match(missing.stdout, /1 skill checked: 0 errors, 0 warnings\n$/);
});

test('--settings: options from a JSON file (S22); unreadable or invalid files fail with 1', () => {
  const off = root + '/off.json';
  fs.writeFileSync(off, '{"enabled": false}');
  assert.equal(ok(cli(['list', ...ctx, '--settings', off])).stdout, '0 skills\n');
  const missing = cli(['list', ...ctx, '--settings', root + '/missing.json']);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^skilldex: settings .*missing\.json: ENOENT/);
  const broken = root + '/broken.json';
  fs.writeFileSync(broken, '{nope');
  const b = cli(['list', ...ctx, '--settings', broken, '--json']);
  assert.equal(b.status, 1);
  assert.equal(JSON.parse(b.stdout).error.code, 'INVALID_ARGUMENT');
  const unknown = root + '/unknown.json';
  fs.writeFileSync(unknown, '{"notAnOption": 1}');
  const u = cli(['list', ...ctx, '--settings', unknown, '--json']);
  assert.equal(u.status, 1);
  assert.equal(JSON.parse(u.stdout).error.code, 'INVALID_ARGUMENT');
});

/**
 * Run the CLI with its stdin a pipe the test holds open, killed after
 * `seconds`: {status, stdout, stderr, killed}. A CLI that blocks on the
 * pipe, or reads without end, is killed and the test fails, never hangs.
 */
function cliBounded(args, opts = {}) {
  const cmd = opts.runner ?? runner;
  const seconds = opts.seconds ?? 30;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0], [...cmd.slice(1), ...args], { cwd: root, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', killed = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, seconds * 1000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ status, stdout, stderr, killed });
    });
  });
}

// Issue 16 item 14 (S45): --settings reads only a regular file of at most
// 16 MiB, checked on the descriptor it opened. Before, a FIFO blocked the
// CLI for ever and /dev/zero grew it past 2.7 GB.
test('--settings: a FIFO, a device, a directory or a file over 16 MiB is refused at once, naming the file and the fix', async () => {
  // A FIFO no one writes to: made by mkfifo, or else (Deno's test
  // permissions do not run it) the CLI's stdin, which Deno makes a pipe
  // the test holds open (Node and Bun make it a socket).
  const fifo = root + '/settings-fifo';
  const made = spawnSync('mkfifo', [fifo]);
  if (made.error || made.status !== 0) fs.symlinkSync('/dev/stdin', fifo);
  const zero = root + '/settings-zero';
  fs.symlinkSync('/dev/zero', zero);
  const big = root + '/settings-big.json';
  fs.writeFileSync(big, '');
  fs.truncateSync(big, (16 << 20) + 1); // sparse: no 16 MiB written
  // Reading /dev/stdin needs Deno's --allow-all.
  const anyRead = globalThis.Deno ? { runner: denoRun(['-A']) } : {};
  for (const [file, why] of [
    [fifo, 'a FIFO, not a regular file'],
    [zero, 'a character device, not a regular file'],
    [root, 'a directory, not a regular file'],
    [big, `${(16 << 20) + 1} bytes, larger than 16 MiB`],
  ]) {
    const r = await cliBounded(['list', ...ctx, '--settings', file], anyRead);
    assert.ok(!r.killed, `--settings ${file}: still running after 30 s`);
    assert.equal(r.status, 1, `--settings ${file}: exit ${r.status}, ${r.stderr}`);
    assert.equal(r.stderr, `skilldex: settings ${file}: ${why}; give --settings a JSON file of discovery options (at most 16 MiB)\n`);
    assert.equal(r.stdout, '');
  }
  // At the bound it is read: 16 MiB of JSON.
  const edge = root + '/settings-16mib.json';
  fs.writeFileSync(edge, '{"enabled": false}' + ' '.repeat((16 << 20) - 18));
  assert.equal(fs.statSync(edge).size, 16 << 20);
  assert.equal(ok(cli(['list', ...ctx, '--settings', edge])).stdout, '0 skills\n');
});

// Issue 16 ("also seen"): a path argument whose bytes are not UTF-8 was
// decoded to U+FFFD and named another folder without a word (list said
// "0 skills"). Such a path is refused, saying why and what to do.
test('a path argument that is not valid UTF-8 is refused with the fix', () => {
  const fix = /: not valid UTF-8 \(the runtime shows bytes that are not UTF-8 as U\+FFFD, so this names another path\); rename it to UTF-8, or pass a symlink to it whose path is UTF-8\n$/;
  const lossy = root + '/caf\ufffd';
  for (const [args, what] of [
    [['list', '--cwd', lossy, '--home', home], '--cwd'],
    [['list', '--cwd', cwd, '--home', lossy], '--home'],
    [['list', ...ctx, '--settings', lossy + '.json'], '--settings'],
    [['validate', home + '/.claude/skills', lossy], 'validate'],
    [['match', cwd + '/a.ts', lossy + '/b.ts', ...ctx], 'match'],
  ]) {
    const r = cli(args);
    assert.equal(r.status, 1, `${what}: exit ${r.status} ${r.stdout}`);
    assert.ok(r.stderr.startsWith(`skilldex: ${what} ${root}/caf\ufffd`), r.stderr);
    assert.match(r.stderr, fix);
  }
  // The real thing: the bytes "caf\xe9" (Latin-1) through a shell, to a
  // folder of that name holding a skill. (Deno's test permissions do not
  // run sh; the runtimes turn the byte into the U+FFFD tested above.)
  if (globalThis.Deno || !fs.existsSync('/bin/sh')) return;
  const latin1 = Buffer.concat([Buffer.from(root + '/caf'), Buffer.from([0xe9])]);
  fs.mkdirSync(Buffer.concat([latin1, Buffer.from('/.claude/skills/s')]), { recursive: true });
  fs.writeFileSync(Buffer.concat([latin1, Buffer.from('/.claude/skills/s/SKILL.md')]), '---\ndescription: d\n---\n');
  const r = spawnSync('/bin/sh', ['-c', 'exec "$@" list --cwd "$(printf "%s\\351" "$ROOT/caf")" --home "$HOME_DIR"', 'sh', ...runner], {
    encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ROOT: root, HOME_DIR: home },
  });
  assert.equal(r.status, 1, r.stdout);
  assert.match(r.stderr, /^skilldex: --cwd .*caf\ufffd: not valid UTF-8/);
});

test('--cwd and --home default to the process\'s; a relative --cwd is resolved', async () => {
  const r = ok(cli(['list', '--json', '--home', home], { cwd }));
  assert.equal(r.stdout, await raw({ op: 'discover', cwd, home }));
  const rel = ok(cli(['list', '--json', '--cwd', 'work/proj', '--home', home], { cwd: root }));
  assert.equal(rel.stdout, r.stdout);
  // The same flags as --name=value, given twice (the last counts), and -h
  // among other short flags.
  const eq = ok(cli(['list', '--json', `--cwd=${root}`, `--cwd=${cwd}`, `--home=${home}`], { cwd: root }));
  assert.equal(eq.stdout, r.stdout);
  assert.match(ok(cli(['-hh'])).stdout, /^usage: skilldex <command>/);
});

test('usage errors exit 2', () => {
  for (const args of [
    [],
    ['bogus'],
    ['list', '--frobnicate'],
    ['read'],
    ['read', 'a', 'b'],
    ['list', 'extra'],
    ['list', '--format', 'xml'],
    ['prompt', '--format', 'html'],
    ['prompt', '--max-chars', 'ten'],
    ['list', '--cwd'],
    ['list', '--cwd='],
    ['list', '--cwd', '--wide'],
    ['list', '--json=1'],
    ['list', '--wide=yes'],
    ['-hj'],
    ['list', '---'],
    ['list', '--', '--wide'],
    ['activate'],
    ['activate', 'a', 'b'],
    ['tool', 'x'],
    ['list', '--untrusted=yes'],
  ]) {
    const r = cli(args);
    assert.equal(r.status, 2, `${args.join(' ')}: exit ${r.status}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^skilldex: .*\nrun skilldex --help for usage\n$/, args.join(' '));
  }
  const j = cli(['bogus', '--json']);
  assert.equal(j.status, 2);
  assert.deepEqual(JSON.parse(j.stdout), { error: { code: 'USAGE', message: 'unknown command "bogus"' } });
  // A string flag followed by a flag is refused, saying how to give a
  // value that starts with "-"; a boolean flag takes no value.
  assert.deepEqual(JSON.parse(cli(['list', '--json', '--cwd', '--wide']).stdout), {
    error: { code: 'USAGE', message: '--cwd needs a value, not the flag --wide (a value that starts with "-" goes as --cwd=--wide)' },
  });
  assert.deepEqual(JSON.parse(cli(['list', '--json', '--wide=1']).stdout), { error: { code: 'USAGE', message: '--wide takes no value' } });
});

test('--help and --version', () => {
  assert.match(ok(cli(['--help'])).stdout, /^usage: skilldex <command>/);
  assert.match(ok(cli(['-h'])).stdout, /list .*\n/);
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.equal(ok(cli(['--version'])).stdout, pkg.version + '\n');
});

test('Deno: without --home the CLI asks for the home directory only, and says which permission it lacks', { skip: !globalThis.Deno && 'Deno only' }, () => {
  const read = `--allow-read=${pkgDir},${root}`;
  const denied = cli(['list', '--cwd', cwd], { runner: denoRun([read]) });
  assert.equal(denied.status, 1);
  assert.match(denied.stderr, /homedir/);
  // With the home given, read access to the package and the two folders is enough.
  ok(cli(['list', '--cwd', cwd, '--home', home], { runner: denoRun([`--allow-read=${pkgDir},${cwd},${home}`]) }));
  // The package's folder is needed for the module; a read of anything else is refused.
  const noPkg = cli(['list', '--cwd', cwd, '--home', home], { runner: denoRun([`--allow-read=${cwd},${home}`]) });
  assert.equal(noPkg.status, 1);
  assert.match(noPkg.stderr, /skilldex\.wasm|read access/);
  const withSys = ok(cli(['list', '--cwd', cwd, '--json'], { runner: denoRun([read, '--allow-sys=homedir']) }));
  assert.ok(JSON.parse(withSys.stdout).skills, withSys.stdout);
});

// Issue 16 item 6: what a skill's author writes (names, descriptions, folder
// names, so paths and messages) reaches a terminal only with its control
// characters escaped: ESC sequences (clear screen, hidden text), OSC 0
// (window title), OSC 52 (clipboard write), C1 CSI, DEL, bidi overrides.
test('human output escapes control characters in names, descriptions, paths and messages', () => {
  const evil = root + '/evil';
  const ehome = evil + '/home';
  const skills = ehome + '/.claude/skills';
  const osc52 = '\u001b]52;c;ZXZpbA==\u0007';
  const folder = 'x\u001b]0;pwned\u0007'; // a folder name that retitles the window
  fs.mkdirSync(skills + '/evil', { recursive: true });
  fs.writeFileSync(
    skills + '/evil/SKILL.md',
    '---\nname: "evil\\e[2J\\u009b31m"\ndescription: "clears the screen\\e[2J\\e[8m hidden ' + osc52.replace('\u001b', '\\e').replace('\u0007', '\\a') + ' \\u202e\\x7f"\n---\nBody.\n',
  );
  fs.mkdirSync(skills + '/' + folder, { recursive: true });
  fs.writeFileSync(skills + '/' + folder + '/SKILL.md', '---\nname: ok\ndescription: a: b\n---\nBody.\n'); // invalid YAML: a warning naming the path
  fs.writeFileSync(skills + '/evil/ref.md', 'raw \u001b[2J bytes\n');
  const ectx = ['--cwd', evil, '--home', ehome];
  const runs = [
    cli(['list', ...ectx]),
    cli(['list', '--all', ...ectx]),
    cli(['commands', ...ectx]),
    cli(['explain', 'ok', ...ectx]),
    cli(['files', 'ok', ...ectx]),
    cli(['read', 'skill://nope', ...ectx]),
    cli(['read', 'skill://nope\u001b[2J', ...ectx]),
    cli(['validate', skills]),
    cli(['validate', evil + '/missing\u001b[2J']),
  ];
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  for (const r of runs) {
    assert.doesNotMatch(r.stdout, control, r.stdout);
    assert.doesNotMatch(r.stderr, control, r.stderr);
  }
  // What was escaped is still there to read, as \xHH.
  assert.match(runs[0].stderr, /x\\x1b\]0;pwned\\x07\/SKILL\.md/);
  assert.match(runs[8].stderr, /missing\\x1b\[2J/);
  // A pipe gets a file's exact bytes: only a terminal gets them escaped.
  assert.equal(ok(cli(['read', `skill://ok/SKILL.md`, ...ectx])).stdout, '---\nname: ok\ndescription: a: b\n---\nBody.\n');
});

// Issue 11 item 1 (S43, S44): a published collection links each provider's
// SKILL.md to the repository's own copy (.gemini/skills, .claude/skills,
// .agents/skills trees of links). The prompt names skill://<name>; read,
// files and expand must serve exactly that file.
test('a SKILL.md linked inside its repository is readable by read, files and expand', () => {
  const repo = root + '/collection';
  fs.mkdirSync(repo + '/.git', { recursive: true });
  fs.mkdirSync(repo + '/skills/pdf', { recursive: true });
  fs.writeFileSync(repo + '/skills/pdf/SKILL.md', '---\nname: pdf\ndescription: Fill PDF forms.\n---\nUse the form tools.\n');
  for (const tool of ['.claude', '.agents', '.gemini']) {
    fs.mkdirSync(`${repo}/${tool}/skills/pdf`, { recursive: true });
    fs.symlinkSync('../../../skills/pdf/SKILL.md', `${repo}/${tool}/skills/pdf/SKILL.md`);
  }
  fs.mkdirSync(root + '/collection-home', { recursive: true }); // S76: a --home must exist
  const rctx = ['--cwd', repo, '--home', root + '/collection-home'];
  assert.match(ok(cli(['list', ...rctx])).stdout, /^pdf +claude:project +Fill PDF forms\.$/m);
  assert.equal(ok(cli(['read', 'skill://pdf', ...rctx])).stdout, '---\nname: pdf\ndescription: Fill PDF forms.\n---\nUse the form tools.\n');
  assert.equal(ok(cli(['files', 'pdf', ...rctx])).stdout, 'SKILL.md\n');
  assert.equal(
    ok(cli(['expand', '/skill:pdf form.pdf', ...rctx])).stdout,
    `Use the form tools.\n\n---\n\nSkill: ${repo}/.claude/skills/pdf/SKILL.md\nUser: form.pdf\n`,
  );
});

// S43 in validate (S40): a SKILL.md that links outside its skill is
// link-outside for discovery, and validate, of the skill or of its skills
// root, says so with discovery's message and never opens the target: the
// values of a target that starts with --- are not quoted, in human or
// --json output, nor by the API.
test('validate never quotes a SKILL.md linked outside its skill (S43)', async () => {
  const ws = root + '/linkout';
  const skills = ws + '/skills';
  fs.mkdirSync(ws + '/secret', { recursive: true });
  fs.writeFileSync(ws + '/secret/env.md', '---\nname: TOP-SECRET-TOKEN-12345\ndescription: API_KEY=hunter2\n---\nsecret body line\n');
  fs.mkdirSync(skills + '/leak', { recursive: true });
  fs.symlinkSync('../../secret/env.md', skills + '/leak/SKILL.md');
  fs.mkdirSync(skills + '/fine', { recursive: true });
  fs.writeFileSync(skills + '/fine/SKILL.md', '---\nname: fine\ndescription: Fine.\n---\nBody.\n');
  const message = `${skills}/leak/SKILL.md links outside its skill (${ws}/secret/env.md); link the skill folder instead`;
  const secret = /TOP-SECRET|hunter2|secret body/;
  for (const dir of [skills + '/leak', skills]) {
    for (const args of [['validate', dir], ['validate', dir, '--json']]) {
      const r = cli(args);
      assert.equal(r.status, 1, `${args.join(' ')}: exit ${r.status}, stderr: ${r.stderr}`);
      assert.doesNotMatch(r.stdout + r.stderr, secret, r.stdout + r.stderr);
      assert.ok((r.stdout + r.stderr).includes('link-outside'), r.stdout + r.stderr);
      assert.ok((r.stdout + r.stderr).includes(message), r.stdout + r.stderr);
    }
    const v = await engine.validate(dir);
    assert.doesNotMatch(JSON.stringify(v), secret);
    const leak = dir === skills ? v.skills.find((s) => s.dir === skills + '/leak') : v;
    assert.deepEqual(leak.diagnostics, [{ path: skills + '/leak/SKILL.md', code: 'link-outside', severity: 'error', message, fix: 'link the skill folder instead' }]);
  }
  // Discovery gives the same message for the same link.
  const scan = await engine.scanDir(skills);
  assert.deepEqual(scan.warnings.map((w) => w.message), [message]);
});

// S76: the CLI never gives a silent answer, and knows its own words.
test('S76: help is a command; an unknown command or flag gets "did you mean"', () => {
  assert.equal(ok(cli(['help'])).stdout, ok(cli(['--help'])).stdout);
  assert.match(ok(cli(['help', 'validate'])).stdout, /^usage: skilldex <command>/);
  for (const [args, message] of [
    [['lsit'], 'unknown command "lsit"; did you mean list?'],
    [['LIST'], 'unknown command "LIST"; did you mean list?'],
    [['valid'], 'unknown command "valid"; did you mean validate?'],
    [['explian', 'pdf'], 'unknown command "explian"; did you mean explain?'],
    [['zzzzzz'], 'unknown command "zzzzzz"'],
    [['help', 'lst'], 'help: unknown command "lst"; did you mean list?'],
    [['list', '--hme', home], 'unknown flag --hme; did you mean --home?'],
    [['list', '--jsno'], 'unknown flag --jsno; did you mean --json?'],
  ]) {
    const r = cli([...args, '--json']);
    assert.equal(r.status, 2, args.join(' '));
    assert.deepEqual(JSON.parse(r.stdout), { error: { code: 'USAGE', message } });
    assert.equal(cli(args).stderr, `skilldex: ${message}\nrun skilldex --help for usage\n`);
  }
});

test('S76: read of a name says which skill:// URL it probably meant', () => {
  for (const [arg, message] of [
    ['pdf', 'read: "pdf" is not a skill:// URL; did you mean skill://pdf?'],
    ['pdf/reference.md', 'read: "pdf/reference.md" is not a skill:// URL; did you mean skill://pdf/reference.md?'],
    ['skill:pdf', 'read: "skill:pdf" is not a skill:// URL; did you mean skill://pdf?'],
  ]) {
    const r = cli(['read', arg, ...ctx, '--json']);
    assert.equal(r.status, 2);
    assert.deepEqual(JSON.parse(r.stdout), { error: { code: 'USAGE', message } });
  }
  // Another scheme is the engine's INVALID_URL, as before.
  assert.equal(JSON.parse(cli(['read', 'https://x/y', ...ctx, '--json']).stdout).error.code, 'INVALID_URL');
});

test('S76: match resolves its paths against --cwd, not the shell\'s folder', () => {
  const proj = root + '/matching/proj';
  fs.mkdirSync(proj + '/.git', { recursive: true });
  fs.mkdirSync(proj + '/.claude/skills/ts', { recursive: true });
  fs.writeFileSync(proj + '/.claude/skills/ts/SKILL.md', '---\nname: ts\ndescription: TypeScript\nglobs: ["src/**/*.ts"]\n---\nBody.\n');
  const args = ['match', 'src/app.ts', '--cwd', proj, '--home', home];
  for (const shell of [root, pkgDir, proj]) {
    const r = ok(cli(args, { cwd: shell }));
    assert.equal(r.stdout, 'NAME  REASON  PATHS\nts    globs   src/app.ts\n', `from ${shell}`);
  }
  const j = JSON.parse(ok(cli([...args, '--json'], { cwd: root })).stdout);
  assert.deepEqual(j.skills, [{ name: 'ts', reason: 'globs', paths: [proj + '/src/app.ts'] }]);
});

test('S76: a --cwd or --home that is not there is an error naming it; a missing default home a warning', () => {
  for (const [args, message] of [
    [['list', '--cwd', root + '/does/not/exist', '--home', home], `--cwd ${root}/does/not/exist: no such directory`],
    [['list', '--cwd', cwd, '--home', root + '/nohome'], `--home ${root}/nohome: no such directory`],
    [['commands', '--cwd', cwd + '/XCSH.md', '--home', home], `--cwd ${cwd}/XCSH.md: not a directory`],
    [['match', 'a.ts', '--cwd', root + '/gone', '--home', home], `--cwd ${root}/gone: no such directory`],
  ]) {
    const r = cli(args);
    assert.equal(r.status, 1, args.join(' '));
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `skilldex: ${message}\n`);
    assert.deepEqual(JSON.parse(cli([...args, '--json']).stdout), { error: { code: 'NOT_FOUND', message } });
  }
  // The default home needs --allow-sys under Deno; Bun creates $HOME/.bun as it starts.
  if (globalThis.Deno || process.versions.bun) return;
  const r = ok(cli(['list', '--cwd', cwd], { env: { HOME: root + '/nohome' } }));
  assert.equal(r.stderr, `warning: the home directory ${root}/nohome does not exist: no user-level skills (pass --home)\n`);
  assert.match(r.stdout, /^NAME/);
});

test('S76: warnings print their fix; a custom directory that is not there is one (S75)', () => {
  const settings = root + '/custom-missing.json';
  fs.writeFileSync(settings, JSON.stringify({ customDirectories: ['~/my-skills'] }));
  const r = ok(cli(['list', ...ctx, '--settings', settings]));
  assert.equal(r.stderr, `warning: Custom directory not found: ${home}/my-skills; create it, or remove it from customDirectories\n`);
  // --json: the engine's warning objects, with their fields (S73).
  const j = JSON.parse(ok(cli(['list', ...ctx, '--settings', settings, '--json'])).stdout);
  assert.deepEqual(j.warnings, [{
    skillPath: `${home}/my-skills`, path: `${home}/my-skills`, code: 'custom-dir-missing', severity: 'warning',
    message: `Custom directory not found: ${home}/my-skills; create it, or remove it from customDirectories`,
    fix: 'create it, or remove it from customDirectories',
  }]);
});

test('S76: expand of an unknown /skill: name fails with "Did you mean" (S75); other text passes', () => {
  const r = cli(['expand', '/skill:reveiw now', ...ctx]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'skilldex: Unknown skill: reveiw\nDid you mean: review\nAvailable: lint, pdf, review\n');
  assert.equal(JSON.parse(cli(['expand', '/skill:', ...ctx, '--json']).stdout).error.code, 'MISSING_NAME');
  assert.equal(ok(cli(['expand', 'just text', ...ctx])).stdout, 'just text\n');
});

test('S76: validate takes a SKILL.md for its folder (S75), shown as typed', () => {
  const r = cli(['validate', 'work/proj/bad/SKILL.md'], { cwd: root });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^work\/proj\/bad: 2 errors, 1 warning\n/);
  const good = ok(cli(['validate', 'SKILL.md'], { cwd: cwd + '/.claude/skills/review' }));
  assert.equal(good.stdout, '.: ok\n1 skill checked: 0 errors, 0 warnings\n');
  const other = cli(['validate', cwd + '/XCSH.md']);
  assert.equal(other.status, 1);
  assert.equal(other.stderr, `skilldex: Not a directory: ${cwd}/XCSH.md; validate takes a skill folder, its SKILL.md, or a skills root\n`);
});

test('S75, S76 under Deno: a read the runtime refuses is a warning naming --allow-read, never silence', { skip: !globalThis.Deno && 'Deno only' }, () => {
  // The home is outside the grant: every user root is refused, each says so with the grant to give.
  const r = ok(cli(['list', '--cwd', cwd, '--home', home], { runner: denoRun([`--allow-read=${pkgDir},${cwd}`]) }));
  assert.match(r.stdout, /review +claude:project/);
  const lines = r.stderr.trimEnd().split('\n');
  assert.ok(lines.length >= 3, r.stderr);
  for (const l of lines) {
    assert.match(l, /^warning: \[[^\]]+\] Failed to read (skills directory|plugin registry): (\S+) \(EPERM\); the runtime refused to read it: grant read access to \2 \(Deno: --allow-read=\2\)$/, l);
  }
  assert.ok(lines.some((l) => l.includes(`${home}/.claude/skills (EPERM)`)), r.stderr);
  // validate of a folder outside the grant says so, not "Directory not found".
  const v = cli(['validate', home + '/.claude/skills/lint'], { runner: denoRun([`--allow-read=${pkgDir},${cwd}`]) });
  assert.equal(v.status, 1);
  assert.match(v.stderr, new RegExp(`^skilldex: Cannot read directory: ${home}/\\.claude/skills/lint \\(EPERM\\); .*--allow-read=${home}/\\.claude/skills/lint\\)\n$`));
});
// SPEC S64-S67: the agent table, --agent, where.
test('agents, --agent and where (S64-S67)', async () => {
  const ws = root + '/agents';
  const ahome = ws + '/home';
  const repo = ws + '/repo';
  fs.mkdirSync(repo + '/.git', { recursive: true });
  fs.mkdirSync(repo + '/.agents/skills/pdf', { recursive: true });
  fs.writeFileSync(repo + '/.agents/skills/pdf/SKILL.md', '---\nname: pdf\ndescription: PDF tools\n---\n');
  fs.mkdirSync(repo + '/.github/skills/pdf', { recursive: true });
  fs.writeFileSync(repo + '/.github/skills/pdf/SKILL.md', '---\ndescription: Copilot\'s pdf\n---\n');
  fs.mkdirSync(ahome + '/.claude/skills', { recursive: true });
  fs.symlinkSync(repo + '/.agents/skills/pdf', ahome + '/.claude/skills/pdf-link');
  const actx = ['--cwd', repo, '--home', ahome];

  // agents: a table of every agent; --json is the engine's reply.
  const table = ok(cli(['agents']));
  const lines = table.stdout.split('\n');
  assert.match(lines[0], /^ID +NAME +PROJECT +USER$/);
  assert.ok(lines.some((l) => /^claude-code +Claude Code +\.claude\/skills \(up to the repository root\) +\$\{CLAUDE_CONFIG_DIR:-~\/\.claude\}\/skills$/.test(l)), table.stdout);
  const n = (await engine.agents()).agents.length;
  assert.ok(n >= 30);
  assert.match(table.stdout, new RegExp(`\n${n} agents \\(--json`));
  assert.equal(ok(cli(['agents', '--json'])).stdout, await raw({ op: 'agents' }));

  // --agent: exactly those agents' folders, the first given winning a name;
  // --json is the engine's reply for options.agents.
  const list = ok(cli(['list', '--all', '--agent', 'github-copilot', '--agent', 'claude-code', ...actx]));
  assert.match(list.stdout, /^pdf +github-copilot:project +Copilot's pdf$/m);
  assert.match(list.stdout, /^pdf +claude-code:user +\(not loaded: name taken by .*\.github\/skills\/pdf\/SKILL\.md\)$/m);
  // Under Deno the CLI reads Codex's system folder only with the grant S75's warning would name.
  const codexRead = globalThis.Deno ? { runner: denoRun([`--allow-read=${pkgDir},${root},/etc/codex/skills`]) } : {};
  assert.equal(
    ok(cli(['list', '--json', '--agent', 'claude-code', '--agent=codex', ...actx], codexRead)).stdout,
    await raw({ op: 'discover', cwd: repo, home: ahome, options: { agents: ['claude-code', 'codex'] } }),
  );
  const unknown = cli(['list', '--agent', 'clade-code', ...actx]);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /^skilldex: Unknown agent: clade-code\nDid you mean: claude-code\nKnown agents: adal, .*\n$/);

  // where: the agents that reach the folder, then the rest in one line.
  const w = ok(cli(['where', repo + '/.agents/skills/pdf', ...actx]));
  assert.match(w.stdout, new RegExp(`^${repo}/\\.agents/skills/pdf\nAGENT +OUTCOME +NAME +VIA\n`));
  assert.match(w.stdout, /^claude-code +loaded +pdf +.*\/home\/\.claude\/skills\/pdf-link\/SKILL\.md$/m);
  assert.match(w.stdout, /^github-copilot +not loaded +pdf +name taken by .*\.github\/skills\/pdf\/SKILL\.md \(.*\)$/m);
  assert.match(w.stdout, /\n\d+ agents load it, 1 reach it and do not; not in the folders of adal, .*windsurf.*\n$/);
  assert.equal(
    ok(cli(['where', '--json', repo + '/.agents/skills/pdf', ...actx])).stdout,
    await raw({ op: 'where', cwd: repo, home: ahome, dir: repo + '/.agents/skills/pdf' }),
  );
  const notSkill = cli(['where', repo + '/.agents/skills', ...actx]);
  assert.equal(notSkill.status, 1);
  assert.match(notSkill.stderr, /no SKILL\.md in .*: where takes a skill folder/);

  // S66: the agents' environment variables are read (not under Deno's least
  // privilege, where the CLI has no access to the environment).
  if (!globalThis.Deno) {
    const moved = ok(cli(['where', '--json', repo + '/.agents/skills/pdf', '--agent', 'claude-code', ...actx], { env: { CLAUDE_CONFIG_DIR: ws + '/elsewhere' } }));
    assert.deepEqual(JSON.parse(moved.stdout).agents, [{ agent: 'claude-code', displayName: 'Claude Code', loaded: false }]);
  }

  for (const args of [['agents', 'extra'], ['where'], ['validate', repo, '--agent', 'codex'], ['agents', '--agent', 'codex'], ['list', '--agent']]) {
    assert.equal(cli(args).status, 2, args.join(' '));
  }
});
