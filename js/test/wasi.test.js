// The WASI shim (wasm/ABI.md#wasi): what the Go runtime calls.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWasi, WasiExit } from '../src/wasi.js';

function setup() {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const written = [];
  const wasi = createWasi(() => memory, (fd, text) => written.push([fd, text]));
  return { memory, wasi, written, dv: new DataView(memory.buffer), u8: new Uint8Array(memory.buffer) };
}

test('poll_oneoff really sleeps until the clock subscription is due', () => {
  const { wasi, dv } = setup();
  // One relative clock subscription of 30 ms at 0; events at 100; count at 200.
  dv.setBigUint64(0, 42n, true); // userdata
  dv.setUint8(8, 0); // clock
  dv.setUint32(16, 1, true); // monotonic
  dv.setBigUint64(24, 30_000_000n, true);
  dv.setUint16(40, 0, true);
  const t0 = performance.now();
  assert.equal(wasi.poll_oneoff(0, 100, 1, 200), 0);
  const slept = performance.now() - t0;
  assert.ok(slept >= 25, `slept ${slept} ms`);
  assert.equal(dv.getUint32(200, true), 1);
  assert.equal(dv.getBigUint64(100, true), 42n);
  assert.equal(dv.getUint16(108, true), 0);
});

test('clocks: realtime is the epoch in ns, monotonic does not go back', () => {
  const { wasi, dv } = setup();
  wasi.clock_time_get(0, 0n, 0);
  const wall = Number(dv.getBigUint64(0, true) / 1_000_000n);
  assert.ok(Math.abs(wall - Date.now()) < 1000);
  wasi.clock_time_get(1, 0n, 8);
  wasi.clock_time_get(1, 0n, 16);
  assert.ok(dv.getBigUint64(16, true) >= dv.getBigUint64(8, true));
});

// Node's global performance loads a dozen perf_hooks modules at its first
// use; the clocks take process.hrtime instead (a one-shot run).
test('clocks: reading them in Node loads no perf_hooks module', { skip: !!(globalThis.Deno || globalThis.Bun) }, async () => {
  const { execFileSync } = await import('node:child_process');
  const wasiURL = new URL('../src/wasi.js', import.meta.url).href;
  const script = `const { createWasi } = await import(${JSON.stringify(wasiURL)});
    const memory = new WebAssembly.Memory({ initial: 1 });
    const wasi = createWasi(() => memory, () => {});
    wasi.clock_time_get(0, 0n, 0);
    wasi.clock_time_get(1, 0n, 8);
    process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m === 'NativeModule internal/perf/performance')));`;
  // Not as a test runner's child (NODE_TEST_CONTEXT), which times itself.
  const env = { ...process.env, NODE_TEST_CONTEXT: '' };
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env });
  assert.deepEqual(JSON.parse(out), []);
});

test('fd_write goes to the sink for fds 1 and 2 only; random_get fills', () => {
  const { wasi, dv, u8, written } = setup();
  u8.set(new TextEncoder().encode('fatal error: x\n'), 64);
  dv.setUint32(0, 64, true);
  dv.setUint32(4, 15, true);
  assert.equal(wasi.fd_write(2, 0, 1, 32), 0);
  assert.equal(dv.getUint32(32, true), 15);
  assert.deepEqual(written, [[2, 'fatal error: x\n']]);
  assert.equal(wasi.fd_write(5, 0, 1, 32), 8); // EBADF
  assert.equal(wasi.random_get(1000, 70000), 0);
  assert.ok(u8.subarray(1000, 71000).some((b) => b !== 0));
});

test('no args, no environment, no preopens; proc_exit throws', () => {
  const { wasi, dv } = setup();
  dv.setUint32(0, 9, true);
  assert.equal(wasi.args_sizes_get(0, 4), 0);
  assert.equal(dv.getUint32(0, true), 0);
  assert.equal(wasi.environ_sizes_get(0, 4), 0);
  assert.equal(wasi.fd_prestat_get(3, 0), 8);
  assert.throws(() => wasi.proc_exit(2), (e) => e instanceof WasiExit && e.exitCode === 2);
});
