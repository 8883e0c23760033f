// The conformance corpus through the JS package in a browser: the same
// checks as js/test/conformance.test.js's MemoryFS driver (the reply is
// what JSON.stringify would write, and pretty-printed equals want.json),
// with the cases the test server hands over as JSON. The result goes to
// window.corpusResult for the test to read.

import { createSkilldex } from '../index.js';
import { memTree, withFaults, switchFS, indent } from '../test/corpus-tree.js';

const b64 = (/** @type {string} */ s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

async function run() {
  /** @type {{name: string, faults: any[], request: string, want: string, entries: any[]}[]} */
  const cases = await (await fetch('/__corpus.json')).json();
  const fs = switchFS(false);
  const sk = createSkilldex({ fs });
  const failures = [];
  const started = performance.now();
  for (const c of cases) {
    fs.current = withFaults(memTree({ entries: c.entries.map((e) => (e.type === 'file' ? { ...e, data: b64(e.data) } : e)) }), c.faults);
    try {
      const raw = await sk.call(c.request);
      if (JSON.stringify(JSON.parse(raw)) !== raw) failures.push({ name: c.name, why: 'not what JSON.stringify writes', got: raw });
      else if (indent(raw) !== c.want) failures.push({ name: c.name, why: 'differs from want.json', got: indent(raw), want: c.want });
    } catch (e) {
      failures.push({ name: c.name, why: String(e) });
    }
  }
  const ms = Math.round(performance.now() - started);
  return { cases: cases.length, failures, ms, userAgent: navigator.userAgent, stats: sk.stats(), conventions: await conventions() };
}

/**
 * SPEC S74 in a browser: no working directory, so a relative path is an
 * error that says so; a file: URL is a path; an aborted signal rejects with
 * an AbortError.
 */
async function conventions() {
  const fs = switchFS(false);
  fs.current = memTree({ entries: [{ path: '/w/.claude/skills/s/SKILL.md', type: 'file', data: new TextEncoder().encode('---\nname: s\ndescription: d\n---\n') }] });
  const sk = createSkilldex({ fs });
  const outcome = async (/** @type {() => Promise<any>} */ f) => {
    try {
      const r = await f();
      return { ok: r.skills.map((/** @type {any} */ s) => s.name) };
    } catch (e) {
      const err = /** @type {any} */ (e);
      return { name: err.name, code: err.code, message: err.message, isDOMException: err instanceof DOMException, cause: err.cause };
    }
  };
  return {
    relative: await outcome(() => sk.discover({ cwd: 'w', home: '/h' })),
    url: await outcome(() => sk.discover({ cwd: new URL('file:///w/'), home: '/h' })),
    aborted: await outcome(() => sk.discover({ cwd: '/w', home: '/h', signal: AbortSignal.abort('stop') })),
  };
}

const w = /** @type {any} */ (window);
w.corpusResult = run().catch((e) => ({ error: String(e && e.stack ? e.stack : e) }));
w.corpusResult.then((/** @type {any} */ r) => {
  /** @type {HTMLElement} */ (document.getElementById('out')).textContent = JSON.stringify(r, null, 2);
});
