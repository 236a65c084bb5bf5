// Inline interpreter code that looks a process call up by a name made at run time (`getattr(os,
// 'sys'+'tem')`, `require('child_'+'process')`) cannot be followed by reading its text: it is
// opaque, so a Bash deny rule holds for it (under a default of allow, as under YOLO) as it does
// for `rm` written out. Plain code stays what its interpreter's name says.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

/** A word quoted for a POSIX shell. */
const q = (code: string): string => `'${code.replaceAll("'", "'\\''")}'`;
const py = (code: string): string => `python3 -c ${q(code)}`;
const js = (code: string): string => `node -e ${q(code)}`;

/** Every spelling of "run rm" the interpreters can look up at run time. */
const DYNAMIC: readonly string[] = [
  py("import os; getattr(os, 'sys'+'tem')('rm victim')"),
  py("import os\nf = vars(os)['sys' + 'tem']\nf('rm victim')"),
  py("globals()['__builtins__'].__dict__['__imp'+'ort__']('o'+'s').system('rm victim')"),
  py("import importlib; importlib.import_module('o'+'s').system('rm victim')"),
  py("exec('import o'+'s; o'+'s.system(\"rm victim\")')"),
  py("eval(compile('1', 'x', 'eval'))"),
  py("import ctypes; ctypes.CDLL(None)['sys'+'tem'](b'rm victim')"),
  py('import cffi'),
  py("import pty; pty.spawn(['rm', 'victim'])"),
  py("import posix; getattr(posix, 'sys'+'tem')('rm victim')"),
  py('import multiprocessing\nmultiprocessing.Process(target=print).start()'),
  py("import sys; sys.modules['o'+'s'].system('rm victim')"),
  py("import runpy; runpy.run_module('o'+'s')"),
  py("import code; code.InteractiveInterpreter().runsource('import o'+'s')"),
  py("import shutil; shutil.os.system('rm victim')"),
  py("import tempfile; tempfile._os.system('rm victim')"),
  py("[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Pop'+'en'][0](['rm', 'victim'])"),
  py("import operator; operator.methodcaller('sys'+'tem', 'rm victim')"),
  py("import pydoc; pydoc.locate('o'+'s.sys'+'tem')('rm victim')"),
  py('import timeit; timeit.timeit(\'__imp\'+\'ort__("o"+"s")\', number=1)'),
  py("import pickle; pickle.loads(b'...')"),
  py("setattr(x, 'a', 1)"),
  js("const m = require('child_'+'process'); m['exe'+'cSync']('rm victim')"),
  js("require('child\\x5fprocess').execSync('rm victim')"),
  js('require(`child_process`).execSync("rm victim")'),
  js("const n = 'child_process'; require(n).execSync('rm victim')"),
  js("import('child_'+'process').then((m) => m.execSync('rm victim'))"),
  js("process['bind'+'ing']('spawn_sync')"),
  js("process.binding('spawn_sync')"),
  js("process._linkedBinding('x')"),
  js("process.dlopen(module, 'x.node')"),
  js("process.getBuiltinModule('child_'+'process').execSync('rm victim')"),
  js("globalThis['pro'+'cess'].mainModule"),
  js("const p = process; p['bind'+'ing']('spawn_sync')"),
  js("eval('requ'+'ire')('child_process')"),
  js("Function('return pro'+'cess')()"),
  js("new Function('return 1')()"),
  js("[].constructor.constructor('return pro'+'cess')()"),
  js("module.constructor._load('child_'+'process')"),
  js("require('vm').runInThisContext('1')"),
  js("require('worker_threads')"),
  js("require('module').createRequire('/')('child_process')"),
  js('\\u0070rocess.binding("spawn_sync")'),
  "node -p \"require('child_'+'process').execSync('rm victim')\"",
  'node --import \'data:text/javascript,import("child_process")\' -e 1',
  "NODE_OPTIONS='--import=data:text/javascript,1' node app.js",
  `perl -e ${q('&{"sys"."tem"}("rm victim")')}`,
  `perl -e ${q('my $f = \\&{"CORE::sys"."tem"}; $f->("rm victim")')}`,
  `perl -e ${q('$_ = "x"; s/x/"sys"."tem(q{rm victim})"/ee')}`,
  `ruby -e ${q('Kernel.send("sys"+"tem", "rm victim")')}`,
  `ruby -e ${q('method("sys"+"tem").call("rm victim")')}`,
  `ruby -e ${q('instance_eval("sys"+"tem(%q{rm victim})")')}`,
  `php -r ${q('$f = "sys"."tem"; $f("rm victim");')}`,
  `php -r ${q('call_user_func("sys"."tem", "rm victim");')}`,
  `php -r ${q('array_map("sys"."tem", ["rm victim"]);')}`,
  `lua -e ${q('os["exe".."cute"]("rm victim")')}`,
  `lua -e ${q('load("os.exe".."cute(\'rm victim\')")()')}`,
  `gawk ${q('BEGIN { f = "sys" "tem"; @f("rm victim") }')}`,
];

/** Plain code: each must stay allowed by a rule naming its interpreter, with a deny rule present. */
const PLAIN: readonly string[] = [
  py('print(1+1)'),
  py('import json; print(json.dumps([1]))'),
  py('import math; print(math.pi)'),
  py("import sys, json; print(json.load(sys.stdin)['x'])"),
  py("import re, collections; print(re.compile('a+').findall('caab'))"),
  py("if __name__ == '__main__':\n    print(1)"),
  js('console.log(JSON.stringify({a:1}))'),
  js("console.log(require('fs').readFileSync('package.json', 'utf8').length)"),
  js("const path = require('node:path'); process.stdout.write(path.join('a', 'b'))"),
  js('process.exit(process.argv.length > 2 ? 1 : 0)'),
  `perl -pe ${q('s/a/b/g')} f`,
  `ruby -e ${q('puts [1, 2].map { |x| x * 2 }')}`,
  `php -r ${q('echo json_encode([1]);')}`,
  `lua -e ${q('print(1+1)')}`,
  `awk ${q('/@example.com/ { print $1 }')} f`,
];

