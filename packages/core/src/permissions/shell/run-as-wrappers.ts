/**
 * Commands that run another command as another user, group or in another sandbox or schedule:
 * `runuser -u`, `setpriv`, `pkexec`, `sg`, `cpulimit`, and programs that start or queue a command
 * with options too many to read (`systemd-run`, `bwrap`, `proot`, `docker run`, `entr`, …), which
 * are opaque. As elsewhere, an option a wrapper here does not know makes the command opaque.
 */
import { scanOptions } from './command-options.js';
import { isStatic, type ShellWord } from './shell-word.js';
import { opaque } from './more-wrappers.js';
import { commandAt, flagsOnly, NONE, OPAQUE, optionValue, shellCode, type Wrapper, valued } from './wrapper-kit.js';

const text = (w: ShellWord | undefined): string | undefined => (w !== undefined && isStatic(w) ? w.text : undefined);

// `runuser -u user [--] command…`; the other form (`runuser user [-c code]`) starts a login shell.
const runuser: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, {
    flags: 'lfmpP',
    valued: 'ugGcsw',
    long: {
      ...flagsOnly('login', 'fast', 'preserve-environment', 'pty'),
      ...valued('user', 'group', 'supp-group', 'command', 'session-command', 'shell', 'whitelist-environment'),
    },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  const code = optionValue(scan, ['c', 'command', 'session-command']);
  if (code !== undefined) return shellCode(code);
  if (!scan.seen.has('u') && !scan.seen.has('user')) return OPAQUE;
  const command = commandAt(words, scan.next);
  return command.kind === 'none' ? OPAQUE : command;
};

const setpriv: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, {
    flags: 'dLVh',
    long: {
      ...flagsOnly('clear-groups', 'keep-groups', 'init-groups', 'nnp', 'no-new-privs', 'reset-env', 'dump'),
      ...flagsOnly('list-caps', 'help', 'version'),
      ...valued('reuid', 'regid', 'ruid', 'euid', 'rgid', 'egid', 'groups', 'inh-caps', 'ambient-caps'),
      ...valued('bounding-set', 'securebits', 'pdeathsig', 'selinux-label', 'apparmor-profile'),
      ...valued('landlock-access', 'landlock-rule', 'seccomp-filter'),
    },
  });
  return scan.kind === 'unknown' ? OPAQUE : commandAt(words, scan.next);
};

// With no program, pkexec starts a root shell.
const pkexec: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, {
    long: { ...valued('user'), ...flagsOnly('disable-internal-agent', 'keep-cwd', 'help', 'version') },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  if (scan.seen.has('help') || scan.seen.has('version')) return NONE;
  const command = commandAt(words, scan.next);
  return command.kind === 'none' ? OPAQUE : command;
};

// `sg group [-c] 'command'` hands the command line to `/bin/sh -c`; with none it starts a shell.
const sg: Wrapper = (words, at) => {
  let i = at + 1;
  if (text(words[i]) === '-') i++;
  if (words[i] === undefined) return NONE;
  if (text(words[i])?.startsWith('-') === true) return text(words[i]) === '--help' ? NONE : OPAQUE;
  i++;
  if (text(words[i]) === '-c') i++;
  const rest = words.slice(i);
  if (rest.length === 0) return OPAQUE;
  return rest.every(isStatic) ? shellCode(rest.map((w) => w.text).join(' ')) : OPAQUE;
};

// `cpulimit -l 50 command…`; with `-p pid` or `-e exe` it limits a running process.
const cpulimit: Wrapper = (words, at) => {
  const scan = scanOptions(words, at + 1, {
    flags: 'zibqvkrh',
    valued: 'lpePm',
    long: {
      ...flagsOnly('lazy', 'include-children', 'background', 'quiet', 'verbose', 'kill', 'restore', 'help'),
      ...valued('limit', 'pid', 'exe', 'path', 'cpu', 'signal'),
    },
  });
  if (scan.kind === 'unknown') return OPAQUE;
  if (['p', 'pid', 'e', 'exe', 'P', 'path', 'h', 'help'].some((o) => scan.seen.has(o))) return NONE;
  return commandAt(words, scan.next);
};

// `docker run …` and friends start a command (in a container that may mount this workspace).
const container: Wrapper = (words, at) =>
  /^(?:run|exec|create|compose|container)$/.test(text(words[at + 1]) ?? 'run') ? opaque(words, at) : NONE;

/** The wrappers of this module, by command name (basename). */
export const RUN_AS_WRAPPERS: readonly (readonly [string, Wrapper])[] = [
  ['runuser', runuser],
  ['setpriv', setpriv],
  ['pkexec', pkexec],
  ['sg', sg],
  ['newgrp', (words, at) => (words.length > at + 1 && text(words[at + 1]) === '--help' ? NONE : OPAQUE)],
  ['cpulimit', cpulimit],
  ['systemd-run', opaque],
  ['systemd-nspawn', opaque],
  ['bwrap', opaque],
  ['proot', opaque],
  ['chpst', opaque],
  ['daemonize', opaque],
  ['start-stop-daemon', opaque],
  ['tsp', opaque],
  ['entr', opaque],
  ['run-one', opaque],
  ['flatpak-spawn', opaque],
  ['distrobox-enter', opaque],
  ['expect', opaque],
  ['tclsh', opaque],
  ['wish', opaque],
  ['m4', opaque],
  ['dc', opaque],
  ['gnuplot', opaque],
  ['docker', container],
  ['podman', container],
  ['nerdctl', container],
];
