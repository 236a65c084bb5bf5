/**
 * More commands that run another command: tracers and process setters (`strace`, `flock`,
 * `taskset`, `chrt`, `unshare`, `fakeroot`, `firejail`, `xvfb-run`, `ssh-agent`, `script -c`, `rlwrap`),
 * package runners (`npx`, `bunx`, `npm exec`, `pnpm exec`/`dlx`, `yarn exec`/`dlx`, `uv run`,
 * `poetry run`, `bundle exec`, `nix-shell --run`), programs that run commands they read
 * elsewhere (`tmux`, `screen`, `parallel`, `at`, `ed`, editors and debuggers given commands,
 * shells of other syntaxes), and programs that run one named in an argument (`perf stat`, `socat
 * EXEC:`, `fzf --preview`) or load code (`openssl -engine`, `ssh-keygen -D`). Options are read strictly: one this table does not know makes the
 * command opaque (it could run anything), so a deny rule still holds.
 */
import { scanOptions, type OptionSpec } from './command-options.js';
import { isStatic, type ShellWord } from './shell-word.js';
import {
  commandAt,
  flagsOnly,
  NONE,
  OPAQUE,
  optionValue,
  shellCode,
  simple,
  type Unwrap,
  type Wrapper,
  valued,
} from './wrapper-kit.js';

const text = (w: ShellWord | undefined): string | undefined => (w !== undefined && isStatic(w) ? w.text : undefined);
const onlyAsksVersion = (words: readonly ShellWord[], at: number): boolean =>
  words.length > at + 1 && words.slice(at + 1).every((w) => /^--?(?:version|help|V|h)$/.test(text(w) ?? ''));

/**
 * Opaque unless it only prints its version or help: it runs code the judge cannot read, from its
 * arguments or, given none, from its input (`ed <<< '!cmd'`, `echo cmd | at`).
 */
export const opaque: Wrapper = (words, at) => (onlyAsksVersion(words, at) ? NONE : OPAQUE);

// Runs its first operand as a command after options none of which take a separate word.
const dashedOptionsThenCommand: Wrapper = (words, at) => {
  let i = at + 1;
  while (i < words.length && text(words[i])?.startsWith('-') === true && text(words[i]) !== '--') i++;
  if (i < words.length && !isStatic(words[i]!)) return OPAQUE;
  if (text(words[i]) === '--') i++;
  // With no command, these start an interactive shell.
  return i < words.length ? commandAt(words, i) : OPAQUE;
};

// `flock [options] file command…`, `flock [options] file -c 'code'`, `flock [options] fd`.
const flock: Wrapper = (words, at) => {
  const spec: OptionSpec = {
    flags: 'sxunoFhV',
    valued: 'wEc',
    long: {
      ...flagsOnly('shared', 'exclusive', 'unlock', 'nonblock', 'nb', 'close', 'no-fork', 'verbose'),
      ...valued('timeout', 'wait', 'conflict-exit-code', 'command'),
    },
  };
  const scan = scanOptions(words, at + 1, spec);
  if (scan.kind === 'unknown') return OPAQUE;
  const early = optionValue(scan, ['c', 'command']);
  if (early !== undefined) return shellCode(early);
  const after = scanOptions(words, scan.next + 1, spec);
  if (after.kind === 'unknown') return OPAQUE;
  const code = optionValue(after, ['c', 'command']);
  if (code !== undefined) return shellCode(code);
  return commandAt(words, after.next);
};

// `taskset [-a] mask command…` / `taskset -c list command…`; `-p` works on a running process.
const taskset: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, { flags: 'acphV', long: flagsOnly('all-tasks', 'cpu-list', 'pid') });
  if (scan.kind === 'unknown') return OPAQUE;
  if (scan.seen.has('p') || scan.seen.has('pid')) return NONE;
  return commandAt(words, scan.next + 1);
};

