// The file tools never read the runtime's own state under `.a3s/` (fact logs, workflow runs, saved
// sessions, attachments, memories): what other runs and sessions recorded there came from calls
// under their rules. What the user keeps in `.a3s/` for the agent (config, instructions, agents,
// skills) stays readable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../local/local-workspace.js';
import { call, tempDir, writeTree } from '../test-support/harness.js';
import { editTool } from '../tools/edit/edit-tool.js';
import { globTool } from '../tools/glob/glob-tool.js';
import { grepTool } from '../tools/grep/grep-tool.js';
import { lsTool } from '../tools/ls/ls-tool.js';
import { patchTool } from '../tools/patch/patch-tool.js';
import { readTool } from '../tools/read/read-tool.js';
import { isRuntimeStatePath } from './normalize.js';

const tmp = tempDir('a3s-runtime-state-');
let ws: LocalWorkspace;

beforeAll(() => {
  writeTree(tmp.dir, {
    '.a3s/workflows/wf-1.jsonl': '{"payload":{"output":{"s":"SECRET=1"}}}\n',
    '.a3s/effect-log/s1.jsonl': '{"payload":{"output":"SECRET=1"}}\n',
    '.a3s/sessions/s1.json': '{"SECRET":1}\n',
    '.a3s/config.json': '{"permissions":{}}\n',
    '.a3s/instructions.md': 'Be brief.\n',
    '.a3s/skills/s/SKILL.md': 'a skill\n',
    'src/a.ts': 'export const a = 1;\n',
  });
  ws = new LocalWorkspace({ root: tmp.dir, searchEngine: 'js' });
});
afterAll(() => tmp.cleanup());

const refused = (field: string) => ({
  code: 'WORKSPACE_PATH',
  details: expect.objectContaining({ field, problem: 'runtime_state' }),
});

describe("the runtime's state under .a3s/", () => {
  it('names only the state folders, in any spelling', () => {
    for (const p of [
      '.a3s/workflows',
      '.a3s/workflows/wf-1.jsonl',
      '.a3s/effect-log/x',
      '.A3S/Sessions/x',
      '.a3s/call-journal/t/r/k.jsonl',
    ])
      expect(isRuntimeStatePath(p), p).toBe(true);
    for (const p of ['.a3s', '.a3s/config.json', '.a3s/skills/s/SKILL.md', 'docs/.a3s/workflows/x', 'workflows'])
      expect(isRuntimeStatePath(p), p).toBe(false);
  });

  it('read refuses a file in it, however spelled; a batch entry fails alone', async () => {
    for (const file_path of [
      '.a3s/workflows/wf-1.jsonl',
      './.a3s/effect-log/s1.jsonl',
      'src/../.a3s/sessions/s1.json',
      `${tmp.dir}/.a3s/workflows/wf-1.jsonl`,
    ])
      await expect(call(readTool, ws, { file_path }), file_path).rejects.toMatchObject(refused('file_path'));
    const batch = await call(readTool, ws, {
      files: [{ path: '.a3s/workflows/wf-1.jsonl' }, { path: '.a3s/instructions.md' }],
    });
    expect(batch.output).not.toContain('SECRET');
    expect(batch.output).toContain('Be brief.');
    const entries = (batch.metadata as { batch: { entries: { status: string }[] } }).batch.entries;
    expect(entries.map((e) => e.status)).toEqual(['error', 'ok']);
  });

  it('ls, grep and glob refuse to start in it; from .a3s/ they leave it out', async () => {
    await expect(call(lsTool, ws, { path: '.a3s/workflows' })).rejects.toMatchObject(refused('path'));
    await expect(call(grepTool, ws, { pattern: 'SECRET', path: '.a3s/effect-log' })).rejects.toMatchObject(
      refused('path'),
    );
    await expect(call(globTool, ws, { pattern: '*', path: '.a3s/workflows' })).rejects.toMatchObject(refused('path'));
    const grep = await call(grepTool, ws, { pattern: 'SECRET', path: '.a3s', output_mode: 'files_with_matches' });
    expect(grep.output).not.toContain('.a3s/');
    const glob = await call(globTool, ws, { pattern: '**', path: '.a3s' });
    expect(glob.output.split('\n').sort()).toEqual([
      '.a3s/config.json',
      '.a3s/instructions.md',
      '.a3s/skills/s/SKILL.md',
    ]);
  });

  it("an edit's or a patch's dry run does not read it either", async () => {
    await expect(
      call(editTool, ws, { file_path: '.a3s/workflows/wf-1.jsonl', old_string: 'x', new_string: 'y', dry_run: true }),
    ).rejects.toMatchObject(refused('path'));
    const patch = '--- a/.a3s/workflows/wf-1.jsonl\n+++ b/.a3s/workflows/wf-1.jsonl\n@@ -1 +1 @@\n-x\n+y\n';
    const r = await call(patchTool, ws, { patch, dry_run: true }).catch((e: unknown) => e);
    expect(JSON.stringify(r)).not.toContain('SECRET');
    expect(r).toMatchObject(refused('path'));
  });

  it('what the user keeps in .a3s/ stays readable, and ls of .a3s/ lists it', async () => {
    expect((await call(readTool, ws, { file_path: '.a3s/config.json' })).exitCode).toBe(0);
    expect((await call(readTool, ws, { file_path: '.a3s/skills/s/SKILL.md' })).output).toContain('a skill');
    const ls = await call(lsTool, ws, { path: '.a3s' });
    expect(ls.exitCode).toBe(0);
    expect(ls.output).toContain('skills');
  });
});
