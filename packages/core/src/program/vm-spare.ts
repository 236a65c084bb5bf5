/**
 * A QuickJS runtime and context made ready before a program asks for one, so a program pays only
 * for its own script. A spare holds a fresh runtime (memory and stack limits set), a fresh context
 * and its `ctx` object (`ctx-host.ts`), and nothing else: no script has ever run
 * in it, so every program still gets a VM of its own. The spare is made while the worker is idle
 * (after a program, or once QuickJS is loaded), and a finished program's VM is disposed after its
 * result has been handed back; the next program waits for both, so a VM's memory is always freed
 * before another VM is made on the same QuickJS instance.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import type { VmDeferred } from './vm-deferred.js';
import { buildCtx, type CtxCalls, type CtxHandles } from './ctx-host.js';
import { type BoundedQuickJs, acquireQuickJs, releaseQuickJs } from './quickjs-module.js';

/** A runtime and context with `ctx` built, for one program. */
export interface PreparedVm {
  readonly quickjs: BoundedQuickJs;
  readonly runtime: QuickJSRuntime;
  readonly vm: QuickJSContext;
  readonly maxStackBytes: number;
  /** `ctx` and the VM functions the host uses on the script's values. */
  readonly ctx: CtxHandles;
  /** The program `ctx`'s methods serve (set when it starts). */
  binding: CtxCalls | undefined;
}

let spare: PreparedVm | undefined;
/** Work on the worker's QuickJS instance in progress (disposing a finished VM, making a spare). */
let busy: Promise<void> = Promise.resolve();

function chain(step: () => void | Promise<void>): Promise<void> {
  const next = busy.then(step);
  busy = next.catch(() => undefined);
  return next;
}

/** Makes a runtime and context for `limitBytes` and `maxStackBytes` with `ctx` built. */
async function prepare(limitBytes: number, maxStackBytes: number): Promise<PreparedVm> {
  const quickjs = await acquireQuickJs(limitBytes);
  const runtime = quickjs.module.newRuntime();
  let vm: QuickJSContext | undefined;
  try {
    // Under Emscripten this stops single huge allocations early; the memory bound is `quickjs`'s.
    runtime.setMemoryLimit(limitBytes);
    runtime.setMaxStackSize(maxStackBytes);
    vm = runtime.newContext();
    const ctx = vm;
    const p: { binding: CtxCalls | undefined } = { binding: undefined };
    const prepared: PreparedVm = {
      quickjs,
      runtime,
      vm: ctx,
      maxStackBytes,
      ctx: buildCtx(ctx, () => p.binding),
      get binding() {
        return p.binding;
      },
      set binding(b) {
        p.binding = b;
      },
    };
    return prepared;
  } catch (e) {
    vm?.dispose();
    runtime.dispose();
    releaseQuickJs(quickjs, false);
    throw e;
  }
}

/**
 * Disposes a program's VM: its deferred promises, `handles` (in reverse), the prepared handles,
 * the context and the runtime, then hands the QuickJS instance back (kept only when `reusable`
 * and every disposal succeeded).
 */
function dispose(
  p: PreparedVm,
  handles: readonly QuickJSHandle[],
  deferreds: Iterable<VmDeferred>,
  reusable: boolean,
): void {
  let ok = reusable;
  try {
    for (const d of deferreds) if (d.alive) d.dispose();
    for (const h of [...handles].reverse()) if (h.alive) h.dispose();
    for (const h of [...p.ctx.owned].reverse()) if (h.alive) h.dispose();
    p.vm.dispose();
    p.runtime.dispose();
  } catch {
    ok = false;
  }
  releaseQuickJs(p.quickjs, ok);
}

/** The spare, taken, when it was made for these limits; a spare made for others is disposed. */
function takeSpare(limitBytes: number, maxStackBytes: number): PreparedVm | undefined {
  const s = spare;
  spare = undefined;
  if (s === undefined) return undefined;
  if (s.quickjs.limitBytes === limitBytes && s.maxStackBytes === maxStackBytes && !s.quickjs.exhausted()) return s;
  dispose(s, [], [], true);
  return undefined;
}

/** A VM for one program: the spare when it was made for the same limits, else a new one. */
export async function takeVm(limitBytes: number, maxStackBytes: number): Promise<PreparedVm> {
  await busy;
  return takeSpare(limitBytes, maxStackBytes) ?? prepare(limitBytes, maxStackBytes);
}

/**
 * Disposes a finished program's VM after the current task, so its result goes out first; the
 * next {@link takeVm} waits for it.
 */
export function retireVm(
  p: PreparedVm,
  handles: readonly QuickJSHandle[],
  deferreds: Iterable<VmDeferred>,
  reusable: boolean,
): void {
  p.binding = undefined;
  void chain(() =>
    new Promise<void>((resolve) => setImmediate(resolve)).then(() => dispose(p, handles, deferreds, reusable)),
  );
}

/**
 * Makes a spare VM for these limits once the work in progress is done (a no-op when one is ready;
 * a spare made for other limits is replaced). Fails when QuickJS cannot be loaded.
 */
export async function prepareSpareVm(limitBytes: number, maxStackBytes: number): Promise<void> {
  await chain(async () => {
    spare = takeSpare(limitBytes, maxStackBytes) ?? (await prepare(limitBytes, maxStackBytes));
  });
}
