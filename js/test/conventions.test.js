// SPEC S74: the JS API takes the platform's forms. Paths are strings or
// file: URLs; a relative string is resolved against the process's working
// directory (with the runtime's own filesystem; with a custom fs it is an
// error that says why); every call takes an AbortSignal and rejects with
// an AbortError as Node's own APIs do, and so does watch. Runs under Node,
// Deno and Bun.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { createSkilldex, MemoryFS } from '../index.js';
import { diskWorkspace, memoryWorkspace } from './workspace.js';

// A folder name with a space and a non-ASCII letter: its file: URL is percent-encoded.
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-conv-')));
const root = path.join(tmp, 'wörk space');
diskWorkspace(root);
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const cwd = root + '/work/proj';
const home = root + '/home/u';

const sk = createSkilldex();
after(() => sk.close());

/** An AbortError as Node's APIs give it: a DOMException named AbortError, its cause the reason. */
function isAbortError(reason) {
  return (/** @type {any} */ e) => {
    assert.ok(e instanceof DOMException, `not a DOMException: ${e}`);
    assert.equal(e.name, 'AbortError');
    assert.equal(e.cause, reason);
    return true;
  };
}

test('S74: cwd and home as file: URLs give what their paths give', async () => {
  const byPath = await sk.discover({ cwd, home });
  assert.ok(byPath.skills.length >= 3, JSON.stringify(byPath.skills.map((s) => s.name)));
  const byURL = await sk.discover({ cwd: pathToFileURL(cwd + '/'), home: pathToFileURL(home) });
  assert.deepEqual(byURL, byPath);
  assert.ok(pathToFileURL(cwd).href.includes('w%C3%B6rk%20space'), 'the URL is percent-encoded');
  // The other path arguments too, and customDirectories entries.
  const dir = home + '/.claude/skills/lint';
  assert.deepEqual(await sk.validate(pathToFileURL(dir)), await sk.validate(dir));
  assert.deepEqual(await sk.scanDir(pathToFileURL(home + '/.claude/skills')), await sk.scanDir(home + '/.claude/skills'));
  const custom = await sk.discover({ cwd, home, options: { customDirectories: [pathToFileURL(root + '/work/proj/bad/..')] } });
  assert.deepEqual(custom, await sk.discover({ cwd, home, options: { customDirectories: [root + '/work/proj'] } }));
  const m = await sk.match([pathToFileURL(cwd + '/src/a.ts')], { cwd, home });
  assert.deepEqual(m, await sk.match([cwd + '/src/a.ts'], { cwd, home }));
  // resolve takes a skill:// URL object as its text.
  assert.deepEqual(await sk.resolve(new URL('skill://lint'), { cwd, home }), await sk.resolve('skill://lint', { cwd, home }));
});

test('S74: a URL that names no local path is refused, saying why', async () => {
  for (const [url, why] of [
    [new URL('https://example.com/x'), /cwd must be a path or a file: URL, not https:\/\/example\.com\/x/],
    [new URL('file://server/share'), /another host \(server\)/],
    [new URL('file:///a%2Fb'), /encoded "\/"/],
  ]) {
    await assert.rejects(sk.discover({ cwd: url, home }), (e) => {
      assert.equal(/** @type {any} */ (e).code, 'INVALID_ARGUMENT');
      assert.match(/** @type {Error} */ (e).message, why);
      return true;
    });
  }
  await assert.rejects(sk.discover({ cwd: '', home }), /cwd is an empty string/);
});

test('S74: relative paths resolve against the process working directory, before the engine sees them', async () => {
  const rel = (/** @type {string} */ p) => path.relative(process.cwd(), p);
  assert.ok(!rel(cwd).startsWith('/'), rel(cwd));
  assert.deepEqual(await sk.discover({ cwd: rel(cwd), home: rel(home) }), await sk.discover({ cwd, home }));
  const v = await sk.validate(rel(home + '/.claude/skills/lint'));
  assert.equal(v.dir, home + '/.claude/skills/lint');
  const s = await sk.scanDir(rel(home + '/.claude/skills') + '/./x/..');
  assert.deepEqual(s, await sk.scanDir(home + '/.claude/skills'));
  // The createSkilldex defaults too.
  const d = createSkilldex({ cwd: rel(cwd), home: rel(home) });
  try {
    assert.deepEqual(await d.discover(), await sk.discover({ cwd, home }));
  } finally {
    await d.close();
  }
});

