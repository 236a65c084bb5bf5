// eval against the session's Bash rules: a cell is judged as the shell commands it runs, so
// `Bash(rm:*)` holds for `subprocess.run(['rm', …])`, `!rm`, `%%bash` and `child_process` in a cell
// as it does for the same code run through `bash`.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionPolicy, type PermissionPolicyConfig, ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation, ScriptedConfirmationManager } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type EvalArgs,
  EVAL_RESOURCE,
  type EvalResource,
  evalTool,
  evalToolPack,
  openEvalResource,
} from '../src/eval.js';
import { cellShellCommands } from '../src/eval/cell-commands.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

const DESCRIPTION = 'remove the scratch file x now';
const args = (code: string, language?: EvalArgs['language']): EvalArgs => ({
  code,
  description: DESCRIPTION,
  ...(language === undefined ? {} : { language }),
});

/** Every spelling of "remove x" in a cell. */
const ATTACKS: readonly (readonly [string, EvalArgs])[] = [
  ['subprocess in Python', args("import subprocess; subprocess.run(['rm', 'x'])")],
  ['os.system in Python', args("import os\nos.system('rm x')")],
  ['a !cmd line', args('!rm x')],
  ['an indented !cmd line', args("if True:\n    !rm x\nprint('done')")],
  ['a !cmd line after other shell code', args('!ls; rm x')],
  ['a %%bash cell', args('%%bash\necho hi\nrm x')],
  ["the kernel's own _sh helper", args("_sh('rm x')")],
  ['the kernel module', args("import __main__\n__main__.__dict__['_' + 'sh']('rm x')")],
  ['the kernel module through sys.modules', args("import sys\nsys.modules['__main__'].__dict__['_s' + 'h']('rm x')")],
  ['child_process in JavaScript', args("require('node:child_process').execSync('rm x')", 'javascript')],
  ['os.system looked up by getattr', args("import os\ngetattr(os, 'sys'+'tem')('rm x')")],
  [
    'child_process required by a computed name',
    args("const m = require('child_'+'process'); m['exe'+'cSync']('rm x')", 'javascript'),
  ],
];

const judge = (policy: PermissionPolicy, a: EvalArgs) =>
  policy.evaluate('eval', a, undefined, evalTool.shellEquivalent?.(a));

describe('eval cells as shell commands', () => {
  it('EVAL-05: Python code is python3 -c, each !cmd, %pip, %cd line and a %%bash body its own command', () => {
    expect(cellShellCommands('python', "print('it''s')")).toEqual([`python3 -c 'print('\\''it'\\'''\\''s'\\'')'`]);
    expect(cellShellCommands('python', 'x = 1\n  !ls -l\n%pip install pkg\n%cd ~/w d')).toEqual([
      "python3 -c 'x = 1\n  pass\npass\npass'",
      'ls -l',
      'pip install pkg',
      'python3 -m pip install pkg',
      "cd '~/w d'",
    ]);
    expect(cellShellCommands('python', '%%bash\nrm x\nls')).toEqual(['rm x\nls']);
    expect(cellShellCommands('python', '%%timeit\nsum(range(9))')).toEqual(["python3 -c 'sum(range(9))'"]);
    expect(cellShellCommands('javascript', '!rm x')).toEqual(["node -e '!rm x'"]);
  });

  it.each(ATTACKS)('PERM-02 / EVAL-05: with deny Bash(rm:*), %s is denied as it is for bash', (_, a) => {
    const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['eval'] });
    expect(judge(policy, a)).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
  });

  it('PERM-02: harmless cells are not affected by Bash rules; the tool rules still decide', () => {
    const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'], allow: ['eval'] });
    const harmless = [
      args('print(1)'),
      args('1+1'),
      args('1+1', 'javascript'),
      args('console.log(JSON.stringify({a:1}))', 'javascript'),
      args('import json; print(json.dumps([1]))'),
      args('import math\nprint(math.sqrt(4))'),
      args("print('rm x')"),
      args('!ls'),
      args("if __name__ == '__main__':\n    print(1)"),
      // Lines the kernel reads as Python, never as magics: inside a string, brackets, after a backslash.
      args('doc = """\n!rm x\n%%bash\n"""\nprint(doc)'),
      args("items = [\n    '!rm x',\n]\nhelp_text = '''usage:\n  !rm x  removes x'''"),
      args("text = 'a' + \\\n!rm x"),
    ];
    for (const a of harmless) expect(judge(policy, a)).toEqual({ decision: 'allow', rule: 'eval' });
    // Once the string or the brackets close, a !cmd line is a command again.
    for (const code of ['doc = """\n!ls\n"""\n!rm x', 'x = (\n  1,\n)\n!rm x', "s = '!rm x'\n!rm x"]) {
      expect(judge(policy, args(code)), code).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
    }
  });

  it('EVAL-05: lines inside triple-quoted strings, brackets or after a backslash are Python, as the kernel reads them; real magics around them are still commands', () => {
    const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['eval'] });
    const harmless = [
      'doc = """\nExample:\n!rm -rf /\n"""\nprint(doc)',
      "s = '''\n%%bash\n!rm x\n%pip install evil\n'''",
      'x = (1,\n!rm x\n)',
      'x = 1 \\\n!rm x',
      'x = 1\n!= 2',
    ];
    for (const code of harmless) {
      expect(cellShellCommands('python', code), code).toHaveLength(1);
      expect(judge(policy, args(code)), code).toEqual({ decision: 'allow', rule: 'eval' });
    }
    const denied = [
      'doc = """\n!ls\n"""\n!rm x',
      '!echo """\n!rm x',
      '%time s = """\n!rm x',
      '%cd (\n!rm x',
      `%pip install "'''x\n!rm x`,
      "s = 'a' # '''\n!rm x",
      's = """a\\"""\n"""\n!rm x',
    ];
    for (const code of denied)
      expect(judge(policy, args(code)), code).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
  });

  it('PERM-05: a Bash ask makes a matching cell ask; a Bash allow never allows a cell that would ask', () => {
    const policy = new PermissionPolicy({ ask: ['Bash(git push:*)'], allow: ['eval'] });
    expect(judge(policy, args('!git push origin main'))).toEqual({ decision: 'ask', rule: 'Bash(git push:*)' });
    expect(judge(policy, args('%%bash\ngit push'))).toEqual({ decision: 'ask', rule: 'Bash(git push:*)' });
    const bashOnly = new PermissionPolicy({ allow: ['Bash(python3:*)', 'Bash(rm:*)', 'Bash'] });
    expect(judge(bashOnly, args('print(1)'))).toEqual({ decision: 'ask', rule: 'default' });
    expect(judge(bashOnly, args('!rm x'))).toEqual({ decision: 'ask', rule: 'default' });
  });
});

