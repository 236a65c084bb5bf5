/**
 * Argument parsing with `node:util` `parseArgs`: the flags every session command shares, and a
 * wrapper that turns parse failures into {@link UsageError}s naming the flag.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import { UsageError } from './errors.js';
import { vibeTierFlags, type VibeTierModels } from './vibe-settings.js';

/** Flags of every command that opens a session. */
export const SESSION_FLAGS = {
  model: { type: 'string', short: 'm' },
  cwd: { type: 'string', short: 'C' },
  yolo: { type: 'boolean' },
  plan: { type: 'boolean' },
  vibe: { type: 'boolean' },
  'vibe-tier': { type: 'string', multiple: true },
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
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const message = (e as Error).message;
    const flag = /'(-[^']*)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined)
      throw new UsageError(
        `unknown option '${flag}'; a3s ${command} takes ${flagList(options)} (see 'a3s ${command} --help')`,
      );
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /argument missing/.test(message)) {
      const name = /--([a-z-]+)/.exec(message)?.[1];
      if (name !== undefined)
        throw new UsageError(`--${name} needs a value, e.g. --${name} <value>; see 'a3s ${command} --help'`);
    }
    throw new UsageError(`${message.replace(/^TypeError \[[A-Z_]+\]: /, '')}; see 'a3s ${command} --help'`);
  }
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
  },
  cwd: string,
): SessionFlags {
  const vibeTiers = vibeTierFlags(values['vibe-tier']);
  if (values.model !== undefined && values.model.trim() === '')
    throw new UsageError("--model: must be <provider>/<model> (see 'a3s models') or scripted:<file.json>");
  if (values.model !== undefined && /^scripted:\s*$/.test(values.model))
    throw new UsageError('--model: scripted: needs the script file, e.g. --model scripted:model.json');
  return {
    model: values.model,
    cwd: resolve(cwd, values.cwd ?? '.'),
    startedIn: cwd,
    yolo: values.yolo === true,
    plan: values.plan === true,
    vibe: values.vibe === true,
    ...(vibeTiers === undefined ? {} : { vibeTiers }),
  };
}
