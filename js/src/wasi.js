// @ts-check
// A minimal WASI preview 1 for the skilldex module: exactly what the Go
// runtime imports (wasm/testdata/abi.golden), nothing that touches files.
// See wasm/ABI.md#wasi. Deliberately not node:wasi (experimental, warns,
// missing on Deno) and not a general-purpose shim.

const ESUCCESS = 0;
const EBADF = 8;
const EINVAL = 28;
const ENOSYS = 52;

/** Thrown by proc_exit: the Go runtime stopped (a fatal error). The instance is dead. */
export class WasiExit extends Error {
  /** @param {number} code */
  constructor(code) {
    super(`the module exited with status ${code}`);
    this.name = 'WasiExit';
    this.exitCode = code;
  }
}

/** @typedef {(...args: any[]) => number | void} WasiFunction */

/** @type {Int32Array | undefined} */
let sleeper;

/**
 * Block the thread for ms milliseconds without spinning. Atomics.wait is
 * allowed in Node, Deno, Bun and workers; where it is not (a browser's main
 * thread) the sleep is skipped, which only makes Go's scheduler poll sooner.
 * @param {number} ms
 */
function sleep(ms) {
  if (!(ms > 0)) return;
  try {
    sleeper ??= new Int32Array(new SharedArrayBuffer(4));
    Atomics.wait(sleeper, 0, 0, ms);
  } catch {
    // no shared memory or no blocking allowed here
  }
}

const textDecoder = new TextDecoder();

/**
 * The wasi_snapshot_preview1 import object.
 * @param {() => WebAssembly.Memory} memory the instance's memory (set after instantiation)
 * @param {(fd: number, text: string) => void} write where fd 1 and 2 go
 * @param {((buf: Uint8Array) => void) | null} [randomFill] the runtime's quickest source of random bytes for random_get (default: crypto.getRandomValues)
 * @returns {Record<string, WasiFunction>}
 */
export function createWasi(memory, write, randomFill = null) {
  const dv = () => new DataView(memory().buffer);
  const u8 = () => new Uint8Array(memory().buffer);
  // process.hrtime where there is one (Node, Deno, Bun): Node's global
  // performance loads a dozen perf_hooks modules at its first use, about 2
  // ms of a one-shot run. Browsers have only performance.
  /** @type {(() => bigint) | undefined} */
  const hrtime = /** @type {any} */ (globalThis).process?.hrtime?.bigint;
  const mono = hrtime ? () => hrtime() : () => BigInt(Math.round(performance.now() * 1e6));
  const now = hrtime ? () => BigInt(Date.now()) * 1000000n : () => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));

  /** @type {Record<string, WasiFunction>} */
  const wasi = {
    // Pointers arrive as signed i32s: read them as unsigned (>>> 0), or an
    // address at 2 GiB or above is negative (wasm/ABI.md#exports).
    args_sizes_get(argc, bufSize) {
      (argc >>>= 0), (bufSize >>>= 0);
      dv().setUint32(argc, 0, true);
      dv().setUint32(bufSize, 0, true);
      return ESUCCESS;
    },
    args_get() {
      return ESUCCESS;
    },
    environ_sizes_get(count, bufSize) {
      (count >>>= 0), (bufSize >>>= 0);
      dv().setUint32(count, 0, true);
      dv().setUint32(bufSize, 0, true);
      return ESUCCESS;
    },
    environ_get() {
      return ESUCCESS;
    },
    clock_time_get(id, _precision, out) {
      out >>>= 0;
      dv().setBigUint64(out, id === 0 ? now() : mono(), true);
      return ESUCCESS;
    },
    random_get(ptr, len) {
      (ptr >>>= 0), (len >>>= 0);
      const buf = u8();
      for (let i = 0; i < len; i += 65536) {
        const part = buf.subarray(ptr + i, ptr + Math.min(len, i + 65536));
        if (randomFill) randomFill(part);
        else crypto.getRandomValues(part);
      }
      return ESUCCESS;
    },
    sched_yield() {
      return ESUCCESS;
    },
    proc_exit(code) {
      throw new WasiExit(code);
    },
    fd_write(fd, iovs, iovsLen, nwritten) {
      if (fd !== 1 && fd !== 2) return EBADF;
      (iovs >>>= 0), (iovsLen >>>= 0), (nwritten >>>= 0);
      const view = dv();
      const mem = u8();
      let total = 0;
      let text = '';
      for (let i = 0; i < iovsLen; i++) {
        const ptr = view.getUint32(iovs + i * 8, true);
        const len = view.getUint32(iovs + i * 8 + 4, true);
        text += textDecoder.decode(mem.subarray(ptr, ptr + len));
        total += len;
      }
      write(fd, text);
      dv().setUint32(nwritten, total, true);
      return ESUCCESS;
    },
    fd_read(fd, _iovs, _iovsLen, nread) {
      if (fd !== 0) return EBADF;
      dv().setUint32(nread >>> 0, 0, true);
      return ESUCCESS;
    },
    fd_close(fd) {
      return fd >>> 0 <= 2 ? ESUCCESS : EBADF;
    },
    fd_fdstat_get(fd, out) {
      if (fd >>> 0 > 2) return EBADF;
      out >>>= 0;
      u8().fill(0, out, out + 24);
      dv().setUint8(out, 2); // character device
      return ESUCCESS;
    },
    fd_fdstat_set_flags(fd) {
      return fd >>> 0 <= 2 ? ESUCCESS : EBADF;
    },
    fd_prestat_get() {
      return EBADF; // no preopens
    },
    fd_prestat_dir_name() {
      return EBADF;
    },
    poll_oneoff(inPtr, outPtr, nsubs, nevents) {
      // The Go scheduler sleeps here when every goroutine waits on a timer.
      // Only clock subscriptions are honoured: sleep until the earliest,
      // then report every clock that is due.
      (inPtr >>>= 0), (outPtr >>>= 0), (nsubs >>>= 0), (nevents >>>= 0);
      if (nsubs === 0) return EINVAL;
      const view = dv();
      const t0 = mono();
      let wait = -1n;
      const subs = [];
      for (let i = 0; i < nsubs; i++) {
        const s = inPtr + i * 48;
        const tag = view.getUint8(s + 8);
        const sub = { userdata: view.getBigUint64(s, true), tag, deadline: 0n };
        if (tag === 0) {
          const clock = view.getUint32(s + 16, true);
          const timeout = view.getBigUint64(s + 24, true);
          const abs = (view.getUint16(s + 40, true) & 1) !== 0;
          let rel = abs ? timeout - (clock === 0 ? now() : mono()) : timeout;
          if (rel < 0n) rel = 0n;
          sub.deadline = t0 + rel;
          if (wait < 0n || rel < wait) wait = rel;
        }
        subs.push(sub);
      }
      if (wait > 0n) sleep(Number(wait / 1000000n) + (wait % 1000000n > 0n ? 1 : 0));
      const t1 = mono();
      let n = 0;
      const out = dv();
      for (const sub of subs) {
        if (sub.tag === 0 && sub.deadline > t1) continue;
        const e = outPtr + n * 32;
        out.setBigUint64(e, sub.userdata, true);
        out.setUint16(e + 8, sub.tag === 0 ? ESUCCESS : ENOSYS, true);
        out.setUint8(e + 10, sub.tag);
        out.setBigUint64(e + 16, 0n, true);
        out.setUint16(e + 24, 0, true);
        n++;
      }
      out.setUint32(nevents, n, true);
      return ESUCCESS;
    },
  };
  return wasi;
}

/** What a WASI function not in the table answers: ENOSYS. */
export const wasiMissing = () => ENOSYS;
