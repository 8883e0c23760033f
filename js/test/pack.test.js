// What `npm pack` puts in the package: the module, the contract, the CLI,
// the sources; no tests. (Runs npm from PATH.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('npm pack --dry-run lists the .wasm, index.d.ts and the bin, and no tests', () => {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [pkg] = JSON.parse(r.stdout);
  const files = pkg.files.map((f) => f.path).sort();
  for (const f of ['package.json', 'README.md', 'index.js', 'index.d.ts', 'skilldex.wasm', 'bin/skilldex.mjs', 'src/facade.js', 'src/engine.js', 'src/wasi.js', 'src/memfs.js', 'src/nodefs.js', 'src/platform/node.js', 'src/platform/deno.js', 'src/platform/browser.js']) {
    assert.ok(files.includes(f), `${f} missing from the package: ${files.join(', ')}`);
  }
  assert.deepEqual(files.filter((f) => f.startsWith('test/') || f.includes('node_modules')), []);
  const bin = pkg.files.find((f) => f.path === 'bin/skilldex.mjs');
  assert.ok(bin.mode & 0o111, 'bin/skilldex.mjs is not executable');
  assert.equal(pkg.name, 'skilldex');
});
