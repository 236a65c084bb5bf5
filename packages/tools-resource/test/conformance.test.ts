// The ast matcher against real grammars: a table of pattern/source cases over several languages.
// Each row states the texts that must match, in document order (nested matches included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AstResource, AstError, languageById, openAstResource } from '../src/ast.js';

let ast: AstResource;
beforeAll(async () => {
  ast = await openAstResource();
});
afterAll(() => ast.close());

async function matches(language: string, pattern: string, source: string): Promise<string[]> {
  const lang = languageById(language)!;
  const compiled = await ast.compile(lang, pattern);
  return (await ast.match(compiled, source)).map((m) => m.text);
}

async function captures(language: string, pattern: string, source: string): Promise<Record<string, string>[]> {
  const compiled = await ast.compile(languageById(language)!, pattern);
  return (await ast.match(compiled, source)).map((m) =>
    Object.fromEntries([...m.captures].map(([k, v]) => [k, v.text])),
  );
}

type Row = readonly [language: string, pattern: string, source: string, expected: readonly string[]];

const metavariables: Row[] = [
  ['typescript', 'foo($X)', 'foo(a); foo(a.b); foo(1, 2); bar(a);', ['foo(a)', 'foo(a.b)']],
  ['typescript', 'foo($$$ARGS)', 'foo(); foo(1); foo(1, 2, 3); bar(1);', ['foo()', 'foo(1)', 'foo(1, 2, 3)']],
  ['typescript', 'foo($A, $$$REST)', 'foo(); foo(1); foo(1, 2, 3);', ['foo(1, 2, 3)']],
  ['typescript', 'foo($_, $_)', 'foo(1, 2); foo(3, 3); foo(1);', ['foo(1, 2)', 'foo(3, 3)']],
  ['typescript', '$A + $B', 'x = 1 + 2; y = a - b;', ['1 + 2']],
  ['typescript', '$X.length', 'a.length; b.size; c.d.length;', ['a.length', 'c.d.length']],
  ['typescript', 'new $C($$$A)', 'new Map(); new Set([1]); Map();', ['new Map()', 'new Set([1])']],
  ['typescript', 'await $P', 'async function f() { await g(); return h(); }', ['await g()']],
  [
    'typescript',
    'const $N = require($M)',
    "const a = require('a');\nlet b = require('b');",
    ["const a = require('a');"],
  ],
  [
    'typescript',
    'function $F($$$P) { $$$B }',
    'function a(x, y) { return 1; }\nfunction b() {}',
    ['function a(x, y) { return 1; }', 'function b() {}'],
  ],
  [
    'javascript',
    'console.log($$$)',
    'console.log(1); console.log(); console.warn(1);',
    ['console.log(1)', 'console.log()'],
  ],
  ['javascript', '$O.$M()', 'a.b(); a.b(1); c();', ['a.b()']],
  ['python', 'print($X)', 'print(1)\nprint(1, 2)\nprint()\n', ['print(1)']],
  ['python', 'print($$$A)', 'print(1)\nprint(1, 2)\nprint()\n', ['print(1)', 'print(1, 2)', 'print()']],
  ['python', '$X.append($Y)', 'a.append(1)\nb.extend(2)\n', ['a.append(1)']],
  ['python', 'import $M', 'import os\nimport sys\nfrom x import y\n', ['import os', 'import sys']],
  ['rust', '$A.unwrap()', 'fn main() { let x = y.unwrap(); z.expect("e"); }', ['y.unwrap()']],
  ['rust', 'println!($$$A)', 'fn main() { println!("hi {}", x); print!("x"); }', ['println!("hi {}", x)']],
  [
    'go',
    'fmt.Println($$$A)',
    'package m\nfunc main() { fmt.Println("a", b); fmt.Printf("x") }',
    ['fmt.Println("a", b)'],
  ],
  [
    'go',
    'if err != nil { return $E }',
    'package m\nfunc f() error { if err != nil { return err }; return nil }',
    ['if err != nil { return err }'],
  ],
  ['c', 'free($P)', 'void f(void) { free(p); free(q->x); malloc(1); }', ['free(p)', 'free(q->x)']],
  [
    'java',
    'System.out.println($A)',
    'class A { void f() { System.out.println(x); System.err.println(y); } }',
    ['System.out.println(x)'],
  ],
  ['cpp', 'delete $P;', 'void f() { delete p; delete[] q; free(r); }', ['delete p;']],
  ['ruby', 'puts $X', 'puts "hi"\nputs 1\nprint 2\n', ['puts "hi"', 'puts 1']],
  ['bash', 'rm -rf $X', 'rm -rf /tmp/x\nrm -f y\n', ['rm -rf /tmp/x']],
  ['dart', 'print($X)', "void main() { print('a'); print(b); debugPrint(c); }", ["print('a')", 'print(b)']],
];

