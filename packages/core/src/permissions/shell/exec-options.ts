/**
 * Options of everyday tools whose value is a command the tool runs through a shell:
 * `tar --checkpoint-action=exec=CMD`, `tar -I CMD`, `zip -TT CMD`, `rsync -e CMD`,
 * `ssh -o ProxyCommand=CMD`, `scp -S CMD`, `man -P CMD`, `npm test --script-shell=CMD`,
 * `go test -exec CMD`, `make SHELL=CMD`, `rg --pre CMD`, `sort --compress-program=CMD`,
 * `split --filter=CMD`. The judge sees each such value as the shell code it is, so `Bash(rm:*)`
 * holds for `tar … --checkpoint-action=exec='rm x'` as for `sh -c 'rm x'`; a word made at run time
 * where such an option may stand makes the command opaque. Options that make what runs unknown
 * (`make CC=CMD`, `make -e`, `cargo --config KEY=VALUE`, `cargo -Z …`) make it opaque too.
 */
import { HOLE, isStatic, type ShellWord } from './shell-word.js';

/** How one command takes command-valued options. */
interface ExecOptions {
  /** Long options (without `--`) whose value (`--opt=V` or `--opt V`) is a command. */
  readonly long: readonly string[];
  /** Short options (without `-`) whose value (`-o V` or `-oV`) is a command. */
  readonly short: readonly string[];
  /**
   * Keeps the command part of a value (`exec=CMD` → `CMD`): `undefined` when it runs none, `null`
   * when what it runs cannot be read from the line.
   */
  readonly command?: (option: string, value: string) => string | null | undefined;
  /** Variables whose value, given as an argument (`make SHELL=CMD`), is a command. */
  readonly assignments?: readonly string[];
  /** Whether any other argument holding `=` sets a variable that may name what runs (`make CC=CMD`): opaque. */
  readonly anyAssignment?: boolean;
  /** Options that make what runs unknown, with a value or without (`make -e`, `cargo --config`). */
  readonly opaque?: { readonly long: readonly string[]; readonly short: string };
  /** Whether a long option may be cut short to a prefix of its name, as GNU's getopt reads it. */
  readonly abbreviated?: boolean;
  /** Short options (letters) whose value may be attached, ending a bundle (`make -Cdir`, `-j4`). */
  readonly valued?: string;
}

const TAR: ExecOptions = {
  long: ['to-command', 'use-compress-program', 'rsh-command', 'info-script', 'new-volume-script', 'checkpoint-action'],
  short: ['I', 'F'],
  command: (option, value) => (option === 'checkpoint-action' ? /^exec=(.*)$/s.exec(value)?.[1] : value),
};
const SSH: ExecOptions = {
  long: [],
  short: ['o'],
  command: (_option, value) => /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[=\s]\s*(.*)$/is.exec(value)?.[1],
};

// Any variable set on the command line (`CC=…`), or the environment overriding the makefile's own
// (`-e`), may name the program a recipe runs.
const MAKE: ExecOptions = {
  long: ['eval', 'file', 'makefile'],
  short: ['E', 'f'],
  assignments: ['SHELL'],
  anyAssignment: true,
  opaque: { long: ['environment-overrides'], short: 'e' },
  abbreviated: true,
  valued: 'CIjlOoW',
  command: (option, value) => {
    if (option === 'eval' || option === 'E') return null;
    if (option === 'SHELL') return value;
    return /^(?:-|\/dev\/stdin|\/dev\/fd\/.*|\/proc\/.*)$/s.test(value) ? null : undefined;
  },
};

const NPM: ExecOptions = { long: ['script-shell', 'shell'], short: [] };
// scp and sftp also take the program to run instead of ssh (`-S PROGRAM`).
const SCP: ExecOptions = {
  long: [],
  short: ['o', 'S'],
  command: (option, value) => (option === 'S' ? value : SSH.command?.(option, value)),
};

