// The conformance corpus in headless Chromium: every case
// through the JS package with MemoryFS, the module fetched and compiled
// by the browser, byte-identical to want.json as in Node, Deno and Bun
// (SPEC S42).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadCorpus } from '../test/corpus.js';
import { serve, launch, newPage } from './harness.js';

const cases = loadCorpus();
const decoder = new TextDecoder();
const corpusJSON = JSON.stringify(
  cases.map((c) => ({
    name: c.name,
    faults: c.faults,
    request: decoder.decode(c.request),
    want: c.want ? decoder.decode(c.want) : null,
    entries: c.entries.map((e) => ({
      type: e.type,
      path: decoder.decode(e.path),
      ...(e.type === 'file' ? { data: e.data.toString('base64') } : {}),
      ...(e.type === 'symlink' ? { target: decoder.decode(e.target) } : {}),
    })),
  })),
);

/** @type {Awaited<ReturnType<typeof serve>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
before(async () => {
  server = await serve({ '/__corpus.json': corpusJSON });
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
  await server?.close();
});

test('every conformance case gives want.json in headless Chromium (MemoryFS, fetched module)', async (t) => {
  const { page, errors } = await newPage(chrome.browser);
  await page.goto(`${server.url}/js/browser-test/corpus.html`);
  const r = await page.evaluate(() => /** @type {any} */ (window).corpusResult);
  assert.equal(r.error, undefined, r.error);
  assert.match(r.userAgent, /HeadlessChrome|Chrome/);
  assert.equal(r.cases, cases.length);
  assert.ok(r.cases > 0);
  assert.deepEqual(r.failures, []);
  assert.equal(r.stats.instances, 1, 'a trap during the corpus');
  // S74 in a browser: a relative path says there is no working directory; URLs and signals work.
  assert.equal(r.conventions.relative.code, 'INVALID_ARGUMENT');
  assert.match(r.conventions.relative.message, /^cwd "w" is a relative path, and this engine has no working directory to resolve it against .*: pass an absolute path$/);
  assert.deepEqual(r.conventions.url, { ok: ['s'] });
  assert.deepEqual(r.conventions.aborted, { name: 'AbortError', code: 20, message: 'The operation was aborted', isDOMException: true, cause: 'stop' });
  assert.deepEqual(errors, []);
  t.diagnostic(`${r.cases} cases in ${r.ms} ms in ${r.userAgent}`);
});
