import { describe, expect, it } from 'vitest';
import { PermissionPolicy, type PermissionPolicyConfig } from '../permissions/permission-policy.js';
import { mergeLayers, mergePermissions, normalizeLayer } from './merge-config.js';

const decide = (config: ConstructorParameters<typeof PermissionPolicy>[0], tool: string, args: unknown) =>
  new PermissionPolicy(config).evaluate(tool, args);

describe('permission lists merge across layers', () => {
  it('allow, ask and deny lists add up; nothing either layer wrote is dropped', () => {
    const workspace = { allow: ['Bash(echo:*)', 'mcp__srv__*'], ask: ['Bash(git push:*)'], deny: ['Bash(rm:*)'] };
    const host = { allow: ['read', 'grep', 'Bash(echo:*)'], deny: ['web_*'] };
    expect(mergePermissions(workspace, host)).toEqual({
      deny: ['Bash(rm:*)', 'web_*'],
      allow: ['Bash(echo:*)', 'mcp__srv__*', 'read', 'grep'],
      ask: ['Bash(git push:*)'],
    });
    expect(mergePermissions(undefined, host)).toBe(host);
    expect(mergePermissions(workspace, undefined)).toBe(workspace);
  });

  it('the patch replaces only defaultDecision', () => {
    expect(mergePermissions({ allow: ['read'], defaultDecision: 'deny' }, { defaultDecision: 'ask' })).toEqual({
      allow: ['read'],
      defaultDecision: 'ask',
    });
    expect(mergePermissions({ defaultDecision: 'allow' }, { allow: ['read'] })).toEqual({
      allow: ['read'],
      defaultDecision: 'allow',
    });
  });

  it('merged: deny wins over ask over allow, whichever layer wrote which', () => {
    const cases: [[PermissionPolicyConfig, PermissionPolicyConfig], string, string][] = [
      [[{ allow: ['Bash(echo:*)'] }, { deny: ['bash'] }], 'echo hi', 'deny'],
      [[{ deny: ['Bash(echo:*)'] }, { allow: ['bash'] }], 'echo hi', 'deny'],
      [[{ ask: ['bash'] }, { allow: ['Bash(echo:*)'] }], 'echo hi', 'ask'],
      [[{ allow: ['bash'] }, { ask: ['Bash(echo:*)'] }], 'echo hi', 'ask'],
      [[{ allow: ['Bash(echo:*)'] }, { allow: ['read'] }], 'echo hi', 'allow'],
      [[{ allow: ['Bash(echo:*)'] }, { allow: ['read'] }], 'touch PWNED', 'ask'],
    ];
    for (const [[a, b], command, decision] of cases)
      expect(decide(mergePermissions(a, b), 'bash', { command }).decision).toBe(decision);
  });

  it('mergeLayers merges permissions the same way (config file under session options)', () => {
    const file = normalizeLayer({ permissions: { allow: ['Bash(echo:*)'], deny: ['write'] } }, 'config file');
    const options = normalizeLayer({ permissions: { allow: ['read', 'grep'] } }, 'session options');
    expect(mergeLayers(file, options).permissions).toEqual({
      deny: ['write'],
      allow: ['Bash(echo:*)', 'read', 'grep'],
    });
  });
});

describe('a bad rule of merged layers is named where it was written', () => {
  it('the layer and the index in its own list, through any number of merges and repeats', () => {
    const file = normalizeLayer(
      { permissions: { deny: ['Bash(rm:*)', 'Bash(curl:*)'] } },
      'config file /w/a3s.config.json',
    );
    const agent = normalizeLayer({ permissions: { deny: ['Bash(rm:*)', 'Read(('] } }, 'agent configuration');
    const session = normalizeLayer({ permissions: { allow: ['read'], deny: ['Write(', 'web_*'] } }, 'session options');
    const merged = mergeLayers(mergeLayers(file, agent), session).permissions!;
    expect(merged.deny).toEqual(['Bash(rm:*)', 'Bash(curl:*)', 'Read((', 'Write(', 'web_*']);
    expect(() => new PermissionPolicy(merged)).toThrow(
      expect.objectContaining({
        code: 'INVALID_PERMISSION_RULE',
        field: 'deny[1] (agent configuration)',
        message: expect.stringMatching(/^deny\[1\] \(agent configuration\): 'Read\(\(': malformed rule/),
      }),
    );
    const withoutAgent = mergeLayers(file, session).permissions!;
    expect(() => new PermissionPolicy(withoutAgent)).toThrow(
      /^deny\[0\] \(session options\): 'Write\(': malformed rule/,
    );
  });

  it('a list no layer labelled keeps its plain index', () => {
    expect(() => new PermissionPolicy({ deny: ['read', 'Edit(('] })).toThrow(/^deny\[1\]: 'Edit\(\(': malformed rule/);
  });
});
