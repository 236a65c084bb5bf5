import { describe, expect, it } from 'vitest';
import { checkRuleToolNames } from './rule-tool-names.js';

const TOOLS = [
  'read',
  'write',
  'edit',
  'bash',
  'grep',
  'glob',
  'ls',
  'git',
  'batch',
  'web_fetch',
  'lsp_rename',
  'verify',
];

describe('rules that name a tool the session does not have', () => {
  it('a near miss of a tool is refused, naming the list, the rule and the tool it was meant for', () => {
    for (const [rule, near] of [
      ['Bsh(rm *)', 'bash'],
      ['Bahs', 'bash'],
      ['Raed(secret/**)', 'read'],
      ['wirte', 'write'],
      ['WebFetc', 'web_fetch'],
      ['Grepp', 'grep'],
      ['LspRenam', 'lsp_rename'],
    ] as const) {
      expect(() => checkRuleToolNames({ deny: ['Bash(ls:*)', rule] }, TOOLS), rule).toThrow(
        expect.objectContaining({
          code: 'INVALID_PERMISSION_RULE',
          message: expect.stringContaining(
            `deny[1]: '${rule}': names no tool of this session (did you mean '${near}'?)`,
          ),
        }),
      );
    }
    expect(() => checkRuleToolNames({ allow: ['Edti'] }, TOOLS)).toThrow(/allow\[0\]: 'Edti'.*'edit'/);
  });

  it('tools it has (any spelling), globs, MCP names, short names and names far from every tool pass', () => {
    const fine = {
      deny: [
        'WebFetch',
        'Bash(rm:*)',
        'web-fetch',
        'mcp__gihub__x',
        'mcp__github',
        'we*',
        'lsp',
        'debug',
        'eval',
        'deploy',
      ],
      ask: ['Web_Fetch(https://*)', 'LS'],
      allow: ['Read(src/**)', 'ast_grep'],
    };
    expect(() => checkRuleToolNames(fine, TOOLS)).not.toThrow();
    expect(() => checkRuleToolNames({}, TOOLS)).not.toThrow();
  });
});