describe('inline code that looks a process call up at run time', () => {
  it.each(DYNAMIC)('is opaque: %s', (command) => {
    expect(judgeShellCommand(command).opaque).toBe(true);
  });

  it('PERM-02: a Bash deny rule denies it, with a default of allow (as under YOLO) and under allow rules naming the interpreter', () => {
    const yolo = new PermissionPolicy({ deny: ['Bash(rm:*)'], defaultDecision: 'allow' });
    const allowed = new PermissionPolicy({
      deny: ['Bash(rm:*)'],
      allow: ['Bash(python3:*)', 'Bash(node:*)', 'Bash(perl:*)', 'Bash(ruby:*)', 'Bash(php:*)', 'Bash(lua:*)'],
    });
    for (const command of DYNAMIC) {
      expect(yolo.evaluate('bash', { command }), command).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
      expect(allowed.evaluate('bash', { command }).decision, command).toBe('deny');
    }
    // The same code as a tool's shell equivalent (an eval cell, a debug evaluate) is denied alike.
    const cell = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['cell'] });
    for (const command of DYNAMIC.slice(0, 3))
      expect(cell.evaluate('cell', {}, undefined, [command]), command).toEqual({
        decision: 'deny',
        rule: 'Bash(rm:*)',
      });
  });

  it('PERM-02: the finding as reported: rm is denied, and so is os.system looked up by getattr', () => {
    const yolo = new PermissionPolicy({ deny: ['Bash(rm:*)'], defaultDecision: 'allow' });
    expect(yolo.evaluate('bash', { command: 'rm victim' }).decision).toBe('deny');
    expect(
      yolo.evaluate('bash', { command: `python3 -c "import os; getattr(os, 'sys'+'tem')('rm victim')"` }).decision,
    ).toBe('deny');
  });
});

describe('plain inline code', () => {
  it.each([...PLAIN, 'NODE_OPTIONS=--max-old-space-size=4096 node app.js'])(
    'is judged by its interpreter: %s',
    (command) => {
      expect(judgeShellCommand(command).opaque).toBe(false);
    },
  );

  it('PERM-03: stays allowed by a rule naming its interpreter, with a Bash deny rule present', () => {
    const policy = new PermissionPolicy({
      deny: ['Bash(rm:*)'],
      allow: [
        'Bash(python3:*)',
        'Bash(node:*)',
        'Bash(perl:*)',
        'Bash(ruby:*)',
        'Bash(php:*)',
        'Bash(lua:*)',
        'Bash(awk:*)',
      ],
    });
    for (const command of PLAIN) expect(policy.evaluate('bash', { command }).decision, command).toBe('allow');
    const cell = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['cell'] });
    for (const command of PLAIN.slice(0, 7))
      expect(cell.evaluate('cell', {}, undefined, [command]), command).toEqual({ decision: 'allow', rule: 'cell' });
  });
});

// `python -c` and `python -m` look a module up in the working folder first: a module other than a
// standard-library one may be a file the line has just written, which then runs unasked.
const OWN_MODULES: readonly string[] = [
  py("open('m.py','w').write(bytes.fromhex('00').decode()); import m"),
  py('import m'),
  py('import json, m'),
  py('import json as j, m as n'),
  py('import m.sub'),
  py('from m import x'),
  py('from m.sub import x'),
  py('from . import x'),
  py('if True: import m'),
  py('import json\nimport m'),
  py('x = 1;import m'),
  py('import json, \\\n  m'),
  py("__import__('m')"),
  py("import importlib; importlib.import_module('m')"),
  py('import tkinter'),
  'python3 -m m',
  'python3 -mm',
  'python3 -B -m m',
  'python3 -Bm m',
  'python3 -m m.sub',
  'python3 -m timeit "1"',
  'python3 -m pdb x.py',
  'python3 -m pydoc m',
  'python3 -m "$M"',
];

describe('Python code importing a module of the working folder', () => {
  it.each(OWN_MODULES)('is opaque: %s', (command) => {
    expect(judgeShellCommand(command).opaque).toBe(true);
  });

  it('PERM-02: a rule allowing `python3 -c` or `python3 -m` does not run it unasked', () => {
    const policy = new PermissionPolicy({
      allow: ['Bash(python3 -c:*)', 'Bash(python3 -m:*)', 'Bash(python3 -B:*)'],
      deny: ['Bash(rm:*)'],
      defaultDecision: 'ask',
    });
    for (const command of OWN_MODULES) expect(policy.evaluate('bash', { command }).decision, command).toBe('deny');
  });

  it('PERM-03: standard-library imports and well-known tools stay judged by the interpreter', () => {
    for (const command of [
      py('from json import dumps; print(dumps(1))'),
      py('from collections.abc import Mapping'),
      py('from __future__ import annotations'),
      py('import json  # and m'),
      py("print('import m from here')"),
      py('import sys\nfor x in sys.argv: print(x)'),
      'python3 -m json.tool a.json',
      'python3 -m http.server 8000',
      'python3 -m pytest -q',
      'python3 -m pip list',
      'python3 -m venv .venv',
      'python3 -m unittest discover',
    ])
      expect(judgeShellCommand(command).opaque, command).toBe(false);
  });
});
