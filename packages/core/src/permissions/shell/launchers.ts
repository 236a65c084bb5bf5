/**
 * Programs that launch the command after their options: `chronic`, `eatmydata`, `faketime`,
 * `numactl`, `prlimit`, `schedtool -e`, `torsocks`, `proxychains`, `tsocks`; the runners of
 * language environments (`conda run`, `pipenv run`, `pdm run`, `hatch run`, `rye run`,
 * `direnv exec`, `bun x`); and launchers whose command the judge cannot read (`sem`, `mpirun`,
 * `srun`, `capsh`, `runcon`). Options are read strictly: one not listed makes the command opaque.
 */
import { scanOptions } from './command-options.js';
import { isStatic } from './shell-word.js';
import { commandAt, flagsOnly, OPAQUE, simple, type Wrapper, valued } from './wrapper-kit.js';
import { npxFrom, opaque, subcommand } from './more-wrappers.js';

// `schedtool [options] -e command…`: without `-e` it works on running processes.
const schedtool: Wrapper = (words, at) => {
  for (let i = at + 1; i < words.length; i++) {
    if (!isStatic(words[i]!)) return OPAQUE;
    if (words[i]!.text === '-e') return commandAt(words, i + 1);
  }
  return { kind: 'none' };
};

// `conda run [-n env | -p prefix] [--cwd dir] command…`.
const condaRun = (words: Parameters<Wrapper>[0], from: number) => {
  const scan = scanOptions(words, from, {
    flags: 'vq',
    valued: 'np',
    long: {
      ...flagsOnly('no-capture-output', 'live-stream', 'dev', 'debug-wrapper-scripts'),
      ...valued('name', 'prefix', 'cwd'),
    },
  });
  return scan.kind === 'unknown' ? OPAQUE : commandAt(words, scan.next);
};

const plainFrom = (words: Parameters<Wrapper>[0], from: number) => {
  const scan = scanOptions(words, from, {});
  return scan.kind === 'unknown' ? OPAQUE : commandAt(words, scan.next);
};

/** The name the dynamic loader is judged by, whatever its file is called (`ld-linux-x86-64.so.2`). */
export const LOADER = 'ld.so';

/** `base` when it is not the dynamic loader's name, else {@link LOADER}. */
export function launcherName(base: string): string {
  return /^ld(?:-linux(?:-[\w-]+)?|-musl-[\w-]+)?\.so(?:\.\d+)*$/.test(base) ? LOADER : base;
}

/** The launchers, by command name. */
export const LAUNCHERS: readonly (readonly [string, Wrapper])[] = [
  // The dynamic loader runs the program it is given (`ld-linux-x86-64.so.2 /usr/bin/curl …`).
  [
    LOADER,
    simple({
      long: {
        ...flagsOnly('list', 'verify', 'inhibit-cache', 'list-tunables', 'list-diagnostics', 'help', 'version'),
        ...valued('library-path', 'inhibit-rpath', 'audit', 'preload', 'argv0', 'glibc-hwcaps-prefix'),
      },
    }),
  ],
  ['chronic', simple({ flags: 'ev' })],
  ['eatmydata', simple({})],
  ['faketime', simple({ flags: 'mf', long: flagsOnly('exclude-monotonic', 'disable-shm') }, 1)],
  [
    'numactl',
    simple({
      flags: 'albsHt',
      valued: 'ipPwCNm',
      long: {
        ...flagsOnly('all', 'localalloc', 'balancing', 'show', 'hardware', 'touch', 'strict'),
        ...valued(
          'interleave',
          'preferred',
          'preferred-many',
          'weighted-interleave',
          'physcpubind',
          'cpunodebind',
          'membind',
        ),
      },
    }),
  ],
  [
    'prlimit',
    simple({
      attached: 'cdefilmnqrstuvxy',
      valued: 'po',
      long: {
        ...flagsOnly(
          'noheadings',
          'raw',
          'verbose',
          'core',
          'data',
          'nice',
          'fsize',
          'sigpending',
          'memlock',
          'rss',
          'nofile',
          'msgqueue',
          'rtprio',
          'stack',
          'cpu',
          'nproc',
          'as',
          'locks',
          'rttime',
        ),
        ...valued('pid', 'output'),
      },
    }),
  ],
  ['schedtool', schedtool],
  // `--shell` starts a shell that reads its input; it is not listed, so it is opaque.
  ['torsocks', simple({ flags: 'idq', valued: 'upaP', long: valued('user', 'pass', 'address', 'port') })],
  ['proxychains', simple({ flags: 'q', valued: 'f' })],
  ['proxychains4', simple({ flags: 'q', valued: 'f' })],
  ['tsocks', simple({})],
  ['conda', subcommand(['run'], condaRun)],
  ['pipenv', subcommand(['run'], plainFrom)],
  ['pdm', subcommand(['run'], plainFrom)],
  ['hatch', subcommand(['run'], plainFrom)],
  ['rye', subcommand(['run'], plainFrom)],
  ['direnv', subcommand(['exec'], (words, from) => commandAt(words, from + 1))],
  ['bun', subcommand(['x'], npxFrom)],
  ['sem', opaque],
  ['mpirun', opaque],
  ['mpiexec', opaque],
  ['srun', opaque],
  ['capsh', opaque],
  ['runcon', opaque],
];
