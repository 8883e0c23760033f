// The browser tests' harness: a static HTTP server over the repository on
// 127.0.0.1 (the page loads the package, the module and the example from
// it, as a site would) and headless Chromium through puppeteer-core with a
// fresh profile. Chromium is Debian's package (`apt-get install chromium`,
// done by .ci/run); SKILLDEX_CHROMIUM names another binary.

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm', // compileStreaming requires it
  '.md': 'text/markdown; charset=utf-8',
  '.txtar': 'text/plain; charset=utf-8',
};

/**
 * Serve the repository's files read-only, plus extra routes (path -> body
 * string). Only GET of a regular file inside the repository; no listing.
 * @param {Record<string, string>} [routes]
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export function serve(routes = {}) {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'GET') return res.writeHead(405).end();
    if (u.pathname in routes) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return res.end(routes[u.pathname]);
    }
    const file = path.resolve(repoRoot, '.' + decodeURIComponent(u.pathname));
    if (!file.startsWith(repoRoot) || file.split(path.sep).includes('node_modules')) return res.writeHead(404).end();
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ url: `http://127.0.0.1:${addr.port}`, close: () => new Promise((r) => server.close(() => r(undefined))) });
    });
  });
}

/** The Chromium binary: $SKILLDEX_CHROMIUM, else Debian's. */
export function chromiumPath() {
  const env = process.env.SKILLDEX_CHROMIUM;
  if (env) return env;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (fs.existsSync(p)) return p;
  throw new Error('no Chromium: apt-get install chromium (what .ci/run does), or set SKILLDEX_CHROMIUM');
}

/** Launch headless Chromium with a fresh profile, removed on close. */
export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A new page whose console errors and uncaught exceptions are collected
 * (the tests assert there are none).
 * @param {import('puppeteer-core').Browser} browser
 */
export async function newPage(browser) {
  const page = await browser.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  return { page, errors };
}