// `chrt [options] priority command…`; `-p` works on a running process.
const chrt: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, { flags: 'bdfiormRahvp', valued: 'TPD' });
  if (scan.kind === 'unknown') return OPAQUE;
  if (scan.seen.has('p') || scan.seen.has('m')) return NONE;
  return commandAt(words, scan.next + 1);
};

// `script [options] -c 'code' [file]`: without `-c`, script starts a shell reading its input.
const script: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, {
    flags: 'aefqkBIOETm',
    valued: 'cTBIOEm',
    long: { ...flagsOnly('append', 'return', 'flush', 'quiet', 'force'), ...valued('command', 'timing', 'log-io') },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  const code = optionValue(scan, ['c', 'command']);
  return code === undefined ? OPAQUE : shellCode(code);
};

const npxSpec: OptionSpec = {
  flags: 'yq',
  valued: 'pc',
  long: {
    ...flagsOnly('yes', 'no', 'quiet', 'ignore-existing', 'prefer-offline', 'prefer-online', 'offline', 'silent'),
    ...valued('package', 'call', 'c', 'workspace', 'registry', 'cache', 'loglevel'),
  },
};

/** `npx [options] command…`, `npx -c 'code'`: what runs, reading from `words[from]`. */
export function npxFrom(words: readonly ShellWord[], from: number): Unwrap {
  const scan = scanOptions(words, from, npxSpec);
  if (scan.kind === 'unknown') return OPAQUE;
  const code = optionValue(scan, ['c', 'call']);
  if (code !== undefined) return shellCode(code);
  return commandAt(words, scan.next);
}

/** A package manager whose `sub` subcommands run a command (`npm exec`, `yarn dlx`, `uv run`). */
export function subcommand(
  subs: readonly string[],
  run: (words: readonly ShellWord[], from: number) => Unwrap,
): Wrapper {
  return (words, at) => {
    const sub = text(words[at + 1]);
    if (sub === undefined) return words.length > at + 1 ? OPAQUE : NONE;
    return subs.includes(sub) ? run(words, at + 2) : NONE;
  };
}

