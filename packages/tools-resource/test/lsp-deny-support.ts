// Helpers of the read deny tests of the lsp pack: the lsp tools and a plain `write` tool run
// through core's real kernel (`ToolInvoker`) on a folder, so the session's read deny rules hold
// the workspace the tools see exactly as in a session.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  defineTool,
  type PermissionPolicyConfig,
  ToolInvoker,
  type ToolInvocationResult,
  ToolRegistry,
  type Zod,
} from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { LSP_RESOURCE, type LspResource, lspToolPack } from '../src/lsp.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

/** Writes files (relative path → text) under `dir`. */
export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** A `write` tool as the workspace pack's: the whole file, through the (guarded) workspace. */
const writeTool = defineTool({
  name: 'write',
  description: 'write a file',
  input: (z: Zod) => z.strictObject({ file_path: z.string(), content: z.string() }),
  tier: 'write',
  requires: ['fs.write'],
  execute: async (args, ctx) => {
    await ctx.workspace.fs!.writeFile(args.file_path, args.content, { signal: ctx.signal });
    return {
      output: `Wrote ${args.file_path}`,
      exitCode: 0,
      metadata: { changes: [{ path: args.file_path, action: 'modify' }] },
    };
  },
});

/** Calls tools as the model would, through the kernel with `policy`. */
export type Caller = (tool: string, args: Record<string, unknown>) => Promise<ToolInvocationResult>;

/** A kernel on `dir` with the lsp pack (on `lsp`), a `write` tool and `policy`. */
export function governed(dir: string, lsp: LspResource, policy: PermissionPolicyConfig): Caller {
  const registry = new ToolRegistry({ capabilities: ['fs.read', 'fs.write', 'fs.list', 'search', LSP_RESOURCE] });
  registry.registerPack(lspToolPack);
  registry.add(writeTool);
  const invoker = new ToolInvoker({
    registry,
    workspace: diskWorkspace(dir),
    policy: { defaultDecision: 'allow', ...policy },
    resources: { acquire: async () => lsp },
  });
  let n = 0;
  return (tool, args) =>
    invoker.invoke({ id: `c${++n}`, name: tool, args }, createTestInvocation({}, { runId: `run-${n}` }).context);
}
