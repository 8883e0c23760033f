// DiscoveryTracker (src/deps.js), the comparison behind watch's onChange,
// over a fake node:fs whose stat answers are set by the test: S59's file
// versions, the key that stays when nothing changed, and a version taken
// in its file's clock tick taken again once settled.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiscoveryTracker } from '../src/deps.js';

const enc = new TextEncoder();
/** A discover reply holding skills of these names, with one digest. */
const reply = (digest, ...names) =>
  enc.encode(
    JSON.stringify({
      skills: names.map((n) => ({ name: n, description: `d "${n}"`, filePath: `/s/${n}/SKILL.md`, frontmatter: { filePath: 'not this one' } })),
      warnings: [],
      shadowed: [],
      digest,
    }),
  );

/** A node:fs whose statSync answers from files (path -> {ino, size, mtimeMs, ctimeMs}); every call is logged. */
function fakeFS(files) {
  const calls = [];
  return {
    calls,
    statSync(p) {
      calls.push(p);
      const f = files[p];
      return f ? { dev: 1, ino: f.ino, size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs } : undefined;
    },
  };
}

test('a moved SKILL.md version is a change with the same digest; no move keeps the key (S59)', async () => {
  const old = Date.now() - 60_000;
  const files = {
    '/s/a/SKILL.md': { ino: 1, size: 10, mtimeMs: old, ctimeMs: old },
    '/s/b/SKILL.md': { ino: 2, size: 10, mtimeMs: old, ctimeMs: old },
  };
  const fs = fakeFS(files);
  const t = new DiscoveryTracker();
  const first = await t.observe(reply('aaaa', 'a', 'b'), fs);
  assert.deepEqual(fs.calls, ['/s/a/SKILL.md', '/s/b/SKILL.md'], 'the skill\'s own filePath, not its frontmatter\'s');
  assert.equal(first.key, 'aaaa');

  let d = await t.observe(reply('aaaa', 'a', 'b'), fs);
  assert.deepEqual([d.key, d.added, d.removed, d.changed], ['aaaa', [], [], []]);

  for (const [field, value] of [['ctimeMs', old + 1], ['size', 11], ['ino', 9], ['mtimeMs', old + 2]]) {
    files['/s/b/SKILL.md'][field] = value;
    d = await t.observe(reply('aaaa', 'a', 'b'), fs);
    assert.deepEqual(d.changed, ['b'], field);
    assert.notEqual(d.key, first.key, field);
    const again = await t.observe(reply('aaaa', 'a', 'b'), fs);
    assert.deepEqual([again.key, again.changed], [d.key, []], `${field}: the next, unchanged, is no change`);
  }

  // A new digest: text changes and version moves together, each skill once.
  files['/s/a/SKILL.md'].ctimeMs = old + 5;
  d = await t.observe(reply('bbbb', 'a', 'c'), fs);
  assert.deepEqual([d.key, d.added, d.removed, d.changed], ['bbbb', ['c'], ['b'], ['a']]);
});

test('a version taken within the tick of its change time is taken again once settled', async () => {
  const old = Date.now() - 60_000;
  const files = { '/s/a/SKILL.md': { ino: 1, size: 10, mtimeMs: old, ctimeMs: old } };
  const fs = fakeFS(files);
  const t = new DiscoveryTracker();
  await t.observe(reply('aaaa', 'a'), fs);

  // Written just now: the version is taken, then, once 50 ms old, again; a
  // second write of the same size in that tick is what the second take sees.
  const now = Date.now();
  files['/s/a/SKILL.md'] = { ino: 1, size: 10, mtimeMs: now, ctimeMs: now };
  fs.calls.length = 0;
  const pending = t.observe(reply('aaaa', 'a'), fs);
  await new Promise((r) => setTimeout(r, 0));
  files['/s/a/SKILL.md'] = { ino: 1, size: 10, mtimeMs: now, ctimeMs: now + 1 };
  const d = await pending;
  assert.deepEqual(d.changed, ['a']);
  assert.ok(fs.calls.length >= 2, `${fs.calls.length} stats`);
  // What the tracker kept is the second take: the next discovery sees no change.
  const next = await t.observe(reply('aaaa', 'a'), fs);
  assert.deepEqual([next.key, next.changed], [d.key, []]);
});
