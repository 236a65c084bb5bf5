/**
 * Commands that run another command: `env`, `command`, `exec`, `time`, `nice`, `nohup`,
 * `timeout`, `xargs`, `sudo`, `doas`, `su -c`, `builtin`, `stdbuf`, `setsid`, `ionice`, `chroot`,
 * `busybox`, `unbuffer` and `watch`. Each one's options are read strictly (see
 * `command-options.ts`) to find the wrapped command, or the shell code it runs.
 */
import { scanOptions, type OptionSpec } from './command-options.js';
import { LAUNCHERS } from './launchers.js';
import { MORE_WRAPPERS } from './more-wrappers.js';
import { RUN_AS_WRAPPERS } from './run-as-wrappers.js';
import { isStatic, type ShellWord } from './shell-word.js';
import {
  commandAt,
  flagsOnly,
  NONE,
  OPAQUE,
  optionValue,
  seenAny,
  shellCode,
  simple,
  type Unwrap,
  type Wrapper,
  valued,
} from './wrapper-kit.js';

export type { Unwrap } from './wrapper-kit.js';

const envSpec: OptionSpec = {
  flags: 'i0v',
  valued: 'uCSP',
  long: {
    ...flagsOnly(
      'ignore-environment',
      'null',
      'debug',
      'block-signal',
      'default-signal',
      'ignore-signal',
      'list-signal-handling',
    ),
    ...valued('unset', 'chdir', 'split-string'),
  },
};

function env(words: readonly ShellWord[], at: number): Unwrap {
  const scan = scanOptions(words, at + 1, envSpec);
  if (scan.kind === 'unknown') return OPAQUE;
  const split = optionValue(scan, ['S', 'split-string']);
  if (split !== undefined) return scan.next >= words.length ? shellCode(split) : OPAQUE;
  let i = scan.next;
  if (words[i]?.text === '-' && isStatic(words[i]!)) i++;
  // The `NAME=value` settings are judged with the command (see `variables.ts`).
  return i < words.length ? { kind: 'command', index: i, envAssignments: true } : NONE;
}

const sudoSpec: OptionSpec = {
  flags: 'AbBEHKkNnPSVlvehis',
  valued: 'CDghpRrTtUu',
  long: {
    ...flagsOnly(
      'login',
      'shell',
      'preserve-env',
      'non-interactive',
      'background',
      'set-home',
      'remove-timestamp',
      'reset-timestamp',
      'list',
      'validate',
      'edit',
      'version',
      'help',
      'stdin',
      'askpass',
      'bell',
    ),
    ...valued(
      'user',
      'group',
      'chdir',
      'prompt',
      'close-from',
      'host',
      'role',
      'type',
      'command-timeout',
      'other-user',
      'chroot',
    ),
  },
};

function sudo(words: readonly ShellWord[], at: number): Unwrap {
  const scan = scanOptions(words, at + 1, sudoSpec);
  if (scan.kind === 'unknown') return OPAQUE;
  if (seenAny(scan, 'lveV') || ['list', 'validate', 'edit', 'version', 'help'].some((n) => scan.seen.has(n)))
    return NONE;
  if (scan.next < words.length) return commandAt(words, scan.next);
  // `sudo -s` / `sudo -i` with no command is an interactive shell reading its input.
  return seenAny(scan, 'si') || scan.seen.has('shell') || scan.seen.has('login') ? OPAQUE : NONE;
}

function doas(words: readonly ShellWord[], at: number): Unwrap {
  const scan = scanOptions(words, at + 1, { flags: 'nsL', valued: 'uaC' });
  if (scan.kind === 'unknown') return OPAQUE;
  if (seenAny(scan, 'CL')) return NONE;
  if (scan.next < words.length) return commandAt(words, scan.next);
  return scan.seen.has('s') ? OPAQUE : NONE;
}

