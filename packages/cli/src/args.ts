/**
 * Argument parsing with `node:util` `parseArgs`: the flags every session command shares, and a
 * wrapper that turns parse failures into {@link UsageError}s naming the flag.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { closest } from './did-you-mean.js';
import { shellWord } from './shell-quote.js';
import { UsageError } from './errors.js';
import { tierModelProblem, vibeTierFlags, type VibeTierModels } from './vibe-settings.js';

/** Flags of every command that opens a session. */
export const SESSION_FLAGS = {
  model: { type: 'string', short: 'm' },
  cwd: { type: 'string', short: 'C' },
  yolo: { type: 'boolean' },
  plan: { type: 'boolean' },
  vibe: { type: 'boolean' },
  'vibe-tier': { type: 'string', multiple: true },
  'trust-workspace': { type: 'boolean' },
  'ignore-workspace-config': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** Help text of the session flags. */
export const SESSION_FLAGS_HELP = `  -m, --model <spec>   <provider>/<model> (openai/gpt-4o, anthropic/..., ollama/..., see a3s models)
                       | scripted:<file.json> (default: the config file's model, then A3S_MODEL)
  -C, --cwd <dir>      workspace folder (default: the current folder)
      --yolo           run tools that would ask for confirmation without asking (a deny stays final)
      --plan           plan mode: only read tools are visible and callable
      --vibe           vibe mode: the agent conducts background workers (vibe_spawn, vibe_wait, ...)
      --vibe-tier <tier>=<model>
                       the model of a vibe tier (fast, good), e.g. fast=openai/gpt-4o-mini;
                       repeatable; a tier without one uses the session's model
      --trust-workspace
                       let the folder's a3s.config.json start MCP servers, run hooks, let tools
                       run unasked, redirect a provider, choose the model or add to what it is
                       told, and its .a3s/agents files choose their models (asked once per folder
                       and content of those files)
      --ignore-workspace-config
                       leave the folder's a3s.config.json (or .a3s/config.json) out entirely: run
                       on your own settings in a folder you do not trust
  -h, --help           show this help`;

/** The session flags after parsing. */
export interface SessionFlags {
  readonly model: string | undefined;
  readonly cwd: string;
  /** The folder the command was started in: relative paths in flags (`scripted:<file>`) resolve against it. */
  readonly startedIn: string;
  readonly yolo: boolean;
  readonly plan: boolean;
  /** Vibe mode: the `vibe_*` tools and the session's roster of background workers. */
  readonly vibe?: boolean;
  /** The model of each vibe tier that has one (`--vibe-tier <tier>=<model>`). */
  readonly vibeTiers?: VibeTierModels;
  /**
   * Whether the person trusts the folder's config file (`--trust-workspace`); when set, a config
   * file that would run commands, widen permissions, choose the model or add to what it is told
   * needs it (see `workspace-trust.ts`). Unset: no CLI check, and the SDK's default applies (a
   * file that needs trust is refused with `WORKSPACE_UNTRUSTED`).
   */
  readonly trustWorkspace?: boolean;
  /** Leave the folder's config file out entirely (`--ignore-workspace-config`): no trust is asked. */
  readonly ignoreWorkspaceConfig?: boolean;
  /**
   * Asks the person whether they trust the folder (`what` lists what its config file would do);
   * set only where someone can answer (`a3s code` on a terminal). Without it, trust needs the flag.
   */
  readonly askTrust?: (what: string) => Promise<boolean>;
  /**
   * Shows a warning while the session opens (the folder's trust could not be remembered); a
   * command sets it to write on its stderr. Without it, the warning goes to `process.stderr`.
   */
  readonly warn?: (line: string) => void;
}

/** What {@link parse} returns for `options`. */
export type Parsed<O extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

/** The flags of `options` as they are typed (`--model, -m`), for error messages. */
function flagList(options: NonNullable<ParseArgsConfig['options']>): string {
  return Object.entries(options)
    .map(([name, o]) => `--${name}${o.type === 'string' ? ' <value>' : ''}`)
    .join(', ');
}

/**
 * Parses `args` with `options`; unknown flags and missing values are usage errors naming the flag
 * and, for an unknown one, the flags the command takes.
 */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: O,
  command: string,
): Parsed<O> {
  const argv = shortWithEquals(args, options);
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const message = (e as Error).message;
    let flag = /'(-[^']*)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
      // `-yolo` reads as the short flags -y -o -l -o: name the word typed, and the long flag it means.
      const word = flag.length === 2 ? argv.find((a) => a.startsWith(flag!) && a.length > 2) : undefined;
      if (word !== undefined) flag = word.split('=')[0]!;
      const typed = flag.replace(/^--?/, '').toLowerCase();
      const close = flag.startsWith('--') || word !== undefined ? closest(typed, Object.keys(options)) : undefined;
      // `a3s run "-fix"`: the word may be a prompt that starts with a dash; after `--` it is one.
      const typedWord = argv.find((a) => a === flag || a.startsWith(flag!)) ?? flag;
      // `a3s code --resume <id>`: sessions are reopened by a3s sessions, or continued by --session.
      const resume =
        typed === 'resume' && Object.hasOwn(options, 'session')
          ? ` (did you mean a3s sessions --resume <id>, or a3s ${command} --session <id>?)`
          : undefined;
      const asPrompt =
        command === 'run' && close === undefined && resume === undefined
          ? `; a prompt that starts with a dash goes after --: a3s run -- ${shellWord(typedWord)}`
          : '';
      throw new UsageError(
        `unknown option '${flag}'${resume ?? (close === undefined ? '' : ` (did you mean --${close}?)`)}; a3s ${command} takes ${flagList(options)}${asPrompt} (see 'a3s ${command} --help')`,
      );
    }
    // `--yolo=false`: a switch takes no value.
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /does not take an argument/.test(message) && flag) {
      throw new UsageError(
        `${flag} takes no value: it is a switch (${flag} turns it on; leave it out to keep it off); see 'a3s ${command} --help'`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /argument missing/.test(message)) {
      const name = /--([a-z-]+)/.exec(message)?.[1];
      if (name !== undefined)
        throw new UsageError(`--${name} needs a value, e.g. --${name} <value>; see 'a3s ${command} --help'`);
    }
    // `--max-message-bytes -5`: a value that starts with a dash is taken for a flag.
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /is ambiguous/.test(message)) {
      const name = /--([a-z-]+)/.exec(message)?.[1];
      const i = argv.findIndex((a) => a === `--${name}` || (a.length === 2 && options[name ?? '']?.short === a[1]));
      const value = i >= 0 ? argv[i + 1] : undefined;
      if (name !== undefined && value !== undefined)
        throw new UsageError(
          `--${name} ${value}: the value starts with a dash, so it reads as a flag; write --${name}=${value} if you mean it; see 'a3s ${command} --help'`,
        );
    }
    throw new UsageError(`${message.replace(/^TypeError \[[A-Z_]+\]: /, '')}; see 'a3s ${command} --help'`);
  }
}

