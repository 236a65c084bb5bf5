// eval on real kernels: a Node child and the system python3, in a temporary folder.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { ScopedInvoker, Tool, ToolInvocationResult, ToolResult } from '@a3s-code/core';
import { createToolContext, type TestToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVAL_RESOURCE, type EvalResource, evalTool, evalToolPack, openEvalResource } from '../src/eval.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

/** The modules the system python3 has (found, not imported: importing pandas and matplotlib took a second). */
const PY_MODULES = new Set(
  existsSync('/usr/bin/python3')
    ? spawnSync(
        '/usr/bin/python3',
        [
          '-c',
          "import sys, importlib.util as u; print(' '.join(m for m in sys.argv[1:] if u.find_spec(m)))",
          'pandas',
          'matplotlib',
          'pip',
          'venv',
        ],
        { encoding: 'utf8' },
      )
        .stdout.trim()
        .split(' ')
    : [],
);
const PANDAS = PY_MODULES.has('pandas');
const MPL = PY_MODULES.has('matplotlib');
const PIP = PY_MODULES.has('pip') && PY_MODULES.has('venv');

/** Writes a minimal pure-Python wheel of package `name` whose `VERSION` is `version` into `dir`. */
const MAKE_WHEEL = `
import sys, zipfile, hashlib, base64
name, version, out = sys.argv[1:4]
files = {f'{name}/__init__.py': f'VERSION = {version!r}\\n',
         f'{name}-{version}.dist-info/METADATA': f'Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n',
         f'{name}-{version}.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: a3s-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}
rec = [f'{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(c.encode()).digest()).rstrip(b"=").decode()},{len(c.encode())}' for p, c in files.items()]
files[f'{name}-{version}.dist-info/RECORD'] = '\\n'.join(rec + [f'{name}-{version}.dist-info/RECORD,,']) + '\\n'
with zipfile.ZipFile(f'{out}/{name}-{version}-py3-none-any.whl', 'w') as z:
    for p, c in files.items(): z.writestr(p, c)
`;

let dir: string;
let kernels: EvalResource;

/** An invoker that denies `read` like a deny policy would, answers `slow` after `delayMs`, and echoes anything else. */
function invoker(delayMs = 0): ScopedInvoker {
  const result = (name: string, ok: boolean, output: string): ToolInvocationResult => ({
    id: `n-${name}`,
    name,
    source: 'nested',
    ok,
    output,
    exitCode: ok ? 0 : 1,
    metadata: {},
    durationMs: 0,
  });
  return {
    invoke: async (name, args) => {
      if (name === 'read') return result(name, false, 'Permission denied: deny read');
      if (name === 'slow') await new Promise((r) => setTimeout(r, delayMs));
      return result(name, true, `ran ${name} ${JSON.stringify(args)}`);
    },
    toolNames: () => ['read', 'slow', 'echo'],
    capabilitiesOf: () => undefined,
  };
}

function ctx(delayMs = 0): TestToolContext {
  return createToolContext({
    workspace: diskWorkspace(dir),
    resources: { [EVAL_RESOURCE]: kernels },
    invoker: invoker(delayMs),
  });
}
const run = (args: Record<string, unknown>, c = ctx()): Promise<ToolResult> =>
  (evalTool as unknown as Tool<Record<string, unknown>>).execute(
    { description: 'a cell run by the tests here', ...args },
    c,
  );
