// @ts-check
// The paths the JS API takes (SPEC S74): a string or a file: URL, as
// node:fs takes them. An absolute path goes to the engine as it is (the
// engine cleans it, S1); a relative one is resolved here, against the
// process's working directory, where the engine reads the runtime's own
// filesystem. With a custom filesystem (a MemoryFS, a browser) there is no
// working directory that means anything to it, and a relative path is an
// error that says so, never a guess.

import { SkilldexError } from './engine.js';

/**
 * A file: URL's path, as node:url's fileURLToPath gives it on POSIX: the
 * host empty or localhost, no encoded "/", percent-decoded.
 * @param {URL} url @param {string} what
 */
function urlPath(url, what) {
  if (url.protocol !== 'file:') {
    throw new SkilldexError('INVALID_ARGUMENT', `${what} must be a path or a file: URL, not ${url.href}`);
  }
  if (url.hostname !== '' && url.hostname !== 'localhost') {
    throw new SkilldexError('INVALID_ARGUMENT', `${what} ${url.href}: a file: URL on another host (${url.hostname}) names no local path`);
  }
  if (/%2f/i.test(url.pathname)) {
    throw new SkilldexError('INVALID_ARGUMENT', `${what} ${url.href}: a file: URL must not hold an encoded "/" (%2F)`);
  }
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    throw new SkilldexError('INVALID_ARGUMENT', `${what} ${url.href}: its percent-encoding is not UTF-8`);
  }
}

/** Whether v is a URL (of this realm or another). @param {unknown} v @returns {v is URL} */
const isURL = (v) => v instanceof URL || (typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object URL]');

/**
 * An absolute path cleaned as path.posix.resolve cleans it: "." and empty
 * segments dropped, ".." taking one segment off ("/.." is "/").
 * @param {string} p
 */
function clean(p) {
  /** @type {string[]} */
  const out = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

/**
 * The path p (a string or a file: URL) as the engine takes it: absolute.
 * Anything else is returned unchanged (the engine refuses it, BAD_REQUEST).
 * @param {unknown} p the value given
 * @param {string} what its name, for messages ("cwd", "validate: dir")
 * @param {(() => string) | null} base the working directory a relative path
 *   resolves against, or null where there is none
 * @returns {any}
 */
export function toPath(p, what, base) {
  if (isURL(p)) return urlPath(p, what);
  if (typeof p !== 'string' || p.startsWith('/')) return p;
  if (p === '') throw new SkilldexError('INVALID_ARGUMENT', `${what} is an empty string: pass a path`);
  if (!base) {
    throw new SkilldexError('INVALID_ARGUMENT',
      `${what} ${JSON.stringify(p)} is a relative path, and this engine has no working directory to resolve it against (it reads a custom fs, or runs in a browser): pass an absolute path`);
  }
  return clean(base() + '/' + p);
}

/**
 * A list of paths (match's paths, customDirectories): URLs become their
 * paths; strings stay as they are, since the engine resolves a relative
 * one against the call's cwd (S26, S55).
 * @param {unknown} list @param {string} what
 * @returns {any}
 */
export function toPathList(list, what) {
  if (!Array.isArray(list)) return list;
  return list.map((p, i) => (isURL(p) ? urlPath(p, `${what}[${i}]`) : p));
}
