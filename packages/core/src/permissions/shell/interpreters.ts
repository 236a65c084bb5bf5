/**
 * Interpreters: shells (`sh`, `bash`, `zsh`, … with `-c`, `-lc`, `-ec`) run their body as shell
 * code; with no `-c` they read a script or their input, which cannot be judged. Language
 * interpreters (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `lua -e`, `awk`) are judged
 * by their own name, except that code read from input or computed at run time, inline code that
 * starts processes, evaluates code or looks a process call up by a name made at run time (see
 * `inline-code.ts`), a module given inline to preload (`node --import data:…`), and a Python
 * module run with `-m` that is not a known one (see `python-modules.ts`), is opaque: it could run
 * anything.
 */
import { readAwk } from './awk-program.js';
import { type CodeLanguage, inlineCodeIsOpaque } from './inline-code.js';
import { pythonModuleRunIsOpaque } from './python-modules.js';
import { isStatic, type ShellWord } from './shell-word.js';
import type { Unwrap } from './wrappers.js';

const SHELLS = /^(?:sh|bash|rbash|zsh|dash|ksh|ksh93|mksh|pdksh|ash|yash|posh|fish)$/;
const SHELL_VALUED_LONG = new Set(['--rcfile', '--init-file']);

/** True when `name` is a shell interpreter. */
export function isShell(name: string): boolean {
  return SHELLS.test(name);
}

/** What `sh …` at `words[at]` runs: its `-c` body, nothing (`--version`), or something opaque. */
export function shellInvocation(words: readonly ShellWord[], at: number): Unwrap {
  let code = false;
  let i = at + 1;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!isStatic(w)) return { kind: 'opaque' };
    const t = w.text;
    if (t === '--' || t === '-') {
      i++;
      break;
    }
    if (t === '--version' || t === '--help') return { kind: 'none' };
    if (t.startsWith('--')) {
      if (SHELL_VALUED_LONG.has(t)) i++;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(t)) break;
    if (t[0] === '-' && t.includes('c')) code = true;
    // `-o pipefail`, `-O extglob`: each o/O in the group takes the next word.
    i += (t.match(/[oO]/g) ?? []).length;
  }
  if (!code) return { kind: 'opaque' };
  const body = words[i];
  if (body === undefined) return { kind: 'none' };
  return isStatic(body) ? { kind: 'shell', body: body.text } : { kind: 'opaque' };
}

interface Language {
  readonly name: RegExp;
  /** How its inline code is read. */
  readonly language: CodeLanguage;
  /** Short options whose value is inline code. */
  readonly code: string;
  /** Long options whose value is inline code. */
  readonly longCode?: readonly string[];
  /** Short options taking a value (attached or next word). */
  readonly valued: string;
  /** Short options whose value can only be attached (`-Mstrict`, `-i.bak`). */
  readonly attached?: string;
  /** Long options taking a value. */
  readonly longValued?: readonly string[];
  /** Options after which nothing is read as code (`--version`). */
  readonly noCode: readonly string[];
  /** Short options whose value is a module to run (`python -m pytest`), judged by `pythonModuleRunIsOpaque`. */
  readonly module?: string;
}

const LANGUAGES: readonly Language[] = [
  {
    name: /^(?:python[0-9.]*|pypy[0-9.]*)$/,
    language: 'python',
    code: 'c',
    valued: 'WX',
    module: 'm',
    noCode: ['-V', '--version', '--help', '-h'],
  },
  {
    name: /^(?:node|nodejs|bun)$/,
    language: 'javascript',
    code: 'ep',
    longCode: ['--eval', '--print'],
    valued: 'rC',
    longValued: [
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '--conditions',
      '--env-file',
      '--input-type',
      '--title',
    ],
    noCode: ['-v', '--version', '-h', '--help'],
  },
  {
    name: /^perl[0-9.]*$/,
    language: 'perl',
    code: 'eE',
    valued: 'I',
    attached: 'MmixCdDF',
    noCode: ['-v', '-V', '--version', '--help'],
  },
  { name: /^ruby[0-9.]*$/, language: 'ruby', code: 'e', valued: 'rICEx', noCode: ['-v', '--version', '-h', '--help'] },
  { name: /^php[0-9.]*$/, language: 'php', code: 'r', valued: 'cdz', noCode: ['-v', '--version', '-h', '-m', '-i'] },
  { name: /^(?:lua[0-9.]*|luajit)$/, language: 'lua', code: 'e', valued: 'l', noCode: ['-v'] },
];

// A module preloaded from a URL holding its code (`node --import 'data:text/javascript,…'`).
const INLINE_MODULE = /^\s*data:/i;
const PRELOADS = new Set(['--require', '--import', '--loader', '--experimental-loader']);
const AWK = /^(?:awk|gawk|mawk|nawk)$/;

