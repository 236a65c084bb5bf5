/**
 * The JavaScript that builds `ctx` inside the VM. It receives two host functions as arguments
 * (they are never put on `globalThis`): `host(op, json)` returns a promise the host settles with
 * JSON text, and `log(text)` records a line. Only strings cross the boundary in either direction,
 * so no host object, prototype or function is ever reachable from the script.
 */

/** File name of the prelude in VM stack traces (never the script's). */
export const PRELUDE_FILE = '<a3s-ctx>';

/**
 * Evaluates to a function `(host, log, maxChars) => [ctx, toResult]`. `toResult(value)` turns the
 * script's return value into `[kind, text, totalChars]` with `text` cut to `maxChars`, so a huge
 * value is never copied out of the VM whole.
 *
 * The helpers (`grep`, `glob`, `readFile`, `ls`) build their arguments here and send them with the
 * helper's name as the operation; the host calls the tool and shapes its value (`HELPER_OPS` in
 * `ctx-bridge.ts`), answering `{ v: value }` or `{ f: result }` for a failed call, which becomes a
 * `ToolCallError` here. The prelude is compiled into every program's fresh VM, so it stays small.
 */
export const CTX_PRELUDE = `(function (host, log, maxChars) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const fail = (r) => {
    const e = new Error(r.output || ('tool ' + r.name + ' failed'));
    e.name = 'ToolCallError';
    e.tool = r.name;
    e.kind = r.error_kind;
    e.code = r.error_code;
    e.exitCode = r.exit_code;
    throw e;
  };
  const helper = (op, key) => (value, options) =>
    host(op, stringify(Object.assign({}, options !== null && typeof options === 'object' && !Array.isArray(options) ? options : {},
      key === 'path' && value === undefined ? {} : { [key]: String(value) })))
      .then((text) => { const r = parse(text); return 'f' in r ? fail(r.f) : r.v; });
  const text = (v) => {
    if (typeof v === 'string') return v;
    try { const j = stringify(v); return j === undefined ? String(v) : j; } catch (e) { return String(v); }
  };
  const ctx = {
    tool: (name, args) => host('tool', stringify({ name: String(name), args: args === undefined ? {} : args })).then(parse),
    grep: helper('grep', 'pattern'),
    glob: helper('glob', 'pattern'),
    readFile: helper('read', 'file_path'),
    ls: helper('ls', 'path'),
    log: (...values) => { log(values.map(text).join(' ')); },
  };
  Object.freeze(ctx);
  const toResult = (value) => {
    let kind = 'json';
    let out;
    if (value === undefined) return ['undefined', '', 0];
    if (typeof value === 'string') { kind = 'string'; out = value; }
    else {
      try { out = stringify(value); } catch (e) { return ['unserializable', String(e && e.message), 0]; }
      if (typeof out !== 'string') return ['undefined', '', 0];
    }
    return [kind, out.length > maxChars ? out.slice(0, maxChars) : out, out.length];
  };
  return [ctx, toResult];
})`;
