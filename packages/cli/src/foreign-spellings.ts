/**
 * What people who use Codex or Claude Code type on their first day (`a3s exec "…"`, `a3s -p "…"`,
 * `a3s --continue`, `a3s --resume <id>`, `a3s resume`): answered with the a3s command that does
 * it, as a usage error (nothing is run), not read as a prompt or an unknown option of `a3s code`.
 */
import { shellWord } from './shell-quote.js';

/** Claude Code's flags for one prompt, printed (`-p "…"`). */
const PRINT_FLAGS: ReadonlySet<string> = new Set(['-p', '--print']);
/** Claude Code's flags for continuing the last conversation. */
const CONTINUE_FLAGS: ReadonlySet<string> = new Set(['-c', '--continue']);

/** `text` as a prompt to paste into a shell: in double quotes when that keeps it literal, else in single quotes. */
function promptWord(text: string): string {
  return /^[^"$`\\!]*$/.test(text) ? `"${text}"` : shellWord(text);
}

/** The words of `args` that are no flag and no flag's value (`valueFlags`): the prompt. */
function promptOf(args: readonly string[], valueFlags: ReadonlySet<string>): string {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-')) {
      if (valueFlags.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words.join(' ').trim();
}

/** `a3s run "<prompt>"`, with the prompt of `args` when there is one. */
function runLine(args: readonly string[], valueFlags: ReadonlySet<string>): string {
  const prompt = promptOf(args, valueFlags);
  return `a3s run ${prompt === '' ? '"<prompt>"' : promptWord(prompt)}`;
}

/** `a3s sessions --resume <id>`, with the id when `id` is one. */
function resumeLine(id: string | undefined): string {
  const known = id !== undefined && id !== '' && !id.startsWith('-');
  return `a3s sessions --resume ${known ? shellWord(id) : '<id>'} continues a session (a3s sessions lists them, newest first)`;
}

/**
 * The message for a command line spelt as in Codex or Claude Code, naming the a3s command that
 * does what it asks; `undefined` for any other. `argv` has no a3s command in it (a command after
 * flags was found before); `valueFlags` are the a3s flags that take a value.
 */
export function foreignSpelling(argv: readonly string[], valueFlags: ReadonlySet<string>): string | undefined {
  const [first, ...rest] = argv;
  if (first === 'exec')
    return `'a3s exec' is Codex's spelling; a3s runs one prompt with: ${runLine(rest, valueFlags)} (see 'a3s run --help'); nothing was run`;
  if (first === 'resume') return `'a3s resume' is Codex's spelling; in a3s, ${resumeLine(rest[0])}; nothing was run`;
  if (first === undefined || !first.startsWith('-')) return undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, value] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    if (a === '--') return undefined;
    if (PRINT_FLAGS.has(flag))
      return `${flag} is Claude Code's flag for one prompt; a3s runs one prompt with: ${runLine(
        [...argv.slice(0, i), ...(value === undefined ? [] : [value]), ...argv.slice(i + 1)],
        valueFlags,
      )} (see 'a3s run --help'); nothing was run`;
    if (CONTINUE_FLAGS.has(flag))
      return `${flag} is Claude Code's flag for continuing a conversation; in a3s, ${resumeLine(undefined)}; nothing was run`;
    if (flag === '--resume')
      return `--resume belongs to a3s sessions: ${resumeLine(value ?? argv[i + 1])}; nothing was run`;
    if (valueFlags.has(flag) && value === undefined) i++;
  }
  return undefined;
}