test('S74: with a custom fs (a browser has no other) a relative path is an error that says why', async () => {
  const m = createSkilldex({ fs: memoryWorkspace() });
  try {
    await assert.rejects(m.discover({ cwd: 'work/proj', home: '/home/u' }), (e) => {
      assert.equal(/** @type {any} */ (e).code, 'INVALID_ARGUMENT');
      assert.match(/** @type {Error} */ (e).message, /^cwd "work\/proj" is a relative path, and this engine has no working directory to resolve it against .*: pass an absolute path$/);
      return true;
    });
    await assert.rejects(m.validate('skills/x'), /validate: dir "skills\/x" is a relative path/);
    // Absolute paths and file: URLs work as everywhere.
    const r = await m.discover({ cwd: new URL('file:///work/proj'), home: '/home/u' });
    assert.ok(r.skills.some((s) => s.name === 'review'));
  } finally {
    await m.close();
  }
});

for (const worker of [false, true]) {
  const mode = worker ? 'worker mode' : 'in-thread';
  test(`S74 (${mode}): every call takes a signal; an aborted one rejects with an AbortError and runs nothing`, async () => {
    const e = createSkilldex({ worker, cwd, home });
    try {
      await e.ready();
      const before = e.stats().calls;
      const reason = new Error('no longer needed');
      const done = AbortSignal.abort(reason);
      const calls = [
        e.discover({ signal: done }),
        e.scanDir(home + '/.claude/skills', { signal: done }),
        e.resolve('skill://lint', { signal: done }),
        e.listFiles('lint', { signal: done }),
        e.renderPrompt({ signal: done }),
        e.expandCommand('/skill:lint', { signal: done }),
        e.commands({ signal: done }),
        e.contextFiles({ signal: done }),
        e.validate(home + '/.claude/skills/lint', { signal: done }),
        e.explain('lint', { signal: done }),
        e.match(['a.ts'], { signal: done }),
        e.call({ op: 'commands', cwd, home }, { signal: done }),
        e.ready({ signal: done }),
      ];
      for (const c of calls) await assert.rejects(c, isAbortError(reason));
      if (!worker) assert.equal(e.stats().calls, before, 'an aborted call is not run');

      // Aborted while it waits for its turn: it rejects, and the engine skips it.
      const ctl = new AbortController();
      const first = e.discover();
      const second = e.discover({ signal: ctl.signal });
      ctl.abort();
      await assert.rejects(second, isAbortError(ctl.signal.reason));
      assert.ok((await first).skills.length > 0);
      if (!worker) assert.equal(e.stats().calls, before + 1, 'the aborted call was skipped');
      assert.ok(ctl.signal.reason instanceof DOMException && ctl.signal.reason.name === 'AbortError');

      // A signal that never aborts changes nothing.
      assert.deepEqual(await e.discover({ signal: new AbortController().signal }), await e.discover());
      await assert.rejects(e.discover({ signal: /** @type {any} */ ({}) }), /signal must be an AbortSignal/);
    } finally {
      await e.close();
    }
  });
}

test('S74: watch takes a signal: an abort closes it, and rejects ready when it has not settled', async () => {
  const w = createSkilldex({ cwd, home });
  try {
    const ctl = new AbortController();
    const h = w.watch(undefined, () => {}, { signal: ctl.signal, persistent: false });
    ctl.abort('stop');
    await assert.rejects(h.ready, isAbortError('stop'));
    assert.equal(h.watching, 0);

    const ctl2 = new AbortController();
    const h2 = w.watch(undefined, () => {}, { signal: ctl2.signal, persistent: false });
    const first = await h2.ready;
    assert.ok(first.skills.length > 0);
    assert.ok(h2.watching > 0);
    ctl2.abort();
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(h2.watching, 0, 'the abort closed the watch');

    const h3 = w.watch(undefined, () => {}, { signal: AbortSignal.abort('early'), persistent: false });
    await assert.rejects(h3.ready, isAbortError('early'));
  } finally {
    await w.close();
  }
});

test('S74: paths work with a MemoryFS whose paths hold what URLs encode', async () => {
  const m = new MemoryFS().writeFile('/a b/%x/.claude/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\n').mkdir('/a b/%x/.git');
  const e = createSkilldex({ fs: m });
  try {
    const url = pathToFileURL('/a b/%x');
    assert.match(url.href, /a%20b\/%25x/);
    const r = await e.discover({ cwd: url, home: '/h' });
    assert.deepEqual(r.skills.map((s) => s.filePath), ['/a b/%x/.claude/skills/s/SKILL.md']);
  } finally {
    await e.close();
  }
});
