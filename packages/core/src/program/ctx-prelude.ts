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
 */
export const CTX_PRELUDE = String.raw`(function (host, log, maxChars) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const call = (op, payload) => host(op, stringify(payload)).then((text) => parse(text));
  const fail = (r) => {
    const e = new Error(r.output || ('tool ' + r.name + ' failed'));
    e.name = 'ToolCallError';
    e.tool = r.name;
    e.kind = r.error_kind;
    e.code = r.error_code;
    e.exitCode = r.exit_code;
    throw e;
  };
  const checked = (r) => (r.ok ? r : fail(r));
  const lines = (text) => text.split('\n').filter((l) => l.length > 0 && !(l.startsWith('[') && l.endsWith(']')));
  const object = (o) => (o !== null && typeof o === 'object' && !Array.isArray(o) ? o : {});
  const invoke = (name, args) => call('tool', { name: String(name), args: args === undefined ? {} : args });
  const text = (v) => {
    if (typeof v === 'string') return v;
    try { const j = stringify(v); return j === undefined ? String(v) : j; } catch (e) { return String(v); }
  };
  const ctx = {
    tool: (name, args) => invoke(name, args),
    grep: (pattern, options) => invoke('grep', Object.assign({}, object(options), { pattern: String(pattern) })).then(checked).then((r) => r.output),
    glob: (pattern, options) =>
      invoke('glob', Object.assign({}, object(options), { pattern: String(pattern) }))
        .then(checked)
        .then((r) => (r.metadata && Array.isArray(r.metadata.paths) ? r.metadata.paths : lines(r.output))),
    readFile: (path, options) =>
      invoke('read', Object.assign({}, object(options), { file_path: String(path) }))
        .then(checked)
        .then((r) => {
          const numbered = /^ *\d+\t/;
          const out = [];
          for (const l of r.output.split('\n')) if (numbered.test(l)) out.push(l.replace(numbered, ''));
          return out.length > 0 ? out.join('\n') + '\n' : r.output;
        }),
    ls: (path, options) =>
      invoke('ls', Object.assign({}, object(options), path === undefined ? {} : { path: String(path) }))
        .then(checked)
        .then((r) => (r.metadata && Array.isArray(r.metadata.entries) ? r.metadata.entries : lines(r.output))),
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
