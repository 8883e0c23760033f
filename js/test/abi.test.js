// The ABI lock (docs/STYLE.md habit 10): the module this package ships imports and
// exports exactly what wasm/testdata/abi.golden lists, as this runtime
// sees it (WebAssembly.Module.imports/exports) and with the signatures of
// the binary; and the WASI shim implements every WASI import listed there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createWasi } from '../src/wasi.js';

const golden = fs
  .readFileSync(new URL('../../wasm/testdata/abi.golden', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const wasm = fs.readFileSync(new URL('../skilldex.wasm', import.meta.url));

/** The import and export lines of a binary, as wasm/abi/abitest.Signatures writes them. */
function signatures(b) {
  let i = 8;
  const u32 = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const c = b[i++];
      v += (c & 0x7f) * 2 ** shift;
      if (!(c & 0x80)) return v;
      shift += 7;
    }
  };
  const name = () => {
    const n = u32();
    const s = new TextDecoder().decode(b.subarray(i, i + n));
    i += n;
    return s;
  };
  const VT = { 0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64' };
  const vts = () => Array.from({ length: u32() }, () => VT[b[i++]]);
  const types = [];
  const funcTypes = [];
  const lines = [];
  while (i < b.length) {
    const id = b[i++];
    const size = u32();
    const end = i + size;
    if (id === 1) {
      for (let n = u32(); n > 0; n--) {
        i++; // 0x60
        const p = vts();
        const r = vts();
        types.push(`func(${p.join(', ')}) -> (${r.join(', ')})`);
      }
    } else if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const mod = name();
        const nm = name();
        const kind = b[i++];
        assert.equal(kind, 0, `non-function import ${mod}.${nm}`);
        const t = u32();
        funcTypes.push(t);
        lines.push(`import ${mod} ${nm} ${types[t]}`);
      }
    } else if (id === 3) {
      for (let n = u32(); n > 0; n--) funcTypes.push(u32());
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        const nm = name();
        const kind = b[i++];
        const idx = u32();
        lines.push(kind === 0 ? `export ${nm} ${types[funcTypes[idx]]}` : `export ${nm} ${['func', 'table', 'memory', 'global'][kind]}`);
      }
    }
    i = end;
  }
  return [...new Set(lines)].sort();
}

test('the module\'s imports and exports with signatures equal abi.golden', () => {
  assert.deepEqual(signatures(wasm), [...golden].sort());
});

test('the runtime sees the same imports and exports as abi.golden', () => {
  const mod = new WebAssembly.Module(wasm);
  const seen = [
    ...WebAssembly.Module.imports(mod).map((x) => `import ${x.module} ${x.name} ${x.kind}`),
    ...WebAssembly.Module.exports(mod).map((x) => `export ${x.name} ${x.kind}`),
  ];
  const want = golden.map((l) => {
    const f = l.split(' ');
    return f[0] === 'import' ? `import ${f[1]} ${f[2]} function` : `export ${f[1]} ${f[2] === 'memory' ? 'memory' : 'function'}`;
  });
  assert.deepEqual([...new Set(seen)].sort(), [...new Set(want)].sort());
});

test('the WASI shim implements every WASI import of abi.golden', () => {
  const shim = createWasi(() => new WebAssembly.Memory({ initial: 1 }), () => {});
  const wanted = golden.filter((l) => l.startsWith('import wasi_snapshot_preview1 ')).map((l) => l.split(' ')[2]);
  assert.ok(wanted.length > 0);
  for (const name of wanted) assert.equal(typeof shim[name], 'function', `the shim lacks ${name}`);
});
