// Folders that do not exist (or are files) and calls after close: each a typed error naming what was
// wrong, raised before anything is started or created — no session folder made for a typo, no MCP
// server started again behind a closed agent, no catalog error where the session is simply closed.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { mcpServer } from './kit.js';

const model = () => new ScriptedLlmClient([{ text: 'done' }]);
const folderError = (field: string, path: string, problem: RegExp) =>
  expect.objectContaining({
    code: 'SESSION_CONFIGURATION',
    field,
    message: expect.stringMatching(new RegExp(`'${path}' ${problem.source}.*allowed: an existing folder`)),
  });

describe('folder options must name existing folders', () => {
  const base = mkdtempSync(join(tmpdir(), 'a3s-sdk-folders-'));
  const missing = join(base, 'no-such-folder');
  const file = join(base, 'file.txt');
  writeFileSync(file, 'x\n');

  it('Agent.create refuses a cwd that does not exist or is a file', async () => {
    await expect(Agent.create({ model: model(), cwd: missing })).rejects.toEqual(
      folderError('cwd', missing, /does not exist/),
    );
    await expect(Agent.create({ model: model(), cwd: file })).rejects.toEqual(
      folderError('cwd', file, /is not a folder/),
    );
    expect((await Agent.create({ model: model(), cwd: base })).model).toBeDefined();
  });

  it('session, resumeSession, describeTools and mcpStatus refuse such a dir before opening anything', async () => {
    const agent = await Agent.create({ model: model(), cwd: base });
    try {
      for (const [dir, problem] of [
        [missing, /does not exist/],
        [file, /is not a folder/],
      ] as const) {
        await expect(agent.session(dir)).rejects.toEqual(folderError('dir', dir, problem));
        await expect(agent.describeTools(dir)).rejects.toEqual(folderError('dir', dir, problem));
        await expect(agent.mcpStatus(dir)).rejects.toEqual(folderError('dir', dir, problem));
        await expect(agent.resumeSession('s1', { dir })).rejects.toEqual(folderError('dir', dir, problem));
      }
      // A relative dir of resumeSession resolves against the agent's cwd.
      await expect(agent.resumeSession('s1', { dir: 'no-such-folder' })).rejects.toEqual(
        folderError('dir', missing, /does not exist/),
      );
      expect(existsSync(missing)).toBe(false);
    } finally {
      await agent.close();
    }
  });
});

describe('calls after close', () => {
  it('agent.session after agent.close is AGENT_CLOSED and starts no global MCP server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-closed-'));
    const marker = join(dir, 'server-started');
    const spy = {
      command: process.execPath,
      args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
    };
    const agent = await Agent.create({ model: model(), mcpServers: { spy } });
    await agent.close();
    for (const call of [() => agent.session(dir), () => agent.describeTools(dir), () => agent.mcpStatus(dir)])
      await expect(call()).rejects.toMatchObject({
        code: 'AGENT_CLOSED',
        message: expect.stringContaining('Agent.create'),
      });
    expect(existsSync(marker)).toBe(false);
  });

  it('session.addMcpServer after session.close is SESSION_CLOSED, like the other calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-closed-'));
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir);
    await session.close();
    await expect(session.send('hi')).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    await expect(session.addMcpServer('late', mcpServer('late'))).rejects.toMatchObject({
      code: 'SESSION_CLOSED',
      details: { operation: 'session.addMcpServer' },
    });
    await agent.close();
  });

  it('host tool calls after session.close (tool, its helpers, program, task) are SESSION_CLOSED naming the tool, and run nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-sdk-closed-'));
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    const agent = await Agent.create({ model: model() });
    const session = await agent.session(dir);
    expect((await session.tool('read', { file_path: 'a.txt' })).exitCode).toBe(0);
    await session.close();
    const closed = (tool: string) => ({
      code: 'SESSION_CLOSED',
      details: { operation: `tool(${tool})` },
      message: expect.stringContaining('open it again'),
    });
    await expect(session.tool('read', { file_path: 'a.txt' })).rejects.toMatchObject(closed('read'));
    await expect(session.readFile('a.txt')).rejects.toMatchObject(closed('read'));
    await expect(session.writeFile('b.txt', 'x')).rejects.toMatchObject(closed('write'));
    await expect(session.program({ source: 'export default async () => 1' })).rejects.toMatchObject(closed('program'));
    // Delegation names the SDK call, as a host wrote it.
    await expect(session.task({ agent: 'explore', description: 'look', prompt: 'x' })).rejects.toMatchObject({
      code: 'SESSION_CLOSED',
      details: { operation: 'task' },
    });
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
    await agent.close();
  });
});
