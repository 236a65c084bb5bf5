/**
 * QuickJS WebAssembly instances whose memory cannot outgrow a program's `memory_limit_bytes`.
 *
 * QuickJS's own `setMemoryLimit` is not a bound under Emscripten: it counts a fixed 8 bytes per
 * allocation (the build has no `malloc_usable_size`), so it stops one huge allocation or a flood of
 * small objects, but not 100 MB of typed arrays or strings. The bound that holds is the wasm
 * memory itself: each instance is given a `WebAssembly.Memory` whose `maximum` is
 * {@link quickJsMaxBytes} (1.05 × (16 MiB of initial pages + the limit)), and the free space of its
 * initial pages but 1 MiB is taken by a never-freed filler block, so a script reaches the limit and
 * little more (8 MiB → 9 MiB of typed arrays, 64 → 67) whatever it allocates. When the memory
 * refuses to grow, `malloc` fails (QuickJS throws "out of memory") and {@link BoundedQuickJs.exhausted}
 * turns true, which the VM's interrupt handler uses to stop the script even if it catches the error.
 *
 * The wasm code is compiled once per thread (~5 ms); an instance (~2 ms) is reused by the next
 * program with the same limit only while its memory never grew, so an idle worker holds no more
 * than the initial pages.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type EmscriptenModuleLoaderOptions,
  type QuickJSEmscriptenModule,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import * as variantModule from '@jitl/quickjs-wasmfile-release-sync';

// The package's types are CommonJS-shaped under NodeNext; at run time the ESM build's default is the variant.
const variant = ((variantModule as { default?: unknown }).default ?? variantModule) as QuickJSSyncVariant;

// The compiler's `lib` has no WebAssembly declarations: the little used here, typed locally.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  readonly Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const PAGE = 65_536;
/** The initial memory the build declares (Emscripten's default `INITIAL_MEMORY`); it holds the static data and the C stack. */
const INITIAL_BYTES = 16 * 1024 * 1024;
/** Free heap left below the filler for the runtime, the context and `ctx`. */
const HEADROOM_BYTES = 1024 * 1024;
/**
 * Emscripten asks for 5–20 % more than it needs when it grows the memory and fails if even +5 %
 * does not fit, so the maximum has that much room: a script always reaches its limit.
 */
const GROWTH_FACTOR = 1.05;

/** A QuickJS module on a bounded memory, for one program at a time. */
export interface BoundedQuickJs {
  readonly module: QuickJSWASMModule;
  /** The `memory_limit_bytes` it was made for. */
  readonly limitBytes: number;
  /** The most bytes its WebAssembly memory can ever hold. */
  readonly maxBytes: number;
  /** True when the memory last refused to grow: an allocation needed more than `maxBytes` allows. */
  exhausted(): boolean;
  /** Bytes the WebAssembly memory holds now. */
  memoryBytes(): number;
}

/** The byte size of the memory of a module made for `limitBytes`. */
export function quickJsMaxBytes(limitBytes: number): number {
  return Math.ceil(((INITIAL_BYTES + limitBytes) * GROWTH_FACTOR) / PAGE) * PAGE;
}

/**
 * QuickJS writes nothing to stdout or stderr itself; Emscripten would print a failed assertion when
 * a runtime left inconsistent by an out-of-memory error is freed (the module is then dropped).
 */
const SILENT: EmscriptenModuleLoaderOptions & { print(text: string): void; printErr(text: string): void } = {
  print: () => undefined,
  printErr: () => undefined,
};

let compiled: Promise<object> | undefined;
let idle: BoundedQuickJs | undefined;
/** The idle module being made, if any: a program waits for it rather than making a second one. */
let warming: Promise<void> | undefined;

/** Compiles the QuickJS wasm code once per thread. */
function compiledWasm(): Promise<object> {
  const current =
    compiled ??
    (async () =>
      wasm.compile(
        await readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')),
      ))();
  compiled = current;
  current.catch(() => {
    if (compiled === current) compiled = undefined;
  });
  return current;
}

