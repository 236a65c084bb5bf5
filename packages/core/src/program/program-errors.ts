/**
 * Typed failures of `program`. Each has a stable `code`; the kernel keeps the error on the failed
 * `ToolInvocationResult` (`errorKind: 'execution'`), so hosts and models can tell a script bug
 * from a limit from a sandbox refusal without reading the message.
 */
import { A3sError } from '@a3s-code/effect';

/** Every `ProgramError` code. */
export type ProgramErrorCode =
  | 'PROGRAM_INVALID'
  | 'PROGRAM_SYNTAX'
  | 'PROGRAM_RUNTIME'
  | 'PROGRAM_TIMEOUT'
  | 'PROGRAM_TOOL_CALL_LIMIT'
  | 'PROGRAM_MEMORY_LIMIT'
  | 'PROGRAM_STACK_LIMIT'
  | 'PROGRAM_SCRIPT_CHANGED';

/** Where in the script a failure happened (1-based line, when QuickJS reports one). */
export interface ProgramErrorLocation {
  /** The script name used in messages (`program.js` or the workspace-relative path). */
  readonly file: string;
  /** 1-based line number in the script. */
  readonly line?: number;
  /** 1-based column, when known. */
  readonly column?: number;
}

/** A failure of a `program` call. `code` says which kind; `details` carries the specifics. */
export class ProgramError extends A3sError {
  declare readonly code: ProgramErrorCode;
  /** 1-based line of the script, when the failure has one. */
  readonly line: number | undefined;
  constructor(
    code: ProgramErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    cause?: unknown,
  ) {
    super(code, message, { details, ...(cause === undefined ? {} : { cause }) });
    const line = details.line;
    this.line = typeof line === 'number' ? line : undefined;
  }
}

/** The arguments or the script itself are unusable: bad path, wrong extension, no `run` function. */
export class ProgramInvalidError extends ProgramError {
  /** The argument at fault (`path`, `source`, `allowed_tools[2]`). */
  readonly field: string;
  constructor(field: string, problem: string) {
    super('PROGRAM_INVALID', `program: ${field}: ${problem}`, { field });
    this.field = field;
  }
}

/** `file:line:column` as used in messages (internal; not re-exported by the package). */
export function where(loc: ProgramErrorLocation): string {
  if (loc.line === undefined) return loc.file;
  return loc.column === undefined ? `${loc.file}:${loc.line}` : `${loc.file}:${loc.line}:${loc.column}`;
}

/** The script does not parse. */
export class ProgramSyntaxError extends ProgramError {
  constructor(loc: ProgramErrorLocation, message: string) {
    super('PROGRAM_SYNTAX', `program: SyntaxError at ${where(loc)}: ${message}`, { ...loc });
  }
}

/** The script threw (or its `run` promise rejected) with an uncaught error. */
export class ProgramRuntimeError extends ProgramError {
  constructor(loc: ProgramErrorLocation, name: string, message: string, stack: string) {
    super('PROGRAM_RUNTIME', `program: uncaught ${name} at ${where(loc)}: ${message}`, {
      ...loc,
      error_name: name,
      stack,
    });
  }
}

/** The script ran past `limits.timeout_ms`. */
export class ProgramTimeoutError extends ProgramError {
  constructor(timeoutMs: number, toolCalls: number) {
    super(
      'PROGRAM_TIMEOUT',
      `program: stopped after limits.timeout_ms=${timeoutMs} ms (${toolCalls} tool calls made)`,
      { timeout_ms: timeoutMs, tool_calls: toolCalls },
    );
  }
}

/** The script tried to make more than `limits.max_tool_calls` calls. */
export class ProgramToolCallLimitError extends ProgramError {
  constructor(maxToolCalls: number, attempted: string) {
    super(
      'PROGRAM_TOOL_CALL_LIMIT',
      `program: stopped at call ${maxToolCalls + 1} ('${attempted}'): limits.max_tool_calls=${maxToolCalls}`,
      {
        max_tool_calls: maxToolCalls,
        attempted,
      },
    );
  }
}

/** The script needed more memory than `limits.memory_limit_bytes` allows. */
export class ProgramMemoryLimitError extends ProgramError {
  constructor(memoryLimitBytes: number) {
    const mib = Math.round((memoryLimitBytes / (1024 * 1024)) * 10) / 10;
    super(
      'PROGRAM_MEMORY_LIMIT',
      `program: out of memory: the script needed more than limits.memory_limit_bytes=${memoryLimitBytes} (${mib} MiB); hold less at once (process items in batches, keep only summaries) or raise limits.memory_limit_bytes`,
      { memory_limit_bytes: memoryLimitBytes },
    );
  }
}

/** The script recursed deeper than the VM stack allows. */
export class ProgramStackLimitError extends ProgramError {
  constructor(loc: ProgramErrorLocation, maxStackBytes: number) {
    super(
      'PROGRAM_STACK_LIMIT',
      `program: stack overflow at ${where(loc)} (the VM stack allows ${maxStackBytes} bytes)`,
      { ...loc, max_stack_bytes: maxStackBytes },
    );
  }
}

/** Why a host-trusted call refused a path script (see {@link ProgramScriptChangedError}). */
export type ProgramScriptChange = 'changed_since_pinned' | 'changed_by_model' | 'unknown_changes';

/**
 * A call with the host's trust (`session.program({ path })`, a host's `dynamic_workflow` call of a
 * flow with a `path` step) refused a workspace script the session's model could have changed: it
 * differs from the content the session pinned when a host-trusted call first ran it, or, before
 * that, the session's model calls changed it (or made changes whose paths are unknown).
 */
export class ProgramScriptChangedError extends ProgramError {
  /** The workspace-relative script path. */
  readonly file: string;
  /** Which of the three it was. */
  readonly change: ProgramScriptChange;
  constructor(
    file: string,
    change: ProgramScriptChange,
    problem: string,
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(
      'PROGRAM_SCRIPT_CHANGED',
      `program: '${file}' ${problem}, so a call with the host's trust does not run it (a script the model could have changed never runs with the host's trust). Review the file, then pass its content as \`source\` (session.program({ source }), or a flow step's \`source\`), or open a new session, which trusts the file as it stands then; a model's call still runs it, under the session's rules`,
      { ...details, file, change },
    );
    this.file = file;
    this.change = change;
  }
}
