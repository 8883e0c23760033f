// @ts-check
// The platform file of the runtime running this one, for index.js and the
// worker's thread: Deno's, else Node's (Bun's too). Chosen at run time, not
// by package.json "imports" conditions, so that the package also works when
// its entry is imported by file path or URL (Deno without node_modules),
// where no package.json is read. Both files import only node: built-ins,
// which every server runtime has. A browser has none: a bundler replaces
// this file by browser.js (package.json "browser"), a page without one maps
// it there in its import map (examples/browser/index.html).

import * as node from './node.js';
import * as deno from './deno.js';

/** @type {typeof node} */
export const platform = /** @type {any} */ (globalThis).Deno ? /** @type {any} */ (deno) : node;
