/**
 * `a3s init`: writes a starter `a3s.config.json` into the workspace, with `$schema` pointing at the
 * JSON Schema `@a3s-code/core` ships (`dist/config.schema.json`, on disk: the workspace's own copy,
 * else the one this command runs with) so editors complete and check it.
 * An existing config file (`a3s.config.json`, else `.a3s/config.json`) is never overwritten
 * without `--force`, and with it that file is overwritten in place.
 */
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { A3sError } from '@a3s-code/effect';
import { CONFIG_FILE_NAMES, CONFIG_SCHEMA_FILE, parseCodeConfig } from '@a3s-code/core';
import { describeProviders, trustNeeds } from '@a3s-code/sdk';
import { checkModelFlag, parse } from '../args.js';
import { danglingConfigLink } from '../config-path.js';
import { shellWord } from '../shell-quote.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { recordTrust } from '../workspace-trust.js';

/** Help of `a3s init`. */
export const INIT_HELP = `Usage: a3s init [options]

Writes a starter a3s.config.json into the workspace: $schema (for editor completion), the model,
and empty permission lists. A workspace that already has a config file (a3s.config.json, else
.a3s/config.json) keeps it: --force overwrites that file in place. The model a command uses is
--model first, then the config file's model, then A3S_MODEL. A model in a folder's config file
needs the folder to be trusted (see --trust-workspace); the file a3s init writes is recorded as
trusted, until it changes.

Options:
  -m, --model <spec>   the model to write (default: A3S_MODEL, else the first provider whose key
                       is set); a scripted:<file> path is relative to the current folder (written
                       relative to the config file's folder)
  -C, --cwd <dir>      workspace folder (default: the current folder)
      --force          overwrite the workspace's existing config file (the one a3s reads)
  -h, --help           show this help`;

/**
 * Why the config file could not be written, in plain words, with the way out: the file's own
 * permissions when the folder is writable and the file is there, else the folder's.
 */
function unwritable(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if ((code === 'EACCES' || code === 'EPERM') && existsSync(path) && writable(dirname(path)))
    return `cannot write ${path}: permission denied on the file itself (its folder is writable): make it writable (chmod u+w ${shellWord(path)}) and run a3s init --force again, or remove it first`;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'EROFS'
        ? 'the file system is read-only'
        : (e as Error).message;
  return `cannot write ${path}: ${why}; run a3s init in a folder you can write to, or pass --cwd <dir>`;
}

/** Whether this process may create files in `folder`. */
function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where the schema of the `@a3s-code/core` this command runs with is on disk. */
function ownSchema(): string {
  const pkg = createRequire(import.meta.url).resolve('@a3s-code/core/package.json');
  return join(dirname(pkg), 'dist', CONFIG_SCHEMA_FILE);
}

/** Whether `path` lies inside `folder`. */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The `$schema` of a config file in `folder` of `workspace`: a relative path to the schema of the
 * `@a3s-code/core` installed in the workspace (`node_modules/@a3s-code/core`: works offline,
 * follows upgrades), else to `own` (the schema of the core this command runs with) when that lies
 * inside the workspace, else `own` as a `file://` URL, which editors read from the disk.
 */
export function schemaReference(workspace: string, folder: string, own: string): string {
  const installed = join(workspace, 'node_modules', '@a3s-code', 'core', 'dist', CONFIG_SCHEMA_FILE);
  const target = existsSync(installed) ? installed : inside(workspace, own) ? own : undefined;
  if (target === undefined) return pathToFileURL(own).href;
  const rel = relative(folder, target).split(sep).join('/');
  return rel.startsWith('../') ? rel : `./${rel}`;
}

/** A sensible default model for this environment, if any provider's key is set. */
function defaultModel(env: Io['env'], cwd: string): string | undefined {
  if (env.A3S_MODEL) {
    checkModelFlag(env.A3S_MODEL, cwd, true, 'A3S_MODEL=');
    return env.A3S_MODEL;
  }
  const examples: Record<string, string> = { openai: 'openai/gpt-4o', anthropic: 'anthropic/claude-sonnet-4-20250514' };
  for (const p of describeProviders())
    if (p.keyEnv !== undefined && env[p.keyEnv] && examples[p.name]) return examples[p.name];
  return undefined;
}