const js = (code: string, extra: Record<string, unknown> = {}) => run({ code, language: 'javascript', ...extra });
const py = (code: string, extra: Record<string, unknown> = {}) => run({ code, language: 'python', ...extra });
/** The inactivity budget of {@link shortBudget}'s kernels, and a bridge call twice as long. */
const SHORT_BUDGET_MS = 400;
const SLOW_BRIDGE_MS = 2 * SHORT_BUDGET_MS;
/** Replaces the session's kernels with ones whose inactivity budget is {@link SHORT_BUDGET_MS}. */
async function shortBudget(): Promise<void> {
  await kernels.close();
  kernels = await openEvalResource({ inactivityMs: SHORT_BUDGET_MS });
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('eval pack', () => {
  it('EVAL-02: eval is in the exec tier and not parallel-safe; TIER-05: it requires the kernel factory', () => {
    expect(evalToolPack.tools.map((t) => [t.name, t.tier])).toEqual([['eval', 'exec']]);
    expect(evalTool.capabilities).toMatchObject({ readOnly: false, maxParallelism: 1 });
    expect(evalTool.requires).toContain(EVAL_RESOURCE);
    expect(evalToolPack.resources?.map((r) => r.capability)).toEqual([EVAL_RESOURCE]);
  });

  it('EVAL-03: description must be 5-10 words, language python or javascript', () => {
    const schema = evalTool.inputSchema as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(schema.required.sort()).toEqual(['code', 'description']);
    expect(schema.properties.language?.enum).toEqual(['python', 'javascript']);
  });
});

describe('eval: JavaScript kernel', () => {
  it('EVAL-01: state persists across calls; EVAL-04: the last expression is echoed and display() shows values', async () => {
    const a = await js('const x = 20; function twice(n) { return n * 2 }\nconsole.log("hi")');
    expect(a.exitCode).toBe(0);
    expect(a.output).toBe('hi');
    const b = await js('display({ a: 1 }); twice(x) + 2');
    expect(b.output).toBe('{ a: 1 }\n42');
    expect(b.metadata?.echo).toBe('42');
    expect(b.metadata?.kernel_started).toBe(false);
  });

  it('EVAL-01: top-level await keeps its declarations', async () => {
    const a = await js('const v = await Promise.resolve(7);\nv * 6');
    expect(a.output).toBe('42');
    expect((await js('v + 1')).output).toBe('8');
  });

  it('EVAL-01: with top-level await, a function declaration stays one (a next line starting with [ or ( is not applied to it) and persists', async () => {
    const cell =
      'const out = [];\nfunction add(a, b) { return a + b }\n[1, 2].forEach((x) => out.push(add(x, 1)))\nawait 0;\nout';
    expect((await js(cell)).output).toBe('[ 2, 3 ]');
    expect((await js('add(2, 3)')).output).toBe('5');
    const oneLine = await js('async function twice(d) { return d * 2 } await twice(21)');
    expect([oneLine.exitCode, oneLine.output]).toEqual([0, '']);
    expect((await js('await twice(1)')).output).toBe('2');
  });

  it('EVAL-01: with top-level await, declarations inside strings, templates, comments and regular expressions are data, not rewritten', async () => {
    const cell = [
      'const src = `\nconst a = 1;\nfunction g() {}\n${"let b = 2"}`;',
      "const s2 = 'x;const c = 3'; const re = /;const d = 4/;",
      '// const e = 5',
      'await 0;',
      "[src, s2, re.source].join('|')",
    ].join('\n');
    expect((await js(cell)).output).toBe("'\\nconst a = 1;\\nfunction g() {}\\nlet b = 2|x;const c = 3|;const d = 4'");
    const types = '[typeof src, typeof re, typeof a, typeof g, typeof c, typeof d, typeof e].join()';
    expect((await js(types)).output).toBe("'string,object,undefined,undefined,undefined,undefined,undefined'");
  });

  it('EVAL-01/EVAL-04: with top-level await, the last expression on a declaration line is echoed and destructured names, classes and mid-line declarations persist', async () => {
    expect((await js('const r = await Promise.resolve(5); r')).output).toBe('5');
    expect((await js('const o = await Promise.resolve({ a: 1 }); o')).output).toBe('{ a: 1 }');
    expect(
      (await js('const { a1, b: b1, c1 = 4, ...rest } = await Promise.resolve({ a1: 1, b: 2, z: 9 });')).output,
    ).toBe('');
    expect((await js('const [d1, , d2 = 7] = await Promise.resolve([3]);')).output).toBe('');
    expect((await js('class K1 {}\nawait 0;\nlet k = 1; const late = await Promise.resolve(2)')).output).toBe('');
    expect((await js('[a1, b1, c1, rest, d1, d2, typeof K1, k, late]')).output).toBe(
      "[ 1, 2, 4, { z: 9 }, 3, 7, 'function', 1, 2 ]",
    );
    expect((await js('await Promise.resolve("a;b")')).output).toBe("'a;b'");
    expect((await js('for (let i = 0; i < 2; i++) { await 0 }')).output).toBe('');
  });

  it('EVAL-01: with top-level await, every top-level declaration persists wherever it sits on its line; block and function locals do not', async () => {
    const cell = [
      'if (1) { } function f1() { return 3 } x1 = 1; class C1 {}',
      '  let y1 = 7; /* note */ const z1 = 8; while (false) {} var w1 = 9',
      'function g1() { let local1 = 1; return local1 } { let inner1 = 5 } const t1 = `${ {k: 1}.k } let no1 = 1`;',
      'await 0',
    ].join('\n');
    expect((await js(cell)).exitCode).toBe(0);
    expect((await js('[f1(), typeof C1, y1, z1, w1, g1(), t1].join()')).output).toBe(
      "'3,function,7,8,9,1,1 let no1 = 1'",
    );
    expect((await js('[typeof local1, typeof inner1, typeof no1].join()')).output).toBe(
      "'undefined,undefined,undefined'",
    );
    expect(
      (await js('let u1; u1 = 5; var v1, v2 = 3, v3 = () => { const h1 = 1, h2 = 2; return h1 + h2 }; await 0'))
        .exitCode,
    ).toBe(0);
    expect((await js('[u1, v1, v2, v3(), typeof h1, typeof h2].join()')).output).toBe("'5,,3,3,undefined,undefined'");
    expect(
      (await js('const { e1 } = { e1: 1 }, g1 = 2, [k1, k2 = 9] = [3], { m: n1 } = { m: 6 }; await 0')).exitCode,
    ).toBe(0);
    expect((await js('[e1, g1, k1, k2, n1, typeof m].join()')).output).toBe("'1,2,3,9,6,undefined'");
  });

  it('EVAL-01: with top-level await, a var in a block, a for head or a try persists as in a script; a function var does not', async () => {
    const cell = [
      'if (true) { var b1 = 1 } for (var i1 = 0; i1 < 3; i1++) {} for (var p1 in { q: 1 }) {}',
      'try { var r1 = await Promise.resolve(5), r2 = 6 } catch { var r3 = 0 }',
      'function own1() { var hidden1 = 1; return hidden1 } own1(); const s1 = "var quoted1 = 1"',
      'label1: { var [d1, d2] = [7, 8] }',
    ].join('\n');
    expect((await js(cell)).exitCode).toBe(0);
    expect((await js('[b1, i1, p1, r1, r2, typeof r3, d1, d2].join()')).output).toBe("'1,3,q,5,6,undefined,7,8'");
    expect((await js('[typeof hidden1, typeof quoted1].join()')).output).toBe("'undefined,undefined'");
  });

  it('EVAL-03: reset starts a clean interpreter', async () => {
    await js('globalThis.kept = 1');
    const r = await js('typeof kept', { reset: true });
    expect(r.output).toBe("'undefined'");
    expect(r.metadata?.kernel_started).toBe(true);
  });

  it('EVAL-07: tool() re-enters the invoker; a denied tool raises ToolError in the cell', async () => {
    const ok = await js('await tool("echo", { n: 1 })');
    expect(ok.output).toBe(`'ran echo {"n":1}'`);
    expect(ok.metadata?.bridge_calls).toBe(1);
    const denied = await js(
      'let m = "none";\ntry { await tool("read", { path: "a" }) } catch (e) { m = `${e.name}|${e instanceof ToolError}|${e.message}` }\nm',
    );
    expect(denied.output).toBe("'ToolError|true|Permission denied: deny read'");
  });

  it('EVAL-09: a cell waiting on a bridge call longer than the inactivity budget is not killed', async () => {
    await shortBudget();
    const r = await run({ code: 'await tool("slow", {})', language: 'javascript' }, ctx(SLOW_BRIDGE_MS));
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('ran slow');
  });

  it('EVAL-09: an inactive cell is killed after its budget; the next call starts a fresh kernel', async () => {
    await shortBudget();
    await js('globalThis.kept = 1');
    const pid = kernels.kernels()[0]!.pid;
    const r = await js('await new Promise(() => {})');
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('EVAL_TIMEOUT');
    expect(alive(pid)).toBe(false);
    const next = await js('typeof kept');
    expect(next.output.split('\n').at(-1)).toBe("'undefined'");
  });

  it('EVAL-01: a crashed kernel is reported and restarted on the next call', async () => {
    const r = await js('process.exit(3)');
    expect(r.output).toContain('EVAL_KERNEL_DIED');
    expect(r.output).toContain('exit code 3');
    const next = await js('1 + 1');
    expect(next.output).toBe(
      '[the previous javascript kernel had died (exit code 3); a fresh one was started and earlier state is lost]\n2',
    );
  });

  it('EVAL-04: errors come back as a failed result with the stack; output is capped head and tail', async () => {
    const e = await js('null.x');
    expect(e.exitCode).toBe(1);
    expect(e.output).toContain('TypeError');
    const big = await js('for (let i = 0; i < 5000; i++) console.log("line " + i)');
    expect(big.metadata?.truncated).toBe(true);
    expect(big.output).toContain('line 0\n');
    expect(big.output).toContain('line 4999');
    expect(big.output).toMatch(/characters of output cut/);
  });

  it('closing the session kills every kernel', async () => {
    await js('1');
    const pid = kernels.kernels()[0]!.pid;
    await kernels.close();
    expect(alive(pid)).toBe(false);
    expect((await js('1')).output).toContain('EVAL_CLOSED');
  });
});

describe('eval: Python kernel', () => {
  it('EVAL-01: state persists; EVAL-04: echo and display()', async () => {
    expect((await py('import math\nx = 20\nprint("hi")')).output).toBe('hi');
    const r = await py('display([1, 2])\nx * 2 + 2');
    expect(r.output).toBe('[1, 2]\n42');
    expect(r.metadata?.interpreter).toBeTypeOf('string');
    expect((await py('None')).output).toBe('');
  });

  it('EVAL-05: a line inside a string, inside brackets or after a backslash is not a magic (markdown images, != at a line start)', async () => {
    const cell = [
      '!echo hi',
      'doc = """',
      '![logo](logo.png)',
      '%cd /',
      '"""',
      'ok = (1',
      '      != 2)',
      'also = 3 \\',
      '    % 2',
      '(doc, ok, also, os.getcwd() != "/")',
    ].join('\n');
    const r = await py(cell);
    expect([r.exitCode, r.output]).toEqual([0, "hi\n('\\n![logo](logo.png)\\n%cd /\\n', True, 1, True)"]);
  });

  it('EVAL-05: %cd, !cmd and %%bash are rewritten into plain code', async () => {
    const sub = join(dir, 'sub');
    await py(`import os\nos.mkdir(${JSON.stringify(sub)})`);
    const r = await py('%cd sub\n!echo from-shell\nos.getcwd()');
    expect(r.output).toBe(`from-shell\n'${sub}'`);
    expect((await py('%%bash\necho one\necho two')).output).toBe('one\ntwo');
    expect((await py('%%timeit\nsum(range(10))')).output).toMatch(/per loop/);
  });

  it('EVAL-05: the line forms %timeit and %time run their statement, %matplotlib is a no-op; another magic is a clear error', async () => {
    expect((await py('%timeit -n 5 sum(range(10))')).output).toMatch(/^\d+\.\d+ us per loop \(\d+ loops\)$/);
    const timed = await py('%matplotlib inline\nbase = 20\n%time doubled = base * 2\ndoubled + 2');
    expect(timed.output).toMatch(/^Wall time: \d+\.\d+ ms\n42$/);
    const text = await py('s = """\n%d items\n"""\ns.strip()');
    expect(text.output).toBe("'%d items'");
    const magic = await py('ran = 1\n%load_ext autoreload');
    expect(magic.exitCode).toBe(1);
    expect(magic.output).toContain(
      'SyntaxError: line 2: %load_ext is an IPython magic this kernel does not run; it rewrites %pip, %cd, %timeit, %time, %matplotlib',
    );
    expect(magic.output).not.toContain('ast.py');
    expect((await py('%time')).output).toContain(
      'SyntaxError: line 1: %time needs a statement to time: %time <statement>',
    );
  });

  it('EVAL-07: tool() returns the output; a denied read raises ToolError', async () => {
    expect((await py('tool("echo", {"n": 1})')).output).toBe(`'ran echo {"n":1}'`);
    const r = await py('try:\n    tool("read", {"path": "a"})\nexcept ToolError as e:\n    print("denied:", e)');
    expect(r.output).toBe('denied: Permission denied: deny read');
  });

  it('EVAL-09: a cell blocked on a slow bridge call survives; an idle one is killed', async () => {
    await shortBudget();
    const slow = await run({ code: 'tool("slow", {})', language: 'python' }, ctx(SLOW_BRIDGE_MS));
    expect(slow.output).toContain('ran slow');
    const idle = await py('import time\ntime.sleep(30)');
    expect(idle.output).toContain('EVAL_TIMEOUT');
  });

  it('EVAL-04: a raised exception is a failed result with the traceback', async () => {
    const r = await py('def f():\n    raise ValueError("bad")\nf()');
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('ValueError: bad');
    expect(r.output).not.toContain('_run');
  });

  it.skipIf(!PIP)(
    'EVAL-06: %pip installs a local wheel into the project .venv; after an upgrade the next import sees the new version',
    async () => {
      expect(
        spawnSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(dir, '.venv')])
          .status,
      ).toBe(0);
      for (const v of ['1.0', '2.0'])
        expect(spawnSync('/usr/bin/python3', ['-c', MAKE_WHEEL, 'a3sdemo', v, dir]).status).toBe(0);
      const pip = (v: string) =>
        `%pip install --no-index --disable-pip-version-check -q ./a3sdemo-${v}-py3-none-any.whl`;
      const first = await py(`${pip('1.0')}\nimport a3sdemo\na3sdemo.VERSION`);
      expect(first.metadata?.interpreter).toBe(join(dir, '.venv', 'bin', 'python3'));
      expect(first.output).toBe("'1.0'");
      expect((await py(`${pip('2.0')}\nimport a3sdemo\na3sdemo.VERSION`)).output).toBe("'2.0'");
    },
    30_000,
  );

  it.skipIf(!PANDAS)('EVAL-04: a pandas DataFrame renders as a table', async () => {
    const r = await py('import pandas as pd\npd.DataFrame({"a": [1, 2], "b": ["x", "y"]})');
    expect(r.output.split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['a', 'b'],
      ['0', '1', 'x'],
      ['1', '2', 'y'],
    ]);
  });

  it.skipIf(!MPL)('EVAL-04: a matplotlib figure comes back as a PNG artifact', async () => {
    const c = ctx();
    const r = await run({ code: 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nNone', language: 'python' }, c);
    const images = r.metadata?.images as { uri: string; mime: string }[];
    expect(images).toHaveLength(1);
    expect(r.output).toContain(`saved as ${images[0]!.uri}`);
    const data = await c.artifacts.get(images[0]!.uri.replace('artifact://', ''));
    expect(Buffer.from(data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});
