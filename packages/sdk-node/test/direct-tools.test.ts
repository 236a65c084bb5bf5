// The host-direct helpers of §7 on a real LocalWorkspace: return types of the seed, typed
// failures, and no transcript entry, no lease.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { A3sError, Agent, DirectToolError, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(turns: ConstructorParameters<typeof ScriptedLlmClient>[0] = []) {
  const dir = tempRepo();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({ model });
  session = await agent.session(dir);
  return { dir, session, model };
}

describe('host-direct helpers', () => {
  it('SDK-04: tool, readFile, writeFile, editFile, patchFile, ls, glob, grep, bash, git on a real repository', async () => {
    const { dir, session: s } = await open();
    const raw = await s.tool('read', { file_path: 'README.md' });
    expect(raw.exitCode).toBe(0);
    expect(raw.output).toContain('See PermissionPolicy notes.');
    expect(JSON.parse(raw.metadataJson!).total_lines).toBe(3);

    expect(await s.readFile('src/range.js', { offset: 2, limit: 1 })).toBe(
      '  for (let i = start; i < end; i++) out.push(i);\n',
    );
    expect(await s.readFile('README.md')).toBe(readFileSync(join(dir, 'README.md'), 'utf8'));

    const written = await s.writeFile('notes/todo.txt', 'one\ntwo\n');
    expect(written.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'notes', 'todo.txt'), 'utf8')).toBe('one\ntwo\n');

    const edited = await s.editFile('src/range.js', 'i < end', 'i <= end', { expectedReplacements: 1 });
    expect(edited.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toContain('i <= end');

    const patched = await s.patchFile('notes/todo.txt', '@@ -1,2 +1,2 @@\n one\n-two\n+three\n');
    expect(patched.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'notes', 'todo.txt'), 'utf8')).toBe('one\nthree\n');

    const listing = await s.ls('src');
    expect(listing.output).toContain('range.js');
    expect(await s.glob('**/*.js', { sort: 'path' })).toEqual(['src/range.js', 'test/range.test.js']);
    expect(await s.grep('PermissionPolicy')).toBe('README.md:3:See PermissionPolicy notes.');
    // No match is no text, in every listing mode; the summary still says 0.
    expect(await s.grep('NoSuchWordAnywhere')).toBe('');
    expect(await s.grep('NoSuchWordAnywhere', { outputMode: 'files_with_matches' })).toBe('');
    expect(await s.grep('NoSuchWordAnywhere', { outputMode: 'count' })).toBe('');
    expect(await s.grep('NoSuchWordAnywhere', { outputMode: 'summary' })).toBe('0 matching lines in 0 files');
    expect(await s.grep('PermissionPolicy', { outputMode: 'files_with_matches' })).toBe('README.md');
    expect(await s.bash('node --test 2>&1 | grep -c "^ok"')).toContain('1');

    const status = await s.git('status');
    expect(status.exitCode).toBe(0);
    expect(status.output).toMatch(/M src\/range\.js/);
    expect(status.output).toContain('notes/');
    // Host calls never enter the transcript.
    expect(s.core.store.log.length).toBe(0);
  });

  it('string helpers throw DirectToolError; ToolResult helpers return the failure', async () => {
    const { session: s } = await open();
    const err = await s.readFile('missing.txt').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DirectToolError);
    expect(A3sError.hasCode(err, 'DIRECT_TOOL_FAILED')).toBe(true);
    expect((err as DirectToolError).message).toContain('WORKSPACE_NOT_FOUND');
    const bashErr = (await s.bash('echo out; exit 7').catch((e: unknown) => e)) as DirectToolError;
    expect(bashErr.exitCode).toBe(7);
    expect(bashErr.result.output).toContain('out');
    // The message says why: a parser's complaint on its last line, a long output's first and last lines.
    const regexErr = (await s.grep('((').catch((e: unknown) => e)) as DirectToolError;
    expect(regexErr.message).toMatch(/regex parse error[\s\S]*unclosed group/);
    const noisy = (await s
      .bash('for i in $(seq 1 200); do echo "progress line $i"; done; echo "FATAL: the real cause" >&2; exit 2')
      .catch((e: unknown) => e)) as DirectToolError;
    expect(noisy.message).toContain('progress line 1\n');
    expect(noisy.message).toContain('FATAL: the real cause');
    expect(noisy.message).toMatch(/more lines in error\.result\.output/);
    expect(noisy.message.length).toBeLessThan(1_200);
    await expect(s.glob('*.ts', { path: 'README.md' })).rejects.toBeInstanceOf(DirectToolError);

    const failedEdit = await s.editFile('src/range.js', 'no such text', 'x');
    expect(failedEdit.exitCode).toBe(1);
    const badArgs = await s.tool('read', { file_path: 42 });
    expect(badArgs.errorKind).toBe('invalid_args');
    expect(badArgs.error?.code).toBe('INVALID_TOOL_ARGS');
    const unknown = await s.tool('nope');
    expect(unknown.errorKind).toBe('not_found');
  });

  it('TOOL-04: every typed helper calls its tool with the explicit host (trusted control plane) source, past a policy that denies them all', async () => {
    const dir = tempRepo();
    const seen: [string, string][] = [];
    const asked: string[] = [];
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    session = await agent.session(dir, {
      // The model-facing policy would refuse or ask for every one of these calls.
      permissions: { deny: ['write', 'edit', 'patch', 'bash', 'git'], ask: ['read', 'ls', 'glob', 'grep', 'program'] },
      onConfirm: async (r) => {
        asked.push(r.toolName);
        return { approved: false, reason: 'nobody may' };
      },
      hooks: { pre: [{ name: 'record', before: (call) => void seen.push([call.name, call.source]) }] },
    });
    const s = session;
    await s.readFile('README.md');
    await s.writeFile('notes.txt', 'one\n');
    await s.editFile('notes.txt', 'one', 'two');
    await s.patchFile('notes.txt', '@@ -1 +1 @@\n-two\n+three\n');
    await s.ls('.');
    await s.glob('**/*.js');
    await s.grep('PermissionPolicy');
    await s.bash('true');
    await s.git('status');
    expect((await s.verifyCommands('check', [{ id: 'ok', command: 'true' }])).status).toBe('passed');
    const program = await s.program({ source: "async function run(ctx) { return await ctx.readFile('README.md'); }" });
    expect(program.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('three\n');
    expect(asked).toEqual([]);
    // Each helper's own call is `host`; the calls a host-run program makes are the trusted `host_nested`.
    expect(seen).toEqual([
      ['read', 'host'],
      ['write', 'host'],
      ['edit', 'host'],
      ['patch', 'host'],
      ['ls', 'host'],
      ['glob', 'host'],
      ['grep', 'host'],
      ['bash', 'host'],
      ['git', 'host'],
      ['bash', 'host'],
      ['program', 'host'],
      ['read', 'host_nested'],
    ]);
  });

  it('SDK-02: direct calls run while a turn is in progress (no lease) and add nothing to the transcript', async () => {
    const { dir, session: s, model } = await open([{ delay_ms: 2_000, text: 'slow answer' }, { text: 'second' }]);
    const run = s.send('take your time');
    await new Promise((r) => setTimeout(r, 50));
    expect(s.activeRunId).not.toBeNull();
    const during = await Promise.all([
      s.grep('PermissionPolicy'),
      s.writeFile('notes.txt', 'mid-turn\n'),
      s.tool('read', { file_path: 'README.md' }),
      s.git('status'),
      s.program({ source: "async function run(ctx) { return await ctx.readFile('README.md'); }" }),
    ]);
    expect(during[0]).toContain('README.md');
    expect(during.slice(1).map((r) => (r as { exitCode: number }).exitCode)).toEqual([0, 0, 0, 0]);
    expect(s.activeRunId).not.toBeNull();
    expect((await run).text).toBe('slow answer');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mid-turn\n');
    // The log and the next model request hold the prompt and the answer only.
    const facts = s.core.store.log.facts.map((f) => f.type);
    expect(facts.filter((t) => t.startsWith('tool.'))).toEqual([]);
    await s.send('and again');
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual(['take your time', 'slow answer', 'and again']);
  });

  it('SDK-03: tool, program, git, writeFile, ls, editFile and patchFile return a ToolResult with output, exitCode and an optional metadataJson', async () => {
    const { session: s } = await open();
    const results = {
      tool: await s.tool('read', { file_path: 'README.md' }),
      program: await s.program({ source: 'async function run(ctx) { return 6 * 7; }' }),
      git: await s.git('status'),
      writeFile: await s.writeFile('a.txt', 'one\n'),
      ls: await s.ls('.'),
      editFile: await s.editFile('a.txt', 'one', 'two'),
      patchFile: await s.patchFile('a.txt', '@@ -1 +1 @@\n-two\n+three\n'),
    };
    for (const [name, r] of Object.entries(results)) {
      expect(typeof r.output, name).toBe('string');
      expect(r.exitCode, name).toBe(0);
      if (r.metadataJson !== undefined) expect(typeof JSON.parse(r.metadataJson), name).toBe('object');
    }
    expect(JSON.parse(results.program.metadataJson!).result).toBe(42);
    expect(JSON.parse(results.tool.metadataJson!).total_lines).toBe(3);
    expect(results.ls.output).toContain('a.txt');
    // A failure is a ToolResult too, not a throw.
    const failed = await s.editFile('a.txt', 'not there', 'x');
    expect([typeof failed.output, failed.exitCode]).toEqual(['string', 1]);
  });

  it('SDK-01: a direct call runs in the session workspace as a privileged host call the model would be refused', async () => {
    // Default SDK options: no approver, so a model `bash` call (asked by default) is refused.
    const { dir, session: s } = await open([
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'touch BY_MODEL' } }] },
      { text: 'refused' },
    ]);
    await s.send('touch it');
    expect(existsSync(join(dir, 'BY_MODEL'))).toBe(false);
    // The same tool called by the host runs, unasked, in the workspace folder.
    expect((await s.bash('touch BY_HOST && pwd')).trim()).toBe(realpathSync(dir));
    expect(existsSync(join(dir, 'BY_HOST'))).toBe(true);
    expect((await s.writeFile('host.txt', 'x')).exitCode).toBe(0);
    expect(readFileSync(join(dir, 'host.txt'), 'utf8')).toBe('x');
    // Privileged does not mean outside the workspace: paths stay held to its root.
    await expect(s.readFile('../outside.txt')).rejects.toBeInstanceOf(DirectToolError);
    expect((await s.writeFile('../escape.txt', 'x')).exitCode).not.toBe(0);
    expect(existsSync(join(dir, '..', 'escape.txt'))).toBe(false);
  });

  it('SDK-04: readFile, grep and bash return a plain string, glob an array of strings', async () => {
    const { session: s } = await open();
    const read = await s.readFile('README.md');
    const found = await s.grep('PermissionPolicy');
    const shell = await s.bash('echo hi');
    const paths = await s.glob('**/*.md');
    for (const v of [read, found, shell]) expect(typeof v).toBe('string');
    expect(read).toBe('# demo\n\nSee PermissionPolicy notes.\n');
    expect(found).toBe('README.md:3:See PermissionPolicy notes.');
    expect(shell).toBe('hi\n');
    expect(Array.isArray(paths)).toBe(true);
    expect(paths).toEqual(['README.md']);
  });

  it("SDK-05: session.tool('read', { file_path: 'README.md' }) returns the file's contents in ToolResult.output", async () => {
    const { dir, session: s } = await open();
    const r = await s.tool('read', { file_path: 'README.md' });
    expect(r.exitCode).toBe(0);
    for (const line of readFileSync(join(dir, 'README.md'), 'utf8').split('\n').filter(Boolean))
      expect(r.output).toContain(line);
  });

  it('SDK-06: toolDefinitions() is synchronous and returns the schemas of this session surface', async () => {
    const { session: s } = await open();
    const defs = s.toolDefinitions();
    expect(defs).not.toBeInstanceOf(Promise);
    expect(Array.isArray(defs)).toBe(true);
    expect(defs.map((d) => d.name)).toEqual([...s.toolNames()]);
    for (const d of defs) expect(d.inputSchema).toMatchObject({ type: 'object' });
    expect(defs.find((d) => d.name === 'read')!.inputSchema.properties).toHaveProperty('file_path');
    // Another session's surface: without the web tools, their schemas are not listed.
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), web: false });
    const narrow = await agent.session(tempRepo());
    try {
      const names = narrow.toolDefinitions().map((d) => d.name);
      expect(defs.map((d) => d.name)).toContain('web_fetch');
      expect(names).not.toContain('web_fetch');
    } finally {
      await narrow.close();
    }
  });
});
