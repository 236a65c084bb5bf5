import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { PermissionRuleError } from '../errors/tool-errors.js';
import { compileGlob } from './glob.js';
import { PermissionPolicy } from './permission-policy.js';

const decide = (config: ConstructorParameters<typeof PermissionPolicy>[0], tool: string, args: unknown) =>
  new PermissionPolicy(config).evaluate(tool, args);

describe('PermissionPolicy', () => {
  it('PERM-03: deny beats ask beats allow; evaluation is deny → ask → allow → default', () => {
    const config = { deny: ['Bash(rm:*)'], allow: ['Bash'], ask: ['Bash(git push:*)'] };
    expect(decide(config, 'bash', { command: 'rm -rf /' })).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
    // The narrower ask is not made dead by the broader allow.
    expect(decide(config, 'bash', { command: 'git push' })).toEqual({ decision: 'ask', rule: 'Bash(git push:*)' });
    expect(decide(config, 'bash', { command: 'ls' })).toEqual({ decision: 'allow', rule: 'Bash' });
    expect(decide({ ask: ['Bash(git push:*)'] }, 'bash', { command: 'git push origin' })).toEqual({
      decision: 'ask',
      rule: 'Bash(git push:*)',
    });
    expect(decide({}, 'bash', { command: 'ls' })).toEqual({ decision: 'ask', rule: 'default' });
    expect(decide({ defaultDecision: 'deny' }, 'bash', { command: 'ls' })).toEqual({
      decision: 'deny',
      rule: 'default',
    });
  });

  it('PERM-02: a path rule is matched in its canonical spelling; a deny or ask naming a folder covers what is in it', () => {
    const root = '/work/app';
    const read = (rule: string, path: string) =>
      new PermissionPolicy({ deny: [rule] }).evaluate('read', { file_path: path }, root).decision;
    for (const rule of ['Read(./.env)', 'Read(.//.env)', 'Read(//work/app/.env)', 'Read(/work/app/.env)'])
      expect(read(rule, '.env'), rule).toBe('deny');
    for (const rule of ['Read(secret)', 'Read(secret/)', 'Read(./secret/)', 'Read(./secret/**)', 'Read(x/../secret)'])
      expect(read(rule, 'secret/deep/k.ts'), rule).toBe('deny');
    expect(read('Read(secret)', 'secrets/k.ts')).toBe('ask');
    expect(read('Read(./.env)', 'src/.env')).toBe('ask');
    const policy = new PermissionPolicy({ deny: ['Write(./secret/)'], ask: ['Read(.//conf)'] });
    expect(policy.denyingWriteRule(['secret/a/b.ts'])).toBe('Write(./secret/)');
    expect(policy.askingReadRule(['conf/x.json'])).toBe('Read(.//conf)');
    expect(policy.pathPatterns('write')).toEqual(['secret']);
    expect(new PermissionPolicy({ deny: ['Read(~/.ssh/**)'] }).pathPatterns('read')).toEqual([`${homedir()}/.ssh/**`]);
    // An allow stays as narrow as written; a command rule keeps its ./ (it names a program).
    expect(decide({ allow: ['Read(src)'] }, 'read', { file_path: 'src/x.ts' }).decision).toBe('ask');
    expect(decide({ allow: ['Read(./src/**)'] }, 'read', { file_path: 'src/x.ts' }).decision).toBe('allow');
    expect(decide({ deny: ['Bash(./run.sh)'] }, 'bash', { command: './run.sh' }).decision).toBe('deny');
  });

  it('PERM-02: a path rule covers the path in either Unicode form (composed or decomposed)', () => {
    const composed = 'cl\u00e9';
    const decomposed = 'cle\u0301';
    for (const [rule, path] of [
      [composed, decomposed],
      [decomposed, composed],
    ] as const) {
      const config = { deny: [`Read(${rule}/**)`, `Write(${rule}/**)`] };
      expect(decide(config, 'read', { file_path: `${path}/x` }).decision).toBe('deny');
      expect(decide(config, 'write', { file_path: `${path}/x` }).decision).toBe('deny');
      const policy = new PermissionPolicy(config);
      expect(policy.denyingReadRule([`${path}/x`])).toBe(`Read(${rule}/**)`);
      expect(policy.denyingWriteRule([`./${path}/x`, `${path}/x`])).toBe(`Write(${rule}/**)`);
      expect(policy.denyingReadRule(['clx/x'])).toBeUndefined();
    }
  });

  it('PERM rules: tool names are case-insensitive globs', () => {
    expect(decide({ deny: ['BASH'] }, 'bash', { command: 'x' }).decision).toBe('deny');
    expect(decide({ deny: ['web_*'] }, 'web_fetch', {}).decision).toBe('deny');
    expect(decide({ deny: ['web_*'] }, 'read', { file_path: 'a' }).decision).toBe('ask');
  });

  it('PERM rules: a tool name is the same tool whatever its separators (WebFetch, web_fetch, Web-Fetch); MCP names keep theirs', () => {
    for (const rule of ['WebFetch', 'web_fetch', 'Web-Fetch', 'WEB_FETCH', 'webfetch']) {
      expect(decide({ deny: [rule] }, 'web_fetch', { url: 'https://x.test' }).decision, rule).toBe('deny');
    }
    expect(decide({ deny: ['LspRename'] }, 'lsp_rename', {}).decision).toBe('deny');
    expect(decide({ deny: ['Web*'] }, 'web_search', {}).decision).toBe('deny');
    expect(decide({ allow: ['WebSearch'] }, 'web_search', {}).decision).toBe('allow');
    // Respelling never reaches another tool.
    expect(decide({ deny: ['WebFetch'] }, 'web_search', {}).decision).toBe('ask');
    expect(decide({ deny: ['WebFetch'] }, 'mcp__web__fetch', {}).decision).toBe('ask');
    expect(decide({ deny: ['Bash'] }, 'bash_x', { command: 'x' }).decision).toBe('ask');
    expect(decide({ deny: ['mcp__git_hub__x'] }, 'mcp__github__x', {}).decision).toBe('ask');
  });

  it('PERM rules: mcp__server matches every tool of that server and no other server', () => {
    const config = { deny: ['mcp__github'] };
    expect(decide(config, 'mcp__github__create_issue', {}).decision).toBe('deny');
    expect(decide(config, 'mcp__github', {}).decision).toBe('deny');
    expect(decide(config, 'mcp__githubx__search', {}).decision).toBe('ask');
    expect(decide({ deny: ['mcp__github__create_*'] }, 'mcp__github__search', {}).decision).toBe('ask');
  });

  it('PERM rules: * stays within a segment, ** crosses /, ? is one character, :* is a prefix', () => {
    expect(compileGlob('src/*.ts').test('src/a.ts')).toBe(true);
    expect(compileGlob('src/*.ts').test('src/x/a.ts')).toBe(false);
    expect(compileGlob('src/**').test('src/x/y/a.ts')).toBe(true);
    expect(compileGlob('src/**/*.ts').test('src/a.ts')).toBe(true);
    expect(compileGlob('a?c').test('abc')).toBe(true);
    expect(compileGlob('a?c').test('a/c')).toBe(false);
    expect(compileGlob('a?c').test('abbc')).toBe(false);
    expect(compileGlob('npm run:*').test('npm run test -- --watch ./x')).toBe(true);
    expect(compileGlob('npm run:*').test('npx run')).toBe(false);
    expect(compileGlob('a.b').test('axb')).toBe(false);
  });

  it('PERM subjects: bash sees the command; file tools see every path; allow needs all paths', () => {
    expect(decide({ deny: ['Read(.env)'] }, 'read', { file_path: '.env' }).decision).toBe('deny');
    expect(
      decide({ deny: ['Read(**/.env)'] }, 'read', { files: [{ path: 'src/a.ts' }, { path: 'cfg/.env' }] }).decision,
    ).toBe('deny');
    expect(
      decide({ allow: ['Read(src/**)'] }, 'read', { files: [{ path: 'src/a.ts' }, { path: '.env' }] }).decision,
    ).toBe('ask');
    expect(
      decide({ allow: ['Read(src/**)'] }, 'read', { files: [{ path: 'src/a.ts' }, { path: 'src/b/c.ts' }] }).decision,
    ).toBe('allow');
    const diff = '--- a/src/x.ts\n+++ b/secrets/key.pem\n@@ -1 +1 @@\n-a\n+b\n';
    expect(decide({ deny: ['Patch(secrets/**)'] }, 'patch', { patch: diff }).decision).toBe('deny');
  });

  it('PERM subjects: grep and glob match the pattern or the path; other tools see args as JSON', () => {
    expect(decide({ deny: ['Grep(password*)'] }, 'grep', { pattern: 'password=', path: 'src' }).decision).toBe('deny');
    expect(decide({ allow: ['Glob(src/**)'] }, 'glob', { pattern: '*.ts', path: 'src/lib' }).decision).toBe('allow');
    expect(decide({ deny: ['Web_fetch(*evil.com*)'] }, 'web_fetch', { url: 'https:evil.com' }).decision).toBe('deny');
  });

  it('PERM rules: a deny covering every call hides the tool; a pattern deny does not', () => {
    const p = new PermissionPolicy({ deny: ['Bash', 'Read(.env)', 'Write(**)'] });
    expect(p.deniesEveryCall('bash')).toBe(true);
    expect(p.deniesEveryCall('read')).toBe(false);
    expect(p.deniesEveryCall('write')).toBe(true);
    expect(new PermissionPolicy({ defaultDecision: 'deny', allow: ['read'] }).deniesEveryCall('grep')).toBe(true);
    expect(new PermissionPolicy({ defaultDecision: 'deny', allow: ['read'] }).deniesEveryCall('read')).toBe(false);
  });

  it('bad rules raise INVALID_PERMISSION_RULE naming the list and index', () => {
    const err = (() => {
      try {
        new PermissionPolicy({ allow: ['read', 'Bash()'] });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(PermissionRuleError);
    expect((err as PermissionRuleError).field).toBe('allow[1]');
    expect(() => new PermissionPolicy({ defaultDecision: 'maybe' as never })).toThrow(
      /defaultDecision.*allow, deny, ask/,
    );
    expect(() => new PermissionPolicy({ deny: ['Ba sh'] })).toThrow(/deny\[0\]/);
  });

  it('a misspelt list name fails closed: refused by name with the allowed keys and the near one, never dropped', () => {
    const refusal = (config: unknown): PermissionRuleError => {
      try {
        new PermissionPolicy(config as never);
      } catch (e) {
        if (e instanceof PermissionRuleError) return e;
        throw e;
      }
      throw new Error(`accepted ${JSON.stringify(config)}`);
    };
    const dney = refusal({ allow: ['echo'], dney: ['echo'] });
    expect(dney.code).toBe('INVALID_PERMISSION_RULE');
    expect(dney.field).toBe('dney');
    expect(dney.message).toBe(
      "dney: is not a key of a permission policy; allowed keys: deny, ask, allow, defaultDecision; did you mean 'deny'?",
    );
    expect(refusal({ Deny: ['echo'] }).message).toMatch(/^Deny: .*did you mean 'deny'\?$/);
    expect(refusal({ default: 'allow' }).field).toBe('default');
    expect(refusal('Bash(rm:*)').message).toMatch(/^permissions: must be a policy object, got string; allowed keys:/);
    expect(refusal(null).field).toBe('permissions');
    // The default decision names its own allowed values, not the rule grammar.
    const allw = refusal({ defaultDecision: 'allw' });
    expect(allw.message).toBe(
      "defaultDecision: 'allw': is not a decision; allowed: allow, deny, ask; did you mean 'allow'?",
    );
    // A key set to undefined is let be (an options object built with optional fields).
    expect(new PermissionPolicy({ deny: undefined, allow: ['echo'] }).evaluate('echo', {}).decision).toBe('allow');
  });
});

describe('path deny rules for reads', () => {
  it('PERM-02: Read(...) rules judge every spelling handed to them; write rules and other tools do not count', () => {
    const p = new PermissionPolicy({ deny: ['Read(.env)', 'Read(secret/**)', 'Write(out/**)', 'Bash(cat:*)'] });
    expect(p.hasReadDenyRules).toBe(true);
    expect(p.denyingReadRule(['./.env', '.env'])).toBe('Read(.env)');
    expect(p.denyingReadRule(['vault/k.ts', 'secret/k.ts'])).toBe('Read(secret/**)');
    expect(p.denyingReadRule(['.ENV'])).toBeUndefined();
    expect(p.denyingReadRule(['out/a.txt'])).toBeUndefined();
    expect(p.denyingWriteRule(['.env'])).toBeUndefined();
    expect(new PermissionPolicy({ deny: ['Read', 'Write(x)'] }).hasReadDenyRules).toBe(false);
    expect(new PermissionPolicy({ deny: ['*(x/**)'] }).denyingReadRule(['x/y'])).toBe('*(x/**)');
  });
});

describe('path rules see the canonical path, however it is spelled', () => {
  const root = '/repo/ws';
  const spellings = [
    'secret/x.txt',
    './secret/x.txt',
    'a/../secret/x.txt',
    'secret//x.txt',
    './a/./../secret/x.txt',
    '/repo/ws/secret/x.txt',
    '/repo/ws/./a/../secret/x.txt',
    // Spelled through the root's parent: the root is found once the path is resolved.
    '/repo/./ws/secret/x.txt',
    '/repo/x/../ws/secret/x.txt',
    '//repo//ws/secret/x.txt',
  ];

  it.each(spellings)(
    'PERM-02/PERM-06: ask and deny rules on secret/** catch %s (write, read, edit, patch files[])',
    (p) => {
      const asks = new PermissionPolicy({
        allow: ['write', 'read', 'edit'],
        ask: ['Write(secret/**)', 'Read(secret/**)'],
      });
      expect(asks.evaluate('write', { file_path: p, content: 'x' }, root)).toEqual({
        decision: 'ask',
        rule: 'Write(secret/**)',
      });
      expect(asks.evaluate('read', { file_path: p }, root)).toEqual({ decision: 'ask', rule: 'Read(secret/**)' });
      const denies = new PermissionPolicy({ allow: ['edit', 'patch'], deny: ['Edit(secret/**)', 'Patch(secret/**)'] });
      expect(denies.evaluate('edit', { file_path: p }, root).decision).toBe('deny');
      expect(denies.evaluate('patch', { files: [{ path: 'ok.txt' }, { path: p }] }, root).decision).toBe('deny');
    },
  );

  it('PERM-03: an allow rule covers a path by its canonical spelling: src/../secret is not under src/**', () => {
    const p = new PermissionPolicy({ allow: ['Write(src/**)'] });
    expect(p.evaluate('write', { file_path: 'src/../secret/x.txt' }, root).decision).toBe('ask');
    expect(p.evaluate('write', { file_path: 'src/a/../../secret/x.txt' }).decision).toBe('ask');
    expect(p.evaluate('write', { file_path: './src/a.ts' }, root).decision).toBe('allow');
    expect(p.evaluate('write', { file_path: '/repo/ws/src/a.ts' }, root).decision).toBe('allow');
    // A path leaving the workspace is judged as written: no allow under src/**.
    expect(p.evaluate('write', { file_path: '../src/a.ts' }, root).decision).toBe('ask');
    // An absolute allow rule still covers the same files.
    const abs = new PermissionPolicy({ allow: ['Write(/repo/ws/src/**)'] });
    expect(abs.evaluate('write', { file_path: 'src/a.ts' }, root).decision).toBe('allow');
    expect(abs.evaluate('write', { file_path: '/repo/ws/src/../b.ts' }, root).decision).toBe('ask');
  });

  it('PERM-02: grep and glob paths are matched canonical too', () => {
    const p = new PermissionPolicy({ allow: ['grep'], ask: ['Grep(secret/**)'] });
    expect(p.evaluate('grep', { pattern: 'k', path: './secret/a' }, root).decision).toBe('ask');
    expect(p.evaluate('grep', { pattern: 'k', path: '/repo/ws/secret/a' }, root).decision).toBe('ask');
    expect(p.evaluate('grep', { pattern: 'k', path: 'src' }, root).decision).toBe('allow');
  });
});

describe('a file rule written with one leading slash', () => {
  const root = '/work/repo';
  it('PERM-02: a deny or ask rule Read(/secrets/**) covers /secrets and the workspace folder secrets; //x is absolute alone; allow stays absolute', () => {
    const p = new PermissionPolicy({
      deny: ['Read(/secrets/**)', 'Write(//etc/**)'],
      ask: ['Edit(/config/app.json)'],
      allow: ['Read(/docs/**)'],
    });
    expect(p.evaluate('read', { file_path: 'secrets/k.txt' }, root)).toMatchObject({
      decision: 'deny',
      rule: 'Read(/secrets/**)',
    });
    expect(p.evaluate('read', { file_path: `${root}/secrets/k.txt` }, root)).toMatchObject({ decision: 'deny' });
    expect(p.evaluate('read', { file_path: '/secrets/k.txt' }, root)).toMatchObject({ decision: 'deny' });
    expect(p.evaluate('write', { file_path: 'etc/x', content: '' }, root).decision).not.toBe('deny');
    expect(p.evaluate('write', { file_path: '/etc/x', content: '' }, root)).toMatchObject({ decision: 'deny' });
    expect(p.evaluate('edit', { file_path: 'config/app.json', old_string: 'a', new_string: 'b' }, root)).toMatchObject({
      decision: 'ask',
    });
    expect(p.evaluate('read', { file_path: 'docs/a.md' }, root).decision).not.toBe('allow');
    expect(p.evaluate('read', { file_path: '/docs/a.md' }, root)).toMatchObject({ decision: 'allow' });
    expect(p.pathPatterns('read')).toEqual(['/secrets/**', 'secrets/**']);
    expect(p.pathPatterns('write')).toEqual(['/etc/**']);
  });
});

describe('a rule naming a sub-agent', () => {
  it('PERM-02: Task(general) denies delegating to that agent, alone or among parallel tasks; Task(explore) allows it', () => {
    const p = new PermissionPolicy({ deny: ['Task(general)'], allow: ['Task(explore)'] });
    const task = (agent: string) => p.evaluate('task', { agent, description: 'd', prompt: 'p' }).decision;
    expect(task('general')).toBe('deny');
    expect(task('explore')).toBe('allow');
    expect(task('plan')).toBe('ask');
    const tasks = (...agents: string[]) =>
      p.evaluate('parallel_task', { tasks: agents.map((agent) => ({ agent, description: 'd', prompt: 'p' })) })
        .decision;
    expect(tasks('explore', 'general')).toBe('deny');
    expect(tasks('explore', 'plan')).toBe('ask');
    const asking = new PermissionPolicy({ allow: ['parallel_task'], ask: ['Task(general)'] });
    const branch = (agent: string) => ({ agent, description: 'd', prompt: 'p' });
    expect(asking.evaluate('parallel_task', { tasks: [branch('explore'), branch('general')] })).toEqual({
      decision: 'ask',
      rule: 'Task(general)',
    });
    expect(asking.evaluate('parallel_task', { tasks: [branch('explore'), branch('plan')] }).decision).toBe('allow');
    // The default decision for task is no rule: parallel_task keeps its own.
    const strict = new PermissionPolicy({ defaultDecision: 'deny', allow: ['parallel_task'] });
    expect(strict.evaluate('parallel_task', { tasks: [branch('explore'), branch('plan')] }).decision).toBe('allow');
  });
});