const repeated: Row[] = [
  [
    'typescript',
    'if ($X != null) $X.dispose()',
    'if (a != null) a.dispose();\nif (a != null) b.dispose();\nif (c.d != null) c.d.dispose();',
    ['if (a != null) a.dispose();', 'if (c.d != null) c.d.dispose();'],
  ],
  ['typescript', '$X + $X', 'a + a; a + b; f(x) + f(x); f(x) + f(y);', ['a + a', 'f(x) + f(x)']],
  ['typescript', '$X = $X', 'a = a; a = b;', ['a = a']],
  ['javascript', '$A === $A', 'x === x; x === y; x == x;', ['x === x']],
  ['python', '$X == $X', 'a == a\na == b\n', ['a == a']],
  [
    'python',
    'if $X is not None:\n    $X.close()',
    'if f is not None:\n    f.close()\nif f is not None:\n    g.close()\n',
    ['if f is not None:\n    f.close()'],
  ],
  ['rust', '$A == $A', 'fn f() { a == a; a == b; }', ['a == a']],
  ['go', '$A = $A', 'package m\nfunc f() { a = a; a = b }', ['a = a']],
  ['java', '$A.equals($A)', 'class A { boolean f() { return a.equals(a) || a.equals(b); } }', ['a.equals(a)']],
  [
    'dart',
    'if ($X != null) $X.dispose()',
    'void f() {\n  if (a != null) a.dispose();\n  if (a != null) b.dispose();\n}',
    ['if (a != null) a.dispose();'],
  ],
  [
    'java',
    'if ($X != null) $X.dispose()',
    'class A { void f() { if (a != null) a.dispose(); if (a != null) b.dispose(); } }',
    ['if (a != null) a.dispose();'],
  ],
  ['typescript', 'foo($$$A, $$$A)', 'foo(1, 1); foo(1, 2); foo(1, 2, 1, 2);', ['foo(1, 1)', 'foo(1, 2, 1, 2)']],
];

const trivia: Row[] = [
  [
    'typescript',
    'dispose(x)',
    'dispose(x);\ndispose( x );\ndispose(\n  x\n);\ndispose(/* c */ x);\n',
    ['dispose(x)', 'dispose( x )', 'dispose(\n  x\n)', 'dispose(/* c */ x)'],
  ],
  ['typescript', 'dispose(x)', 'const s = "dispose(x)";\n// dispose(x)\n/* dispose(x) */\nconst t = `dispose(x)`;', []],
  ['typescript', 'dispose(x)', 'foo(dispose(x));\nconst y = [dispose(x)];', ['dispose(x)', 'dispose(x)']],
  ['javascript', 'a.b(c)', 'a\n  .b(c);\na.b(\n  c,\n);', ['a\n  .b(c)', 'a.b(\n  c,\n)']],
  [
    'python',
    'dispose(x)',
    'dispose(x)\ndispose( x )\ndispose(\n    x\n)\ns = "dispose(x)"\n# dispose(x)\n',
    ['dispose(x)', 'dispose( x )', 'dispose(\n    x\n)'],
  ],
  ['python', 'f($A)', 'f(a)  # f(b)\n"""f(c)"""\n', ['f(a)']],
  ['rust', 'drop($X)', 'fn main() { drop(a); // drop(b)\n let s = "drop(c)"; }', ['drop(a)']],
  ['go', 'close($C)', 'package m\nfunc f() {\n\tclose(c) // close(d)\n\ts := "close(e)"\n}', ['close(c)']],
  ['c', 'free($P)', 'void f(void) { free(p); /* free(q) */ char *s = "free(r)"; }', ['free(p)']],
  ['java', 'close($C)', 'class A { void f() { close(c); // close(d)\n String s = "close(e)"; } }', ['close(c)']],
  ['dart', 'dispose($X)', "void f() { dispose(a); // dispose(b)\n  var s = 'dispose(c)'; }", ['dispose(a)']],
  ['typescript', 'x.y', 'x . y; x.\n  y;', ['x . y', 'x.\n  y']],
  [
    'typescript',
    'dispose($X)',
    'const s = "é€😀"; dispose(x);\n// ü dispose(z)\ndispose(yy);',
    ['dispose(x)', 'dispose(yy)'],
  ],
  ['typescript', '/* marker */', 'a(); /* marker */ b(); // marker', ['/* marker */']],
];

const nesting: Row[] = [
  ['typescript', 'foo($A)', 'foo(foo(1));', ['foo(foo(1))', 'foo(1)']],
  ['python', 'f($A)', 'f(f(f(1)))\n', ['f(f(f(1)))', 'f(f(1))', 'f(1)']],
  ['typescript', '[$$$E]', 'const a = [[1], []];', ['[[1], []]', '[1]', '[]']],
  ['rust', 'Some($X)', 'fn f() { Some(Some(1)); }', ['Some(Some(1))', 'Some(1)']],
  ['go', 'len($X)', 'package m\nfunc f() { len(a[len(b)]) }', ['len(a[len(b)])', 'len(b)']],
];

