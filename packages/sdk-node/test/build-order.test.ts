// The SDK's session build keeps the kernel's order: options are validated before any resource
// (an MCP server process, the fact log) is started or opened.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { mcpServer, tempRepo } from './kit.js';

/** An MCP server entry that leaves `marker` behind when its process starts. */
function markedServer(marker: string) {
  const server = mcpServer('marked');
  return { command: 'sh', args: ['-c', `touch '${marker}'; exec "$0" "$@"`, server.command, ...server.args] };
}

describe('SDK build order', () => {
  it('ARCH-02: a bad session option is refused before any MCP server starts or any log opens', async () => {
    const dir = tempRepo();
    const marker = join(mkdtempSync(join(tmpdir(), 'a3s-marker-')), 'started');
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    for (const bad of [{ toolBudget: -1 }, { maxToolRounds: 1.5 }, { questionCap: 1000 }]) {
      await expect(
        agent.session(dir, { ...bad, mcpServers: { marked: markedServer(marker) } } as never),
      ).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION' });
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(join(dir, '.a3s', 'effect-log'))).toBe(false);
    }
    // The same server starts for a good session.
    const session = await agent.session(dir, { mcpServers: { marked: markedServer(marker) } });
    try {
      expect(existsSync(marker)).toBe(true);
      expect(session.toolNames()).toContain('mcp__marked__echo');
    } finally {
      await session.close();
    }
  });
});
