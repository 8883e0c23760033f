// The conformance corpus (testdata/conformance/*.txtar) through the JS
// facade's raw call, over two filesystems: the tree written to a temporary
// directory and served by createNodeFS({root}), and a MemoryFS. Every case
// must answer want.json byte for byte (SPEC S42), like the Go drivers.
// Runs unchanged under `node --test` and `deno test -A`.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSkilldex, createNodeFS } from '../index.js';
import { loadCorpus, writeTree, memTree, withFaults, switchFS, indent } from './corpus.js';

const cases = loadCorpus();
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-conformance-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const osFS = switchFS(true);
const memFS = switchFS(false);
const drivers = [
  {
    name: 'os',
    engine: createSkilldex({ fs: osFS }),
    mount(c) {
      const root = path.join(tmp, c.name);
      fs.mkdirSync(root);
      writeTree(c, root);
      osFS.current = withFaults(createNodeFS(fs, { root }), c.faults);
    },
  },
  {
    name: 'memory',
    engine: createSkilldex({ fs: memFS }),
    mount(c) {
      memFS.current = withFaults(memTree(c), c.faults);
    },
  },
];

test('the corpus is not empty and every case has rules', () => {
  assert.ok(cases.length > 0, 'no cases in testdata/conformance');
  for (const c of cases) assert.ok(c.rules.length > 0, c.name);
});

for (const c of cases) {
  test(`${c.name} [${c.rules.join(' ')}]`, async () => {
    assert.ok(c.want, `${c.name}: no want.json section (run go test ./core -run Conformance -update)`);
    const want = c.want.toString('utf8');
    const got = {};
    for (const d of drivers) {
      d.mount(c);
      const raw = await d.engine.call(c.request.toString('utf8'));
      // S42: the engine's JSON is exactly what JSON.stringify writes.
      assert.equal(JSON.stringify(JSON.parse(raw)), raw, `${d.name}: output differs from JSON.stringify's`);
      got[d.name] = indent(raw);
      assert.equal(got[d.name], want, `${d.name} driver`);
    }
    assert.equal(got.os, got.memory, 'the drivers disagree');
  });
}
