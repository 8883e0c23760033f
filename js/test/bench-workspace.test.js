// The benchmarks' generated SKILL.md files (bench/workspace.mjs's
// skillFile) are byte for byte Go's (internal/benchws.SkillFile): both are
// checked against internal/benchws/testdata/skillfiles.sum, which
// `go test ./internal/benchws -update` rewrites. And a small generated
// workspace is what it says it is.
// Runs under node --test, deno test and bun test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generate, isInvalidYAML, skillFile, skillFiles } from '../bench/workspace.mjs';

const sum = fs.readFileSync(new URL('../../internal/benchws/testdata/skillfiles.sum', import.meta.url), 'utf8');

test('skillFile gives the bytes Go gives (testdata/skillfiles.sum)', () => {
  const lines = sum.trimEnd().split('\n');
  assert.ok(lines.length >= 300, `${lines.length} lines`);
  for (const line of lines) {
    const [i, want] = line.split(' ');
    const got = crypto.createHash('sha256').update(skillFile(Number(i), `skill-${i}`), 'utf8').digest('hex');
    assert.equal(got, want, `file ${i}: ${JSON.stringify(skillFile(Number(i), `skill-${i}`).slice(0, 400))}`);
  }
});

test('a generated workspace holds its invalid YAML and frontmatter-less files', () => {
  const ws = generate(200);
  try {
    let invalid = 0;
    let none = 0;
    for (const root of ws.roots) {
      for (const name of fs.readdirSync(root)) {
        const file = path.join(root, name, 'SKILL.md');
        if (!fs.existsSync(file)) continue;
        const text = fs.readFileSync(file, 'utf8');
        if (isInvalidYAML(text)) invalid++;
        if (!text.startsWith('---')) none++;
      }
    }
    assert.equal(invalid, ws.badYaml);
    assert.ok(invalid >= 1 && invalid <= 6, `${invalid} files with invalid YAML of 200`);
    assert.ok(none >= 20 && none <= 40, `${none} files without frontmatter of 200`);
    assert.equal(skillFiles(ws.roots, 3).length, 3);
  } finally {
    fs.rmSync(ws.dir, { recursive: true, force: true });
  }
});