const contexts: Row[] = [
  ['typescript', 'return $X;', 'function f() { return 1; }\nfunction g() { return; }', ['return 1;']],
  ['typescript', 'private $F: $T', 'class A { private x: number; y: string; }', ['private x: number']],
  ['typescript', 'interface $I { $$$M }', 'interface A { a: 1 }\ntype B = {};', ['interface A { a: 1 }']],
  [
    'typescript',
    "import { $$$N } from 'x'",
    "import { a, b } from 'x';\nimport c from 'x';",
    ["import { a, b } from 'x';"],
  ],
  [
    'typescript',
    'const $A = 1; const $B = 2;',
    'function f() { const a = 1; const b = 2; g(); }',
    ['const a = 1; const b = 2;'],
  ],
  [
    'python',
    'def $F(self, $$$A):\n    $$$B',
    'class C:\n    def m(self, a):\n        return a\n    def n(self):\n        pass\n',
    ['def m(self, a):\n        return a'],
  ],
  ['python', 'return $X', 'def f():\n    return 1\n', ['return 1']],
  ['rust', 'fn $F() { $$$B }', 'fn a() { x(); }\nimpl S { fn b() {} }', ['fn a() { x(); }', 'fn b() {}']],
  ['rust', 'pub $F: $T', 'struct S { pub a: u8, b: u8 }', ['pub a: u8']],
  [
    'go',
    'func $F($$$P) $R { $$$B }',
    'package m\nfunc a() int { return 1 }\nfunc b() {}',
    ['func a() int { return 1 }'],
  ],
  ['java', 'public void $M() { $$$B }', 'class A { public void a() {} private void b() {} }', ['public void a() {}']],
  ['c', 'int $X = $V;', 'int a = 1;\nvoid f(void) { int b = 2; long c = 3; }', ['int a = 1;', 'int b = 2;']],
];

const tables: Record<string, Row[]> = { metavariables, repeated, trivia, nesting, contexts };
const rows = Object.values(tables).flat();

describe('ast matcher conformance', () => {
  it('the table holds at least 60 cases over at least 5 languages', () => {
    expect(rows.length + 4).toBeGreaterThanOrEqual(60);
    expect(new Set(rows.map((r) => r[0])).size).toBeGreaterThanOrEqual(5);
  });

  it.each(metavariables)('ASTG-01: %s %j', async (language, pattern, source, expected) => {
    expect(await matches(language, pattern, source)).toEqual(expected);
  });

  it.each(repeated)('ASTG-02: %s %j', async (language, pattern, source, expected) => {
    expect(await matches(language, pattern, source)).toEqual(expected);
  });

  it.each(trivia)('ASTG-05: %s %j', async (language, pattern, source, expected) => {
    expect(await matches(language, pattern, source)).toEqual(expected);
  });

  it.each(nesting)('ASTG-01: nested matches, %s %j', async (language, pattern, source, expected) => {
    expect(await matches(language, pattern, source)).toEqual(expected);
  });

  it.each(contexts)('ASTG-06: %s %j', async (language, pattern, source, expected) => {
    expect(await matches(language, pattern, source)).toEqual(expected);
  });

  it('ASTG-01: $$$ARGS captures nothing or the whole run; $_ binds nothing', async () => {
    expect(await captures('typescript', 'foo($$$ARGS)', 'foo(); foo(1, 2);')).toEqual([{ ARGS: '' }, { ARGS: '1, 2' }]);
    expect(await captures('typescript', 'foo($_, $B)', 'foo(1, 2);')).toEqual([{ B: '2' }]);
    expect(await captures('python', 'f($A, $_)', 'f(1, 2)\n')).toEqual([{ A: '1' }]);
  });

  it('ASTG-06: a fragment is parsed in the first context that accepts it, in a fixed order', async () => {
    const ts = languageById('typescript')!;
    expect((await ast.compile(ts, 'dispose(x)')).context).toBe('statement');
    expect((await ast.compile(ts, 'private x = 1')).context).toBe('class member');
    const java = languageById('java')!;
    expect((await ast.compile(java, 'dispose(x)')).context).toBe('expression');
    expect((await ast.compile(java, 'dispose(x);')).context).toBe('statement');
    expect((await ast.compile(languageById('go')!, 'import "fmt"')).context).toBe('declaration');
    // A statement written without its final `;` is tried with it only after every context refused it.
    const dart = languageById('dart')!;
    expect((await ast.compile(dart, 'dispose(x)')).context).toBe('expression');
    expect((await ast.compile(dart, 'if ($X != null) $X.dispose()')).context).toBe('statement');
  });

  it.each([
    ['typescript', 'foo('],
    ['python', 'def ('],
    ['rust', 'fn {'],
    ['go', ')('],
    ['java', 'class {'],
  ])(
    'ASTG-07: an unparseable %s pattern %j fails naming the language and the contexts tried',
    async (language, pattern) => {
      const lang = languageById(language)!;
      const error = await ast.compile(lang, pattern).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AstError);
      expect((error as AstError).code).toBe('AST_PATTERN_UNPARSEABLE');
      expect((error as AstError).message).toContain(language);
      expect((error as AstError).details.contexts).toEqual(lang.contexts.map((c) => c.name));
    },
  );
});
