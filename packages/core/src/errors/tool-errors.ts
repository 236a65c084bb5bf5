/**
 * Errors of the tool kernel. Each has a stable `code`; the invoker never throws them at the
 * caller for a governed call but returns them inside a failed `ToolInvocationResult`, so the
 * model sees a bounded message and programs see a typed error.
 */
import { A3sError } from '@a3s-code/effect';
import { suggestKey } from '../config/did-you-mean.js';

/** One schema violation of a tool call's arguments. */
export interface ToolArgIssue {
  /** Dotted path of the argument, e.g. `args.files[0].path` (`args` for the whole object). */
  readonly field: string;
  /** What is wrong and what is allowed, e.g. `must be string`. */
  readonly message: string;
}

/** Violations an {@link InvalidToolArgsError}'s message names; the rest are counted. */
const ISSUES_SHOWN = 4;

/** Tool arguments do not match the tool's input schema. Names the offending fields, first one first. */
export class InvalidToolArgsError extends A3sError {
  /** The tool that was called. */
  readonly toolName: string;
  /** Path of the first offending field (`args.file_path`). */
  readonly field: string;
  /** Every violation found, first one first. */
  readonly issues: readonly ToolArgIssue[];
  constructor(toolName: string, issues: readonly ToolArgIssue[]) {
    const first = issues[0] ?? { field: 'args', message: 'invalid' };
    // The model fixes every problem in one retry only when it sees them all (the first few here).
    const shown = (issues.length > 0 ? issues : [first]).slice(0, ISSUES_SHOWN);
    const more = issues.length > ISSUES_SHOWN ? ` (+${issues.length - ISSUES_SHOWN} more)` : '';
    super('INVALID_TOOL_ARGS', `${toolName}: ${shown.map((i) => `${i.field}: ${i.message}`).join('; ')}${more}`, {
      details: { tool: toolName, field: first.field, issues },
    });
    this.toolName = toolName;
    this.field = first.field;
    this.issues = issues;
  }
}

/** A call was denied by the permission policy, the checker, a skill, a tier gate or a person. */
export class PermissionDeniedError extends A3sError {
  /** The tool that was called. */
  readonly toolName: string;
  /** The rule or reason that denied it (`Bash(rm:*)`, `plan mode`, `skill:review`). */
  readonly rule: string;
  constructor(toolName: string, rule: string) {
    super('PERMISSION_DENIED', `Permission denied: ${rule}`, { details: { tool: toolName, rule } });
    this.toolName = toolName;
    this.rule = rule;
  }
}

/** A pre-hook blocked the call. */
export class ToolBlockedError extends A3sError {
  constructor(toolName: string, hook: string, reason: string) {
    super('TOOL_BLOCKED', `${toolName}: blocked by hook '${hook}': ${reason}`, {
      details: { tool: toolName, hook, reason },
    });
  }
}

/** Longest tool name an error message quotes whole. */
const NAME_QUOTE_MAX = 64;

/**
 * A tool name as a message quotes it: plain printable ASCII names as they are, in single quotes;
 * any other (quotes, backslashes, control, invisible or non-ASCII characters, spaces, over 64
 * chars) in double quotes
 * with every such character as a `\uXXXX` escape, cut to its head, so a message never shows a
 * name that looks like another one.
 */
