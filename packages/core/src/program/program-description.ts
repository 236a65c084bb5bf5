/** The model-facing description of `program`. */
import { PROGRAM_DEFAULT_DENIED_TOOLS, PROGRAM_LIMITS } from './program-args.js';

const L = PROGRAM_LIMITS;

/** What the model reads about `program`. */
export const PROGRAM_DESCRIPTION = `Run a bounded JavaScript program (QuickJS sandbox) that calls tools itself, instead of many tool round-trips. Use it when the sequence of steps is already fixed and you only need the results; use ordinary tool calls when the next step needs judgement.
The script defines \`async function run(ctx, inputs)\` (or \`export default async function run(ctx, inputs)\`) and returns a value. ctx is the only capability: no require, import, fetch, process, timers or file system.
- ctx.tool(name, args) -> { ok, output, exit_code, error_kind, error_code, metadata } (never throws for a failed tool)
- ctx.grep(pattern, { glob, path, output_mode }) -> output text; ctx.glob(pattern) -> paths; ctx.readFile(path) -> file text; ctx.ls(path) -> entries (these throw on failure)
- ctx.log(...values) records a line in the output
Every call is checked like a direct call. allowed_tools limits which tools ctx may call (default: all except ${PROGRAM_DEFAULT_DENIED_TOOLS.join(', ')}). limits: timeout_ms (default ${L.timeoutMs.default}), max_tool_calls (default ${L.maxToolCalls.default}; a batch counts as its calls; one more stops the program), max_output_bytes (default ${L.maxOutputBytes.default}; output beyond it is cut), memory_limit_bytes.
Return summarised findings, evidence references (file:line), risks and next steps, not raw tool output: the return value is shown as text and kept as metadata.result.`;
