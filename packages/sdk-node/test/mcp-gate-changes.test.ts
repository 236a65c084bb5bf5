// A tool of an MCP server that does not declare itself read-only may change anything, so it is
// treated as mutating; but the workspace is looked at around each call, as around a shell
// command: a lookup that changed no file is no change for the completion gate (the run completes),
// and one that wrote a file is a change of that file (the ledger names it, not "unknown").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '@a3s-code/sdk';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { tempRepo } from './kit.js';

const files = {
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/mcp-files-server.mjs', import.meta.url))],
};

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function session(dir: string, calls: { id: string; name: string; args: Record<string, unknown> }[]) {
  const model = new ScriptedLlmClient([{ tool_calls: calls }, { text: 'Done.' }, { text: 'Done.' }, { text: 'Done.' }]);
  const s = await (await Agent.create({ model })).session(dir, {
    governance: { yolo: true },
    gate: { continuation: { enabled: false } },
    mcpServers: { files },
  });
  opened.push(s);
  return s;
}

describe('MCP calls and the completion gate', () => {
  it('GATE-01: an unannotated MCP lookup that changed no file lets the run complete; the ledger is empty', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'notes.txt'), 'remember the milk\n');
    const s = await session(dir, [{ id: 'r', name: 'mcp__files__read_file', args: { path: join(dir, 'notes.txt') } }]);
    expect(await s.send('what do the notes say?')).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(s.changeLedger().entries).toEqual([]);
  });

  it('GATE-01: an MCP call that wrote a file is a change of that file, not of unknown paths', async () => {
    const dir = tempRepo();
    const s = await session(dir, [
      { id: 'w', name: 'mcp__files__write_file', args: { path: join(dir, 'out.txt'), content: 'hi' } },
    ]);
    await expect(s.send('write it')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(s.changeLedger().entries).toEqual([
      expect.objectContaining({ tool: 'mcp__files__write_file', path: 'out.txt' }),
    ]);
  });
});
