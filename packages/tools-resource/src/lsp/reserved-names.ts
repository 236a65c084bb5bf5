/** Words a language reserves, which a rename must not give a symbol (the code would no longer parse). */

const JS = [
  'break case catch class const continue debugger default delete do else enum export extends false finally for',
  'function if import in instanceof new null return super switch this throw true try typeof var void while with',
  'implements interface let package private protected public static yield await',
];
const PYTHON = [
  'False None True and as assert async await break class continue def del elif else except finally for from',
  'global if import in is lambda nonlocal not or pass raise return try while with yield',
];
const GO = [
  'break case chan const continue default defer else fallthrough for func go goto if import interface map',
  'package range return select struct switch type var',
];
const RUST = [
  'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod',
  'move mut pub ref return self Self static struct super trait true type unsafe use where while',
];

const words = (lines: string[]): ReadonlySet<string> => new Set(lines.join(' ').split(' '));
const BY_EXTENSION: ReadonlyArray<readonly [RegExp, string, ReadonlySet<string>]> = [
  [/\.(?:[cm]?[jt]sx?)$/, 'JavaScript/TypeScript', words(JS)],
  [/\.pyi?$/, 'Python', words(PYTHON)],
  [/\.go$/, 'Go', words(GO)],
  [/\.rs$/, 'Rust', words(RUST)],
];

/** The language that reserves `name` in the file at `path`, or `undefined` when the name is free there. */
export function reservedBy(path: string, name: string): string | undefined {
  for (const [ext, language, reserved] of BY_EXTENSION) if (ext.test(path) && reserved.has(name)) return language;
  return undefined;
}
