// examples/browser in headless Chromium: a skill author picks a
// folder of skills (the page's folder input, as a drop gives the same
// files) and sees the skills, every warning with its line and fix,
// validate's report for each folder and the rendered prompt. Every value
// the page shows is checked against the JS package's own answer in Node for
// the same tree, and which agents load each skill from a folder the author
// picks (SPEC S67). A screenshot is kept in build/browser-example.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSkilldex, MemoryFS } from '../index.js';
import { serve, launch, newPage, repoRoot } from './harness.js';

const skill = (front, body = 'Do the thing.') => `---\n${front}\n---\n${body}\n`;
/** A skills root as an author has it: one good skill, one with broken YAML, one that breaks the naming rules. */
const tree = {
  'pdf/SKILL.md': skill('name: pdf\ndescription: Extract text and tables from PDF files.', 'Use scripts/extract.py.'),
  'pdf/scripts/extract.py': 'print("extract")\n',
  'release-notes/SKILL.md': skill('name: release-notes\nlicense: MIT\ndescription: Use when: the user asks for release notes'),
  'Bad_Name/SKILL.md': skill('name: Bad_Name\ndescription: A skill whose name breaks the rules.', ''),
};

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-example-')));
const dropped = path.join(tmp, 'my-skills');
for (const [p, c] of Object.entries(tree)) {
  fs.mkdirSync(path.dirname(path.join(dropped, p)), { recursive: true });
  fs.writeFileSync(path.join(dropped, p), c);
}

/** What the package answers in Node for the same tree, as the page lays it out. */
async function expected() {
  const m = new MemoryFS();
  for (const [p, c] of Object.entries(tree)) m.writeFile(`/workspace/skills/${p}`, c);
  const sk = createSkilldex({ fs: m });
  const ctx = { cwd: '/workspace', home: '/home/author', options: { customDirectories: ['/workspace/skills'] } };
  const dirs = Object.keys(tree).filter((p) => p.endsWith('/SKILL.md')).map((p) => `/workspace/skills/${p.split('/')[0]}`).sort();
  return {
    discover: await sk.discover(ctx),
    validate: await Promise.all(dirs.map((d) => sk.validate(d))),
    prompt: (await sk.renderPrompt(ctx)).text,
  };
}

