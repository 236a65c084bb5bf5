/**
 * The JavaScript kernel program, run with `node --max-old-space-size=<MB> -e`. It speaks framed
 * JSON lines (see `kernel-protocol.ts`) over its own stdin and stdout; `console` and
 * `process.stdout`/`process.stderr` writes of a cell become output messages, coalesced (flushed
 * every 30 ms, at 16 KiB, and before any other message) and split into pieces of at most 64 KiB.
 * Cells run in one persistent `vm` context: declarations persist, the last expression is echoed,
 * top-level `await` works, and `display()` and the `tool(name, args)` bridge are provided.
 */
export const JS_KERNEL_SOURCE = String.raw`
'use strict';
const vm = require('node:vm');
const util = require('node:util');
const readline = require('node:readline');
const { createRequire } = require('node:module');
const path = require('node:path');
const FRAME = '\x1ea3s\x1f';
const rawWrite = process.stdout.write.bind(process.stdout);
const writeMsg = (msg) => rawWrite(FRAME + JSON.stringify(msg) + '\n');
let buf = [];
let bufN = 0;
let flushTimer;
const flush = () => {
  if (flushTimer !== undefined) { clearTimeout(flushTimer); flushTimer = undefined; }
  const pieces = buf;
  buf = []; bufN = 0;
  for (const [name, text] of pieces)
    for (let i = 0; i < text.length; i += 65536) writeMsg({ type: 'stream', stream: name, text: text.slice(i, i + 65536) });
};
const send = (msg) => { flush(); writeMsg(msg); };
// The end of a cell on fd 2, after whatever the cell wrote there directly (see cell-end-marks.ts).
const endMark = (id) => { try { require('node:fs').writeSync(2, '\x1e\x1fa3s-cell-end ' + id + '\n'); return true; } catch { return false; } };
const emit = (name, text) => {
  if (text === '') return;
  const last = buf[buf.length - 1];
  if (last !== undefined && last[0] === name) last[1] += text; else buf.push([name, text]);
  bufN += text.length;
  if (bufN >= 16384) flush(); else if (flushTimer === undefined) flushTimer = setTimeout(flush, 30);
};
const writer = (name) => function write(chunk, encoding, cb) {
  emit(name, typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
  const done = typeof encoding === 'function' ? encoding : cb;
  if (typeof done === 'function') process.nextTick(done);
  return true;
};
process.stdout.write = writer('stdout');
process.stderr.write = writer('stderr');
const show = (v) => (typeof v === 'string' ? v : util.inspect(v, { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }));
const stream = (name) => (...args) => { emit(name, util.format(...args) + '\n'); };
const pending = new Map();
let bridgeN = 0;
class ToolError extends Error { constructor(m) { super(m); this.name = 'ToolError'; } }
const sandbox = {
  console: { log: stream('stdout'), info: stream('stdout'), debug: stream('stdout'), warn: stream('stderr'), error: stream('stderr') },
  display: (...values) => { for (const v of values) send({ type: 'display', text: show(v) }); },
  tool: (name, args) => new Promise((resolve, reject) => {
    const id = ++bridgeN;
    pending.set(id, { resolve, reject });
    send({ type: 'bridge', id, name, args: args ?? {} });
  }),
  ToolError,
  require: createRequire(path.join(process.cwd(), '__a3s_eval__.js')),
  process, Buffer, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController,
  setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, queueMicrotask, structuredClone, fetch,
};
const context = vm.createContext(sandbox);
const compiles = (src) => { try { new vm.Script(src); return true; } catch { return false; } };
// A cell with top-level await runs as the body of an async function. Its top-level declarations
// (at the start of a line or after a ';') must outlive it: 'const x =' / 'let x =' / 'var x ='
// becomes 'globalThis.x =', a function 'globalThis.f = function f', and the names a
// destructuring declaration or a class binds are copied to globalThis once the body has run.
// The last statement, when it is an expression, is echoed: the body is split at the last ';' or
// line break that leaves a tail compiling as an expression; a declaration there echoes nothing.
const DECL = '/*a3s-decl*/';
const AT = '(^|;[ \\t]*)';
function declaredNames(code) {
  const names = new Set();
  for (const m of code.matchAll(new RegExp(AT + '(?:const|let|var)\\s+([{[][^;]*?[}\\]])\\s*=(?![=>])', 'gm'))) {
    const pattern = m[2].replace(/=[^,}\]]*/g, '');
    for (const n of pattern.matchAll(/([A-Za-z_$][\w$]*)\s*(:?)/g)) if (n[2] === '') names.add(n[1]);
  }
  for (const m of code.matchAll(new RegExp(AT + 'class\\s+([A-Za-z_$][\\w$]*)', 'gm'))) names.add(m[2]);
  return [...names];
}
function asyncWrap(code) {
  const hoisted = code
    .replace(new RegExp(AT + '(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=(?![=>])', 'gm'), '$1' + DECL + 'globalThis.$2 =');
  const copy = (n) => 'try { globalThis.' + n + ' = ' + n + '; } catch {}';
  const keep = declaredNames(code).map(copy).join('\n');
  // Function declarations stay declarations (as expressions, a next line starting with ( or [
  // would call or index them): hoisted, they are copied to globalThis before the body runs.
  const functions = [...code.matchAll(new RegExp(AT + '(?:async\\s+)?function\\s*\\*?\\s*([A-Za-z_$][\\w$]*)', 'gm'))]
    .map((m) => copy(m[2]))
    .join('\n');
  const wrap = (body, tail) =>
    '(async () => {\n' + functions + '\n' + body + '\nconst __a3s_value__ = (' + (tail ?? 'undefined') + '\n);\n' + keep + '\nreturn __a3s_value__;\n})()';
  const body = hoisted.replace(/[\s;]+$/, '');
  let tries = 0;
  for (let i = body.length - 1; i >= -1 && tries < 64; i--) {
    if (i >= 0 && body[i] !== ';' && body[i] !== '\n') continue;
    const tail = body.slice(i + 1).trim();
    if (tail === '') continue;
    if (tail.startsWith(DECL) || /^(?:const|let|var|class|function|async\s+function)\b/.test(tail)) break;
    tries++;
    const src = wrap(body.slice(0, i + 1), tail);
    if (compiles(src)) return src;
  }
  return wrap(hoisted + '\n;');
}
async function run(code) {
  let src = code;
  let script;
  try { script = new vm.Script(src, { filename: 'cell.js' }); }
  catch (e) {
    if (!(e instanceof SyntaxError) || !/await/.test(code)) throw e;
    src = asyncWrap(code);
    script = new vm.Script(src, { filename: 'cell.js' });
  }
  let value = script.runInContext(context);
  if (src !== code) value = await value;
  return value;
}
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.type === 'bridge_result') {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.output ?? ''); else p.reject(new ToolError(msg.output ?? 'tool call failed'));
    return;
  }
  if (msg.type !== 'run') return;
  queue = queue.then(async () => {
    try {
      const value = await run(msg.code);
      if (value !== undefined) send({ type: 'display', text: util.inspect(value, { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }), echo: true });
      send({ type: 'done', id: msg.id, ok: true, mark: endMark(msg.id) });
    } catch (e) {
      const text = e instanceof Error ? (e.stack ?? String(e)).split('\n').filter((l) => !l.includes('[eval]') && !l.includes('node:')).join('\n') : 'Uncaught ' + show(e);
      send({ type: 'done', id: msg.id, ok: false, error: text, mark: endMark(msg.id) });
    }
  });
});
process.on('unhandledRejection', (e) => emit('stderr', 'Unhandled rejection: ' + show(e) + '\n'));
process.on('exit', flush);
send({ type: 'ready', language: 'javascript', version: process.versions.node, pid: process.pid });
`;