// `pnpm exec [options] command…`; with `-c`/`--shell-mode` the rest is shell code.
function pnpmExec(words: readonly ShellWord[], from: number): Unwrap {
  const scan = scanOptions(words, from, {
    flags: 'rc',
    long: {
      ...flagsOnly('recursive', 'parallel', 'shell-mode', 'no-bail', 'bail', 'report-summary', 'workspace-root'),
      ...valued('filter', 'resume-from', 'dir', 'package'),
    },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  if (scan.seen.has('c') || scan.seen.has('shell-mode')) {
    const rest = words.slice(scan.next);
    return rest.every(isStatic) ? shellCode(rest.map((w) => w.text).join(' ')) : OPAQUE;
  }
  return commandAt(words, scan.next);
}

const packageRun =
  (spec: OptionSpec): ((words: readonly ShellWord[], from: number) => Unwrap) =>
  (words, from) => {
    const scan = scanOptions(words, from, spec);
    return scan.kind === 'unknown' ? OPAQUE : commandAt(words, scan.next);
  };

const uvRun = packageRun({
  flags: 'qv',
  valued: 'p',
  long: {
    ...flagsOnly('frozen', 'locked', 'no-sync', 'no-project', 'isolated', 'no-dev', 'all-extras', 'quiet', 'verbose'),
    ...valued('with', 'with-requirements', 'python', 'project', 'directory', 'env-file', 'group', 'extra', 'package'),
  },
});
const poetryRun = packageRun({
  flags: 'qvnC',
  valued: 'P',
  long: { ...flagsOnly('quiet', 'verbose', 'no-interaction', 'no-ansi', 'ansi'), ...valued('directory', 'project') },
});
const uvx = packageRun({
  flags: 'qv',
  long: { ...flagsOnly('quiet', 'verbose', 'isolated'), ...valued('from', 'with', 'python') },
});
const bundleExec = packageRun({ long: { ...flagsOnly('keep-file-descriptors'), ...valued('gemfile') } });
const yarnRun = packageRun({ flags: 'q', valued: 'p', long: { ...flagsOnly('quiet'), ...valued('package') } });

// `nix-shell … --run 'code'` / `--command 'code'`; otherwise an interactive shell.
const nixShell: Wrapper = (words, at) => {
  for (let i = at + 1; i < words.length; i++) {
    const t = text(words[i]);
    if (t === '--run' || t === '--command') return shellCode(text(words[i + 1]) ?? null);
  }
  return OPAQUE;
};

// `gdb --args program…` runs program; commands given to gdb (`-ex 'shell …'`) can run anything.
const gdb: Wrapper = (words, at) => {
  for (let i = at + 1; i < words.length; i++) {
    const t = text(words[i]);
    if (t === undefined) return OPAQUE;
    if (t === '--args') return commandAt(words, i + 1);
    if (/^--?(?:ex|iex|x|ix|eval-command|init-eval-command|command|init-command)(?:=|$)/.test(t)) return OPAQUE;
  }
  return NONE;
};

// An editor given commands to run (`vim -c '!rm x'`, `vim +'!…'`, `emacs --eval`) is opaque.
const editor: Wrapper = (words, at) =>
  words
    .slice(at + 1)
    .some((w) => !isStatic(w) || /^(?:\+|-[cSsu]$|--cmd$|-(?:-)?(?:eval|load|script|batch|l|x)(?:=|$))/.test(w.text))
    ? OPAQUE
    : NONE;

// `tmux ls`, `screen -ls` only look; anything else may start or type into a shell.
const tmux: Wrapper = (words, at) =>
  /^(?:ls|list-\w+|has-session|has|kill-server|kill-session|capture-pane|display-message|-V)$/.test(
    text(words[at + 1]) ?? '',
  ) || words.length === at + 1
    ? NONE
    : OPAQUE;
const screen: Wrapper = (words, at) =>
  words.length > at + 1 && words.slice(at + 1).every((w) => /^-(?:ls|list|v|version)$/.test(text(w) ?? ''))
    ? NONE
    : OPAQUE;

const sshAgent = simple({ flags: 'csDd', valued: 'aEPt' });

// With no command, these start a shell reading its input.
const orShell =
  (wrapper: Wrapper): Wrapper =>
  (words, at) => {
    const unwrap = wrapper(words, at);
    return unwrap.kind === 'none' ? OPAQUE : unwrap;
  };
const unshare = orShell(
  simple({
    flags: 'fcr',
    attached: 'muinpUCT',
    valued: 'RwSGl',
    long: {
      ...flagsOnly('fork', 'map-root-user', 'map-current-user', 'mount', 'uts', 'ipc', 'net', 'pid', 'user'),
      ...flagsOnly('cgroup', 'time', 'kill-child', 'mount-proc', 'keep-caps', 'map-auto'),
      ...valued('propagation', 'setgroups', 'root', 'wd', 'setuid', 'setgid', 'map-user', 'map-group'),
      ...valued('map-users', 'map-groups', 'load-interp', 'monotonic', 'boottime'),
    },
  }),
);
const nsenter = orShell(
  simple({
    flags: 'aFZ',
    attached: 'muinpUCTrw',
    valued: 'tSGe',
    long: {
      ...flagsOnly('all', 'mount', 'uts', 'ipc', 'net', 'pid', 'cgroup', 'user', 'time', 'root', 'wd'),
      ...flagsOnly('preserve-credentials', 'no-fork', 'follow-context'),
      ...valued('target', 'setuid', 'setgid', 'env'),
    },
  }),
);
const fakeroot = orShell(
  simple({ flags: 'uhv', valued: 'lsib', long: { ...valued('lib', 'faked'), ...flagsOnly('unknown-is-real') } }),
);

// `perf stat CMD`, `perf record CMD`, `perf trace CMD` run a command; its readers (`perf report`) run none.
const PERF_READERS = new Set(['report', 'list', 'annotate', 'top', 'diff', 'archive', 'evlist', 'buildid-list']);
const perf: Wrapper = (words, at) =>
  PERF_READERS.has(text(words[at + 1]) ?? '') || onlyAsksVersion(words, at) ? NONE : OPAQUE;

/** Opaque when some argument (or one not known statically) runs a program or loads code through `pattern`. */
const runsThrough =
  (pattern: RegExp): Wrapper =>
  (words, at) =>
    words.slice(at + 1).some((w) => !isStatic(w) || pattern.test(w.text)) ? OPAQUE : NONE;

/** The wrappers of this module, by command name (basename). */
export const MORE_WRAPPERS: readonly (readonly [string, Wrapper])[] = [
  ['strace', simple({ flags: 'cCdfFhiqrtTvVwxyzZ', valued: 'abeEIoOpPsSuUX' })],
  ['ltrace', simple({ flags: 'bCfhiLrStTV', valued: 'aAeEFlnopsuwx' })],
  ['valgrind', dashedOptionsThenCommand],
  // rlwrap's options that take a word, run a filter (`-z`) or type input (`-P`) are not listed: opaque.
  [
    'rlwrap',
    simple({
      flags: 'AcinNorRU',
      attached: 'amp',
      long: flagsOnly(
        'ansi-colour-aware',
        'complete-filenames',
        'case-insensitive',
        'no-warnings',
        'no-children',
        'one-shot',
        'renice',
        'remember',
        'mirror-arguments',
        'always-readline',
        'multi-line',
        'prompt-colour',
      ),
    }),
  ],
  ['catchsegv', simple({})],
  ['perf', perf],
  // `socat - EXEC:cmd`, `SYSTEM:code`; `fzf --preview cmd`, `--bind key:execute(cmd)`; an engine or
  // provider openssl loads; a PKCS#11 library ssh-keygen loads.
  ['socat', runsThrough(/(?:^|!!)(?:exec|system):/i)],
  ['fzf', runsThrough(/^--(?:preview|bind|with-shell|listen|listen-unsafe)(?:=|$)/)],
  ['openssl', runsThrough(/^-(?:engine|provider|provider-path)$/)],
  ['ssh-keygen', runsThrough(/^-[A-Za-z]*D/)],
  ['flock', flock],
  ['taskset', taskset],
  ['chrt', chrt],
  ['unshare', unshare],
  ['nsenter', nsenter],
  ['fakeroot', fakeroot],
  ['firejail', dashedOptionsThenCommand],
  ['xvfb-run', simple({ flags: 'al', valued: 'efnpsw' })],
  ['dbus-launch', dashedOptionsThenCommand],
  ['dbus-run-session', dashedOptionsThenCommand],
  ['ssh-agent', (words, at) => (words.slice(at + 1).some((w) => text(w) === '-k') ? NONE : sshAgent(words, at))],
  ['script', script],
  ['npx', (words, at) => npxFrom(words, at + 1)],
  ['bunx', (words, at) => npxFrom(words, at + 1)],
  ['npm', subcommand(['exec', 'x'], npxFrom)],
  ['pnpm', subcommand(['exec'], pnpmExec)],
  ['pnpx', (words, at) => npxFrom(words, at + 1)],
  ['yarn', subcommand(['exec', 'dlx'], yarnRun)],
  ['uv', subcommand(['run'], uvRun)],
  ['uvx', (words, at) => uvx(words, at + 1)],
  ['poetry', subcommand(['run'], poetryRun)],
  ['bundle', subcommand(['exec'], bundleExec)],
  ['nix-shell', nixShell],
  ['gdb', gdb],
  ['vim', editor],
  ['vi', editor],
  ['nvim', editor],
  ['view', editor],
  ['vimdiff', editor],
  ['emacs', editor],
  ['ex', opaque],
  ['ed', opaque],
  ['at', opaque],
  ['batch', opaque],
  ['parallel', opaque],
  ['tmux', tmux],
  ['screen', screen],
  ['csh', opaque],
  ['tcsh', opaque],
  ['pwsh', opaque],
  ['powershell', opaque],
  ['elvish', opaque],
  ['xonsh', opaque],
  ['nu', opaque],
];