describe('eval through the kernel, with Bash rules', () => {
  let dir: string;
  let kernels: EvalResource;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'a3s-eval-rules-'));
    kernels = await openEvalResource({ inactivityMs: 30_000 });
  });
  afterEach(async () => {
    await kernels.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const governed = (policy: PermissionPolicyConfig, confirmation?: ScriptedConfirmationManager) => {
    const registry = new ToolRegistry({ capabilities: ['exec', EVAL_RESOURCE] });
    registry.registerPack(evalToolPack);
    const invoker = new ToolInvoker({
      registry,
      workspace: diskWorkspace(dir),
      policy,
      resources: { acquire: async () => kernels },
      ...(confirmation === undefined ? {} : { confirmation }),
    });
    let n = 0;
    return (a: EvalArgs) =>
      invoker.invoke({ id: `c${++n}`, name: 'eval', args: a }, createTestInvocation({}, { runId: `run-${n}` }).context);
  };

  it('EVAL-05: the kernel runs a !rm line inside a docstring as text, so the cell is allowed and x survives', async () => {
    writeFileSync(join(dir, 'x'), 'keep');
    const run = governed({ deny: ['Bash(rm:*)'], allow: ['eval'] });
    const r = await run(args('doc = """\n!rm x\n"""\nprint(doc.strip())'));
    expect([r.exitCode, r.output]).toEqual([0, '!rm x']);
    expect(existsSync(join(dir, 'x'))).toBe(true);
  });

  it('PERM-02 / PERM-06: a denied cell never runs (x survives); a harmless one does; a Bash ask asks', async () => {
    writeFileSync(join(dir, 'x'), 'keep');
    const confirmation = new ScriptedConfirmationManager([false]);
    const call = governed({ deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'], allow: ['eval'] }, confirmation);
    for (const [, a] of ATTACKS)
      expect(await call(a)).toMatchObject({ ok: false, output: 'Permission denied: Bash(rm:*)' });
    expect(existsSync(join(dir, 'x'))).toBe(true);
    expect(await call(args('print(1)'))).toMatchObject({ ok: true, output: '1' });
    expect(await call(args('import json; print(json.dumps([1]))'))).toMatchObject({ ok: true, output: '[1]' });
    // A docstring holding a command line is text to the judge and to the kernel alike.
    const doc = await call(args('doc = """\n!rm x\n"""\nprint(doc.strip())'));
    expect(doc).toMatchObject({ ok: true, output: '!rm x' });
    expect(existsSync(join(dir, 'x'))).toBe(true);
    expect(await call(args('!git push'))).toMatchObject({ ok: false, output: 'Permission denied: not confirmed' });
    expect(confirmation.requests.map((r) => r.rule)).toEqual(['Bash(git push:*)']);
  });
});
