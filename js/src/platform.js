// @ts-check
// The only runtime-specific code: where the module's bytes come from and
// what the default filesystem and load context are. Node, Deno and Bun all
// have node:fs; Deno is detected to read the module with its own API; a
// browser fetches it and has no default filesystem.

/** @type {any} */
const g = globalThis;
const isDeno = typeof g.Deno?.version?.deno === 'string';
const isNodeLike = !isDeno && typeof g.process?.versions?.node === 'string'; // Node, Bun

export const wasmURL = new URL('../skilldex.wasm', import.meta.url);
/** The frontmatter module (wasm/ABI.md#the-frontmatter-module), loaded only when the engine asks for it. */
export const frontmatterWasmURL = new URL('../skilldex-frontmatter.wasm', import.meta.url);

/**
 * The bytes (or a Response) of a shipped module.
 * @param {URL} [url]
 */
export async function loadWasm(url = wasmURL) {
  if (isDeno) return g.Deno.readFile(url);
  if (isNodeLike) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  return fetch(url);
}

/** @type {Promise<typeof import('node:fs')> | undefined} */
let nodeFs;

/** node:fs, or undefined where there is none (a browser). */
export function nodeFS() {
  if (!isDeno && !isNodeLike) return undefined;
  nodeFs ??= import('node:fs').then((m) => /** @type {any} */ (m).default ?? m);
  return nodeFs;
}

/** The process's working directory and home, where the runtime has them. */
export async function processContext() {
  if (!isDeno && !isNodeLike) return {};
  const [proc, os] = await Promise.all([import('node:process'), import('node:os')]);
  return { cwd: (proc.default ?? proc).cwd(), home: (os.default ?? os).homedir() };
}
