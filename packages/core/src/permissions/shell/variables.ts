/**
 * Environment variables that make a command run code not on its command line. Some load code
 * (`BASH_ENV`, `LD_PRELOAD`) or change git's configuration (`GIT_CONFIG_PARAMETERS`, the
 * `GIT_CONFIG_KEY_<n>` pairs): what runs cannot be known, so setting one is opaque. Others name
 * a command the program runs through a shell (`GIT_PAGER`, `EDITOR`, `GIT_SSH_COMMAND`): their
 * value is judged as shell code, so `GIT_PAGER='rm x' git log` meets `Bash(rm:*)` as `-c
 * core.pager='rm x'` does, while `GIT_PAGER=cat git log` stays a `cat`. `NODE_OPTIONS` (and
 * npm's `npm_config_node_options`) is opaque unless it holds only options known to load nothing;
 * npm's settings that choose code (`npm_config_prefix`, see `npm-options.ts`), cargo's settings
 * (`CARGO_TARGET_<triple>_RUNNER`, but for a few plain ones) and make's options other than a few
 * plain ones (`MAKEFLAGS=-j4`) are opaque.
 */
import { nodeOptionsLoadNothing, npmConfigVariableIsOpaque } from './npm-options.js';
import { HOLE, OPAQUE } from './shell-word.js';

/** Variables whose value makes a command load code that is not on its command line. */
export const CODE_INJECTING_VARIABLES: ReadonlySet<string> = new Set([
  'BASH_ENV',
  'ENV',
  'LD_PRELOAD',
  'LD_AUDIT',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'PROMPT_COMMAND',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  // bash's tables of aliases and of the paths of commands: a name set there runs something else.
  'BASH_ALIASES',
  'BASH_CMDS',
  // git's configuration from the environment: any `-c` it could carry (an alias with `!`, a pager, a filter).
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  // make's options and makefiles from the environment (`MAKEFILES` are read before the makefile).
  'MAKEFILES',
  // The compiler, its wrapper, and its flags (a linker to run, a plugin to load) cargo uses.
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER',
  'RUSTDOC',
  'RUSTFLAGS',
  'RUSTDOCFLAGS',
]);

// Exported shell functions (`BASH_FUNC_ls%%=() { rm x; }`) and git's numbered config pairs.
const CODE_INJECTING_PREFIX = /^(?:BASH_FUNC_|GIT_CONFIG_KEY_|GIT_CONFIG_VALUE_)/;

// cargo reads any of its settings from `CARGO_…` (`CARGO_TARGET_<triple>_RUNNER`,
// `CARGO_BUILD_RUSTC_WRAPPER`, `CARGO_HOME` and its configuration), but for these.
const CARGO_PLAIN =
  /^CARGO_(?:TERM_\w+|INCREMENTAL|TARGET_DIR|BUILD_JOBS|NET_OFFLINE|NET_RETRY|HTTP_TIMEOUT|LOG|PROFILE_\w+_(?:DEBUG|OPT_LEVEL|INCREMENTAL|CODEGEN_UNITS|LTO|PANIC|STRIP|OVERFLOW_CHECKS|DEBUG_ASSERTIONS))$/;

// make's options from the environment: a few that choose no program or makefile (`-j4`, `-s`, `-k`).
const MAKEFLAGS_PLAIN = /^[\s\-jkswrR0-9]*$/;

/** Variables whose value is a command line the program runs (through `sh -c`, or as a program). */
export const COMMAND_VARIABLES: ReadonlySet<string> = new Set([
  'PAGER',
  'MANPAGER',
  'GIT_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'BROWSER',
  'GIT_EXTERNAL_DIFF',
  'GIT_PROXY_COMMAND',
  'LESSOPEN',
  'LESSCLOSE',
]);

/**
 * The subjects setting `name` to `value` adds (`value` after quote removal, with holes): none for
 * an ordinary variable, `OPAQUE` for one that loads code, the judged command line for one that
 * names a command. `judge` judges shell code one level deeper.
 */
export function assignmentSubjects(
  name: string,
  value: string,
  judge: (code: string) => readonly string[],
): readonly string[] {
  if (CODE_INJECTING_VARIABLES.has(name) || CODE_INJECTING_PREFIX.test(name)) return [OPAQUE];
  if (name.startsWith('CARGO_') && !CARGO_PLAIN.test(name)) return [OPAQUE];
  if (/^(?:MAKEFLAGS|MFLAGS|GNUMAKEFLAGS)$/.test(name) && !MAKEFLAGS_PLAIN.test(value)) return [OPAQUE];
  // Node's options from the environment may preload any module, even one given as its code.
  if (name === 'NODE_OPTIONS' && !nodeOptionsLoadNothing(value)) return [OPAQUE];
  if (npmConfigVariableIsOpaque(name, value)) return [OPAQUE];
  if (!COMMAND_VARIABLES.has(name)) return [];
  if (value.includes(HOLE)) return [OPAQUE];
  // less runs `|cmd %s` / `||cmd %s` / `-cmd`; the marks are not part of the command.
  const code = name.startsWith('LESS') ? value.replace(/^(?:\|\|?|-)/, '') : value;
  return code.trim() === '' ? [] : judge(code);
}
