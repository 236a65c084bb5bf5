/**
 * The `ctx` object a program sees, built from the host side of the VM: a frozen object whose
 * methods are host functions, and the VM's own `JSON`, `String` and `Object.assign` taken before
 * any script runs (a script that replaces them later changes nothing here). Building it costs a
 * few handle operations instead of compiling a script into every fresh VM, which was a quarter of
 * a short program's time. Only strings cross the boundary in either direction: arguments are
 * turned into JSON text inside the VM, answers are parsed there, so no host object, prototype or
 * function is ever reachable from the script.
 *
 * The helpers (`grep`, `glob`, `readFile`, `ls`) build their arguments as
 * `Object.assign({}, options, { [key]: String(value) })` and send them with the helper's name as
 * the operation; the host answers `{"v": value}`, or `{"f": result}` for a failed call, which
 * becomes a `ToolCallError` with the tool's name, error kind, code and exit code.
 */
import type { QuickJSContext, QuickJSHandle, VmCallResult } from 'quickjs-emscripten-core';
import { didYouMean } from '../config/did-you-mean.js';
import { newVmDeferred, type VmDeferredResult } from './vm-deferred.js';

/** How an answer to a `ctx` operation becomes the value its promise resolves with. */
export type ReplyShape = 'tool' | 'helper';

/** What the `ctx` methods call on the host (the program running in the VM). */
export interface CtxCalls {
  /** Starts one operation; returns the VM promise the script awaits, or what the VM threw making it. */
  call(op: string, payload: string, shape: ReplyShape): VmCallResult<QuickJSHandle>;
  /** Records one `ctx.log` line. */
  log(text: string): void;
}

/** A VM's `ctx` and the VM functions the host uses on the script's values. */
export interface CtxHandles {
  readonly ctx: QuickJSHandle;
  /** Every handle to dispose with the VM, `ctx` included. */
  readonly owned: readonly QuickJSHandle[];
  /** A new VM promise for the host to settle, or what the VM threw making it (a handle the caller owns). */
  newDeferred(): VmDeferredResult;
  /** The value an answer settles with, or the error to reject with (a handle the caller owns). */
  reply(json: string, shape: ReplyShape): VmCallResult<QuickJSHandle>;
  /** The script's return value as `[kind, text, totalChars]`, at most `maxChars` of it copied out. */
  toResult(
    value: QuickJSHandle,
    maxChars: number,
  ): [kind: 'json' | 'string' | 'undefined' | 'unserializable', string, number];
}

/** A value computed in the VM, or the handle of what the VM threw. */
type Got<T> =
  | { readonly value: T; readonly error?: undefined }
  | { readonly value?: undefined; readonly error: QuickJSHandle };

const HELPERS: readonly (readonly [method: string, op: string, key: string])[] = [
  ['grep', 'grep', 'pattern'],
  ['glob', 'glob', 'pattern'],
  ['readFile', 'read', 'file_path'],
  ['ls', 'ls', 'path'],
];

