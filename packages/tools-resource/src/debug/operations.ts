/** The operations of `debug`, each turning DAP answers into bounded text plus metadata. */
import { isAbsolute, relative, resolve } from 'node:path';
import { PermissionDeniedError, type ToolResult } from '@a3s-code/core';
import type { AdapterId } from './adapters.js';
import { checkEvaluateAdapter } from './debug-commands.js';
import { DebugToolError } from './debug-errors.js';
import { lineCount } from './source-file.js';
import { framesAfter } from './stack-count.js';
import { hostPidOf } from './target-guard.js';
import type { DebugResource } from './debug-resource.js';
import type { DebugSession, ProcessHold } from './debug-session.js';

/** Frames `stack` returns at most. */
export const DEBUG_MAX_FRAMES = 30;
/** Children `variables` returns at most. */
export const DEBUG_MAX_VARIABLES = 50;
/** Characters of one value at most. */
export const DEBUG_MAX_VALUE_CHARS = 400;
/** Characters `output` returns at most (the tail). */
export const DEBUG_MAX_OUTPUT_CHARS = 16 * 1024;

/** The arguments an operation reads. */
export interface OperationArgs {
  readonly op: string;
  readonly file?: string | undefined;
  readonly lines?: readonly number[] | undefined;
  readonly program?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly adapter?: AdapterId | undefined;
  readonly port?: number | undefined;
  readonly pid?: number | undefined;
  readonly thread_id?: number | undefined;
  readonly frame_id?: number | undefined;
  readonly reference?: number | undefined;
  readonly expression?: string | undefined;
  /** How long an op that waits for a stop or the end waits, in ms. */
  readonly wait_ms?: number | undefined;
}

const ok = (output: string, metadata: Record<string, unknown> = {}): ToolResult => ({ output, exitCode: 0, metadata });
const cut = (v: string, max = DEBUG_MAX_VALUE_CHARS) => (v.length <= max ? v : `${v.slice(0, max)}…`);

function need<T>(value: T | undefined, name: string, op: string): T {
  if (value === undefined) throw new DebugToolError('DEBUG_ARGS', `${op} needs '${name}'`, { op, missing: name });
  return value;
}

async function live(debug: DebugResource): Promise<DebugSession> {
  const s = await debug.current();
  const died = s?.state.kind === 'exited' ? s.state.adapterDied : undefined;
  if (died !== undefined)
    throw new DebugToolError(
      'DEBUG_NO_SESSION',
      `the debug adapter (${s!.adapter.id}) ended unexpectedly (${died}); the session is over, start one with launch or attach`,
    );
  if (s === undefined || !s.alive)
    throw new DebugToolError('DEBUG_NO_SESSION', 'no debug session is running; start one with launch or attach');
  return s;
}

async function describeStop(s: DebugSession): Promise<{ text: string; meta: Record<string, unknown> }> {
  const st = s.state;
  if (st.kind === 'running') return { text: 'running', meta: { state: 'running' } };
  if (st.kind === 'exited' && st.adapterDied !== undefined)
    return {
      text: `the debug adapter (${s.adapter.id}) ended unexpectedly (${st.adapterDied}) before the program did; the session is over, launch again`,
      meta: { state: 'adapter_died', adapter_exit: st.adapterDied },
    };
  if (st.kind === 'exited')
    return {
      text: `the program ended${st.exitCode === null ? '' : ` with exit code ${st.exitCode}`}`,
      meta: { state: 'exited', exit_code: st.exitCode },
    };
  let where = '';
  let frame: Record<string, unknown> | undefined;
  try {
    const body = await s.request('stackTrace', { threadId: st.threadId, startFrame: 0, levels: 1 });
    const f = (body.stackFrames as Record<string, unknown>[] | undefined)?.[0];
    if (f) {
      const src = (f.source as { path?: string } | undefined)?.path ?? '?';
      frame = { id: f.id, name: f.name, file: src, line: f.line };
      where = ` at ${String(f.name)} (${src}:${String(f.line)}), frame_id ${String(f.id)}`;
    }
  } catch {
    // where is unknown; the stop itself is still reported
  }
  return {
    text: `stopped (${st.reason}) on thread ${st.threadId}${where}`,
    meta: { state: 'stopped', reason: st.reason, thread_id: st.threadId, frame: frame ?? null },
  };
}

