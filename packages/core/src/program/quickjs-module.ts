/**
 * The QuickJS WebAssembly module, loaded once per process on first use (~10 ms) and shared: each
 * program gets its own runtime and context on it (under a millisecond). A runtime that cannot be
 * freed cleanly may leave the module inconsistent, so it is then dropped and the next program
 * loads a new one.
 */
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import * as variantModule from '@jitl/quickjs-wasmfile-release-sync';

// The package's types are CommonJS-shaped under NodeNext; at run time the ESM build's default is the variant.
const variant = ((variantModule as { default?: unknown }).default ?? variantModule) as QuickJSSyncVariant;

let loading: Promise<QuickJSWASMModule> | undefined;
let poisoned: QuickJSWASMModule | undefined;

/** The shared module, loading it on first use (or again after {@link discardQuickJsModule}). */
export async function quickJsModule(): Promise<QuickJSWASMModule> {
  const current = loading;
  if (current !== undefined) {
    const m = await current.catch(() => undefined);
    if (m !== undefined && m !== poisoned) return m;
    if (loading !== current) return quickJsModule();
  }
  const next = newQuickJSWASMModuleFromVariant(variant);
  loading = next;
  return next.catch((e: unknown) => {
    if (loading === next) loading = undefined;
    throw e;
  });
}

/** Marks `module` unusable (a runtime on it failed to free); the next program loads a new one. */
export function discardQuickJsModule(module: QuickJSWASMModule): void {
  poisoned = module;
}