/** @type {Awaited<ReturnType<typeof serve>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => {
  server = await serve();
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('examples/browser: pick a skills folder, see skills, warnings with line and fix, validation and the prompt', async (t) => {
  const want = await expected();
  const { page, errors } = await newPage(chrome.browser);
  await page.setViewport({ width: 1100, height: 900 });
  await page.goto(`${server.url}/examples/browser/index.html`);
  await page.waitForFunction(() => /Ready/.test(document.getElementById('status')?.textContent ?? ''), { timeout: 120000 });

  const input = await page.$('#pick');
  assert.ok(input);
  await /** @type {any} */ (input).uploadFile(dropped);
  await page.waitForFunction(() => /^Read /.test(document.getElementById('status')?.textContent ?? ''), { timeout: 120000 });

  const seen = await page.evaluate(() => {
    const cells = (/** @type {string} */ sel) => [...document.querySelectorAll(sel)].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    return {
      status: document.getElementById('status')?.textContent,
      skills: cells('#skills tbody tr'),
      warnings: cells('#warnings tbody tr'),
      folders: [...document.querySelectorAll('#validate h3')].map((h) => h.textContent),
      findings: cells('#validate tbody tr'),
      prompt: document.getElementById('prompt')?.textContent,
    };
  });
  t.diagnostic(seen.status ?? '');

  // The skills: the engine's, with paths as the author knows them.
  assert.deepEqual(
    seen.skills,
    want.discover.skills.map((s) => [s.name, s.description, s.filePath.replace('/workspace/skills/', 'my-skills/')]),
  );
  assert.ok(seen.skills.some((r) => r[0] === 'pdf'), 'the good skill is listed');

  // Every warning, its place, code and fix read from its fields (S73), not out of its message.
  assert.equal(seen.warnings.length, want.discover.warnings.length);
  assert.ok(want.discover.warnings.length > 0, 'the fixture has a broken skill');
  const yaml = seen.warnings.find((w) => w[2] === 'invalid-yaml');
  assert.ok(yaml, JSON.stringify(seen.warnings));
  assert.equal(yaml[0], 'my-skills/release-notes/SKILL.md');
  assert.equal(yaml[1], '4:22'); // the description line (---, name, license, description), at the second ": "
  assert.equal(yaml[3], 'invalid YAML (mapping values are not allowed in this context)');
  assert.equal(yaml[4], 'quote the value: description: "Use when: the user asks for release notes"');
  for (const [i, w] of want.discover.warnings.entries()) {
    assert.deepEqual(seen.warnings[i].slice(1, 3), [w.line === undefined ? '' : `${w.line}${w.column === undefined ? '' : `:${w.column}`}`, w.code], `warning ${i}: ${w.message}`);
    assert.equal(seen.warnings[i][4], w.fix ?? '', `warning ${i}: ${w.message}`);
    assert.ok(w.message.includes(seen.warnings[i][3] ?? '\0'), `warning ${i}: the problem is the message's: ${w.message}`);
  }

  // validate's report for each skill folder, line and fix included.
  assert.deepEqual(seen.folders, want.validate.map((r) => r.dir.replace('/workspace/skills/', 'my-skills/')));
  const diags = want.validate.flatMap((r) => r.diagnostics);
  assert.equal(seen.findings.length, diags.length);
  diags.forEach((d, i) => {
    const problem = d.fix ? d.message.slice(0, -(d.fix.length + 2)) : d.message;
    assert.deepEqual(seen.findings[i], [d.severity, d.line === undefined ? '' : `${d.line}${d.column === undefined ? '' : `:${d.column}`}`, d.code, problem, d.fix ?? '']);
  });
  const charset = seen.findings.find((f) => f[2] === 'name-charset');
  assert.deepEqual(charset?.slice(0, 3), ['error', '2', 'name-charset']);
  assert.equal(charset?.[4], 'try "bad-name"');

  // The prompt an agent would get.
  assert.equal(seen.prompt, want.prompt);
  assert.match(seen.prompt ?? '', /pdf/);

  // Who loads each skill (S67): placed in the folder most agents read, then
  // in ~/.claude/skills; the rows are the engine's where, in Node, for the
  // same tree with a link to each skill folder there.
  const whereSeen = async () =>
    page.evaluate(() => ({
      place: document.querySelector('#place option:checked')?.textContent ?? '',
      folders: [...document.querySelectorAll('#where h3')].map((h) => h.textContent),
      rows: [...document.querySelectorAll('#where tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    }));
  /** @param {string} place */
  const whereWant = async (place) => {
    const m = new MemoryFS();
    for (const [p, c] of Object.entries(tree)) m.writeFile(`/dropped/${p}`, c);
    const at = place.startsWith('~/') ? '/home/author' + place.slice(1) : `/workspace/${place}`;
    const dirs = want.validate.map((r) => r.dir.replace('/workspace/skills/', '/dropped/'));
    for (const d of dirs) m.symlink(d, `${at}/${d.slice('/dropped/'.length)}`);
    const sk = createSkilldex({ fs: m });
    const rows = [];
    for (const d of dirs) {
      for (const a of (await sk.where(d, { cwd: '/workspace', home: '/home/author' })).agents) {
        if (a.filePath !== undefined) rows.push([a.displayName, a.loaded ? 'yes' : 'no', a.name ?? '']);
      }
    }
    return rows;
  };
  let w = await whereSeen();
  assert.match(w.place, /^\.agents\/skills \(read by \d+ agents\)$/);
  assert.deepEqual(w.folders, seen.folders);
  assert.deepEqual(w.rows.map((r) => r.slice(0, 3)), await whereWant('.agents/skills'));
  assert.ok(w.rows.some((r) => r[0] === 'Codex' && r[1] === 'yes' && r[2] === 'pdf'), JSON.stringify(w.rows));
  const claude = await page.evaluate(() => [...document.querySelectorAll('#place option')].find((o) => o.textContent?.startsWith('~/.claude/skills '))?.getAttribute('value'));
  assert.ok(claude);
  await page.select('#place', /** @type {string} */ (claude));
  await page.waitForFunction(() => [...document.querySelectorAll('#where tbody tr td:first-child')].some((td) => td.textContent === 'Claude Code'), { timeout: 120000 });
  w = await whereSeen();
  assert.deepEqual(w.rows.map((r) => r.slice(0, 3)), await whereWant('~/.claude/skills'));

  fs.mkdirSync(path.join(repoRoot, 'build'), { recursive: true });
  const shot = path.join(repoRoot, 'build', 'browser-example.png');
  await page.screenshot({ path: shot, fullPage: true });
  t.diagnostic(`screenshot: ${shot}`);
  assert.deepEqual(errors, []);
});

test('examples/browser: a drop of loose files (no folder entries) is read as one skill folder', async () => {
  const { page, errors } = await newPage(chrome.browser);
  await page.goto(`${server.url}/examples/browser/index.html`);
  await page.waitForFunction(() => /Ready/.test(document.getElementById('status')?.textContent ?? ''), { timeout: 120000 });
  // A synthetic drop: its items give no directory entries, so the page reads dataTransfer.files.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['---\nname: dropped\ndescription: A skill dropped as loose files.\n---\nDo it.\n'], 'SKILL.md'));
    document.getElementById('drop')?.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => /^Read /.test(document.getElementById('status')?.textContent ?? ''), { timeout: 120000 });
  const seen = await page.evaluate(() => ({
    status: document.getElementById('status')?.textContent,
    skills: [...document.querySelectorAll('#skills tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    folders: [...document.querySelectorAll('#validate h3')].map((h) => h.textContent),
  }));
  assert.equal(seen.status, 'Read 1 file: 1 skill loaded, 0 warnings, 0 validation findings.');
  assert.deepEqual(seen.skills, [['dropped', 'A skill dropped as loose files.', 'dropped/SKILL.md']]);
  assert.deepEqual(seen.folders, ['dropped']);
  assert.deepEqual(errors, []);
});