/** The id of the stopped thread's top frame, if the program is stopped. */
async function topFrame(s: DebugSession): Promise<number | undefined> {
  const st = s.state;
  if (st.kind !== 'stopped') return undefined;
  const body = await s.request('stackTrace', { threadId: st.threadId, startFrame: 0, levels: 1 });
  const id = (body.stackFrames as Record<string, unknown>[] | undefined)?.[0]?.id;
  return typeof id === 'number' ? id : undefined;
}

/** The answer when the program neither stopped nor ended within `waitMs`. */
function stillRunning(waitMs: number): ToolResult {
  return ok(`running: no stop and no end within ${waitMs} ms (wait again, pause or terminate)`, { state: 'running' });
}

async function runAndWait(
  s: DebugSession,
  command: string,
  threadId: number | undefined,
  waitMs: number,
): Promise<ToolResult> {
  const st = s.state;
  if (st.kind === 'exited')
    throw new DebugToolError(
      'DEBUG_ARGS',
      `${command}: the program has ended, so there is nothing to ${command === 'pause' ? 'pause' : 'run'}; terminate the session and launch again to debug another run`,
    );
  const thread = threadId ?? (st.kind === 'stopped' ? st.threadId : undefined);
  if (thread === undefined && command !== 'pause')
    throw new DebugToolError(
      'DEBUG_ARGS',
      `${command}: the program is running, not stopped, so there is nothing to ${command === 'continue' ? 'continue' : 'step'} from; pause it first (or give the 'thread_id' of a stopped thread)`,
    );
  let timedOut = false;
  const next = s
    .waitFor((e) => e.event === 'stopped', waitMs, 'stop')
    .catch(() => {
      timedOut = true;
    });
  await s.request(command, { threadId: thread ?? 0 });
  if (command !== 'pause') s.resumed(st);
  await next;
  if (timedOut && s.state.kind === 'running') return stillRunning(waitMs);
  const died = s.state.kind === 'exited' ? s.state.adapterDied : undefined;
  if (died !== undefined)
    throw new DebugToolError(
      'DEBUG_ADAPTER',
      `${command}: the debug adapter (${s.adapter.id}) ended unexpectedly (${died}) before the program stopped or ended; the session is over and its processes were killed, launch again`,
      { adapter: s.adapter.id, adapter_exit: died },
    );
  const d = await describeStop(s);
  return ok(d.text, d.meta);
}

