// examples/editor/panel.mjs, the editor's skills panel, driven through real
// file edits: it lists the skills, reports a created, an edited and a
// deleted skill as they happen, answers which skills apply to a file, and
// exits by itself at the end of its input. Runs under node --test and
// deno test -A (the panel under the same runtime).
//
// Every wait is a hang detector (WAIT_MS), not a timing assertion: the
// machine running this is a loaded, shared 2-core box.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WAIT_MS = 30000;
const panel = fileURLToPath(new URL('../../examples/editor/panel.mjs', import.meta.url));
const runner = globalThis.Deno ? [globalThis.Deno.execPath(), 'run', '-A', panel] : [process.execPath, panel];

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-panel-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}
const skill = (name, description, extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody.\n`;

test('the editor panel follows real edits and answers which skills apply', async () => {
  const cwd = path.join(tmp, 'proj');
  const home = path.join(tmp, 'home');
  const root = path.join(cwd, '.claude/skills');
  fs.mkdirSync(path.join(cwd, '.git'), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  write(path.join(root, 'style/SKILL.md'), skill('style', 'House style', 'alwaysApply: true\n'));

  const child = spawn(runner[0], [...runner.slice(1), '--cwd', cwd, '--home', home, '--debounce', '50'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const lines = [];
  const waiters = [];
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
      for (const w of [...waiters]) w();
    }
  });
  /** The first line from `from` on that matches re (and the index after it). */
  let seen = 0;
  const expectLine = (re, what) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no line ${re} (${what}) within ${WAIT_MS} ms; output:\n${lines.join('\n')}\n${stderr}`)), WAIT_MS);
      const check = () => {
        const i = lines.findIndex((l, k) => k >= seen && re.test(l));
        if (i < 0) return;
        clearTimeout(t);
        waiters.splice(waiters.indexOf(check), 1);
        seen = i + 1;
        resolve(lines[i]);
      };
      waiters.push(check);
      check();
    });

  try {
    await expectLine(/^skill style \(claude:project\): House style$/, 'the initial list');
    await expectLine(/^ready: 1 skills, watching \d+ directories$/, 'ready');

    write(path.join(root, 'typescript/SKILL.md'), skill('typescript', 'TypeScript rules', 'globs: ["*.ts", "src/**/*.tsx"]\n'));
    await expectLine(/^\+ typescript \(claude:project\): TypeScript rules$/, 'a created skill');
    await expectLine(/^= 2 skills, digest [0-9a-f]{16}$/, 'the new count');

    child.stdin.write('src/app.ts\nREADME.md\n');
    await expectLine(/^\? src\/app\.ts: style \(alwaysApply\), typescript \(globs\)$/, 'match a .ts file');
    await expectLine(/^\? README\.md: style \(alwaysApply\)$/, 'match a README');

    write(path.join(root, 'typescript/SKILL.md'), skill('typescript', 'TypeScript rules, strict', 'globs: ["*.ts"]\n'));
    await expectLine(/^~ typescript: TypeScript rules, strict$/, 'an edited skill');

    // A skill with broken YAML: the Problems panel gets its place, code and fix from the warning's fields (S73).
    write(path.join(root, 'broken/SKILL.md'), '---\nname: broken\ndescription: Use when: it breaks\n---\nBody.\n');
    await expectLine(/^\+ broken \(claude:project\): Use when: it breaks$/, 'the broken skill still loads (S7)');
    const brokenFile = path.join(root, 'broken/SKILL.md');
    const line = await expectLine(/^problem /, 'its warning as a problem');
    assert.equal(line, `problem warning invalid-yaml ${brokenFile}:3:22 fix: quote the value: description: "Use when: it breaks"`);
    fs.rmSync(path.join(root, 'broken'), { recursive: true });
    await expectLine(/^- broken$/, 'the broken skill deleted');

    fs.rmSync(path.join(root, 'style'), { recursive: true });
    await expectLine(/^- style$/, 'a deleted skill');
    child.stdin.write(path.join(cwd, 'src/ui/x.tsx') + '\n');
    await expectLine(/^\? .*x\.tsx: none$/, 'no skill applies once the glob is gone and style is deleted');

    child.stdin.end(); // EOF: the panel closes its watch and engine
    const { code, signal } = await Promise.race([
      exited,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the panel did not exit by itself')), WAIT_MS)),
    ]);
    assert.equal(code, 0, `exit ${code} ${signal ?? ''}: ${stderr}`);
    assert.ok(!lines.some((l) => l.startsWith('!')), lines.join('\n'));
  } finally {
    child.kill();
  }
});