/** Builds `ctx` in `vm`; `calls()` is the program the VM serves when a method is called. */
export function buildCtx(vm: QuickJSContext, calls: () => CtxCalls | undefined): CtxHandles {
  const owned: QuickJSHandle[] = [];
  const own = (h: QuickJSHandle): QuickJSHandle => {
    owned.push(h);
    return h;
  };
  const json = own(vm.getProp(vm.global, 'JSON'));
  const stringify = own(vm.getProp(json, 'stringify'));
  const parse = own(vm.getProp(json, 'parse'));
  const toStr = own(vm.getProp(vm.global, 'String'));
  const object = own(vm.getProp(vm.global, 'Object'));
  const assign = own(vm.getProp(object, 'assign'));
  const freeze = own(vm.getProp(object, 'freeze'));
  const is = own(vm.getProp(object, 'is'));
  const isArray = own(vm.getProp(own(vm.getProp(vm.global, 'Array')), 'isArray'));
  const slice = own(vm.getProp(own(vm.getProp(toStr, 'prototype')), 'slice'));
  const promise = own(vm.getProp(vm.global, 'Promise'));
  const withResolvers = own(vm.getProp(promise, 'withResolvers'));

  const serving = (): CtxCalls => {
    const c = calls();
    if (c === undefined) throw new Error('no program is running');
    return c;
  };
  /** `String(v)` in the VM, as text. */
  const text = (v: QuickJSHandle): Got<string> => {
    if (vm.typeof(v) === 'string') return { value: vm.getString(v) };
    const r = vm.callFunction(toStr, vm.undefined, v);
    if (r.error !== undefined) return { error: r.error };
    return { value: r.value.consume((h) => vm.getString(h)) };
  };
  /** `JSON.stringify(v)` in the VM: its text, `undefined` when it gives none, or what it threw. */
  const toJson = (v: QuickJSHandle): Got<string | undefined> => {
    const r = vm.callFunction(stringify, json, v);
    if (r.error !== undefined) return { error: r.error };
    return { value: r.value.consume((h) => (vm.typeof(h) === 'string' ? vm.getString(h) : undefined)) };
  };
  /** True when the VM function `fn` called with `args` returns `true`; what it threw otherwise. */
  const test = (fn: QuickJSHandle, ...args: QuickJSHandle[]): Got<boolean> => {
    const r = vm.callFunction(fn, vm.undefined, ...args);
    if (r.error !== undefined) return { error: r.error };
    return { value: r.value.consume((h) => vm.typeof(h) === 'boolean' && vm.dump(h) === true) };
  };
  const isNull = (v: QuickJSHandle): boolean => vm.typeof(v) === 'object' && test(is, v, vm.null).value === true;
  /** `v !== null && typeof v === 'object' && !Array.isArray(v)`, or what `Array.isArray` threw (a revoked proxy). */
  const isPlainObject = (v: QuickJSHandle | undefined): Got<boolean> => {
    if (v === undefined || vm.typeof(v) !== 'object' || isNull(v)) return { value: false };
    const r = test(isArray, v);
    return r.error === undefined ? { value: !r.value } : { error: r.error };
  };

  const ctx = own(vm.newObject());
  const method = (
    name: string,
    fn: (args: QuickJSHandle[]) => QuickJSHandle | VmCallResult<QuickJSHandle> | undefined,
  ): void => {
    vm.newFunction(name, (...args) => fn(args)).consume((f) => vm.setProp(ctx, name, f));
  };
  method('tool', ([nameH, argsH]) => {
    const name = nameH === undefined ? { value: 'undefined' } : text(nameH);
    if (name.error !== undefined) return { error: name.error };
    const args = argsH === undefined || vm.typeof(argsH) === 'undefined' ? { value: '{}' } : toJson(argsH);
    if (args.error !== undefined) return { error: args.error };
    const head = `{"name":${JSON.stringify(name.value)}`;
    return serving().call('tool', args.value === undefined ? `${head}}` : `${head},"args":${args.value}}`, 'tool');
  });
  for (const [m, op, key] of HELPERS) {
    method(m, ([value, options]) => {
      // The order of `Object.assign({}, plain ? options : {}, { [key]: String(value) })`.
      const plain = isPlainObject(options);
      if (plain.error !== undefined) return { error: plain.error };
      const pairs = vm.newObject();
      try {
        if (!(key === 'path' && (value === undefined || vm.typeof(value) === 'undefined'))) {
          const s = value === undefined ? { value: 'undefined' } : text(value);
          if (s.error !== undefined) return { error: s.error };
          vm.newString(s.value).consume((h) =>
            vm.defineProp(pairs, key, { value: h, enumerable: true, configurable: true }),
          );
        }
        const merged = vm
          .newObject()
          .consume((target) =>
            vm.callFunction(
              assign,
              object,
              target,
              plain.value && options !== undefined ? options : vm.undefined,
              pairs,
            ),
          );
        if (merged.error !== undefined) return { error: merged.error };
        const payload = merged.value.consume(toJson);
        if (payload.error !== undefined) return { error: payload.error };
        return serving().call(op, payload.value ?? 'null', 'helper');
      } finally {
        pairs.dispose();
      }
    });
  }
  method('log', (values) => {
    const parts: string[] = [];
    for (const v of values) {
      if (vm.typeof(v) === 'string') {
        parts.push(vm.getString(v));
        continue;
      }
      const j = toJson(v);
      if (j.error === undefined && j.value !== undefined) {
        parts.push(j.value);
        continue;
      }
      j.error?.dispose();
      const s = text(v);
      if (s.error !== undefined) return { error: s.error };
      parts.push(s.value);
    }
    serving().log(parts.join(' '));
    return undefined;
  });
  const frozen = vm.callFunction(freeze, object, ctx);
  (frozen.error ?? frozen.value).dispose();

  return {
    ctx: guarded(vm, ctx, own),
    owned,
    newDeferred: () => newVmDeferred(vm, promise, withResolvers),
    reply(answer, shape) {
      if (shape === 'helper' && answer.startsWith('{"f":')) return { error: toolCallError(vm, answer) };
      const r = vm.newString(answer).consume((h) => vm.callFunction(parse, json, h));
      if (r.error !== undefined || shape === 'tool') return r;
      return { value: r.value.consume((h) => vm.getProp(h, 'v')) };
    },
    toResult(value, maxChars) {
      const kind = vm.typeof(value);
      if (kind === 'undefined') return ['undefined', '', 0];
      let out = value;
      if (kind !== 'string') {
        const r = vm.callFunction(stringify, json, value);
        if (r.error !== undefined)
          return ['unserializable', r.error.consume((e) => thrownMessage(vm, e, toStr, isNull)), 0];
        if (vm.typeof(r.value) !== 'string') {
          r.value.dispose();
          return ['undefined', '', 0];
        }
        out = r.value;
      }
      try {
        const total = vm.getProp(out, 'length').consume((h) => vm.getNumber(h));
        const shown = kind === 'string' ? 'string' : 'json';
        if (total <= maxChars) return [shown, vm.getString(out), total];
        const from = vm.newNumber(0);
        const to = vm.newNumber(maxChars);
        const cut = vm.callFunction(slice, out, from, to);
        from.dispose();
        to.dispose();
        if (cut.error !== undefined)
          return cut.error.consume(() => ['unserializable', 'the result could not be cut to size', 0]);
        return [shown, cut.value.consume((h) => vm.getString(h)), total];
      } finally {
        if (out !== value) out.dispose();
      }
    },
  };
}

