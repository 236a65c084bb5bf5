import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { open, workspace, closeAfterEach } from '../../test/session-kit.js';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { EXECUTION_STYLES, RESPONSE_FORMAT, RUNTIME_CONTRACT } from './contracts.js';
import {
  buildSystemPrompt,
  loadWorkspaceInstructions,
  loadWorkspaceInstructionsSync,
  MAX_INSTRUCTION_BYTES,
} from './system-prompt.js';

const { sessions } = closeAfterEach();

describe('layered system prompt', () => {
  it('PROMPT-01/PROMPT-02: a few non-overlapping contracts, in a fixed order', () => {
    const sections = buildSystemPrompt();
    expect(sections).toEqual([RUNTIME_CONTRACT, EXECUTION_STYLES.default, RESPONSE_FORMAT]);
    for (const word of ['Authority', 'Autonomy', 'Evidence', 'Continuity', 'Stopping'])
      expect(RUNTIME_CONTRACT).toContain(word);
    expect(EXECUTION_STYLES.default).not.toMatch(/Authority|Evidence/);
    expect(RESPONSE_FORMAT).not.toMatch(/permission|tool/i);
  });

  it('PROMPT-03: the execution style adds only its mode, the response format describes only the output', () => {
    const base = buildSystemPrompt();
    // Each input replaces its own section and nothing else.
    const plan = buildSystemPrompt({ executionStyle: 'plan' });
    expect(plan.filter((s, i) => s !== base[i])).toEqual([EXECUTION_STYLES.plan]);
    const json = buildSystemPrompt({ responseFormat: 'Answer with one JSON object.' });
    expect(json.filter((s, i) => s !== base[i])).toEqual(['# Response format\nAnswer with one JSON object.']);
    // The styles say what the mode does, never the runtime's rules (authority, evidence, stopping) or the output's form.
    for (const style of Object.values(EXECUTION_STYLES)) {
      expect(style).not.toMatch(/permission|denied|authority|evidence|ends the run|stop|Markdown|final answer/i);
    }
    expect(EXECUTION_STYLES.plan).not.toBe(EXECUTION_STYLES.default);
    // The response format is about the answer only: no tools, no run mechanics, no mode.
    expect(RESPONSE_FORMAT).not.toMatch(/\b(tool|verify|run|permission|ask_user|plan|mode|stop)/i);
    // No sentence is said twice across the three contracts.
    const sentences = [RUNTIME_CONTRACT, EXECUTION_STYLES.default, RESPONSE_FORMAT].flatMap((c) =>
      c
        .split(/(?<=[.:])\s+|\n/)
        .map((x) => x.trim().toLowerCase())
        .filter((x) => x.length > 20),
    );
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it('PROMPT-04: workspace instructions, skills and host context are separate inputs after the contracts', () => {
    const sections = buildSystemPrompt({
      executionStyle: 'plan',
      workspaceInstructions: [{ path: 'AGENTS.md', text: 'Use pnpm.' }],
      skills: ['Release skill: bump versions with changesets.'],
      hostContext: ['The user is on call.'],
    });
    expect(sections[0]).toBe(RUNTIME_CONTRACT);
    expect(sections[1]).toBe(EXECUTION_STYLES.plan);
    expect(sections.slice(3)).toEqual([
      '# Workspace instructions (AGENTS.md)\nUse pnpm.',
      '# Skill\nRelease skill: bump versions with changesets.',
      'The user is on call.',
    ]);
  });

  it('reads AGENTS.md and .a3s/instructions.md from the workspace, bounded', async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, 'AGENTS.md'), 'Run npm test before finishing.');
    mkdirSync(join(dir, '.a3s'), { recursive: true });
    writeFileSync(join(dir, '.a3s', 'instructions.md'), 'x'.repeat(MAX_INSTRUCTION_BYTES + 10));
    const found = await loadWorkspaceInstructions(dir);
    expect(found.map((f) => f.path)).toEqual(['AGENTS.md', '.a3s/instructions.md']);
    expect(found[1]!.text).toMatch(/cut at 65536 bytes\]$/);
    expect(await loadWorkspaceInstructions(workspace().dir)).toEqual([]);
  });

  it('PROMPT-04: an instruction file that is a link out of the workspace, a FIFO or a device is not read; the prompt says so', async () => {
    const { dir } = workspace();
    const outside = mkdtempSync(join(tmpdir(), 'a3s-outside-'));
    writeFileSync(join(outside, 'credentials'), 'aws_secret_access_key = not-for-the-model\n');
    symlinkSync(join(outside, 'credentials'), join(dir, 'AGENTS.md'));
    mkdirSync(join(dir, '.a3s'), { recursive: true });
    execFileSync('mkfifo', [join(dir, '.a3s', 'instructions.md')]);
    const found = await loadWorkspaceInstructions(dir);
    expect(found).toEqual([
      { path: 'AGENTS.md', text: '[AGENTS.md was not read: it is a link to a file outside the workspace]' },
      { path: '.a3s/instructions.md', text: '[.a3s/instructions.md was not read: it is not a regular file]' },
    ]);
    // A link to a device is a link out of the workspace; a link to a file inside it is read.
    rmSync(join(dir, 'AGENTS.md'));
    symlinkSync('/dev/zero', join(dir, 'AGENTS.md'));
    expect(loadWorkspaceInstructionsSync(dir)[0]!.text).toContain('was not read');
    rmSync(join(dir, 'AGENTS.md'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'agents.md'), 'Use pnpm.');
    symlinkSync('docs/agents.md', join(dir, 'AGENTS.md'));
    expect(loadWorkspaceInstructionsSync(dir)[0]).toEqual({ path: 'AGENTS.md', text: 'Use pnpm.' });
    // A whole folder .a3s that is a link out of the workspace is not followed either.
    const other = workspace().dir;
    mkdirSync(join(outside, 'state'));
    writeFileSync(join(outside, 'state', 'instructions.md'), 'from elsewhere');
    symlinkSync(join(outside, 'state'), join(other, '.a3s'));
    expect(loadWorkspaceInstructionsSync(other)).toEqual([
      {
        path: '.a3s/instructions.md',
        text: '[.a3s/instructions.md was not read: it is a link to a file outside the workspace]',
      },
    ]);
  });

  it('PROMPT-04: an instruction file the read rules keep, by its name or the file it links to, or with other names, is not read', async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, '.env'), 'SECRET_TOKEN=not-for-the-model\n');
    symlinkSync('.env', join(dir, 'AGENTS.md'));
    const deny = new PermissionPolicy({ deny: ['Read(.env)'] });
    expect(loadWorkspaceInstructionsSync(dir, deny)).toEqual([
      { path: 'AGENTS.md', text: '[AGENTS.md was not read: the read rules keep it (Read(.env))]' },
    ]);
    // Nobody can be asked when a session opens: an ask rule keeps it too.
    expect(loadWorkspaceInstructionsSync(dir, new PermissionPolicy({ ask: ['Read(.env)'] }))[0]!.text).toContain(
      'the read rules keep it (Read(.env))',
    );
    // The instruction file's own name under a rule.
    rmSync(join(dir, 'AGENTS.md'));
    writeFileSync(join(dir, 'AGENTS.md'), 'private notes');
    expect(loadWorkspaceInstructionsSync(dir, new PermissionPolicy({ deny: ['Read(AGENTS.md)'] }))[0]!.text).toContain(
      'the read rules keep it (Read(AGENTS.md))',
    );
    // Another name (a hard link) of some file: it could be one the rules keep.
    rmSync(join(dir, 'AGENTS.md'));
    linkSync(join(dir, '.env'), join(dir, 'AGENTS.md'));
    expect(loadWorkspaceInstructionsSync(dir, deny)[0]!.text).toContain('it has other names (hard links)');
    // A link to another instruction file the rules allow is read, and without rules all is as before.
    rmSync(join(dir, 'AGENTS.md'));
    writeFileSync(join(dir, 'CLAUDE.md'), 'Use pnpm.');
    symlinkSync('CLAUDE.md', join(dir, 'AGENTS.md'));
    expect(loadWorkspaceInstructionsSync(dir, deny)[0]).toEqual({ path: 'AGENTS.md', text: 'Use pnpm.' });
  });

  it('PROMPT-04: a session under a read deny rule does not send a linked AGENTS.md to the model', async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, '.env'), 'SECRET_TOKEN=hunter2-not-for-the-model\n');
    symlinkSync('.env', join(dir, 'AGENTS.md'));
    const { session, model } = await open([{ text: 'ok' }], { permissions: { deny: ['Read(.env)'] } }, dir);
    sessions.push(session);
    await session.send('hi');
    expect(JSON.stringify(model.requests)).not.toContain('hunter2');
    expect(JSON.stringify(model.requests)).toContain('AGENTS.md was not read');
  });

  it('PROMPT-04: every run sends the layered prompt, and prompt inputs never change the tool list', async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, 'AGENTS.md'), 'Use pnpm.');
    const a = await open([{ text: 'ok' }], { system: ['Host says hi.'] }, dir);
    sessions.push(a.session);
    await a.session.send('hello');
    const system = a.model.requests[0]!.system;
    expect(system[0]).toBe(RUNTIME_CONTRACT);
    expect(system).toContain('# Workspace instructions (AGENTS.md)\nUse pnpm.');
    expect(system.at(-1)).toBe('Host says hi.');
    const b = await open([], {
      prompt: { responseFormat: 'Answer in one word.', executionStyle: { text: 'Be terse.' } },
      workspaceInstructions: false,
    });
    sessions.push(b.session);
    expect(b.session.system).not.toContain('# Workspace instructions (AGENTS.md)\nUse pnpm.');
    expect(b.session.toolNames()).toEqual(a.session.toolNames());
  });

  it('plan mode uses the plan execution style', async () => {
    const { session } = await open([], { governance: { mode: 'plan' } });
    sessions.push(session);
    expect(session.system[1]).toBe(EXECUTION_STYLES.plan);
  });
});

