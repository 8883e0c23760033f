// Guest addresses. Addresses at 2 GiB and above (wasm/ABI.md,
// "Reading the integers as unsigned"): wasm hands an i32 pointer >= 2^31 to JS as a negative
// number and an i64 with its top bit set as a negative BigInt. A fake guest
// with a 2 GiB + 128 KiB memory puts everything up there: its request
// buffer, the paths and buffers it passes to the host imports, and its
// reply. Growing the real module past 2 GiB would take minutes; the host
// code under test is the same. And ranges outside the guest's memory
// (ABI.md#imports): the import touches nothing and traps the call.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSkilldex, createNodeFS, MemoryFS, SkilldexError, ABI_VERSION } from '../index.js';
import { assemble, op, T } from './wasmgen.js';

/** The host import module of this ABI version. */
const HOST = `skilldex_host_v${ABI_VERSION}`;
const REQ = 0x8000_0000; // skilldex_alloc's answer: exactly 2 GiB
const OUT_TYPE = 0x8001_0100; // stat's *out_type
const OUT_LEN = 0x8001_0108; // read_file's *out_len
const BUF = 0x8001_2000; // read_file's buffer, and the reply
const PAGES = 0x8002_0000 / 65536;

/**
 * skilldex_call(p, n) treats the request as a path: stat(p, n) into
 * OUT_TYPE, read_file(p, n) into BUF, then writes '0' + type over the
 * 9th byte of what it read and returns BUF and the length read, packed.
 */
const highGuest = assemble({
  pages: PAGES,
  imports: [
    { module: HOST, name: 'stat', params: [T.i32, T.i32, T.i32], results: [T.i32] },
    { module: HOST, name: 'read_file', params: [T.i32, T.i32, T.i32, T.i32, T.i32], results: [T.i32] },
  ],
  funcs: [
    { name: '_initialize', params: [], results: [], body: [] },
    { name: 'skilldex_abi_version', params: [], results: [T.i32], body: op.i32(ABI_VERSION) },
    { name: 'skilldex_alloc', params: [T.i32], results: [T.i32], body: op.i32(REQ) },
    {
      name: 'skilldex_call',
      params: [T.i32, T.i32],
      results: [T.i64],
      body: [
        ...op.localGet(0), ...op.localGet(1), ...op.i32(OUT_TYPE), ...op.call(0), ...op.drop,
        ...op.localGet(0), ...op.localGet(1), ...op.i32(BUF), ...op.i32(4096), ...op.i32(OUT_LEN), ...op.call(1), ...op.drop,
        ...op.i32(BUF + 8), ...op.i32(OUT_TYPE), ...op.i32Load, ...op.i32(48), ...op.i32Add, ...op.i32Store8,
        ...op.i64(BigInt(BUF) << 32n), ...op.i32(OUT_LEN), ...op.i32Load, ...op.i64ExtendI32U, ...op.i64Or,
      ],
    },
  ],
});

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-highmem-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const content = '{"type":?,"pad":"' + 'x'.repeat(300) + '"}';
const want = content.replace('?', '1'); // stat said "file" (1)

test('request, import arguments and reply above 2 GiB: MemoryFS (string paths)', async () => {
  const m = new MemoryFS();
  m.writeFile('/reply.json', content);
  const sk = createSkilldex({ fs: m, wasm: highGuest });
  assert.equal(await sk.call('/reply.json'), want);
  assert.equal(await sk.call('/reply.json'), want, 'a second call on the same instance');
  assert.equal(sk.stats().instances, 1);
  assert.ok(sk.stats().memoryBytes > 2 ** 31);
});

test('request, import arguments and reply above 2 GiB: createNodeFS (byte paths, reads into guest memory)', async () => {
  fs.writeFileSync(path.join(tmp, 'reply.json'), content);
  const sk = createSkilldex({ fs: createNodeFS(fs), wasm: highGuest });
  assert.equal(await sk.call(path.join(tmp, 'reply.json')), want);
});

/**
 * A one-page guest whose skilldex_call passes the host import `name` the
 * arguments `args` (the path is the request, at 1024).
 */
function badGuest(name, args) {
  const params = args.map(() => T.i32);
  return assemble({
    imports: [{ module: HOST, name, params, results: [T.i32] }],
    funcs: [
      { name: '_initialize', params: [], results: [], body: [] },
      { name: 'skilldex_abi_version', params: [], results: [T.i32], body: op.i32(ABI_VERSION) },
      { name: 'skilldex_alloc', params: [T.i32], results: [T.i32], body: op.i32(1024) },
      {
        name: 'skilldex_call',
        params: [T.i32, T.i32],
        results: [T.i64],
        body: [...args.flatMap((a) => (a === 'p' ? op.localGet(0) : a === 'n' ? op.localGet(1) : op.i32(a))), ...op.call(0), ...op.drop, ...op.i64(0)],
      },
    ],
  });
}

const PAGE = 65536;
const outOfBounds = [
  ['stat', ['p', 'n', PAGE - 2], 'out pointer'],
  ['lstat', [PAGE - 1, 2, 0], 'path'],
  ['read_dir', ['p', 'n', 4096, PAGE, 0], 'buffer'],
  ['read_file', ['p', 'n', 0x8000_0000, 16, 0], 'buffer'],
  ['read_file', ['p', 'n', 4096, 16, 0xffff_fffe], 'out pointer'],
  ['realpath', ['p', 'n', 4096, 64, PAGE], 'out pointer'],
  ['parse_frontmatter', ['p', 'n', 0x8000_0000, 4, 4096, 64, 0], 'text'],
  ['parse_frontmatter', ['p', 'n', 'p', 'n', PAGE - 8, 64, 0], 'buffer'],
];

for (const [name, args, what] of outOfBounds) {
  test(`${name}: the ${what} outside the guest's memory traps the call and touches nothing (${args.join(', ')})`, async () => {
    const m = new MemoryFS();
    m.writeFile('/d/f', 'x');
    let touched = 0;
    const fsys = new Proxy(m, { get: (t, k) => (typeof t[k] === 'function' ? (...a) => (touched++, t[k](...a)) : t[k]) });
    const sk = createSkilldex({ fs: fsys, wasm: badGuest(name, args) });
    await assert.rejects(sk.call('/d'), (e) => e instanceof SkilldexError && e.code === 'INTERNAL' && e.message.includes(`${name}: ${what}`) && /broke the ABI/.test(e.message));
    assert.equal(touched, 0, 'the filesystem was called');
    await assert.rejects(sk.call('/d'), /broke the ABI/);
    assert.equal(sk.stats().instances, 2, 'each trap replaces the instance');
  });
}
