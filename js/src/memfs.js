// @ts-check
// An in-memory FileSystem for tests and browsers. It resolves paths the way
// Linux does, like the Go memfs (fsadapter/memfs), so a tree gives the same
// results here and on disk: relative link targets resolve from the link's
// directory, absolute ones from this filesystem's root, ".." in a target is
// physical, at most 40 links are followed, and failures carry the code the
// kernel would give (ENOENT, ENOTDIR, ELOOP, EISDIR, EINVAL).

const MAX_SYMLINKS = 40;
const encoder = new TextEncoder();

/**
 * @typedef {{type: 'file', data: Uint8Array} | {type: 'dir', children: Map<string, Node>} | {type: 'symlink', target: string}} Node
 */

/**
 * @param {string} code @param {string} op @param {string} path
 * @returns {Error & {code: string}}
 */
function fsError(code, op, path) {
  return Object.assign(new Error(`${code}: ${op} ${path}`), { code, syscall: op, path });
}

/**
 * The components of p, first first; a trailing slash becomes "." (which, as
 * on Linux, requires a directory before it).
 * @param {string} p
 */
function components(p) {
  const out = p.split('/').filter((c) => c !== '');
  if (p.endsWith('/') && out.length > 0) out.push('.');
  return out;
}

/** @typedef {import('../index.js').StringFileSystem} StringFileSystem */

/** @implements {StringFileSystem} */
export class MemoryFS {
  constructor() {
    /** @type {Node & {type: 'dir'}} */
    this.root = { type: 'dir', children: new Map() };
  }

  /**
   * Walk p from the root.
   * @param {string} p @param {boolean} followLast @param {string} op
   * @returns {{node: Node, real: string}}
   */
  resolve(p, followLast, op) {
    if (typeof p !== 'string' || !p.startsWith('/')) throw fsError('EINVAL', op, String(p));
    /** @type {Node[]} */
    const dirs = [this.root];
    /** @type {string[]} */
    const names = [];
    const todo = components(p).reverse();
    let links = 0;
    while (todo.length > 0) {
      const name = /** @type {string} */ (todo.pop());
      const dir = dirs[dirs.length - 1];
      if (dir.type !== 'dir') throw fsError('ENOTDIR', op, p);
      if (name === '.') continue;
      if (name === '..') {
        if (dirs.length > 1) {
          dirs.pop();
          names.pop();
        }
        continue;
      }
      const child = dir.children.get(name);
      if (!child) throw fsError('ENOENT', op, p);
      const last = todo.length === 0;
      if (child.type === 'symlink' && (followLast || !last)) {
        if (++links > MAX_SYMLINKS) throw fsError('ELOOP', op, p);
        if (child.target === '') throw fsError('ENOENT', op, p);
        if (child.target.startsWith('/')) {
          dirs.length = 1;
          names.length = 0;
        }
        todo.push(...components(child.target).reverse());
        continue;
      }
      dirs.push(child);
      names.push(name);
    }
    return { node: dirs[dirs.length - 1], real: '/' + names.join('/') };
  }

  /**
   * @param {string} p @param {string} op
   * @returns {Node & {type: 'dir'}}
   */
  mkdirAll(p, op) {
    try {
      const { node } = this.resolve(p, true, op);
      if (node.type !== 'dir') throw fsError('ENOTDIR', op, p);
      return node;
    } catch (e) {
      if (/** @type {any} */ (e).code !== 'ENOENT') throw e;
    }
    const i = p.lastIndexOf('/');
    const parent = this.mkdirAll(i <= 0 ? '/' : p.slice(0, i), op);
    const name = p.slice(i + 1);
    if (parent.children.has(name)) throw fsError('EEXIST', op, p); // a dangling link is in the way
    /** @type {Node & {type: 'dir'}} */
    const d = { type: 'dir', children: new Map() };
    parent.children.set(name, d);
    return d;
  }

  /** @param {string} p @param {Node} n @param {string} op */
  add(p, n, op) {
    const clean = '/' + p.split('/').filter((c) => c !== '').join('/');
    if (!p.startsWith('/') || clean === '/') throw fsError('EINVAL', op, p);
    const i = clean.lastIndexOf('/');
    const dir = this.mkdirAll(i === 0 ? '/' : clean.slice(0, i), op);
    const name = clean.slice(i + 1);
    const old = dir.children.get(name);
    if (old) {
      if (n.type === 'file' && old.type === 'dir') throw fsError('EISDIR', op, p);
      if (!(n.type === 'file' && old.type === 'file')) throw fsError('EEXIST', op, p);
    }
    dir.children.set(name, n);
    return this;
  }

  /**
   * Create or replace the file at p (absolute), creating parent directories.
   * @param {string} p @param {string | Uint8Array} data
   */
  writeFile(p, data) {
    return this.add(p, { type: 'file', data: typeof data === 'string' ? encoder.encode(data) : data.slice() }, 'writeFile');
  }

  /**
   * Create the directory p and its parents (mkdir -p).
   * @param {string} p
   */
  mkdir(p) {
    if (!p.startsWith('/')) throw fsError('EINVAL', 'mkdir', p);
    this.mkdirAll('/' + p.split('/').filter((c) => c !== '').join('/'), 'mkdir');
    return this;
  }

  /**
   * Create a symbolic link at p pointing to target (stored as given).
   * @param {string} target @param {string} p
   */
  symlink(target, p) {
    return this.add(p, { type: 'symlink', target }, 'symlink');
  }

  /** @param {string} p */
  readDir(p) {
    const { node } = this.resolve(p, true, 'readDir');
    if (node.type !== 'dir') throw fsError('ENOTDIR', 'readDir', p);
    return [...node.children].map(([name, c]) => ({ name, type: c.type }));
  }

  /** @param {string} p */
  stat(p) {
    return this.resolve(p, true, 'stat').node.type;
  }

  /** @param {string} p */
  lstat(p) {
    return this.resolve(p, false, 'lstat').node.type;
  }

  /** @param {string} p */
  file(p) {
    const { node } = this.resolve(p, true, 'readFile');
    if (node.type === 'dir') throw fsError('EISDIR', 'readFile', p);
    return /** @type {Node & {type: 'file'}} */ (node).data;
  }

  /** @param {string} p */
  readFile(p) {
    return this.file(p).slice();
  }

  /** @param {string} p @param {Uint8Array} buf */
  readFileInto(p, buf) {
    const data = this.file(p);
    buf.set(data.length > buf.length ? data.subarray(0, buf.length) : data);
    return data.length;
  }

  /** @param {string} p */
  realpath(p) {
    return this.resolve(p, true, 'realpath').real;
  }
}
