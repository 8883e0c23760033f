// The package's entry imported the ways Deno users import code: by file
// path and file URL from a folder outside the package (no package.json, no
// node_modules, no import map), and by http URL; and the package as JSR
// would publish it (jsr.json, `deno publish --dry-run`, which runs offline).
// Runs under node --test, starting Deno (build/tools, `make tools`).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import process from 'node:process';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const repo = path.dirname(pkg);
const deno = process.env.DENO ?? path.join(repo, 'build/tools/node_modules/@deno/linux-x64-glibc/deno');
const skip = globalThis.Deno || process.versions.bun ? 'run by node --test only' : !fs.existsSync(deno) ? `no Deno at ${deno}: make tools` : false;
const workspace = path.join(repo, 'examples/workspace');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-entry-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A Deno script discovering examples/workspace through the entry at `entry`. */
const script = (entry) => `import { createSkilldex } from ${JSON.stringify(entry)};
const sk = createSkilldex({ cwd: ${JSON.stringify(path.join(workspace, 'projects/webapp'))}, home: ${JSON.stringify(path.join(workspace, 'home'))} });
const { skills } = await sk.discover();
console.log(skills.map((s) => s.name).join(' '));
`;

/** @param {string[]} args */
function runDeno(args) {
  return new Promise((resolve) => {
    const child = spawn(deno, args, { cwd: tmp, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

const want = 'broken-yaml commit-message deploy lint pdf testing\n';

for (const [how, entry] of [
  ['a file path', path.join(pkg, 'index.js')],
  ['a file URL', pathToFileURL(path.join(pkg, 'index.js')).href],
]) {
  test(`Deno imports the entry by ${how}, from outside the package`, { skip }, async () => {
    const file = path.join(tmp, `by-${how.replace(/\W/g, '-')}.ts`);
    fs.writeFileSync(file, script(entry));
    const r = await runDeno(['run', '--no-lock', '--no-prompt', `--allow-read=${pkg},${workspace}`, file]);
    assert.equal(r.status, 0, r.err);
    assert.equal(r.out, want);
  });
}

test('Deno imports the entry by http URL, the modules fetched beside it', { skip }, async () => {
  // The package folder over http, as a CDN or JSR would serve it.
  const server = http.createServer((req, res) => {
    const file = path.join(pkg, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(pkg + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.wasm') ? 'application/wasm' : file.endsWith('.ts') ? 'application/typescript' : 'text/javascript';
    res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  try {
    const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
    const file = path.join(tmp, 'by-http.ts');
    fs.writeFileSync(file, `import { createSkilldex, MemoryFS } from 'http://127.0.0.1:${port}/index.js';
const fs = new MemoryFS().writeFile('/h/.claude/skills/pdf/SKILL.md', '---\\nname: pdf\\ndescription: PDFs\\n---\\nUse it.\\n');
const { skills } = await createSkilldex({ fs, cwd: '/w', home: '/h' }).discover();
console.log(skills.map((s) => s.name).join(' '));
`);
    const r = await runDeno(['run', '--no-lock', '--no-prompt', `--allow-import=127.0.0.1:${port}`, `--allow-net=127.0.0.1:${port}`, file]);
    assert.equal(r.status, 0, r.err);
    assert.equal(r.out, 'pdf\n');
  } finally {
    server.close();
  }
});

test('jsr.json: the version of package.json, and deno publish --dry-run accepts the package', { skip }, () => {
  const jsr = JSON.parse(fs.readFileSync(path.join(pkg, 'jsr.json'), 'utf8'));
  const npm = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
  assert.equal(jsr.version, npm.version);
  assert.equal(jsr.license, npm.license);
  const r = spawnSync(deno, ['publish', '--dry-run', '--allow-dirty', '--no-lock'], { cwd: pkg, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 300000 });
  assert.equal(r.status, 0, r.stderr);
  for (const f of ['index.js', 'index.d.ts', 'skilldex.wasm', 'skilldex-frontmatter.wasm', 'src/platform/deno.js']) {
    assert.match(r.stderr + r.stdout, new RegExp(f.replaceAll('.', '\\.')), `${f} is not in the simulated publish`);
  }
});