/** `variant`, also handing the loaded Emscripten module (for `_malloc`) to `onLoad`. */
function capturing(onLoad: (m: QuickJSEmscriptenModule) => void): QuickJSSyncVariant {
  return {
    ...variant,
    importModuleLoader: async () => {
      const imported: unknown = await variant.importModuleLoader();
      let load = imported;
      while (typeof load !== 'function' && load !== null && typeof load === 'object' && 'default' in load)
        load = (load as { default: unknown }).default;
      if (typeof load !== 'function') throw new Error('program: the QuickJS module loader is missing');
      const loader = load as (options?: EmscriptenModuleLoaderOptions) => Promise<QuickJSEmscriptenModule>;
      return async (options?: EmscriptenModuleLoaderOptions) => {
        const m = await loader(options);
        onLoad(m);
        return m;
      };
    },
  };
}

async function instantiate(limitBytes: number): Promise<BoundedQuickJs> {
  const maxBytes = quickJsMaxBytes(limitBytes);
  const memory = new wasm.Memory({ initial: INITIAL_BYTES / PAGE, maximum: maxBytes / PAGE });
  // Emscripten retries a refused growth with less headroom, so only the outcome of the last attempt counts.
  let refused = false;
  const grow = memory.grow.bind(memory);
  memory.grow = (pages: number): number => {
    try {
      const previous = grow(pages);
      refused = false;
      return previous;
    } catch (e) {
      refused = true;
      throw e;
    }
  };
  let emscripten: QuickJSEmscriptenModule | undefined;
  const wasmModule = await compiledWasm();
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(
      capturing((m) => (emscripten = m)),
      { wasmModule, wasmMemory: memory, emscriptenModule: SILENT },
    ),
  );
  if (emscripten === undefined) throw new Error('program: the QuickJS module did not load');
  // Everything free in the initial pages except the headroom goes to a block that is never freed.
  const probe = emscripten._malloc(16);
  emscripten._free(probe);
  const filler = INITIAL_BYTES - probe - HEADROOM_BYTES;
  if (probe !== 0 && filler > 0) emscripten._malloc(filler);
  return { module, limitBytes, maxBytes, exhausted: () => refused, memoryBytes: () => memory.buffer.byteLength };
}

/** True when `q` may serve a program limited to `limitBytes`: same bound, never ran out, never grew. */
function fits(q: BoundedQuickJs, limitBytes: number): boolean {
  return q.limitBytes === limitBytes && !q.exhausted() && q.memoryBytes() <= INITIAL_BYTES;
}

/** A module for one program with `memory_limit_bytes = limitBytes`: the idle one if it fits, else a new one. */
export async function acquireQuickJs(limitBytes: number): Promise<BoundedQuickJs> {
  if (warming !== undefined) await warming;
  const q = idle;
  idle = undefined;
  return q !== undefined && fits(q, limitBytes) ? q : instantiate(limitBytes);
}

/**
 * Hands a module back after its program ended. A `healthy` one whose memory never grew is kept
 * for the next program; any other is dropped (its memory goes with it).
 */
export function releaseQuickJs(q: BoundedQuickJs, healthy: boolean): void {
  if (healthy && fits(q, q.limitBytes)) idle = q;
}

/** Compiles the wasm code and, given a limit, makes an idle module for it, so the next program starts at once. */
export function preloadQuickJs(limitBytes?: number): Promise<void> {
  const prior = warming;
  const next = (async () => {
    await prior;
    await compiledWasm();
    if (limitBytes !== undefined && (idle === undefined || !fits(idle, limitBytes)))
      idle = await instantiate(limitBytes);
  })();
  const settled = next.catch(() => undefined);
  warming = settled;
  void settled.then(() => {
    if (warming === settled) warming = undefined;
  });
  return next;
}