function su(words: readonly ShellWord[], at: number): Unwrap {
  const start = words[at + 1]?.text === '-' ? at + 2 : at + 1;
  const scan = scanOptions(words, start, {
    flags: 'lmpfP',
    valued: 'cgGsw',
    long: {
      ...flagsOnly('login', 'preserve-environment', 'pty'),
      ...valued('command', 'session-command', 'shell', 'group', 'supp-group', 'whitelist-environment'),
    },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  const code = optionValue(scan, ['c', 'command', 'session-command']);
  // Without `-c`, su starts a shell that reads its input.
  return code === undefined ? OPAQUE : shellCode(code);
}

function command(words: readonly ShellWord[], at: number): Unwrap {
  const scan = scanOptions(words, at + 1, { flags: 'pvV' });
  if (scan.kind === 'unknown') return OPAQUE;
  return seenAny(scan, 'vV') ? NONE : commandAt(words, scan.next);
}

function watch(words: readonly ShellWord[], at: number): Unwrap {
  const scan = scanOptions(words, at + 1, {
    flags: 'bcdegptwx',
    valued: 'nq',
    long: {
      ...flagsOnly(
        'beep',
        'color',
        'no-color',
        'differences',
        'errexit',
        'chgexit',
        'exec',
        'precise',
        'no-title',
        'no-wrap',
      ),
      ...valued('interval', 'equexit'),
    },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  if (seenAny(scan, 'x') || scan.seen.has('exec')) return commandAt(words, scan.next);
  // watch hands its words, joined by spaces, to `sh -c`.
  const rest = words.slice(scan.next);
  if (rest.length === 0) return NONE;
  return rest.every(isStatic) ? { kind: 'shell', body: rest.map((w) => w.text).join(' ') } : OPAQUE;
}

const xargsSpec: OptionSpec = {
  flags: '0prtx',
  valued: 'aEdILnPs',
  attached: 'eil',
  long: {
    ...flagsOnly(
      'null',
      'interactive',
      'no-run-if-empty',
      'verbose',
      'exit',
      'show-limits',
      'open-tty',
      'replace',
      'eof',
      'max-lines',
    ),
    ...valued('arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'),
  },
};

// xargs runs its command with words read from its input: appended, or put in place of the
// replace string of `-I R`, `-i[R]` or `--replace[=R]` (`{}` by default) wherever it stands.
function xargs(words: readonly ShellWord[], at: number): Unwrap {
  const scan = scanOptions(words, at + 1, xargsSpec);
  if (scan.kind === 'unknown') return OPAQUE;
  const replace: string[] = [];
  if (scan.seen.has('I')) replace.push(scan.values.get('I') ?? '');
  if (scan.seen.has('i')) replace.push(scan.values.get('i') || '{}');
  if (scan.seen.has('replace')) replace.push(scan.values.get('replace') || '{}');
  // A replace string computed at run time, or an empty one, could stand anywhere.
  if (replace.includes('')) return OPAQUE;
  const found = commandAt(words, scan.next, true);
  return found.kind === 'command' && replace.length > 0 ? { ...found, replace } : found;
}

/** The wrappers by command name (basename). */
export const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map<string, Wrapper>([
  ['env', env],
  ['command', command],
  ['builtin', (words, at) => commandAt(words, at + 1)],
  ['exec', simple({ flags: 'cl', valued: 'a' })],
  [
    'time',
    simple({
      flags: 'pvaq',
      valued: 'fo',
      long: { ...flagsOnly('append', 'verbose', 'portability', 'quiet'), ...valued('format', 'output') },
    }),
  ],
  ['nice', simple({ valued: 'n', numeric: true, long: valued('adjustment') })],
  ['nohup', simple({})],
  [
    'timeout',
    simple(
      {
        flags: 'v',
        valued: 'sk',
        long: { ...flagsOnly('preserve-status', 'foreground', 'verbose'), ...valued('signal', 'kill-after') },
      },
      1,
    ),
  ],
  ['stdbuf', simple({ valued: 'ioe', long: valued('input', 'output', 'error') })],
  ['setsid', simple({ flags: 'cfw', long: flagsOnly('ctty', 'fork', 'wait') })],
  [
    'ionice',
    simple({ flags: 't', valued: 'cnp', long: { ...flagsOnly('ignore'), ...valued('class', 'classdata', 'pid') } }),
  ],
  ['chroot', simple({ long: { ...flagsOnly('skip-chdir'), ...valued('userspec', 'groups') } }, 1)],
  ['busybox', simple({})],
  ['unbuffer', simple({ flags: 'p' })],
  ['xargs', xargs],
  ['sudo', sudo],
  ['doas', doas],
  ['su', su],
  ['watch', watch],
  ...MORE_WRAPPERS,
  ...LAUNCHERS,
  ...RUN_AS_WRAPPERS,
]);
