/**
 * The host side of `ctx`: every tool call goes through the caller's
 * *scoped* invoker, so it gets the `nested` source (or `host_nested` when the host called
 * `program`) and the full governance of the kernel. The bridge enforces `allowed_tools` (the
 * kernel holds every call nested in the script's calls to the same list) and
 * `max_tool_calls`, records logs under the output budget, and aborts calls still in flight when
 * the program ends.
 */
import { quoteToolName, ToolNotAllowedError } from '../errors/tool-errors.js';
import type { ScopedInvoker, ToolInvocationResult } from '../invoker/invocation-types.js';
import { PROGRAM_DEFAULT_DENIED_TOOLS } from './program-args.js';
import { ProgramToolCallLimitError, type ProgramError } from './program-errors.js';
import type { ProgramHost } from './program-vm.js';

/** One child call as the program saw it (in `metadata.program.calls`). */
export interface ProgramCallRecord {
  readonly tool: string;
  readonly ok: boolean;
  readonly error_kind: string | null;
  readonly duration_ms: number;
}

/** What the bridge needs. */
export interface CtxBridgeOptions {
  readonly invoker: ScopedInvoker;
  /** The program's call id; children are `<id>.<n>`. */
  readonly callId: string;
  /** Tools the script may call. */
  readonly allowed: ReadonlySet<string>;
  readonly maxToolCalls: number;
  /** Bytes of log text kept (the output budget). */
  readonly maxLogBytes: number;
  /** Streams each log line to clients. */
  readonly emitOutput: (delta: string) => void;
}

/** A bridge plus what it recorded. */
export interface CtxBridge extends ProgramHost {
  readonly calls: readonly ProgramCallRecord[];
  /**
   * The tools of calls refused because they are not in `allowed_tools`: each name once, cut to
   * {@link REFUSED_NAME_MAX} characters, at most {@link REFUSED_NAMES_MAX} of them.
   */
  readonly refused: readonly string[];
  /** Calls refused because the tool is not in `allowed_tools`, all of them. */
  readonly refusedCalls: number;
  readonly logs: readonly string[];
  /** Bytes of log text dropped over the budget. */
  readonly droppedLogBytes: number;
  /** Aborts every call still in flight (the program has ended). */
  close(reason: unknown): void;
}

/** A tool result as the script sees it (`ctx.tool`'s value). */
function wire(r: ToolInvocationResult): Record<string, unknown> {
  return {
    name: r.name,
    ok: r.ok,
    output: r.output,
    exit_code: r.exitCode,
    error_kind: r.errorKind ?? null,
    error_code: r.error?.code ?? null,
    metadata: r.metadata,
  };
}

/** The non-empty lines of a tool's text that are not notes (`[...]`). */
const lines = (text: string): string[] =>
  text.split('\n').filter((l) => l.length > 0 && !(l.startsWith('[') && l.endsWith(']')));

const NUMBERED = /^ *\d+\t/;

/** The value each `ctx` helper returns for a successful call of its tool (the operation's name). */
const HELPER_OPS: Readonly<Record<string, (r: ToolInvocationResult) => unknown>> = {
  grep: (r) => r.output,
  glob: (r) => (Array.isArray(r.metadata.paths) ? r.metadata.paths : lines(r.output)),
  read: (r) => {
    const out: string[] = [];
    for (const l of r.output.split('\n')) if (NUMBERED.test(l)) out.push(l.replace(NUMBERED, ''));
    return out.length > 0 ? `${out.join('\n')}\n` : r.output;
  },
  ls: (r) => (Array.isArray(r.metadata.entries) ? r.metadata.entries : lines(r.output)),
};