/** The members of `ctx`, as the script calls them. */
export const CTX_MEMBERS: readonly string[] = ['tool', ...HELPERS.map(([m]) => m), 'log'];

/** Names read from any object without meaning a member: `await ctx` reads `then`, `JSON.stringify(ctx)` reads `toJSON`. */
const PROBED = new Set(['then', 'toJSON']);

/** Why `ctx.<name>` is not there, and what to write instead. */
export function unknownCtxMember(name: string): string {
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  const head = `ctx.${shown} is not a member of ctx (ctx has: ${CTX_MEMBERS.join(', ')})`;
  const near = didYouMean(name, CTX_MEMBERS);
  if (near !== '') return `${head}${near}`;
  if (name === 'bash') return `${head}; run a command with ctx.tool('bash', { command: '...' })`;
  return `${head}; call a tool by its name with ctx.tool(${JSON.stringify(shown)}, args)`;
}

/**
 * `ctx` behind a proxy whose `get` throws a `TypeError` for a name `ctx` lacks (`ctx.bash`), naming
 * it and what `ctx` has, instead of handing back `undefined` for the script to fail on later with
 * a bare "not a function". Made with the VM's own `Reflect.construct` and `Proxy`, taken before any
 * script runs; the trap is a host function, so no script is compiled.
 */
function guarded(vm: QuickJSContext, ctx: QuickJSHandle, own: (h: QuickJSHandle) => QuickJSHandle): QuickJSHandle {
  const reflect = own(vm.getProp(vm.global, 'Reflect'));
  const construct = own(vm.getProp(reflect, 'construct'));
  const proxy = own(vm.getProp(vm.global, 'Proxy'));
  const handler = own(vm.newObject());
  vm.newFunction('get', (target, key) => {
    const value = vm.getProp(target, key);
    if (vm.typeof(value) !== 'undefined' || vm.typeof(key) !== 'string') return value;
    const name = vm.getString(key);
    if (PROBED.has(name)) return value;
    value.dispose();
    return { error: vm.newError({ name: 'TypeError', message: unknownCtxMember(name) }) };
  }).consume((f) => vm.setProp(handler, 'get', f));
  const args = vm.newArray();
  try {
    vm.setProp(args, 0, ctx);
    vm.setProp(args, 1, handler);
    const made = vm.callFunction(construct, reflect, proxy, args);
    if (made.error !== undefined) {
      made.error.dispose();
      return ctx;
    }
    return own(made.value);
  } finally {
    args.dispose();
  }
}

/** `String(e && e.message)` for a value the VM threw (a message that cannot be read says so). */
function thrownMessage(
  vm: QuickJSContext,
  e: QuickJSHandle,
  toStr: QuickJSHandle,
  isNull: (v: QuickJSHandle) => boolean,
): string {
  const t = vm.typeof(e);
  const obj = (t === 'object' && !isNull(e)) || t === 'function';
  try {
    const falsy = t === 'object' || (t !== 'symbol' && !vm.dump(e));
    const picked = obj ? vm.getProp(e, 'message') : falsy ? e.dup() : vm.undefined;
    const r = picked.consume((h) => vm.callFunction(toStr, vm.undefined, h));
    return r.error === undefined
      ? r.value.consume((h) => vm.getString(h))
      : r.error.consume(() => '(message unreadable)');
  } catch {
    return '(message unreadable)';
  }
}

/** The `ToolCallError` for a failed helper call, from the host's `{"f": result}` answer. */
function toolCallError(vm: QuickJSContext, answer: string): QuickJSHandle {
  const r = (JSON.parse(answer) as { f: Record<string, unknown> }).f;
  const message = typeof r.output === 'string' && r.output.length > 0 ? r.output : `tool ${String(r.name)} failed`;
  const e = vm.newError({ name: 'ToolCallError', message });
  const put = (key: string, v: unknown): void => {
    const h =
      typeof v === 'string'
        ? vm.newString(v)
        : typeof v === 'number'
          ? vm.newNumber(v)
          : v === null
            ? vm.null
            : vm.undefined;
    vm.setProp(e, key, h);
    if (h !== vm.null && h !== vm.undefined) h.dispose();
  };
  put('tool', r.name);
  put('kind', r.error_kind);
  put('code', r.error_code);
  put('exitCode', r.exit_code);
  return e;
}