/** Runs one `debug` operation in the workspace folder `cwd`. */
export async function runOperation(
  debug: DebugResource,
  a: OperationArgs,
  cwd: string,
  hold?: ProcessHold,
  hostPid?: (pid: number) => number | undefined,
  readDenied?: (path: string) => Promise<string | undefined>,
): Promise<ToolResult> {
  switch (a.op) {
    case 'adapters': {
      const list = debug.adapters(cwd);
      const lines = list.map((x) =>
        x.available ? `${x.id}: available (${x.command})` : `${x.id}: unavailable: ${x.reason}`,
      );
      return ok(lines.join('\n'), { adapters: list });
    }
    case 'status': {
      const s = await debug.current();
      const bps = [...debug.breakpoints()].map(([file, lines]) => ({ file, lines }));
      const bpText =
        bps.length === 0
          ? 'no breakpoints'
          : `breakpoints: ${bps.map((b) => `${b.file}:${b.lines.join(',')}`).join('; ')}`;
      if (s === undefined) return ok(`no debug session; ${bpText}`, { running: false, breakpoints: bps });
      const d = await describeStop(s);
      return ok(`${s.adapter.id} session on ${s.program}: ${d.text}; ${bpText}`, {
        running: s.alive && s.state.kind !== 'exited',
        adapter: s.adapter.id,
        program: s.program,
        ttl_left_ms: debug.ttlLeft() ?? null,
        breakpoints: bps,
        ...d.meta,
      });
    }
    case 'breakpoints': {
      const file = need(a.file, 'file', 'breakpoints');
      const lines = need(a.lines, 'lines', 'breakpoints');
      const abs = isAbsolute(file) ? file : resolve(cwd, file);
      // A file the read rules keep from the call: whether it exists and how long it is are its content too.
      const rel = relative(cwd, abs);
      const rule = lines.length === 0 ? undefined : await readDenied?.(/^\.\.(\/|$)/.test(rel) ? abs : rel);
      if (rule !== undefined)
        throw new PermissionDeniedError(
          'debug',
          `${rule} (breakpoints in ${file}: the rule keeps the file from this session, so no breakpoint is set in it)`,
        );
      const count = lines.length === 0 ? 0 : lineCount(abs);
      if (count === undefined)
        throw new DebugToolError(
          'DEBUG_ARGS',
          `breakpoints: there is no file ${file}; give the path of a source file, relative to the workspace root`,
        );
      const past = lines.filter((l) => l > count);
      if (past.length > 0)
        throw new DebugToolError(
          'DEBUG_ARGS',
          `breakpoints: ${file} has ${count} line${count === 1 ? '' : 's'}, so line${past.length === 1 ? '' : 's'} ${past.join(', ')} cannot be hit; give lines between 1 and ${count}`,
          { file, lines: past, line_count: count },
        );
      const set = await debug.setBreakpoints(cwd, file, lines);
      if (lines.length === 0) return ok(`cleared the breakpoints of ${file}`, { file, lines: [] });
      const text =
        set === undefined
          ? `${lines.length} breakpoint(s) in ${file}, applied at launch`
          : set
              .map(
                (b) =>
                  `${file}:${b.line} ${b.verified ? 'verified' : `not verified${b.message ? `: ${b.message}` : ''}`}`,
              )
              .join('\n');
      return ok(text, { file, lines, applied: set ?? null });
    }
    case 'launch': {
      const s = await debug.launch(cwd, need(a.program, 'program', 'launch'), a.args ?? [], a.adapter, hold, a.wait_ms);
      const d = await describeStop(s);
      return ok(`launched ${s.program} with ${s.adapter.id}: ${d.text}`, {
        adapter: s.adapter.id,
        program: s.program,
        ...d.meta,
      });
    }
    case 'attach': {
      if ((a.port === undefined) === (a.pid === undefined))
        throw new DebugToolError(
          'DEBUG_ARGS',
          "attach needs exactly one of 'port' (the debuggee listens there) or 'pid'",
          {
            op: 'attach',
          },
        );
      const pid = a.pid === undefined ? undefined : hostPidOf(a.pid, hostPid);
      const target = pid !== undefined ? { pid } : { port: a.port! };
      const s = await debug.attach(cwd, target, need(a.adapter, 'adapter', 'attach'), hold, a.wait_ms);
      const d = await describeStop(s);
      // A pid of the commands' own namespace is shown beside the host's.
      const moved = pid !== undefined && pid !== a.pid;
      return ok(
        `attached with ${s.adapter.id} to ${moved ? `process ${a.pid} (host pid ${pid})` : s.program}: ${d.text}`,
        {
          adapter: s.adapter.id,
          target: s.program,
          ...(moved ? { pid: a.pid, host_pid: pid } : {}),
          ...d.meta,
        },
      );
    }
    case 'continue':
    case 'step_over':
    case 'step_in':
    case 'step_out':
    case 'pause': {
      const s = await live(debug);
      const command = {
        continue: 'continue',
        step_over: 'next',
        step_in: 'stepIn',
        step_out: 'stepOut',
        pause: 'pause',
      }[a.op];
      return runAndWait(s, command, a.thread_id, a.wait_ms ?? debug.stopWaitMs);
    }
    case 'threads': {
      const s = await live(debug);
      const body = await s.request('threads');
      const threads = ((body.threads as Record<string, unknown>[] | undefined) ?? []).map((t) => ({
        id: t.id,
        name: t.name,
      }));
      return ok(threads.map((t) => `${String(t.id)}: ${String(t.name)}`).join('\n'), { threads });
    }
    case 'stack': {
      const s = await live(debug);
      const st = s.state;
      const threadId = a.thread_id ?? (st.kind === 'stopped' ? st.threadId : undefined);
      if (threadId === undefined)
        throw new DebugToolError(
          'DEBUG_ARGS',
          `stack needs 'thread_id' when the program is not stopped (it is ${st.kind === 'running' ? 'running: pause it first' : 'ended'})`,
        );
      const body = await s.request('stackTrace', { threadId, startFrame: 0, levels: DEBUG_MAX_FRAMES });
      const frames = ((body.stackFrames as Record<string, unknown>[] | undefined) ?? [])
        .slice(0, DEBUG_MAX_FRAMES)
        .map((f) => ({
          id: f.id,
          name: f.name,
          file: (f.source as { path?: string } | undefined)?.path ?? null,
          line: f.line,
        }));
      // An adapter's `totalFrames` may be a paging hint larger than the stack (delve's is): the
      // frames past the page are counted by asking for them, up to a bound.
      const hinted = typeof body.totalFrames === 'number' ? body.totalFrames : frames.length;
      const more =
        hinted > frames.length ? await framesAfter(s, threadId, frames.length) : { count: 0, bounded: false };
      const text = frames
        .map((f) => `#${String(f.id)} ${String(f.name)} ${f.file ?? '?'}:${String(f.line)}`)
        .join('\n');
      const note = more.bounded ? `at least ${more.count}` : String(more.count);
      return ok(more.count > 0 ? `${text}\n[${note} more frames not shown]` : text, {
        thread_id: threadId,
        frames,
        total_frames: frames.length + more.count,
        ...(more.bounded ? { total_frames_at_least: true } : {}),
      });
    }
    case 'scopes': {
      const s = await live(debug);
      const body = await s.request('scopes', { frameId: need(a.frame_id, 'frame_id', 'scopes') });
      const scopes = ((body.scopes as Record<string, unknown>[] | undefined) ?? []).map((x) => ({
        name: x.name,
        reference: x.variablesReference,
        expensive: x.expensive === true,
      }));
      return ok(scopes.map((x) => `${String(x.name)}: reference ${String(x.reference)}`).join('\n'), { scopes });
    }
    case 'variables': {
      const s = await live(debug);
      const body = await s.request('variables', {
        variablesReference: need(a.reference, 'reference', 'variables'),
        start: 0,
        count: DEBUG_MAX_VARIABLES,
      });
      const all = (body.variables as Record<string, unknown>[] | undefined) ?? [];
      const vars = all.slice(0, DEBUG_MAX_VARIABLES).map((v) => ({
        name: String(v.name),
        value: cut(String(v.value ?? '')),
        type: typeof v.type === 'string' ? v.type : null,
        reference: typeof v.variablesReference === 'number' && v.variablesReference > 0 ? v.variablesReference : null,
      }));
      const text = vars
        .map(
          (v) =>
            `${v.name}${v.type ? ` (${v.type})` : ''} = ${v.value}${v.reference ? ` [reference ${v.reference}]` : ''}`,
        )
        .join('\n');
      return ok(all.length > vars.length ? `${text}\n[only the first ${DEBUG_MAX_VARIABLES} children shown]` : text, {
        variables: vars,
        truncated: all.length > vars.length,
      });
    }
    case 'evaluate': {
      const s = checkEvaluateAdapter(a.adapter, await live(debug));
      const expression = need(a.expression, 'expression', 'evaluate');
      const frameId = a.frame_id ?? (await topFrame(s));
      const body = await s.request('evaluate', {
        expression,
        context: s.adapter.evaluateContext ?? 'repl',
        ...(frameId === undefined ? {} : { frameId }),
      });
      const value = cut(String(body.result ?? ''));
      const ref =
        typeof body.variablesReference === 'number' && body.variablesReference > 0 ? body.variablesReference : null;
      return ok(`${value}${ref ? ` [reference ${ref}]` : ''}`, {
        result: value,
        type: body.type ?? null,
        reference: ref,
      });
    }
    case 'wait': {
      const s = await live(debug);
      if (s.state.kind === 'running') {
        const waitMs = a.wait_ms ?? debug.stopWaitMs;
        let timedOut = false;
        await s
          .waitFor((e) => e.event === 'stopped', waitMs, 'stop')
          .catch(() => {
            timedOut = true;
          });
        if (timedOut && s.state.kind === 'running') return stillRunning(waitMs);
      }
      const d = await describeStop(s);
      return ok(d.text, d.meta);
    }
    case 'output': {
      const s = await debug.current();
      if (s === undefined)
        throw new DebugToolError('DEBUG_NO_SESSION', 'no debug session; output belongs to a session');
      const o = s.output();
      const text = o.text.length > DEBUG_MAX_OUTPUT_CHARS ? o.text.slice(-DEBUG_MAX_OUTPUT_CHARS) : o.text;
      return ok(o.total > text.length ? `[${o.total - text.length} earlier characters not shown]\n${text}` : text, {
        total_chars: o.total,
        truncated: o.total > text.length,
      });
    }
    case 'terminate': {
      const ended = await debug.terminate();
      return ok(
        ended ? 'the debug session ended; the adapter and the program were killed' : 'no debug session was running',
        { ended },
      );
    }
    default:
      throw new DebugToolError('DEBUG_ARGS', `unknown op '${a.op}'`);
  }
}