/**
 * `-m=openai/gpt-4o` as `--model=openai/gpt-4o`: `parseArgs` would take `=openai/gpt-4o` as the
 * value. Only short flags that take a value, and only before a `--`.
 */
function shortWithEquals(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): readonly string[] {
  const end = args.indexOf('--');
  return args.map((a, i) => {
    const m = /^-([A-Za-z])=/.exec(a);
    if (m === null || (end >= 0 && i > end)) return a;
    const long = Object.entries(options).find(([, o]) => o.short === m[1] && o.type === 'string')?.[0];
    return long === undefined ? a : `--${long}=${a.slice(3)}`;
  });
}

/** Refuses positional arguments of a command that takes none. */
export function noPositionals(positionals: readonly string[], command: string, hint = ''): void {
  if (positionals.length > 0)
    throw new UsageError(
      `unexpected argument '${positionals[0]}'; a3s ${command} takes no arguments${hint}; see 'a3s ${command} --help'`,
    );
}

/** The session flags of parsed values, with `--cwd` resolved against `cwd`. */
export function sessionFlags(
  values: {
    model?: string | undefined;
    cwd?: string | undefined;
    yolo?: boolean | undefined;
    plan?: boolean | undefined;
    vibe?: boolean | undefined;
    'vibe-tier'?: string[] | undefined;
    'trust-workspace'?: boolean | undefined;
    'ignore-workspace-config'?: boolean | undefined;
  },
  cwd: string,
): SessionFlags {
  if (values['trust-workspace'] === true && values['ignore-workspace-config'] === true)
    throw new UsageError(
      "--trust-workspace and --ignore-workspace-config: give one (trust the folder's config file, or leave it out)",
    );
  const vibeTiers = vibeTierFlags(values['vibe-tier']);
  if (values.cwd !== undefined && values.cwd.trim() === '')
    throw new UsageError('--cwd: needs a folder, e.g. --cwd ./my-project (default: the current folder)');
  const workspace = resolve(cwd, values.cwd ?? '.');
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(`--cwd: '${workspace}' is not a folder`);
  if (values.model !== undefined) checkModelFlag(values.model, cwd);
  return {
    model: values.model,
    cwd: workspace,
    startedIn: cwd,
    yolo: values.yolo === true,
    plan: values.plan === true,
    vibe: values.vibe === true,
    ...(vibeTiers === undefined ? {} : { vibeTiers }),
    trustWorkspace: values['trust-workspace'] === true,
    ...(values['ignore-workspace-config'] === true ? { ignoreWorkspaceConfig: true } : {}),
  };
}