/** Why a tool outside `allowed_tools` is refused, when there is more to say than that. */
function whyRefused(name: string, invoker: ScopedInvoker): string | undefined {
  if (PROGRAM_DEFAULT_DENIED_TOOLS.includes(name))
    return `${PROGRAM_DEFAULT_DENIED_TOOLS.join(', ')} are blocked inside programs and workflow steps (they would recurse)`;
  if (!invoker.toolNames().includes(name))
    return `no tool ${quoteToolName(name)} is on the tool surface of this call (a tool the session registers after a run started is offered from its next run)`;
  return undefined;
}

/** Most tool names kept in {@link CtxBridge.refused}. */
export const REFUSED_NAMES_MAX = 32;
/** Longest tool name kept in {@link CtxBridge.refused}; a longer one is cut and ends with `…`. */
export const REFUSED_NAME_MAX = 128;

/** Creates the bridge of one program call. */
export function createCtxBridge(o: CtxBridgeOptions): CtxBridge {
  const calls: ProgramCallRecord[] = [];
  const refused: string[] = [];
  const logs: string[] = [];
  const inFlight = new AbortController();
  let count = 0;
  let sent = 0;
  let logBytes = 0;
  let dropped = 0;
  let violation: ProgramError | undefined;
  let refusedCalls = 0;
  const allowedList = [...o.allowed];
  const bridge: CtxBridge = {
    calls,
    refused,
    logs,
    get refusedCalls() {
      return refusedCalls;
    },
    get droppedLogBytes() {
      return dropped;
    },
    violation: () => violation,
    toolCalls: () => count,
    log(text: string) {
      const line = `${text}\n`;
      const bytes = Buffer.byteLength(line);
      if (logBytes + bytes > o.maxLogBytes) {
        dropped += bytes;
        return;
      }
      logBytes += bytes;
      logs.push(text);
      o.emitOutput(line);
    },
    logDropped(bytes: number) {
      dropped += bytes;
    },
    async call(op: string, payloadJson: string): Promise<string> {
      const helper = Object.hasOwn(HELPER_OPS, op) ? HELPER_OPS[op] : undefined;
      if (op !== 'tool' && helper === undefined) throw new Error(`unknown ctx operation '${op}'`);
      const parsed: unknown = JSON.parse(payloadJson);
      const payload = (helper === undefined ? parsed : { name: op, args: parsed }) as {
        name?: unknown;
        args?: unknown;
      };
      const name = String(payload.name);
      if (!o.allowed.has(name)) {
        refusedCalls += 1;
        const kept = name.length > REFUSED_NAME_MAX ? `${name.slice(0, REFUSED_NAME_MAX)}…` : name;
        if (refused.length < REFUSED_NAMES_MAX && !refused.includes(kept)) refused.push(kept);
        throw new ToolNotAllowedError(name, allowedList, 'program', whyRefused(name, o.invoker));
      }
      // A batch counts as the calls it makes: it cannot multiply the program's budget.
      const weight = name === 'batch' ? batchSize(payload.args) : 1;
      if (count + weight > o.maxToolCalls) {
        violation ??= new ProgramToolCallLimitError(o.maxToolCalls, name);
        throw violation;
      }
      count += weight;
      sent += 1;
      // The list holds the calls this one makes in turn too (a batch's, for instance).
      const r = await o.invoker.invoke(name, payload.args ?? {}, {
        id: `${o.callId}.${sent}`,
        signal: inFlight.signal,
        allowedTools: allowedList,
      });
      calls.push({ tool: name, ok: r.ok, error_kind: r.errorKind ?? null, duration_ms: r.durationMs });
      if (helper === undefined) return JSON.stringify(wire(r));
      return JSON.stringify(r.ok ? { v: helper(r) } : { f: wire(r) });
    },
    close(reason: unknown) {
      if (!inFlight.signal.aborted) inFlight.abort(reason);
    },
  };
  return bridge;
}

/** How many calls a `batch` makes (at least one: a malformed batch is refused by its own schema). */
function batchSize(args: unknown): number {
  const calls = (args as { calls?: unknown } | null | undefined)?.calls;
  return Array.isArray(calls) ? Math.max(1, calls.length) : 1;
}
