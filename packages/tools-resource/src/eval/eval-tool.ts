/**
 * `eval`: runs a Python or JavaScript cell in the session's persistent kernel. Variables, imports
 * and loaded data persist between calls; the last expression is echoed; images come back as
 * artifacts; `tool(name, args)` inside a cell goes through the session's scoped invoker with the
 * same governance as a model call.
 */
import {
  changesBetween,
  defineTool,
  describeDeniedWrites,
  LiveOutput,
  snapshotWorkspaceWithin,
  type ToolResult,
  type Zod,
} from '@a3s-code/core';
import type { z } from 'zod';
import { cellShellCommands } from './cell-commands.js';
import { EvalToolError } from './eval-errors.js';
import { EVAL_RESOURCE, type EvalResource } from './eval-resource.js';
import { toolFailure } from '../shared/tool-failure.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

const evalInput = (z: Zod) =>
  z.strictObject({
    code: z.string().min(1).max(200_000).describe('the cell: Python or JavaScript source'),
    description: z.string().min(1).max(200).describe('5 to 10 words saying what the cell does (the transcript label)'),
    language: z.enum(['python', 'javascript']).optional().describe('python (default) or javascript'),
    reset: z.boolean().optional().describe('throw the interpreter away and start clean before running the cell'),
  });

/** The arguments of `eval`. */
export type EvalArgs = z.output<ReturnType<typeof evalInput>>;

const DESCRIPTION = `Run a cell in a persistent Python (default) or JavaScript interpreter: variables, imports and loaded data survive between calls, as in a notebook. The value of the last expression is echoed; display(x) shows a value; pandas DataFrames render as tables; matplotlib figures come back as PNG artifacts. Python accepts %pip, %cd, %timeit, %time, !cmd, %%bash and %%timeit (%matplotlib is ignored: figures always come back). JavaScript has top-level await and require. Inside a cell, tool(name, args) calls one of your tools (Python returns the output text, JavaScript a Promise of it; a failed or denied call raises ToolError) under the same permissions as your own calls; a call ends with its cell, so await it there. description: 5-10 words. reset: true starts a fresh interpreter. A cell that produces nothing for 5 minutes (not counting time spent in tool() calls) is killed with its interpreter; so is a cell that goes over the interpreter's memory limit (the error names it); a crashed interpreter is restarted on the next call. Output is capped (head and tail kept).`;

/** The failure, with the cell's output before it when there was any. */
function failure(error: EvalToolError): ToolResult {
  const before = error.details.output;
  return toolFailure(
    error,
    typeof before === 'string' && before !== '' ? `\n[output before the failure]\n${before}` : '',
  );
}

// Scripts written without spaces between words: a run of them counts its words, not as one.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
let segmenter: Intl.Segmenter | undefined;

/**
 * The words of a description: its space-separated tokens, where a token in a script written
 * without spaces (Chinese, Japanese, Thai, ...) counts the words `Intl.Segmenter` finds in it.
 */
