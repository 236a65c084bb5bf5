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

  it("another agent's name for a tool the session has is refused, naming the tool and the rule to write", () => {
    for (const [rule, ours, fixed] of [
      ['Shell(rm:*)', 'bash', 'bash(rm:*)'],
      ['run_shell_command(git push *)', 'bash', 'bash(git push *)'],
      ['MultiEdit', 'edit', 'edit'],
      ['str_replace_editor(src/**)', 'edit', 'edit(src/**)'],
      ['WriteFile', 'write', 'write'],
      ['list_directory', 'ls', 'ls'],
      ['fetch(https://*)', 'web_fetch', 'web_fetch(https://*)'],
    ] as const) {
      expect(() => checkRuleToolNames({ deny: [rule] }, TOOLS), rule).toThrow(
        expect.objectContaining({
          code: 'INVALID_PERMISSION_RULE',
          message: expect.stringContaining(
            `deny[0]: '${rule}': names no tool of this session: '${rule.split('(')[0]}' is another agent's name for what is '${ours}' here (write ${fixed})`,
          ),
        }),
      );
    }
  });

  it('such a name passes when the session has a tool of that name, or nothing it stands for; names of Object.prototype are plain names', () => {
    expect(() => checkRuleToolNames({ deny: ['Shell(rm:*)'] }, [...TOOLS, 'shell'])).not.toThrow();
    expect(() =>
      checkRuleToolNames({ deny: ['apply_patch', 'google_search', 'ask_followup_question'] }, TOOLS),
    ).not.toThrow();
    expect(() =>
      checkRuleToolNames({ deny: ['constructor', 'toString(x)', '__proto__', 'hasOwnProperty'] }, TOOLS),
    ).not.toThrow();
  });

  it('a rule naming a program as if it were a tool is refused, naming the Bash rule to write', () => {
    for (const [rule, fixed] of [
      ['rm', 'Bash(rm:*)'],
      ['rm(*)', 'Bash(rm:*)'],
      ['curl(https://*)', 'Bash(curl https://*)'],
      ['Sudo', 'Bash(Sudo:*)'],
      ['cat(.env)', 'Bash(cat .env)'],
      ['docker(run:*)', 'Bash(docker run:*)'],
    ] as const) {
      expect(() => checkRuleToolNames({ ask: ['Read(src/**)', rule] }, TOOLS), rule).toThrow(
        expect.objectContaining({
          code: 'INVALID_PERMISSION_RULE',
          message: expect.stringContaining(
            `ask[1]: '${rule}': names no tool: '${rule.split('(')[0]}' is a program, which 'bash' runs; a rule for it is written ${fixed}`,
          ),
        }),
      );
    }
    for (const rule of ['Exec(rm:*)', 'run_command(npm test)', 'Command'])
      expect(() => checkRuleToolNames({ deny: [rule] }, TOOLS), rule).toThrow(/commands are run by 'bash' here/);
  });

  it('a program or verb that is a tool of the session is a tool: the rule passes', () => {
    expect(() => checkRuleToolNames({ deny: ['curl(*)', 'run'] }, [...TOOLS, 'curl', 'run'])).not.toThrow();
  });
});