export function quoteToolName(name: string): string {
  if (name.length > 0 && name.length <= NAME_QUOTE_MAX && /^[\x21\x23-\x26\x28-\x5b\x5d-\x7e]+$/.test(name))
    return `'${name}'`;
  const escaped = name
    .slice(0, NAME_QUOTE_MAX)
    .replace(/[^\x20-\x7e]|["\\]/g, (c) =>
      c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return name.length > NAME_QUOTE_MAX ? `"${escaped}"… (${name.length} chars)` : `"${escaped}"`;
}

/** The called tool is not on the surface the caller can reach. */
export class ToolNotFoundError extends A3sError {
  /**
   * @param generation the capability generation the caller pinned, when the tool exists only in a
   *   later one (published after the run started), or, with `withdrawn`, when the session withdrew
   *   it after that one: the message says so.
   * @param withdrawn the tool is in the pinned generation but the session no longer has it:
   *   `requires` lists the capabilities it requires that the session no longer provides (empty
   *   when the tool itself was removed).
   */
  constructor(
    toolName: string,
    available: readonly string[],
    generation?: number,
    withdrawn?: { readonly requires: readonly string[] },
  ) {
    const list = available.length > 0 ? available.join(', ') : '(none)';
    const near = generation === undefined ? suggestKey(toolName, available) : undefined;
    super(
      'TOOL_NOT_FOUND',
      `${notFoundReason(toolName, generation, withdrawn)}; available: ${list}${near === undefined ? '' : `; did you mean '${near}'?`}`,
      {
        details: {
          tool: toolName.length > NAME_QUOTE_MAX * 4 ? `${toolName.slice(0, NAME_QUOTE_MAX * 4)}…` : toolName,
          available,
          ...(near === undefined ? {} : { suggestion: near }),
          ...(generation === undefined ? {} : { generation }),
          ...(withdrawn === undefined || generation === undefined
            ? {}
            : { withdrawn: true, requires: [...withdrawn.requires] }),
        },
      },
    );
  }
}

function notFoundReason(
  toolName: string,
  generation: number | undefined,
  withdrawn: { readonly requires: readonly string[] } | undefined,
): string {
  const tool = `tool ${quoteToolName(toolName)}`;
  if (generation === undefined) return `unknown ${tool}`;
  if (withdrawn === undefined)
    return `${tool} is not in capability generation ${generation}, which this run is bound to (it was published later)`;
  const why =
    withdrawn.requires.length === 0
      ? 'it was removed'
      : `it requires ${withdrawn.requires.map((c) => `'${c}'`).join(', ')}, which the session no longer provides`;
  return `${tool} was withdrawn from the session after capability generation ${generation}, which this run is bound to (${why}); it is no longer offered to this run`;
}

/**
 * A call names a tool outside the list its caller holds it to: a program's `allowed_tools`, which
 * holds the program's own calls and every call nested in them (through `batch`, for instance).
 * `holder` is the tool whose list it is (`program`); `why`, when given, says more.
 */
export class ToolNotAllowedError extends A3sError {
  constructor(toolName: string, allowed: readonly string[], holder: string, why?: string) {
    const list = allowed.length > 0 ? [...allowed].sort().join(', ') : 'none';
    super(
      'TOOL_NOT_ALLOWED',
      `${holder}: tool ${quoteToolName(toolName)} is not in allowed_tools (${list})${why === undefined ? '' : `: ${why}`}`,
      {
        details: {
          tool: toolName.length > NAME_QUOTE_MAX * 4 ? `${toolName.slice(0, NAME_QUOTE_MAX * 4)}…` : toolName,
          allowed: [...allowed],
          holder,
        },
      },
    );
  }
}

/** A tool ran longer than its timeout. */
export class ToolTimeoutError extends A3sError {
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;
  constructor(toolName: string, timeoutMs: number) {
    super('TOOL_TIMEOUT', `${toolName}: timed out after ${timeoutMs} ms`, {
      details: { tool: toolName, timeout_ms: timeoutMs },
    });
    this.timeoutMs = timeoutMs;
  }
}

/** The call was cancelled (queued or running) through its `AbortSignal`. */
export class CancelledError extends A3sError {
  constructor(what: string, reason?: unknown) {
    const why = reason === undefined ? '' : `: ${reason instanceof Error ? reason.message : String(reason)}`;
    super('CANCELLED', `${what} was cancelled${why}`, { details: { what } });
  }
}

/** A budget of the run has no room left for this call; nothing was executed. */
export class BudgetExhaustedError extends A3sError {
  constructor(budget: string, used: number, limit: number) {
    super('BUDGET_EXHAUSTED', `budget '${budget}' exhausted: ${used} of ${limit} used`, {
      details: { budget, used, limit },
    });
  }
}

/** Nested calls went deeper than allowed, or a non-reentrant tool (`program`) called itself. */
export class RecursionLimitError extends A3sError {
  constructor(toolName: string, reason: string, stack: readonly string[]) {
    super('RECURSION_LIMIT', `${toolName}: ${reason} (call stack: ${stack.join(' > ') || '(top)'})`, {
      details: { tool: toolName, stack },
    });
  }
}

/** A tool threw (instead of returning a failed `ToolResult`). The original error is the cause. */
export class ToolExecutionError extends A3sError {
  constructor(toolName: string, cause: unknown) {
    super('TOOL_EXECUTION', `${toolName}: ${thrownMessage(cause)}`, { cause, details: { tool: toolName } });
  }
}

/** Longest JSON of a thrown non-Error object quoted in a message. */
const THROWN_JSON_CHARS = 500;

/**
 * The message of a thrown value, read without trusting it: an Error's message, a string as it
 * is, an object as (bounded) JSON; a value whose getters, `toJSON` or `toString` throw is named,
 * never read again.
 */
function thrownMessage(cause: unknown): string {
  try {
    if (cause instanceof Error) return String(cause.message);
    if (typeof cause !== 'object' || cause === null) return String(cause);
    const json = JSON.stringify(cause);
    if (json === undefined || json === '{}') return 'threw a non-Error object';
    return `threw a non-Error object ${json.length > THROWN_JSON_CHARS ? `${json.slice(0, THROWN_JSON_CHARS)}…` : json}`;
  } catch {
    return 'threw a value that cannot be read (its message, toJSON or toString threw)';
  }
}

/** A tool, pack, middleware or permission rule is malformed. Names the field and what is allowed. */
export class ToolDefinitionError extends A3sError {
  /** Path of the offending field, e.g. `tools[3].name`. */
  readonly field: string;
  constructor(subject: string, field: string, problem: string) {
    super('INVALID_TOOL_DEFINITION', `${subject}: ${field}: ${problem}`, { details: { subject, field } });
    this.field = field;
  }
}

/**
 * A permission policy cannot be built: a rule string that does not parse (naming the list, the
 * index and the accepted grammar), a key that is not a list of the policy, or a bad default decision.
 */
export class PermissionRuleError extends A3sError {
  /** Path of the rule, e.g. `deny[2]`; with the layer that wrote it when known: `deny[0] (session options)`. */
  readonly field: string;
  /**
   * `rule` is the refused text (`undefined` when a key itself is refused); `expected` ends the
   * message with what is accepted instead (default: the rule grammar).
   */
  constructor(
    field: string,
    rule: string | undefined,
    problem: string,
    expected = "expected 'Tool' or 'Tool(pattern)'",
  ) {
    super('INVALID_PERMISSION_RULE', `${field}: ${rule === undefined ? '' : `'${rule}': `}${problem}; ${expected}`, {
      details: rule === undefined ? { field } : { field, rule },
    });
    this.field = field;
  }
}

/** A workspace operation was requested that the workspace does not declare. */
export class CapabilityUnavailableError extends A3sError {
  constructor(capability: string, operation: string) {
    super(
      'CAPABILITY_UNAVAILABLE',
      `${operation} needs workspace capability '${capability}', which this workspace does not provide`,
      {
        details: { capability, operation },
      },
    );
  }
}
