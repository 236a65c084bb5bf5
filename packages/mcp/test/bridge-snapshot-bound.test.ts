// The workspace listings around a mutating MCP call are bounded: a listing that never finishes
// is given up (the one before after half the call's timeout at most), the call still runs with
// its whole timeout, and the result says the changes are unknown.
import type { WorkspaceGlobRequest, WorkspaceServices } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { bridgeMcpTool, type McpToolCaller } from '../src/bridge-tool.js';

describe('MCP bridge: a stuck workspace listing', () => {
  it('is given up at half the call timeout; the call runs and the output says the changes are unknown', async () => {
    const seen: AbortSignal[] = [];
    const workspace = {
      root: '/w',
      capabilities: new Set(['fs.read', 'search']),
      fs: { stat: async () => undefined },
      search: {
        grep: () => {
          throw new Error('not used');
        },
        glob(request: WorkspaceGlobRequest): AsyncIterable<string> {
          if (request.signal) seen.push(request.signal);
          return {
            async *[Symbol.asyncIterator]() {
              await new Promise<never>(() => undefined);
            },
          };
        },
      },
    } as unknown as WorkspaceServices;
    const timeouts: number[] = [];
    const caller: McpToolCaller = {
      server: 's',
      callTool: async (_tool, _args, options) => {
        timeouts.push(options.timeoutMs);
        return { content: [{ type: 'text', text: 'written' }] };
      },
    };
    const tool = bridgeMcpTool(
      caller,
      { name: 'write_it', inputSchema: { type: 'object' } },
      {
        name: 'mcp__s__write_it',
        timeoutMs: 1000,
      },
    );
    const t0 = Date.now();
    const r = await tool.execute({}, createToolContext({ workspace, toolName: 'mcp__s__write_it' }));
    expect(Date.now() - t0).toBeLessThan(2000); // a second of slack for a loaded machine
    expect(r.output).toBe(
      'written\n[the files this call changed are unknown: listing the workspace took longer than 500 ms and was stopped]',
    );
    expect(r.metadata?.changed_files).toBeUndefined();
    expect(seen[0]?.aborted).toBe(true);
    expect(timeouts).toEqual([1000]);
  });
});
