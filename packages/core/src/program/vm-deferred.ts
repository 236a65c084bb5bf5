/**
 * A VM promise the host settles, made with the VM's own `Promise.withResolvers` (taken before any
 * script runs). `QuickJSContext.newPromise` is not used: it reads the resolving functions through
 * a view of the WebAssembly memory made before the allocation, and when that allocation grows the
 * memory the view is detached, so the call fails with a `TypeError` that has nothing to do with
 * the script.
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';

/** A pending VM promise and the functions that settle it. */
export interface VmDeferred {
  /** The promise (owned by the deferred: `dup()` it to hand it out). */
  readonly handle: QuickJSHandle;
  /** False once disposed. */
  readonly alive: boolean;
  /** Fulfils the promise with `value` (borrowed) and drops the resolving functions. */
  resolve(value: QuickJSHandle): void;
  /** Rejects the promise with `reason` (borrowed) and drops the resolving functions. */
  reject(reason: QuickJSHandle): void;
  /** Disposes the promise and whatever is left of the resolving functions. */
  dispose(): void;
}

/** A deferred, or the handle of what the VM threw making it. */
export type VmDeferredResult =
  | { readonly value: VmDeferred; readonly error?: undefined }
  | { readonly value?: undefined; readonly error: QuickJSHandle };

/**
 * Calls `withResolvers` on `promiseCtor` in `vm` and returns the deferred, or the handle of what
 * the VM threw (out of memory, interrupted) for the caller to dispose.
 */
export function newVmDeferred(
  vm: QuickJSContext,
  promiseCtor: QuickJSHandle,
  withResolvers: QuickJSHandle,
): VmDeferredResult {
  const made = vm.callFunction(withResolvers, promiseCtor);
  if (made.error !== undefined) return { error: made.error };
  const [handle, resolveFn, rejectFn] = made.value.consume((r) => [
    vm.getProp(r, 'promise'),
    vm.getProp(r, 'resolve'),
    vm.getProp(r, 'reject'),
  ]);
  const drop = (): void => {
    if (resolveFn.alive) resolveFn.dispose();
    if (rejectFn.alive) rejectFn.dispose();
  };
  const settle = (fn: QuickJSHandle, v: QuickJSHandle): void => {
    if (!fn.alive) return;
    const r = vm.callFunction(fn, vm.undefined, v);
    (r.error ?? r.value).dispose();
    drop();
  };
  return {
    value: {
      handle,
      get alive() {
        return handle.alive || resolveFn.alive || rejectFn.alive;
      },
      resolve: (v) => settle(resolveFn, v),
      reject: (e) => settle(rejectFn, e),
      dispose() {
        if (handle.alive) handle.dispose();
        drop();
      },
    },
  };
}
