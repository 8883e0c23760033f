// A tiny wasm assembler for fake modules in the loader's tests: just enough
// to build modules that break the ABI on purpose (a wrong version, a
// foreign import, a proc_exit in the middle of a call).

import { ABI_VERSION } from '../src/engine.js';

const I32 = 0x7f;
const I64 = 0x7e;
export const T = { i32: I32, i64: I64 };

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
};
/** Signed LEB128 of a BigInt (an i64 constant, any bit pattern). */
const sleb64 = (n) => {
  n = BigInt.asIntN(64, n);
  const out = [];
  for (;;) {
    const b = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && (b & 0x40) === 0) || (n === -1n && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
};
const str = (s) => [...uleb(s.length), ...new TextEncoder().encode(s)];
const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];

/** Instructions. */
export const op = {
  /** i32.const: any u32 or i32 bit pattern. */
  i32: (n) => [0x41, ...sleb(n | 0)],
  /** i64.const: a number, or a BigInt for any bit pattern. */
  i64: (n) => [0x42, ...(typeof n === 'bigint' ? sleb64(n) : sleb(n))],
  localGet: (i) => [0x20, ...uleb(i)],
  i32Load: [0x28, 0x02, 0x00],
  i32Store8: [0x3a, 0x00, 0x00],
  i32Add: [0x6a],
  i64ExtendI32U: [0xad],
  i64Or: [0x84],
  drop: [0x1a],
  call: (i) => [0x10, ...uleb(i)],
  unreachable: [0x00],
};

/**
 * Build a module. imports: [{module, name, params, results}]; funcs:
 * [{name (exported), params, results, body: number[]}]. Function indices:
 * imports first, then funcs. A memory of `pages` 64 KiB pages (default 1)
 * is exported as "memory"; data: [{offset (u32), bytes}] initialise it.
 */
export function assemble({ imports = [], funcs = [], pages = 1, data = [] }) {
  const types = [];
  const typeIndex = (params, results) => {
    const key = JSON.stringify([params, results]);
    let i = types.findIndex((t) => t.key === key);
    if (i < 0) {
      types.push({ key, bytes: [0x60, ...vec(params.map((p) => [p])), ...vec(results.map((r) => [r]))] });
      i = types.length - 1;
    }
    return i;
  };
  const imp = imports.map((m) => [...str(m.module), ...str(m.name), 0x00, ...uleb(typeIndex(m.params, m.results))]);
  const fns = funcs.map((f) => uleb(typeIndex(f.params, f.results)));
  const exps = [
    ...funcs.map((f, i) => [...str(f.name), 0x00, ...uleb(imports.length + i)]),
    [...str('memory'), 0x02, 0x00],
  ];
  const code = funcs.map((f) => {
    const body = [0x00, ...f.body, 0x0b]; // no locals
    return [...uleb(body.length), ...body];
  });
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types.map((t) => t.bytes))),
    ...section(2, vec(imp)),
    ...section(3, vec(fns)),
    ...section(5, vec([[0x00, ...uleb(pages)]])),
    ...section(7, vec(exps)),
    ...section(10, vec(code)),
    ...(data.length ? section(11, vec(data.map((d) => [0x00, ...op.i32(d.offset), 0x0b, ...vec([...d.bytes].map((b) => [b]))]))) : []),
  ]);
}

/**
 * A module that looks like skilldex: version v, and a skilldex_call that
 * either calls proc_exit(3) (exit: true) or returns (0 << 32 | 0).
 */
export function fakeSkilldex({ version = ABI_VERSION, exit = false, extraImport } = {}) {
  const imports = [{ module: 'wasi_snapshot_preview1', name: 'proc_exit', params: [I32], results: [] }];
  if (extraImport) imports.push({ ...extraImport, params: [], results: [] });
  return assemble({
    imports,
    funcs: [
      { name: '_initialize', params: [], results: [], body: [] },
      { name: 'skilldex_abi_version', params: [], results: [I32], body: op.i32(version) },
      { name: 'skilldex_alloc', params: [I32], results: [I32], body: op.i32(1024) },
      {
        name: 'skilldex_call',
        params: [I32, I32],
        results: [I64],
        body: exit ? [...op.i32(3), ...op.call(0), ...op.unreachable] : op.i64(0),
      },
    ],
  });
}
