/**
 * Everyday programs with a command language of their own that can start processes: `sed` (the `e`
 * command and the `s///e` flag), `sqlite3` (`.shell`, `.system`, `.output '|cmd'`), `psql` (`\!`,
 * `COPY … PROGRAM`), `mysql` (`system`, `\!`), `less +'!cmd'`, and `ssh host cmd…` (a command line
 * for the remote shell, which may well be this machine). What each runs is returned as shell code
 * to judge, or `null` when it cannot be read statically: a script read from a file or from the
 * input, a word computed at run time, an option this module does not know. A program given none
 * of these runs nothing beyond itself and yields nothing.
 */
import { type OptionSpec, scanOptions } from './command-options.js';
import type { ExecValue } from './exec-options.js';
import { readSedArguments, sedRunsCommands } from './sed-script.js';
import { noteOpaque } from './shell-scan.js';
import { HOLE, isStatic, type ShellWord } from './shell-word.js';

const OPAQUE: ExecValue[] = [null];

/** The commands `base`'s own language runs, read from `args` (empty for other programs). */
export function commandLanguageCode(base: string, args: readonly ShellWord[]): ExecValue[] {
  switch (base) {
    case 'sed':
    case 'gsed':
      return sed(args);
    case 'sqlite3':
      return sqlite(args);
    case 'psql':
      return psql(args);
    case 'mysql':
    case 'mariadb':
      return mysql(args);
    case 'less':
    case 'more':
      return args.some((w) => !isStatic(w) || (w.text.startsWith('+') && /[!|]/.test(w.text))) ? OPAQUE : [];
    case 'ssh':
      return ssh(args);
    default:
      return [];
  }
}

// `sed [options] script [file…]`, `sed -e script… [file…]` (see `sed-script.ts`); `-f file` reads a
// script the judge cannot see; `--sandbox` makes sed refuse `e`, `r` and `w`.
function sed(args: readonly ShellWord[]): ExecValue[] {
  const read = readSedArguments(args);
  if (read === undefined) return OPAQUE;
  if (read.hiddenOption !== undefined) {
    noteOpaque(hiddenSedOption(read.hiddenOption));
    return OPAQUE;
  }
  if (read.sandbox) return [];
  if (read.fromFile) return OPAQUE;
  return read.scripts.some(sedRunsCommands) ? OPAQUE : [];
}

// Why a sed line with `word` (computed at run time, before any `--`) cannot be judged, and the fix.
function hiddenSedOption(word: ShellWord): string {
  const shown = word.raw.includes(HOLE) ? 'a word read at run time (from xargs)' : `the word ${word.raw}`;
  return `sed's ${shown} is known only when the command runs and could be an option that runs commands (\`-e\`, \`-f\`); put \`--\` before the files (\`sed -i 's/a/b/' -- "$f"\`)`;
}

const SQLITE_RUNS = /\.(?:sh(?:ell)?|system|once|output|excel|import|read|load)\b|\bedit\s*\(|load_extension/i;
const SQLITE_VALUED = new Set(['-cmd', '-separator', '-newline', '-nullvalue', '-maxsize', '-mmap', '-vfs', '-escape']);

// `sqlite3 [options] [db [sql…]]`: SQL from the input or `-init file` cannot be read; dot commands
// that run a program or pipe through one are opaque, unless `-safe` refuses them.
function sqlite(args: readonly ShellWord[]): ExecValue[] {
  const operands: string[] = [];
  const commands: string[] = [];
  let safe = false;
  let readsFile = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!isStatic(w)) return OPAQUE;
    const t = w.text.replace(/^--/, '-');
    if (t === '-safe') safe = true;
    else if (t === '-version' || t === '-help') return [];
    else if (t === '-init' || t === '-A' || t === '-archive') readsFile = true;
    else if (SQLITE_VALUED.has(t)) {
      const v = args[++i];
      if (v === undefined || !isStatic(v)) return OPAQUE;
      if (t === '-cmd') commands.push(v.text);
    } else if (!t.startsWith('-')) operands.push(t);
  }
  if (safe) return [];
  if (readsFile || operands.length < 2) return OPAQUE;
  return [...commands, ...operands.slice(1)].some((sql) => SQLITE_RUNS.test(sql)) ? OPAQUE : [];
}