/**
 * For a language interpreter at `words[at]`: `true` when what it runs is opaque (see the module
 * comment), `false` when it is judged by its name, `undefined` when `name` is no interpreter.
 */
export function interpreterIsOpaque(name: string, words: readonly ShellWord[], at: number): boolean | undefined {
  if (AWK.test(name)) return awkIsOpaque(words, at);
  const lang = LANGUAGES.find((l) => l.name.test(name));
  if (lang === undefined) return undefined;
  // `node --test` with no file named runs the project's test files, not code from its input.
  let testRunner = false;
  // Perl's `-MIPC::Open3` is `use IPC::Open3;` before the code: read with it.
  let preamble = '';
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i]!;
    if (!isStatic(w)) return true;
    const t = w.text;
    if (lang.noCode.includes(t) || lang.noCode.includes(t.slice(0, 2))) return false;
    if (lang.language === 'javascript' && t === '--test') {
      testRunner = true;
      continue;
    }
    if (t === '-') return true;
    if (t === '--' || !t.startsWith('-')) return false;
    if (t.startsWith('--')) {
      const [opt] = t.split('=', 1) as [string];
      if (lang.longCode?.includes(opt))
        return codeIsOpaque(t.includes('=') ? t.slice(opt.length + 1) : words[i + 1], lang.language, preamble);
      if (lang.longValued?.includes(opt)) {
        if (PRELOADS.has(opt) && inlineModule(t.includes('=') ? t.slice(opt.length + 1) : words[i + 1])) return true;
        if (!t.includes('=')) i++;
      }
      continue;
    }
    for (let c = 1; c < t.length; c++) {
      const letter = t[c]!;
      if (lang.language === 'perl') {
        // `-l` and `-0` take only digits (`-0x1F` hex) and the letters after them are options again.
        if (letter === 'l' || letter === '0') {
          c += /^(?:x[0-9a-fA-F]*|[0-7]*)/.exec(t.slice(c + 1))![0].length;
          continue;
        }
        // A debugger module (`-d:Mod`) runs a module's code; a `-M`/`-m` value holding more than a
        // module name and its import list (`-Mstrict;system(…)`) is code.
        if (letter === 'd') return true;
        if (letter === 'M' || letter === 'm') {
          const value = t.slice(c + 1);
          if (!/^-?[A-Za-z_][\w:]*(?:=[\w:,.-]*)?$/.test(value)) return true;
          preamble += `use ${value.replace(/^-/, '').split('=')[0]};\n`;
          break;
        }
      }
      if (lang.attached?.includes(letter)) break;
      if (lang.code.includes(letter))
        return codeIsOpaque(c + 1 < t.length ? t.slice(c + 1) : words[i + 1], lang.language, preamble);
      if (lang.module?.includes(letter)) return moduleIsOpaque(c + 1 < t.length ? t.slice(c + 1) : words[i + 1]);
      if (lang.valued.includes(letter)) {
        const value = c + 1 < t.length ? t.slice(c + 1) : words[i + 1];
        if (lang.language === 'javascript' && letter === 'r' && inlineModule(value)) return true;
        if (c + 1 === t.length) i++;
        break;
      }
    }
  }
  // No script and no inline code: the program is read from the input (unless it runs the tests).
  return !testRunner;
}

// A module `python -m` runs: one not known may be a file in the working folder (see `python-modules.ts`).
function moduleIsOpaque(value: string | ShellWord | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'string' && !isStatic(value)) return true;
  return pythonModuleRunIsOpaque(typeof value === 'string' ? value : value.text);
}

// A module to preload given as its code (`data:…`), or as a word made at run time.
function inlineModule(value: string | ShellWord | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'string' && !isStatic(value)) return true;
  return INLINE_MODULE.test(typeof value === 'string' ? value : value.text);
}

function codeIsOpaque(code: string | ShellWord | undefined, language: CodeLanguage | RegExp, preamble = ''): boolean {
  if (code === undefined) return false;
  if (typeof code !== 'string' && !isStatic(code)) return true;
  const text = preamble + (typeof code === 'string' ? code : code.text);
  if (typeof language === 'string') return inlineCodeIsOpaque(language, text);
  return language.test(text) || (!/^[\x00-\x7f]*$/.test(text) && language.test(text.normalize('NFKC')));
}

// awk: see `awk-program.ts` (a program that runs commands, is read from a file, or writes a file
// whose name is computed at run time is opaque).
function awkIsOpaque(words: readonly ShellWord[], at: number): boolean {
  return readAwk(words.slice(at + 1)).opaque;
}
