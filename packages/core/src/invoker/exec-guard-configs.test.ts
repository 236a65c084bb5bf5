// Where a workspace cannot keep files from a command (no namespaces: not Linux), a command a rule
// allows unasked is still kept from adding git settings that run programs: the configuration
// files are read before and after it, whatever the policy's rules.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import type { WorkspaceExecResult, WorkspaceServices } from '../workspace/workspace-services.js';
import { guardExec } from './exec-guard.js';

const dir = mkdtempSync(join(tmpdir(), 'a3s-guard-cfg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'config');
const stream = { head: '', tail: '', totalBytes: 0, truncated: false };
const done: WorkspaceExecResult = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout: stream,
  stderr: stream,
  durationMs: 1,
};

describe('a command allowed unasked on a workspace that cannot hide files', () => {
  it('loses the git setting it adds, and the result names it', async () => {
    writeFileSync(config, '[user]\n\tname = t\n');
    // The command: appends a setting git would run (what `git config core.fsmonitor …` does).
    const workspace = {
      root: dir,
      capabilities: new Set(['exec']),
      exec: {
        run: async () => {
          await appendFile(config, '[core]\n\tfsmonitor = touch PWNED\n');
          return done;
        },
      },
    } as unknown as WorkspaceServices;
    const held = guardExec(workspace, new PermissionPolicy({}), 'bash', true, undefined, [
      { path: config, shown: '.git/config' },
    ]);
    expect(held).not.toBe(workspace);
    const result = await held.exec?.run({ command: 'git config core.fsmonitor "touch PWNED"' });
    expect(result?.deniedWrites).toEqual({ removed: [], restored: ['.git/config (core.fsmonitor)'] });
    expect(readFileSync(config, 'utf8')).not.toContain('fsmonitor');
    // Without files to watch and without rules, the workspace is the same.
    expect(guardExec(workspace, new PermissionPolicy({}), 'bash', true)).toBe(workspace);
  });
});