const PSQL_RUNS = /\\!|\\[og]\s*\||\\(?:i|ir|include|include_relative)\b|\bprogram\b|\\setenv/i;
const PSQL_VALUED = 'hpUdvLTFRPco';

// `psql -c 'sql'`: without `-c` (or `-l`) psql reads its input or `-f file`, which cannot be read.
function psql(args: readonly ShellWord[]): ExecValue[] {
  const commands: string[] = [];
  let lists = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!isStatic(w)) return OPAQUE;
    const t = w.text;
    if (t === '-V' || t === '--version' || t === '--help') return [];
    if (t === '-l' || t === '--list') lists = true;
    else if (t === '-f' || t.startsWith('--file') || /^-[a-zA-Z]*f/.test(t)) return OPAQUE;
    else if (t === '-c' || t === '--command' || t === '-o' || t === '--output') {
      const v = args[++i];
      if (v === undefined || !isStatic(v)) return OPAQUE;
      if (t === '-c' || t === '--command') commands.push(v.text);
      else if (v.text.startsWith('|')) return OPAQUE;
    } else if (/^--(?:command|output)=/.test(t)) {
      const v = t.slice(t.indexOf('=') + 1);
      if (t.startsWith('--command')) commands.push(v);
      else if (v.startsWith('|')) return OPAQUE;
    } else if (/^-c./.test(t)) commands.push(t.slice(2));
    else if (t.length === 2 && PSQL_VALUED.includes(t[1]!) && t[0] === '-') i++;
  }
  if (commands.length === 0) return lists ? [] : OPAQUE;
  return commands.some((c) => PSQL_RUNS.test(c)) ? OPAQUE : [];
}

const MYSQL_RUNS = /\bsystem\b|\\!|\bsource\b|\\\.|\bpager\b|\\P|\btee\b|\\T/i;

// `mysql -e 'sql'`: without `-e` mysql reads its input; `--pager` and `--init-command` run what they say.
function mysql(args: readonly ShellWord[]): ExecValue[] {
  const statements: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!isStatic(w)) return OPAQUE;
    const t = w.text;
    if (t === '-V' || t === '--version' || t === '--help') return [];
    if (/^--(?:pager|init-command|defaults-file|defaults-extra-file)\b/.test(t)) return OPAQUE;
    if (t === '-e' || t === '--execute') {
      const v = args[++i];
      if (v === undefined || !isStatic(v)) return OPAQUE;
      statements.push(v.text);
    } else if (t.startsWith('--execute=')) statements.push(t.slice('--execute='.length));
    else if (/^-e./.test(t)) statements.push(t.slice(2));
  }
  if (statements.length === 0) return OPAQUE;
  return statements.some((s) => MYSQL_RUNS.test(s)) ? OPAQUE : [];
}

const SSH_OPTIONS: OptionSpec = { flags: '46AaCfGgKkMNnqsTtVvXxYy', valued: 'BbcDEeFIiJLlmOoPpQRSWw' };

// `ssh [options] host [command…]`: the words of the command, joined by spaces, are a command line
// for the remote shell. With no command ssh starts a shell reading its input. `-N` runs nothing,
// `-s` a subsystem, `-V` and `-G` only print; `-F file` reads settings that can run commands.
function ssh(args: readonly ShellWord[]): ExecValue[] {
  const scan = scanOptions(args, 0, SSH_OPTIONS);
  if (scan.kind === 'unknown' || scan.seen.has('F')) return OPAQUE;
  if ([...'NsVG'].some((o) => scan.seen.has(o))) return [];
  const command = args.slice(scan.next + 1);
  if (command.length === 0) return OPAQUE;
  return command.every(isStatic) ? [command.map((w) => w.text).join(' ')] : OPAQUE;
}
