/**
 * The SDK's own typed errors. Like every error of A3S Code they extend `A3sError` (stable `code`,
 * a `Symbol.for` brand and `A3sError.isInstance`, so checks survive two installed copies).
 */
import { A3sError } from '@a3s-code/effect';
import type { ToolResult } from './tool-result.js';

/** The environment variables and the offline alternative a missing model error names. */
export const MODEL_HINT =
  "set A3S_MODEL to 'openai/<model>' (with OPENAI_API_KEY) or 'anthropic/<model>' (with ANTHROPIC_API_KEY), " +
  "pass `model` ('provider/model' or an LlmClient) to Agent.create or agent.session, " +
  "or run offline with a scripted model: 'scripted:<file.json>'";

/** No model is configured: neither `model` in the configuration nor `A3S_MODEL` in the environment. */
export class ModelNotConfiguredError extends A3sError {
  constructor() {
    super('MODEL_NOT_CONFIGURED', `no model is configured: ${MODEL_HINT}`, {
      details: { env: ['A3S_MODEL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'], alternative: 'scripted:<file.json>' },
    });
  }
}

/**
 * A session was asked of an agent after `agent.close()` (`session`, `resumeSession`,
 * `describeTools`, `mcpStatus`): its agent-global MCP servers are closed and are not started
 * again behind the host's back. Create a new agent instead.
 */
export class AgentClosedError extends A3sError {
  constructor() {
    super(
      'AGENT_CLOSED',
      'the agent is closed (agent.close() was called): it opens no more sessions and starts no MCP servers; create a new agent with Agent.create',
    );
  }
}

/**
 * The workspace folder's config file would run commands, let tools run unasked, redirect the
 * provider, choose the model or add to what the model is told (see `trustNeeds`), and the folder
 * is not trusted: the SDK's sessions throw it when the agent left `workspaceConfig` unset (the
 * message names the file, lists each need, and says to pass `workspaceConfig: true` for a folder
 * you trust or `false` to ignore the file); the CLI throws it when the person has not trusted the
 * folder (`--trust-workspace`). Nothing in the file was started or used. Also thrown, unless the
 * agent has `workspaceConfig: true`, when one of the folder's `.a3s/agents/*.md` files names its
 * own model (see `folderAgentNeeds`): `details.file` is then that file when the config file is not
 * refused too.
 */
export class WorkspaceUntrustedError extends A3sError {
  constructor(message: string, details?: { readonly file: string; readonly needs: readonly string[] }) {
    super('WORKSPACE_UNTRUSTED', message, details === undefined ? {} : { details });
  }
}

/**
 * A string-returning host-direct helper (`readFile`, `grep`, `bash`, `glob`) failed: the tool
 * returned a non-zero exit code or the kernel refused the call. The whole result is in `result`;
 * `exitCode` and `toolName` are copied for convenience. The `ToolResult` helpers (`tool`, `git`,
 * `writeFile`, `editFile`, `patchFile`, `ls`) never throw this: they return the failed result.
 */
export class DirectToolError extends A3sError {
  /** The tool that was called (`read`, `grep`, `bash`, `glob`). */
  readonly toolName: string;
  /** The tool's exit code (`1` for a refusal before execution). */
  readonly exitCode: number;
  /** The failed result, output included. */
  readonly result: ToolResult;
  constructor(toolName: string, result: ToolResult, errorCode: string | undefined) {
    super(
      'DIRECT_TOOL_FAILED',
      `${toolName} failed with exit code ${result.exitCode}${errorCode ? ` (${errorCode})` : ''}: ${gist(result.output)}`,
      {
        details: { tool: toolName, exit_code: result.exitCode, ...(errorCode ? { error_code: errorCode } : {}) },
      },
    );
    this.toolName = toolName;
    this.exitCode = result.exitCode;
    this.result = result;
  }
}

const GIST_CHARS = 800;
const TAIL_LINES = 4;
const LINE_CHARS = 240;

/**
 * What a failed call said, for its error's message: the whole output when it is short, else its
 * first line and its last lines (where a command or a parser says what went wrong), each line cut
 * to a bounded length. The whole output stays in the error's `result`.
 */
function gist(output: string): string {
  const lines = output.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return '(no output)';
  const cut = (l: string) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS)}…` : l);
  const whole = lines.map(cut).join('\n');
  if (whole.length <= GIST_CHARS) return whole;
  const tail = lines.slice(Math.max(1, lines.length - TAIL_LINES)).map(cut);
  const skipped = lines.length - 1 - tail.length;
  return [cut(lines[0]!), ...(skipped > 0 ? [`… (${skipped} more lines in error.result.output)`] : []), ...tail].join(
    '\n',
  );
}
