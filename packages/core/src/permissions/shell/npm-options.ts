/**
 * Options of npm, pnpm and yarn that choose code or configuration a command such as `npm test`
 * runs with, beyond the package's own scripts: `--node-options` (Node's options for each script,
 * which may preload any module, even one given as its code), `--prefix` or `-C` (another folder's
 * `package.json`), `--userconfig` and `--globalconfig` (a configuration file, which may set any of
 * these), `--init-module`, the programs npm starts (`--editor`, `--browser`, `--viewer`, `--git`,
 * `--node-gyp`), pnpm's `--dir`, `--pnpmfile` and `--config.KEY`, yarn's `--cwd` and
 * `--use-yarnrc`. npm reads an option however it is written: with one dash or two, cut short to
 * a prefix (`--node-opt`), and is read here more generously still (`_` for `-`, camelCase, any
 * case). Such an option makes the command opaque, except `--node-options` whose value holds only
 * options of Node known to load nothing. The same settings given by environment variables
 * (`npm_config_node_options=…`) are read by `npmConfigVariableIsOpaque`.
 */

import { mayBeOption } from './exec-options.js';
import { isStatic, type ShellWord } from './shell-word.js';

/** The settings of npm that choose code, a configuration, or a program npm starts. */
const NPM: readonly string[] = [
  'node-options',
  'prefix',
  'userconfig',
  'globalconfig',
  'init-module',
  'onload-script',
  'editor',
  'browser',
  'viewer',
  'git',
  'node-gyp',
  'script-shell',
  'shell',
];
const PNPM: readonly string[] = [...NPM, 'dir', 'pnpmfile', 'global-pnpmfile', 'npm-path', 'use-node-version'];
const YARN: readonly string[] = ['cwd', 'use-yarnrc', 'yarn-path', 'rc-filename', 'prefix'];

// Options of their own that a prefix of one of the settings above may also name exactly.
const OTHER_OPTIONS = new Set(['global']);

const TABLE: ReadonlyMap<string, readonly string[]> = new Map([
  ['npm', NPM],
  ['pnpm', PNPM],
  ['yarn', YARN],
]);

/** Node options known to load no code and start no program, as `NODE_OPTIONS` may carry them. */
const PLAIN_NODE_OPTION =
  /^--(?:max-old-space-size=\d+|max-semi-space-size=\d+|stack-size=\d+|stack-trace-limit=\d+|max-http-header-size=\d+|enable-source-maps|no-warnings|no-deprecation|trace-warnings|trace-deprecation|trace-uncaught|trace-exit|throw-deprecation|pending-deprecation|preserve-symlinks|expose-gc|openssl-legacy-provider|experimental-vm-modules|unhandled-rejections=(?:strict|warn|none|throw|warn-with-error-code)|dns-result-order=(?:ipv4first|ipv6first|verbatim))$/;

/**
 * True when `value`, as Node reads `NODE_OPTIONS`, holds only options known to load nothing
 * (`--max-old-space-size=4096`); a quote, an escape or an expansion makes it unknown.
 */
export function nodeOptionsLoadNothing(value: string): boolean {
  if (/["'\\$`]/.test(value) || /[^\x20-\x7e\t]/.test(value)) return false;
  return value
    .split(/\s+/)
    .filter((w) => w !== '')
    .every((w) => PLAIN_NODE_OPTION.test(w));
}

// A setting's name as npm may spell it, in one spelling: `nodeOptions`, `NODE_OPTIONS`, `node-options`.
function settingName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replaceAll('_', '-');
}

// The setting of `settings` a long option's name (without dashes) may stand for, cut short or not.
function settingOf(name: string, settings: readonly string[]): string | undefined {
  let n = settingName(name);
  while (n.startsWith('no-')) n = n.slice(3);
  if (n === '' || OTHER_OPTIONS.has(n)) return undefined;
  if (n.startsWith('config.')) return 'config';
  return settings.find((s) => s === n) ?? settings.find((s) => s.startsWith(n));
}

/**
 * Whether the npm, pnpm or yarn command `base` with arguments `args` may run code chosen by its options (see the module comment); `false`
 * for another command. `--script-shell` and `--shell` written so are judged elsewhere as the shell
 * code they are (`exec-options.ts`).
 */
export function packageManagerOptionsAreOpaque(base: string, args: readonly ShellWord[]): boolean {
  const settings = TABLE.get(base);
  if (settings === undefined) return false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!.text;
    if (word === '--') break;
    // A word made at run time where an option may stand may be any of them.
    if (mayBeOption(args[i]!)) return true;
    if (!word.startsWith('-') || word === '-') continue;
    // `-C DIR` is npm's `--prefix` and pnpm's `--dir`, alone or among other letters.
    if (/^-[A-Za-z]+$/.test(word) && word.includes('C') && base !== 'yarn') return true;
    if (/^-[^-]$/.test(word)) continue;
    const eq = word.indexOf('=');
    const key = eq === -1 ? word : word.slice(0, eq);
    const setting = settingOf(key.replace(/^-+/, ''), settings);
    if (setting === undefined || key === '--script-shell' || key === '--shell') continue;
    if (setting !== 'node-options') return true;
    if (/^-+no-/i.test(key)) continue;
    const value = eq === -1 ? args[++i] : { ...args[i]!, text: word.slice(eq + 1) };
    if (value !== undefined && !(isStatic(value) && nodeOptionsLoadNothing(value.text))) return true;
  }
  return false;
}

/**
 * Whether setting the environment variable `name` to `value` gives npm or pnpm one of the
 * settings above (`npm_config_node_options`, `NPM_CONFIG_PREFIX`, `pnpm_config_dir`), so that
 * what a later `npm test` runs is not on its command line.
 */
export function npmConfigVariableIsOpaque(name: string, value: string): boolean {
  const m = /^p?npm_config_(.+)$/i.exec(name);
  if (m === null) return false;
  const setting = settingName(m[1]!);
  if (setting.startsWith('config.')) return true;
  if (setting === 'node-options') return !nodeOptionsLoadNothing(value);
  return PNPM.includes(setting);
}
