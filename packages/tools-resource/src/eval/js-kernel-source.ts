/**
 * The JavaScript kernel program, run with `node --max-old-space-size=<MB> -e`. It speaks framed
 * JSON lines (see `kernel-protocol.ts`) over its own stdin and stdout; `console` and
 * `process.stdout`/`process.stderr` writes of a cell become output messages, coalesced (flushed
 * every 30 ms, at 16 KiB, and before any other message) and split into pieces of at most 64 KiB.
 * Cells run in one persistent `vm` context: declarations persist, the last expression is echoed,
 * top-level `await` works, and `display()` and the `tool(name, args)` bridge are provided. Each
 * cell runs in an async context of its own (`AsyncLocalStorage`): a `tool()` call made from what a
 * cell left behind (a timer, a pending promise) after it ended is refused in the kernel, and each
 * bridge message names its cell, so the host serves it only while that cell runs.
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
// Each cell runs in its own async context: what it starts (promises, timers, callbacks) carries its
// id, and tool() serves only the cell that is running now.
const { AsyncLocalStorage } = require('node:async_hooks');
const cells = new AsyncLocalStorage();
let running;
const ENDED = 'the cell that made this call has ended; tool() works only while its cell runs';
const sandbox = {
  console: { log: stream('stdout'), info: stream('stdout'), debug: stream('stdout'), warn: stream('stderr'), error: stream('stderr') },
  display: (...values) => { for (const v of values) send({ type: 'display', text: show(v) }); },
  tool: (name, args) => new Promise((resolve, reject) => {
    const cell = cells.getStore();
    if (cell === undefined || cell !== running) return reject(new ToolError(ENDED));
    const id = ++bridgeN;
    pending.set(id, { resolve, reject });
    send({ type: 'bridge', id, cell, name, args: args ?? {} });
  }),
  ToolError,
  require: createRequire(path.join(process.cwd(), '__a3s_eval__.js')),
  process, Buffer, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController,
  setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, queueMicrotask, structuredClone, fetch,
};
const context = vm.createContext(sandbox);
const compiles = (src) => { try { new vm.Script(src); return true; } catch { return false; } };
// A plain cell keeps its top-level 'const', 'let' and 'class' as 'var' bindings (see redeclarable),
// so running it again declares them again. A cell with top-level await runs as the body of an
// async function. Its top-level declarations
// (outside any bracket, starting a statement: first in the cell, after a ';', a '}' or a line
// break, wherever on the line) must outlive it: 'const x =' / 'let x =' / 'var x ='
// becomes 'globalThis.x =', a function 'globalThis.f = function f', and the names a
// destructuring declaration or a class binds are copied to globalThis once the body has run.
// The last statement, when it is an expression, is echoed: the body is split at the last ';' or
// line break that leaves a tail compiling as an expression; a declaration there echoes nothing.
const DECL = '/*a3s-decl*/';
const AT = '()(?<![\\w$.])';
// Which characters of src are code (1), not inside a string, a template's text, a comment or a
// regular expression: declarations are rewritten only there, never in data the cell holds.
function codeMask(src) {
  const mask = new Uint8Array(src.length);
  const BT = '\x60';
  const open = [];
  let braces = 0;
  let prev = '';
  let i = 0;
  const template = (j) => {
    while (j < src.length) {
      if (src[j] === '\\') { j += 2; continue; }
      if (src[j] === BT) return j + 1;
      if (src[j] === '$' && src[j + 1] === '{') { open.push(braces); braces++; return j + 2; }
      j++;
    }
    return j;
  };
  const regexAllowed = () => prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) ||
    /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|await|yield)$/.test(src.slice(Math.max(0, i - 12), i).trimEnd());
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') { while (i < src.length && src[i] !== '\n') i++; continue; }
    if (c === '/' && n === '*') { const e = src.indexOf('*/', i + 2); i = e < 0 ? src.length : e + 2; continue; }
    if (c === "'" || c === '"') {
      i++;
      while (i < src.length && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++; prev = 'a'; continue;
    }
    if (c === BT) { i = template(i + 1); prev = 'a'; continue; }
    if (c === '/' && regexAllowed()) {
      i++;
      let cls = false;
      while (i < src.length && src[i] !== '\n') {
        if (src[i] === '\\') { i += 2; continue; }
        if (src[i] === '[') cls = true;
        else if (src[i] === ']') cls = false;
        else if (src[i] === '/' && !cls) break;
        i++;
      }
      i++; prev = 'a'; continue;
    }
    if (c === '}' && open.length > 0 && braces === open[open.length - 1] + 1) {
      open.pop(); braces--; i = template(i + 1); prev = 'a'; continue;
    }
    if (c === '{') braces++;
    else if (c === '}') braces--;
    mask[i] = 1;
    if (!/\s/.test(c)) prev = c;
    i++;
  }
  return mask;
}
// Where top-level statements may start: code outside every bracket, first in the cell or after
// a ';', a '}' or a line break (comments and strings in between are skipped).
function statementStarts(code, mask) {
  const starts = new Set();
  let depth = 0;
  let last = ';';
  let newline = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (mask[i] !== 1) { if (c === '\n') newline = true; continue; }
    if (/\s/.test(c)) { if (c === '\n') newline = true; continue; }
    if (depth === 0 && (last === ';' || last === '}' || newline)) starts.add(i);
    if ('{(['.includes(c)) depth++;
    else if ('})]'.includes(c)) depth = Math.max(0, depth - 1);
    last = c;
    newline = false;
    // The rest of a word is not a statement start.
    while (i + 1 < code.length && /[\w$]/.test(c) && /[\w$]/.test(code[i + 1]) && mask[i + 1] === 1) i++;
  }
  return starts;
}
// The matches of AT + rest in code whose keyword starts a top-level statement.
function codeMatches(code, mask, rest) {
  const starts = statementStarts(code, mask);
  return [...code.matchAll(new RegExp(AT + rest, 'g'))].filter((m) => starts.has(m.index));
}
// The matches of AT + rest in code wherever they are code (a 'var' in a block or a for head).
function codeMatchesAnywhere(code, mask, rest) {
  return [...code.matchAll(new RegExp(AT + rest, 'g'))].filter((m) => mask[m.index] === 1);
}
// anywhere: the names of every 'var' in the cell, in blocks too ('if (c) { var x }', 'for (var i',
// 'try { var r = await f() }'): a cell run as a function body would keep them local. A 'var' of
// a nested function is copied from a name that is not there, which does nothing.
function declaredNames(code, mask, anywhere = false) {
  const names = new Set();
  const bindings = (text) => {
    const pattern = text.replace(/=[^,}\]]*/g, '');
    for (const n of pattern.matchAll(/([A-Za-z_$][\w$]*)\s*(:?)/g)) if (n[2] === '') names.add(n[1]);
  };
  const matches = anywhere
    ? (rest) => codeMatchesAnywhere(code, mask, rest.replace('(?:const|let|var)', 'var'))
    : (rest) => codeMatches(code, mask, rest);
  for (const m of matches('(?:const|let|var)\\s+([{[][^;]*?[}\\]])\\s*=(?![=>])')) bindings(m[2]);
  if (!anywhere) for (const m of codeMatches(code, mask, 'class\\s+([A-Za-z_$][\\w$]*)')) names.add(m[2]);
  // 'let x;', and each later declarator of 'let a = 1, b, c = 2': copied once the body has run.
  for (const m of matches('(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)?')) {
    if (m[2] !== undefined) names.add(m[2]);
    let depth = 0;
    let last = '';
    for (let i = m.index + m[0].length; i < code.length; i++) {
      const c = code[i];
      if (mask[i] !== 1) continue;
      if (depth === 0 && (c === ';' || (c === '\n' && last !== ','))) break;
      if (/\s/.test(c)) continue;
      if ('{(['.includes(c)) depth++;
      else if ('})]'.includes(c)) depth--;
      else if (c === ',' && depth === 0) {
        const next = /^\s*(?:([A-Za-z_$][\w$]*)|([{[][^;]*?[}\]])\s*=(?![=>]))/.exec(code.slice(i + 1));
        if (next?.[1] !== undefined) names.add(next[1]);
        else if (next?.[2] !== undefined) bindings(next[2]);
      }
      if (depth < 0) break;
      last = c;
    }
  }
  return [...names];
}
function asyncWrap(code) {
  const mask = codeMask(code);
  const starts = statementStarts(code, mask);
  const hoisted = code.replace(
    new RegExp(AT + '(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=(?![=>])', 'g'),
    (m, pre, name, at) => (starts.has(at) ? DECL + 'globalThis.' + name + ' =' : m),
  );
  const copy = (n) => 'try { globalThis.' + n + ' = ' + n + '; } catch {}';
  const keep = [...new Set([...declaredNames(code, mask), ...declaredNames(code, mask, true)])].map(copy).join('\n');
  // Function declarations stay declarations (as expressions, a next line starting with ( or [
  // would call or index them): hoisted, they are copied to globalThis before the body runs.
  const functions = codeMatches(code, mask, '(?:async\\s+)?function\\s*\\*?\\s*([A-Za-z_$][\\w$]*)')
    .map((m) => copy(m[2]))
    .join('\n');
  const wrap = (body, tail) =>
    '(async () => {\n' + functions + '\n' + body + '\nconst __a3s_value__ = (' + (tail ?? 'undefined') + '\n);\n' + keep + '\nreturn __a3s_value__;\n})()';
  const body = hoisted.replace(/[\s;]+$/, '');
  const at = codeMask(body);
  let tries = 0;
  for (let i = body.length - 1; i >= -1 && tries < 64; i--) {
    if (i >= 0 && ((body[i] !== ';' && body[i] !== '\n') || at[i] !== 1)) continue;
    const tail = body.slice(i + 1).trim();
    if (tail === '') continue;
    if (tail.startsWith(DECL) || /^(?:const|let|var|class|function|async\s+function)\b/.test(tail)) break;
    tries++;
    const src = wrap(body.slice(0, i + 1), tail);
    if (compiles(src)) return src;
  }
  return wrap(hoisted + '\n;');
}
// A plain cell with its top-level 'const'/'let' as 'var' (same length, so positions hold) and
// its classes as 'var' bindings: a later cell may declare the names again, as in a notebook.
function redeclarable(code) {
  const mask = codeMask(code);
  const starts = statementStarts(code, mask);
  const out = code.replace(new RegExp(AT + '(const|let)(?=\\s*[{[A-Za-z_$])', 'g'), (m, pre, kw, at) =>
    starts.has(at) ? (kw === 'const' ? 'var  ' : 'var') : m,
  );
  return out.replace(new RegExp(AT + 'class\\s+([A-Za-z_$][\\w$]*)', 'g'), (m, pre, name, at) =>
    starts.has(at) ? 'var ' + name + ' = class ' + name : m,
  );
}
async function run(code) {
  // The cell as written runs when the rewritten one does not compile (nothing is lost to a rewrite).
  const plain = redeclarable(code);
  let wrapped = false;
  let script;
  let failure;
  for (const src of plain === code ? [code] : [plain, code]) {
    try { script = new vm.Script(src, { filename: 'cell.js' }); break; }
    catch (e) { failure = failure ?? e; }
  }
  if (script === undefined) {
    if (!(failure instanceof SyntaxError) || !/await/.test(code)) throw failure;
    script = new vm.Script(asyncWrap(code), { filename: 'cell.js' });
    wrapped = true;
  }
  let value = script.runInContext(context);
  if (wrapped) value = await value;
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
    running = msg.id;
    try {
      const value = await cells.run(msg.id, () => run(msg.code));
      running = undefined;
      if (value !== undefined) send({ type: 'display', text: util.inspect(value, { depth: 4, maxArrayLength: 100, maxStringLength: 10000 }), echo: true });
      send({ type: 'done', id: msg.id, ok: true, mark: endMark(msg.id) });
    } catch (e) {
      running = undefined;
      const text = e instanceof Error ? (e.stack ?? String(e)).split('\n').filter((l) => !l.includes('[eval]') && !l.includes('node:')).join('\n') : 'Uncaught ' + show(e);
      send({ type: 'done', id: msg.id, ok: false, error: text, mark: endMark(msg.id) });
    }
  });
});
process.on('unhandledRejection', (e) => emit('stderr', 'Unhandled rejection: ' + show(e) + '\n'));
process.on('exit', flush);
send({ type: 'ready', language: 'javascript', version: process.versions.node, pid: process.pid });
`;