function descriptionWords(text: string): number {
  let n = 0;
  for (const token of text.trim().split(/\s+/)) {
    if (token === '') continue;
    if (!UNSPACED.test(token) || typeof Intl.Segmenter !== 'function') {
      n++;
      continue;
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    let k = 0;
    for (const s of segmenter.segment(token)) if (s.isWordLike) k++;
    n += Math.max(1, k);
  }
  return n;
}

/** The `eval` tool (its resource is the session's kernel factory). */
export const evalTool = defineTool({
  name: 'eval',
  description: DESCRIPTION,
  input: evalInput,
  inputJsonSchema: toolJsonSchemas.eval,
  plainInput: true,
  refine: (a) => {
    const words = descriptionWords(a.description);
    return words >= 5 && words <= 10
      ? []
      : [{ path: ['description'], message: `description must be 5 to 10 words (it has ${words})` }];
  },
  tier: 'exec',
  // The session's Bash rules judge a cell as the shell commands it runs (`python3 -c …`, `!cmd`, `%%bash`).
  shellEquivalent: (args) => cellShellCommands(args.language ?? 'python', args.code),
  requires: ['exec', EVAL_RESOURCE],
  // Everything else is the default: not idempotent, resumable or cancel-safe; text output.
  capabilities: { readOnly: false, maxParallelism: 1 },
  timeoutMs: 86_400_000,
  execute: async (args, ctx) => {
    const language = args.language ?? 'python';
    const kernels = await ctx.resource<EvalResource>(EVAL_RESOURCE);
    const live = new LiveOutput((text, stream) => ctx.emitOutput(text, stream));
    // Each listing has a short bound of its own: a stuck one is given up, the changes then unknown.
    const first = await snapshotWorkspaceWithin(ctx.workspace, ctx.signal);
    const before = first.snapshot;
    try {
      const run = await kernels.run(language, args.code, ctx.workspace.root, {
        ...(args.reset === undefined ? {} : { reset: args.reset }),
        ...(ctx.workspace.holdProcess === undefined ? {} : { hold: ctx.workspace.holdProcess }),
        runId: ctx.runId,
        signal: ctx.signal,
        onOutput: (text, stream) => live.push(stream, text),
        // A call the cell made ends when the cell does (`signal`), whether or not the cell awaited it.
        bridge: async (name, toolArgs, signal) => {
          const r = await ctx.invoker.invoke(name, toolArgs, { signal });
          return { ok: r.ok, output: r.output };
        },
      });
      const parts: string[] = [];
      if (run.previousDeath !== undefined) parts.push(`[${run.previousDeath}]`);
      if (run.output !== '') parts.push(run.output.replace(/\n$/, ''));
      if (run.echo !== undefined) parts.push(run.echo);
      const images = [];
      for (const [i, image] of run.images.entries()) {
        const ref = await ctx.artifacts.put(image.data, { toolName: ctx.toolName, callId: ctx.callId });
        images.push({
          mime: image.mime,
          encoding: 'base64',
          uri: ref.uri,
          size_bytes: Buffer.from(image.data, 'base64').length,
        });
        parts.push(`[image ${i + 1}: ${image.mime} saved as ${ref.uri}]`);
      }
      if (run.error !== undefined) parts.push(run.error);
      if (run.cutOffCalls > 0)
        parts.push(
          `[${run.cutOffCalls} tool() call${run.cutOffCalls === 1 ? ' was' : 's were'} still running when the cell ended and ${run.cutOffCalls === 1 ? 'was' : 'were'} cancelled: a call ends with its cell, so await it inside the cell]`,
        );
      // What the cell created where the write rules deny writing is removed, and said.
      const denied = await ctx.workspace.settleHeldWrites?.();
      if (denied !== undefined) parts.push(describeDeniedWrites(denied));
      // What the cell changed in the workspace, for the completion gate (unknown: counted as a change).
      const second = before === undefined ? undefined : await snapshotWorkspaceWithin(ctx.workspace, ctx.signal);
      const after = second?.snapshot;
      const changed = changesBetween(before, after);
      const snapshotNote = first.note ?? second?.note;
      if (snapshotNote !== undefined) parts.push(snapshotNote);
      return {
        output: parts.join('\n'),
        exitCode: run.ok && denied === undefined ? 0 : 1,
        metadata: {
          description: args.description,
          language,
          interpreter: run.interpreter,
          runs_in: run.runsIn,
          kernel_started: run.started,
          echo: run.echo ?? null,
          images,
          bridge_calls: run.bridgeCalls,
          cut_off_calls: run.cutOffCalls,
          output_chars: run.outputChars,
          truncated: run.truncated,
          changed_files: changed,
          ...(denied === undefined ? {} : { denied_writes: { ...denied, removed: [...denied.removed] } }),
        },
      };
    } catch (error) {
      if (!(error instanceof EvalToolError)) throw error;
      const denied = await ctx.workspace.settleHeldWrites?.().catch(() => undefined);
      const failed = failure(error);
      // A cell whose interpreter died (memory, a timeout, an exit) may still have changed files
      // before it did: what it changed is told as for any cell, so a cell that changed nothing
      // is not counted as a change.
      const second = before === undefined ? undefined : await snapshotWorkspaceWithin(ctx.workspace, ctx.signal);
      const after = second?.snapshot;
      const changed = changesBetween(before, after);
      const metadata = { ...(failed.metadata ?? {}), changed_files: changed };
      const snapshotNote = first.note ?? second?.note;
      const notes = [
        ...(denied === undefined ? [] : [describeDeniedWrites(denied)]),
        ...(snapshotNote === undefined ? [] : [snapshotNote]),
      ];
      return notes.length === 0
        ? { ...failed, metadata }
        : { ...failed, output: [failed.output, ...notes].join('\n'), metadata };
    } finally {
      live.close();
    }
  },
});