/**
 * Checks a model given as `--model <spec>` (or, with `label` `A3S_MODEL=`, in that variable)
 * before anything opens: `<provider>/<model>` with a known provider, or `scripted:<file>` naming a
 * file (relative to `startedIn`; not looked for when `checkScript` is false).
 * @throws UsageError naming the flag or variable, the value and what is allowed.
 */
export function checkModelFlag(spec: string, startedIn: string, checkScript = true, label = '--model '): void {
  const allowed = "allowed: <provider>/<model> (the providers: 'a3s models') or scripted:<file.json>";
  // A value that ends in a colon or holds spaces is quoted, so `scripted::` does not read as `scripted:::`.
  const named = /[:\s]$|\s/.test(spec) ? `${label}'${spec}'` : `${label}${spec}`;
  if (spec.trim() === '') throw new UsageError(`${label.trim()}: needs a model; ${allowed}`);
  if (!spec.startsWith('scripted:')) {
    const problem = tierModelProblem(spec);
    if (problem !== undefined)
      throw new UsageError(`${named}: ${problem}${problem.includes('allowed') ? '' : `; ${allowed}`}`);
    return;
  }
  const file = spec.slice('scripted:'.length).trim();
  if (file === '') throw new UsageError(`${named}: scripted: needs the script file, e.g. ${label}scripted:model.json`);
  if (!checkScript) return;
  const path = resolve(startedIn, file);
  if (!existsSync(path)) throw new UsageError(`${named}: no such script file (looked for ${path})`);
  if (statSync(path).isDirectory())
    throw new UsageError(`${named}: is a folder; allowed: a JSON script file ({ "turns": [...] })`);
}

/** The longest session id a session takes. */
const MAX_SESSION_ID = 1024;

/**
 * Checks `--session <id>` before anything opens.
 * @throws UsageError naming the flag and what is allowed.
 */
export function checkSessionFlag(id: string | undefined, command: string): void {
  if (id === undefined) return;
  if (id.trim() === '')
    throw new UsageError(
      `--session: needs a session id, e.g. --session fix-1 (1 to ${MAX_SESSION_ID} characters; 'a3s sessions' lists them); see 'a3s ${command} --help'`,
    );
  if (id.length > MAX_SESSION_ID)
    throw new UsageError(
      `--session: the id is ${id.length} characters long; allowed: 1 to ${MAX_SESSION_ID} characters`,
    );
}