/**
 * The model as the file in `folder` must say it: a `scripted:` path typed relative to the folder
 * the command started in (`startedIn`) is rewritten relative to the file's folder, against which
 * the file's paths resolve.
 */
function fileModel(model: string | undefined, startedIn: string, folder: string): string | undefined {
  if (model === undefined || !model.startsWith('scripted:')) return model;
  const script = resolve(startedIn, model.slice('scripted:'.length).trim());
  const rel = relative(folder, script);
  return `scripted:${isAbsolute(rel) ? rel : rel.split(sep).join('/')}`;
}

/** Runs `a3s init`. */
export async function initCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      model: { type: 'string', short: 'm' },
      cwd: { type: 'string', short: 'C' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'init',
  );
  if (values.help) {
    io.stdout.write(`${INIT_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'; see 'a3s init --help'`);
  if (values.model !== undefined) checkModelFlag(values.model, io.cwd);
  const workspace = resolve(io.cwd, values.cwd ?? '.');
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(`--cwd: '${workspace}' is not a folder`);
  // A config file that is a link to nothing: writing through it would fail, or create its target.
  for (const name of CONFIG_FILE_NAMES) {
    const dangling = danglingConfigLink(join(workspace, name));
    if (dangling !== undefined) throw new UsageError(dangling);
  }
  const first = join(workspace, CONFIG_FILE_NAMES[0]!);
  if (existsSync(first) && statSync(first).isDirectory())
    throw new UsageError(`${first} is a folder, not a file; remove or rename it, then run a3s init again`);
  // The file a3s reads (the first of the names that exists) is the one refused or overwritten:
  // a second file beside it would shadow it, or be shadowed, without a word.
  const existing = CONFIG_FILE_NAMES.map((n) => join(workspace, n)).filter((p) => existsSync(p));
  const path = existing[0] ?? first;
  const shadowed = existing.slice(1);
  const unread =
    shadowed.length === 0 ? '' : `; ${shadowed.join(' and ')} is also there, and is not read while ${path} exists`;
  if (existing.length > 0 && values.force !== true)
    throw new UsageError(
      `${path} already exists (it is the workspace's config file); pass --force to overwrite it${unread}`,
    );
  // The file's relative paths (`$schema`, a `scripted:` model) resolve against its own folder.
  const folder = dirname(path);
  const model = fileModel(values.model ?? defaultModel(io.env, io.cwd), io.cwd, folder);
  const config = {
    $schema: schemaReference(workspace, folder, ownSchema()),
    ...(model === undefined ? {} : { model }),
    permissions: { allow: [] as string[], ask: [] as string[], deny: [] as string[] },
  };
  parseCodeConfig(config, 'the config to write');
  try {
    writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  } catch (e) {
    throw new A3sError('CONFIG_WRITE', unwritable(path, e), { cause: e, details: { path } });
  }
  io.stdout.write(`wrote ${path}\n`);
  // The model was the person's choice: a later run does not ask whether to trust the file for it.
  if (trustNeeds(config).length > 0)
    try {
      recordTrust(workspace, path, io.env);
    } catch (e) {
      io.stdout.write(`note: ${(e as Error).message}; the first run asks whether to trust this folder\n`);
    }
  if (shadowed.length > 0) io.stdout.write(`note: ${unread.slice(2)}; remove it to keep one config file\n`);
  if (model === undefined)
    io.stdout.write(
      `no model set: add "model": "openai/<model>" (or another provider; see a3s models), or set A3S_MODEL\n`,
    );
  const preset = describeProviders().find((p) => model?.startsWith(`${p.name}/`));
  if (preset?.keyEnv !== undefined && preset.keyRequired && !io.env[preset.keyEnv])
    io.stdout.write(
      `note: ${preset.keyEnv} is not set; export it before a3s run or a3s code (a3s models shows the variables)\n`,
    );
  return EXIT.ok;
}
