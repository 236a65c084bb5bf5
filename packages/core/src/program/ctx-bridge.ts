/**
 * The host side of `ctx`: every tool call goes through the caller's
 * *scoped* invoker, so it gets the `nested` source (or `host_nested` when the host called
 * `program`) and the full governance of the kernel. The bridge enforces `allowed_tools` and
 * `max_tool_calls`, records logs under the output budget, and aborts calls still in flight when
 * the program ends.
 */
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
  /** Calls refused because the tool is not in `allowed_tools`. */
  readonly refused: readonly string[];
  readonly logs: readonly string[];
  /** Bytes of log text dropped over the budget. */
  readonly droppedLogBytes: number;
  /** Aborts every call still in flight (the program has ended). */
  close(reason: unknown): void;
}

class ToolNotAllowedError extends Error {
  readonly code = 'TOOL_NOT_ALLOWED';
  constructor(tool: string, allowed: ReadonlySet<string>, why: string | undefined) {
    const list = [...allowed].sort().join(', ') || 'none';
    super(`program: tool '${tool}' is not in allowed_tools (${list})${why === undefined ? '' : `: ${why}`}`);
    this.name = 'ToolNotAllowedError';
  }
}

function toWire(r: ToolInvocationResult): string {
  return JSON.stringify({
    name: r.name,
    ok: r.ok,
    output: r.output,
    exit_code: r.exitCode,
    error_kind: r.errorKind ?? null,
    error_code: r.error?.code ?? null,
    metadata: r.metadata,
  });
}

/** Why a tool outside `allowed_tools` is refused, when there is more to say than that. */
function whyRefused(name: string, invoker: ScopedInvoker): string | undefined {
  if (PROGRAM_DEFAULT_DENIED_TOOLS.includes(name))
    return `${PROGRAM_DEFAULT_DENIED_TOOLS.join(', ')} are blocked inside programs and workflow steps (they would recurse)`;
  if (!invoker.toolNames().includes(name)) return `no tool '${name}' is registered in this session`;
  return undefined;
}

/** Creates the bridge of one program call. */
export function createCtxBridge(o: CtxBridgeOptions): CtxBridge {
  const calls: ProgramCallRecord[] = [];
  const refused: string[] = [];
  const logs: string[] = [];
  const inFlight = new AbortController();
  let count = 0;
  let logBytes = 0;
  let dropped = 0;
  let violation: ProgramError | undefined;
  const bridge: CtxBridge = {
    calls,
    refused,
    logs,
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
    async call(op: string, payloadJson: string): Promise<string> {
      if (op !== 'tool') throw new Error(`unknown ctx operation '${op}'`);
      const payload = JSON.parse(payloadJson) as { name?: unknown; args?: unknown };
      const name = String(payload.name);
      if (!o.allowed.has(name)) {
        refused.push(name);
        throw new ToolNotAllowedError(name, o.allowed, whyRefused(name, o.invoker));
      }
      if (count >= o.maxToolCalls) {
        violation ??= new ProgramToolCallLimitError(o.maxToolCalls, name);
        throw violation;
      }
      count += 1;
      const r = await o.invoker.invoke(name, payload.args ?? {}, {
        id: `${o.callId}.${count}`,
        signal: inFlight.signal,
      });
      calls.push({ tool: name, ok: r.ok, error_kind: r.errorKind ?? null, duration_ms: r.durationMs });
      return toWire(r);
    },
    close(reason: unknown) {
      if (!inFlight.signal.aborted) inFlight.abort(reason);
    },
  };
  return bridge;
}
