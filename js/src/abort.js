// @ts-check
// AbortSignal support of every call and of watch (SPEC S74), as Node's own
// APIs do it: a call given an aborted signal, or whose signal aborts before
// its result is delivered, rejects with a DOMException named "AbortError"
// whose cause is the signal's reason. The engine's work is synchronous
// once it runs; a call aborted while it waits for its turn is not run.

import { SkilldexError } from './engine.js';

/**
 * The AbortError of signal.
 * @param {AbortSignal} signal
 */
export function abortError(signal) {
  const e = new DOMException('The operation was aborted', 'AbortError');
  Object.defineProperty(e, 'cause', { value: signal.reason, configurable: true, writable: true });
  return e;
}

/**
 * The signal of a call's options, checked: undefined when none was given.
 * @param {unknown} signal
 * @returns {AbortSignal | undefined}
 */
export function checkSignal(signal) {
  if (signal === undefined || signal === null) return undefined;
  if (typeof signal !== 'object' || typeof (/** @type {any} */ (signal).aborted) !== 'boolean' ||
    typeof (/** @type {any} */ (signal).addEventListener) !== 'function') {
    throw new SkilldexError('INVALID_ARGUMENT', 'signal must be an AbortSignal');
  }
  return /** @type {AbortSignal} */ (signal);
}

/**
 * Throw the AbortError when signal has aborted.
 * @param {AbortSignal | undefined} signal
 */
export function throwIfAborted(signal) {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * promise, or its rejection with the AbortError as soon as signal aborts.
 * @template T
 * @param {Promise<T>} promise @param {AbortSignal | undefined} signal
 * @returns {Promise<T>}
 */
export function abortable(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {}); // its outcome is no one's now
    return Promise.reject(abortError(signal));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
