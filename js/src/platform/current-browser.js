// @ts-check
// current.js for browsers: what a bundler (package.json "browser") or a
// page's import map puts in its place, since a browser has no node: built-ins.

import * as browser from './browser.js';

/** @type {typeof import('./node.js')} */
export const platform = /** @type {any} */ (browser);
