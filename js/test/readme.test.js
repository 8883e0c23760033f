// README.md's snippets, run as a reader would run them. A fenced block whose
// info string ends in the word "test" is executed:
//
//   ```js test       a Node ES module importing 'skilldex' (the package of
//                    this checkout, as npm installs it)
//   ```ts deno test  the same under Deno, importing the package by file path
//   ```go test       a Go program (package main) in this module
//   ```console test  "$ skilldex ..." lines, each followed by its exact output
//                    (the checkout's path to examples/workspace written so)
//   ```json test     an MCP client's server entry: its command, run with
//                    this checkout's CLI, answers an initialize request
//
// Every snippet runs in examples/workspace: its working directory is the
// project there (projects/webapp) and HOME the fake home, so a snippet
// that discovers with the defaults finds that workspace's skills. A js,
// deno or go block followed by a ```text block must print exactly that
// text. Runs under node --test only (it starts the other runtimes itself).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const workspace = path.join(repo, 'examples/workspace');
const cwd = path.join(workspace, 'projects/webapp');
const home = path.join(workspace, 'home');
const deno = path.join(repo, 'build/tools/node_modules/@deno/linux-x64-glibc/deno');
const skip = globalThis.Deno || process.versions.bun ? 'run by node --test only' : false;

/**
 * The README's fenced blocks, in order: info string, body and line.
 * @param {string} text
 */
export function fencedBlocks(text) {
  /** @type {{info: string, body: string, line: number}[]} */
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(.*)$/.exec(lines[i]);
    if (!m) continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    blocks.push({ info: m[1].trim(), body: body.join('\n') + '\n', line: start + 1 });
  }
  return blocks;
}

/**
 * Run a snippet as the reader would, in the example project with the
 * example home. Only the snippet gets that HOME: the tools' own caches
 * (Go's, Deno's) stay where they are, out of the example workspace.
 * @param {string} cmd @param {string[]} args @param {object} [opts]
 */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...toolDirs, HOME: home, NO_COLOR: '1', COLUMNS: '100' },
    encoding: 'utf8',
    timeout: 120000,
    ...opts,
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-readme-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
/** Deno's cache: the runner's, never the example home (Go is built with the runner's own environment). */
const toolDirs = { DENO_DIR: process.env.DENO_DIR ?? path.join(tmp, 'deno') };
// The package as npm installs it: node_modules/skilldex is this checkout's js/.
fs.mkdirSync(path.join(tmp, 'node_modules'));
fs.symlinkSync(path.join(repo, 'js'), path.join(tmp, 'node_modules/skilldex'));

const blocks = fencedBlocks(fs.readFileSync(path.join(repo, 'README.md'), 'utf8'));
const tested = blocks.map((b, i) => ({ ...b, next: blocks[i + 1] })).filter((b) => /(^|\s)test$/.test(b.info));

test('README.md has tested snippets for each runtime', { skip }, () => {
  const kinds = new Set(tested.map((b) => b.info.replace(/\s*test$/, '')));
  for (const k of ['js', 'ts deno', 'go', 'console', 'json']) assert.ok(kinds.has(k), `no \`\`\`${k} test block in README.md`);
});

for (const [n, b] of tested.entries()) {
  const kind = b.info.replace(/\s*test$/, '');
  const want = b.next && b.next.info === 'text' && b.next.line > b.line ? b.next.body : null;
  test(`README.md:${b.line} (${kind})`, { skip }, () => {
    let r;
    if (kind === 'js') {
      const file = path.join(tmp, `snippet-${n}.mjs`);
      fs.writeFileSync(file, b.body);
      r = run(process.execPath, [file]);
    } else if (kind === 'ts deno') {
      const file = path.join(tmp, `snippet-${n}.ts`);
      fs.writeFileSync(file, b.body.replaceAll('./node_modules/skilldex/', path.join(repo, 'js') + '/'));
      r = run(deno, ['run', '--no-lock', '--no-prompt', `--allow-read=${repo},${workspace}`, '--allow-sys=homedir', '--allow-env', file]);
    } else if (kind === 'go') {
      const dir = path.join(repo, 'build/readme', `snippet-${n}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'main.go'), b.body);
      const bin = path.join(tmp, `snippet-${n}`);
      const built = run('go', ['build', '-o', bin, `./build/readme/snippet-${n}`], { cwd: repo, env: process.env });
      assert.equal(built.status, 0, `README.md:${b.line} does not build:\n${built.stderr}`);
      r = run(bin, []);
    } else if (kind === 'console') {
      for (const cmd of consoleCommands(b.body)) {
        const argv = cmd.line.split(/\s+/).slice(1).map((a) => a.replace(/^'(.*)'$/, '$1'));
        const got = run(process.execPath, [path.join(repo, 'js/bin/skilldex.mjs'), ...argv]);
        assert.equal(got.error, undefined);
        // The checkout's own path reads as the reader's: examples/workspace.
        const text = (got.stdout + got.stderr).replaceAll(workspace, 'examples/workspace');
        assert.equal(text, cmd.output, `README.md:${b.line}: $ ${cmd.line}`);
      }
      return;
    } else if (kind === 'json') {
      // An MCP client's configuration: every server in it starts (the
      // command's "skilldex" this checkout's CLI) and answers initialize.
      const config = JSON.parse(b.body);
      const servers = Object.values(config.mcpServers ?? config.servers ?? {});
      assert.ok(servers.length > 0, `README.md:${b.line}: no server`);
      for (const server of servers) {
        const args = server.command === 'npx' ? server.args.slice(server.args.indexOf('skilldex') + 1) : server.args;
        const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'readme', version: '0' } } };
        const got = run(process.execPath, [path.join(repo, 'js/bin/skilldex.mjs'), ...args], { input: JSON.stringify(init) + '\n' });
        assert.equal(got.status, 0, `README.md:${b.line}: ${got.stderr}`);
        const reply = JSON.parse(got.stdout.split('\n')[0]);
        assert.equal(reply.id, 1);
        assert.equal(reply.result.serverInfo.name, 'skilldex');
      }
      return;
    } else {
      assert.fail(`README.md:${b.line}: unknown snippet kind ${kind}`);
    }
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.status, 0, `README.md:${b.line} exited ${r.status}:\n${r.stderr}`);
    if (want !== null) assert.equal(r.stdout, want, `README.md:${b.line}: output differs from the text block after it`);
  });
}

/**
 * The commands of a console block: each "$ " line and the lines up to the
 * next one, its expected output (stdout, then stderr).
 * @param {string} body
 */
function consoleCommands(body) {
  /** @type {{line: string, output: string}[]} */
  const cmds = [];
  for (const l of body.split('\n')) {
    if (l.startsWith('$ ')) cmds.push({ line: l.slice(2), output: '' });
    else if (cmds.length) cmds[cmds.length - 1].output += l + '\n';
  }
  for (const c of cmds) c.output = c.output.replace(/\n+$/, '\n');
  return cmds;
}
