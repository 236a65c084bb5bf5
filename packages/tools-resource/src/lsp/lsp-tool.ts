/**
 * `lsp` (read tier): code intelligence from real language servers. Positions are a 1-based
 * `line` and a `symbol` on that line; there is no column parameter.
 */
import {
  A3sError,
  defineTool,
  PermissionDeniedError,
  type ToolContext,
  type ToolResult,
  type Zod,
} from '@a3s-code/core';
import type { z } from 'zod';
import { type HiddenRule, hiddenRuleOf } from './hidden-files.js';
import { LspError } from './lsp-errors.js';
import { LSP_RESOURCE, type LspResource } from './lsp-resource.js';
import {
  codeActions,
  fileDiagnostics,
  hover,
  navigate,
  projectDiagnostics,
  reload,
  status,
  symbols,
} from './operations.js';
import { callHoldOf } from './server-hold.js';
import type { LspSupervisor } from './supervisor.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** The operations of `lsp`. */
export const LSP_OPERATIONS = [
  'status',
  'diagnostics',
  'definition',
  'type_definition',
  'implementation',
  'references',
  'hover',
  'symbols',
  'code_actions',
  'reload',
] as const;

const lspInput = (z: Zod) =>
  z.strictObject({
    operation: z.enum(LSP_OPERATIONS).describe('what to ask the language server'),
    file: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('workspace-relative file; for diagnostics "*" runs the project checker (tsc --noEmit, pyright)'),
    line: z.number().int().min(1).max(10_000_000).optional().describe('1-based line of the symbol'),
    symbol: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('the identifier as written on that line (there is no column)'),
    query: z
      .string()
      .max(200)
      .optional()
      .describe("symbols: search the workspace for this name (with `file`: that file's project only)"),
  });

/** The arguments of `lsp`. */
export type LspArgs = z.output<ReturnType<typeof lspInput>>;

const DESCRIPTION = `Ask the project's language server (TypeScript/JavaScript, Python; Go, Rust, C/C++, Dart when installed). Positions: \`line\` (1-based) plus \`symbol\`, the identifier as written on that line; there is no column. Operations: status (which servers can run here and why not); diagnostics (file, or file "*" for the whole project's checker); definition, type_definition, implementation, references (≤ 50), hover, code_actions (file, line, symbol); symbols (file → its outline ≤ 200, or query → workspace search ≤ 100, in the project of \`file\` when given); reload (restart the server for file, or all). Locations come back as path:line: text. Renaming is the separate lsp_rename tool.`;

/**
 * The supervisor of the call's workspace as the call uses it (its servers held to the call's read
 * rules, see `server-hold.ts`), or a typed failure saying why there is none.
 */
export async function supervisorOf(ctx: ToolContext): Promise<LspSupervisor> {
  const lsp = await ctx.resource<LspResource>(LSP_RESOURCE);
  const sup = lsp.supervisor(ctx.workspace.root);
  if ('unavailable' in sup) throw new LspError('LSP_UNAVAILABLE', sup.unavailable);
  return sup.forCall(callHoldOf(ctx));
}

/** A failed result for a typed lsp failure; `changes: []` tells the change ledger nothing was written. */
export function lspFailure(error: LspError): ToolResult {
  return {
    output: `${error.code}: ${error.message}`,
    exitCode: 1,
    metadata: { changes: [], error: { code: error.code, message: error.message, details: error.details } },
  };
}

/**
 * Reads `file` through the call's workspace first, so the session's read deny rules (which the
 * language server, reading from disk, cannot see) refuse it; only that refusal is passed on.
 */
async function readableThroughWorkspace(file: string | undefined, ctx: ToolContext): Promise<void> {
  if (file === undefined || file === '*' || ctx.workspace.fs === undefined) return;
  try {
    await ctx.workspace.fs.readFile(file, { signal: ctx.signal });
  } catch (error) {
    if (A3sError.isInstance(error) && error.code === 'PERMISSION_DENIED') throw error;
  }
}

/** Refuses a `file` the rules hide, also when the workspace has no file system to read it through. */
async function refuseHidden(file: string | undefined, sup: LspSupervisor, hidden: HiddenRule): Promise<void> {
  if (file === undefined || file === '*') return;
  const rule = await hidden(sup.absolute(file));
  if (rule !== undefined) throw new PermissionDeniedError('lsp', `${rule} (reading ${file})`);
}

async function run(args: LspArgs, ctx: ToolContext): Promise<ToolResult> {
  await readableThroughWorkspace(args.file, ctx);
  const sup = await supervisorOf(ctx);
  const hidden = hiddenRuleOf(ctx, sup);
  await refuseHidden(args.file, sup, hidden);
  const op = args.operation;
  const needsPosition = ['definition', 'type_definition', 'implementation', 'references', 'hover', 'code_actions'];
  if (!needsPosition.includes(op) && (args.line !== undefined || args.symbol !== undefined))
    throw new LspError('LSP_ARGS', `${op} takes no \`line\` or \`symbol\``);
  if (args.query !== undefined && op !== 'symbols') throw new LspError('LSP_ARGS', `only symbols takes \`query\``);
  switch (op) {
    case 'status':
      return status(sup, args.file);
    case 'diagnostics':
      if (args.file === undefined)
        throw new LspError('LSP_ARGS', 'diagnostics needs `file` (a file, or "*" for the project checker)');
      return args.file === '*'
        ? projectDiagnostics(sup, ctx.signal, hidden)
        : fileDiagnostics(sup, args.file, ctx.signal, hidden);
    case 'hover':
      return hover(sup, args, ctx.signal, hidden);
    case 'symbols':
      return symbols(sup, args, ctx.signal, hidden);
    case 'code_actions':
      return codeActions(sup, args, ctx.signal, hidden);
    case 'reload':
      return reload(sup, args.file);
    default:
      return navigate(sup, op, args, ctx.signal, hidden);
  }
}

/** The `lsp` tool. */
export const lspTool = defineTool({
  name: 'lsp',
  description: DESCRIPTION,
  input: lspInput,
  inputJsonSchema: toolJsonSchemas.lsp,
  plainInput: true,
  tier: 'read',
  requires: ['fs.read', LSP_RESOURCE],
  capabilities: {
    readOnly: true,
    idempotent: true,
    resumable: true,
    cancelSafe: true,
    maxParallelism: 4,
    outputType: 'text',
  },
  execute: async (args, ctx) => {
    try {
      return await run(args, ctx);
    } catch (error) {
      if (error instanceof LspError) return lspFailure(error);
      throw error;
    }
  },
});