describe('session.compact', () => {
  it('PROMPT-05: summarises through the model with instructions to keep goal, constraints, criteria, decisions and evidence', async () => {
    const { session, model } = await open([
      { text: 'first answer' },
      { text: 'Goal: X. Constraints: Y. Done: Z.' },
      { text: 'next' },
    ]);
    sessions.push(session);
    await session.send('Do X under constraint Y');
    const r = await session.compact();
    expect(r.summaryChars).toBe('Goal: X. Constraints: Y. Done: Z.'.length);
    const instructions = model.requests[1]!.system.join('\n');
    for (const w of [
      'goal',
      'Constraints',
      'acceptance criteria',
      'Decisions',
      'Verification evidence',
      'Do not change the scope',
    ])
      expect(instructions).toContain(w);
    expect(model.requests[1]!.tools).toEqual([]);
    await session.send('continue');
    expect(model.requests[2]!.messages[0]).toEqual({
      role: 'user',
      content: 'Summary of the conversation so far:\nGoal: X. Constraints: Y. Done: Z.',
    });
  });
});

describe('automatic compaction', () => {
  it('compacts in the run when the context passes the configured threshold, with a context_compacted event', async () => {
    const { session, model } = await open(
      [{ tool_calls: [{ name: 'echo', args: { text: 'y'.repeat(300) } }] }, { text: 'SUMMARY' }, { text: 'final' }],
      { compactThresholdChars: 200 },
    );
    sessions.push(session);
    const types: string[] = [];
    for await (const ev of session.stream('go')) types.push(ev.type);
    expect(types).toContain('context_compacted');
    expect(
      session.store.log.facts.some((f) => f.type === 'compaction.done' && /^compact:1:\d+$/.test(f.cause ?? '')),
    ).toBe(true);
    expect(model.requests[2]!.messages[0]).toEqual({
      role: 'user',
      content: 'Summary of the conversation so far:\nSUMMARY',
    });
  });
});