const TABLE: ReadonlyMap<string, ExecOptions> = new Map([
  ['tar', TAR],
  ['gtar', TAR],
  ['bsdtar', TAR],
  ['zip', { long: ['unzip-command'], short: ['TT'] }],
  ['rsync', { long: ['rsh', 'rsync-path'], short: ['e'] }],
  ['ssh', SSH],
  ['scp', SCP],
  ['sftp', SCP],
  // The preprocessor ripgrep runs on each file; the compressor sort runs on its temporary files; the
  // shell command split feeds each piece to.
  ['rg', { long: ['pre'], short: [] }],
  ['sort', { long: ['compress-program'], short: [] }],
  ['split', { long: ['filter'], short: [] }],
  ['man', { long: ['pager', 'html'], short: ['P', 'H'] }],
  // The shell npm runs a package's scripts with; the program go runs a test binary with.
  ['npm', NPM],
  ['pnpm', NPM],
  ['go', { long: ['exec', 'toolexec'], short: ['exec', 'toolexec'], command: (_o, v) => v.replace(/^=/, '') }],
  // The shell make runs each recipe with; rules made on the command line or read from the input.
  ['make', MAKE],
  ['gmake', MAKE],
  // cargo's configuration given on its command line (a runner, a rustc wrapper, a linker), and its
  // unstable flags, some of which load configuration or scripts.
  ['cargo', { long: [], short: [], opaque: { long: ['config'], short: 'Z' } }],
]);

// The long option of `names` that `name` stands for: itself, or, when `abbreviated`, the options it begins.
function longOption(spec: ExecOptions, names: readonly string[], name: string): string | undefined {
  if (names.includes(name)) return name;
  return spec.abbreviated === true ? names.find((n) => n.startsWith(name)) : undefined;
}

/**
 * True when `word` may be, or may split into, an option at run time: it starts with an expansion
 * (`"$O"`), or an unquoted expansion in it may split it into several words (`x$O`).
 */
export function mayBeOption(word: ShellWord): boolean {
  return word.splits || word.text.startsWith(HOLE);
}

/** What a command-valued option runs: static shell code, or `null` when its value is not static. */
export type ExecValue = string | null;

/** The commands `base` runs through its options among `args` (empty for a command not in the table). */
export function execOptionValues(base: string, args: readonly ShellWord[]): ExecValue[] {
  const spec = TABLE.get(base);
  if (spec === undefined) return [];
  const out: ExecValue[] = [];
  const take = (option: string, word: ShellWord | undefined, text: string | undefined) => {
    if (word === undefined) return;
    if (!isStatic(word)) {
      out.push(null);
      return;
    }
    const value = text ?? word.text;
    const command = spec.command === undefined ? value : spec.command(option, value);
    if (command !== undefined) out.push(command);
  };
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '--') break;
    // A word made at run time where an option may stand may be one of those options.
    if (mayBeOption(args[i]!)) {
      out.push(null);
      continue;
    }
    const assigned = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text);
    if (assigned !== null && spec.assignments?.includes(assigned[1]!) === true) {
      take(assigned[1]!, args[i], assigned[2]);
      continue;
    }
    if (spec.anyAssignment === true && !text.startsWith('-') && text.includes('=')) {
      out.push(null);
      continue;
    }
    const long = /^--([a-z-]+)(?:=(.*))?$/s.exec(text);
    if (long !== null && longOption(spec, spec.opaque?.long ?? [], long[1]!) !== undefined) {
      out.push(null);
      continue;
    }
    const option = long === null ? undefined : longOption(spec, spec.long, long[1]!);
    if (long !== null && option !== undefined) {
      if (long[2] !== undefined) take(option, args[i], long[2]);
      else take(option, args[++i], undefined);
      continue;
    }
    if (!text.startsWith('-') || text.startsWith('--')) continue;
    const multi = spec.short.find((s) => s.length > 1 && text.startsWith(`-${s}`));
    if (multi !== undefined) {
      if (text === `-${multi}`) take(multi, args[++i], undefined);
      else take(multi, args[i], text.slice(multi.length + 1));
      continue;
    }
    // A bundle (`-czI CMD`, `-avze CMD`): the first letter that takes a command ends the bundle,
    // the rest of the word (or the next word) being its value. Read generously: a letter that is
    // itself another option's value only makes the judge look at more, never at less.
    for (let j = 1; j < text.length; j++) {
      const letter = text[j]!;
      if (spec.opaque?.short.includes(letter) === true) {
        out.push(null);
        break;
      }
      if (spec.valued?.includes(letter) === true) break;
      if (!spec.short.includes(letter)) continue;
      if (j === text.length - 1) take(letter, args[++i], undefined);
      else take(letter, args[i], text.slice(j + 1));
      break;
    }
  }
  return out;
}
