/**
 * `a3s models`: every provider id, the environment variables it reads, and whether each is set
 * (never a value), plus the model the workspace would use and where that choice came from.
 * `providers.<p>.apiKeyEnv` / `baseUrl` of the workspace's config file are taken into account.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { findConfigFile, loadCodeConfig, terminalText, type CodeConfig } from '@a3s-code/core';
import { describeProviders, type ProviderDescription } from '@a3s-code/sdk';
import { checkModelFlag, parse } from '../args.js';
import { checkConfigPaths, ignoredConfigWarnings } from '../config-path.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { styleFor } from '../style.js';

/** Help of `a3s models`. */
export const MODELS_HELP = `Usage: a3s models [options]

Lists the model providers, the environment variables each reads (API key, base URL) and whether
they are set (values are never printed), and the model this workspace would use; exits with 2
when --model, A3S_MODEL or the config file names a model a3s run would refuse (misspelled, or
its provider's key or base URL not set; the reason is printed last). The models of the config
file's vibe tiers are checked too: one a session could not use is reported, and exits with 2 while
vibe mode starts on (with "enabled": false, only the first vibe_* call after --vibe or /vibe on
would fail).

Options:
  -m, --model <spec>   show this model as the one in use (as a3s run --model would)
  -C, --cwd <dir>      workspace folder whose a3s.config.json applies (default: the current folder)
      --json           print the list as JSON
  -h, --help           show this help`;

/** One provider as listed. */
export interface ProviderRow {
  readonly provider: string;
  readonly family: string;
  /** The key variable (the config file's `apiKeyEnv` when it names one), or `null` when none is read. */
  readonly keyEnv: string | null;
  readonly keyRequired: boolean;
  readonly keySet: boolean;
  /** The default base URL, or `null` when one must be configured. */
  readonly defaultBaseUrl: string | null;
  readonly baseUrlEnv: string;
  readonly baseUrlEnvSet: boolean;
  /** Whether the config file sets `providers.<p>.baseUrl`. */
  readonly baseUrlInConfig: boolean;
}

function row(p: ProviderDescription, config: CodeConfig, env: Io['env']): ProviderRow {
  const settings = config.providers?.[p.name];
  const keyEnv = settings?.apiKeyEnv ?? p.keyEnv ?? null;
  return {
    provider: p.name,
    family: p.family,
    keyEnv,
    keyRequired: p.keyRequired || settings?.apiKeyEnv !== undefined,
    keySet: keyEnv !== null && Boolean(env[keyEnv]),
    defaultBaseUrl: p.defaultBaseUrl ?? null,
    baseUrlEnv: p.baseUrlEnv,
    baseUrlEnvSet: Boolean(env[p.baseUrlEnv]),
    baseUrlInConfig: settings?.baseUrl !== undefined,
  };
}

/** Runs `a3s models`. */
export async function modelsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      model: { type: 'string', short: 'm' },
      cwd: { type: 'string', short: 'C' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'models',
  );
  if (values.help) {
    io.stdout.write(`${MODELS_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'; see 'a3s models --help'`);
  if (values.model !== undefined) checkModelFlag(values.model, io.cwd);
  const workspace = resolve(io.cwd, values.cwd ?? '.');
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(`--cwd: '${workspace}' is not a folder`);
  checkConfigPaths(workspace);
  const warning = styleFor(io.stderr, io.env);
  for (const line of await ignoredConfigWarnings(workspace)) io.stderr.write(`${warning.yellow(terminalText(line))}\n`);
  const file = await findConfigFile(workspace);
  const config = file === undefined ? {} : await loadCodeConfig(file);
  const rows = describeProviders().map((p) => row(p, config, io.env));
  const fileModel = typeof config.model === 'string' ? config.model : undefined;
  const current =
    values.model !== undefined
      ? { model: values.model, from: '--model' }
      : fileModel !== undefined
        ? { model: fileModel, from: file! }
        : io.env.A3S_MODEL
          ? { model: io.env.A3S_MODEL, from: 'A3S_MODEL' }
          : null;
  // A3S_MODEL (and the config file's script) is checked as every session command checks it: a
  // typo or a missing script file is named here too.
  const spelled =
    current?.from === 'A3S_MODEL'
      ? modelProblem(current.model, io.cwd, 'A3S_MODEL=')
      : current !== null && current.from === file
        ? modelProblem(current.model, workspace, `"model" in ${file}: `)
        : undefined;
  const problem = spelled ?? (current === null ? undefined : readinessProblem(current.model, rows));
  const tiers = file === undefined ? [] : vibeTierRows(config, file, rows);
  // A tier that cannot be used stops every session command only while vibe mode starts on.
  const refused = problem !== undefined || tiers.some((t) => t.problem !== undefined && t.vibeOn);
  if (values.json) {
    const model = current === null ? null : { ...current, ...(problem === undefined ? {} : { problem }) };
    io.stdout.write(
      `${JSON.stringify({ model, providers: rows, ...(tiers.length === 0 ? {} : { vibeTiers: tiers }) })}\n`,
    );
    return refused ? EXIT.usage : EXIT.ok;
  }
  const style = styleFor(io.stdout, io.env);
  const width = Math.max(...rows.map((r) => r.provider.length)) + 2;
  io.stdout.write(style.bold(`${'provider'.padEnd(width)}${'API key'.padEnd(36)}base URL\n`));
  for (const r of rows) {
    const key =
      r.keyEnv === null
        ? style.dim('none needed')
        : `${r.keyEnv} ${r.keySet ? style.green('set') : r.keyRequired ? style.red('not set') : style.dim('not set (optional)')}`;
    const keyWidth =
      r.keyEnv === null
        ? 'none needed'.length
        : `${r.keyEnv} ${r.keySet ? 'set' : r.keyRequired ? 'not set' : 'not set (optional)'}`.length;
    const base = r.baseUrlInConfig
      ? `from ${file}`
      : r.baseUrlEnvSet
        ? `${r.baseUrlEnv} ${style.green('set')}`
        : r.defaultBaseUrl !== null
          ? `${r.defaultBaseUrl} ${style.dim(`(${r.baseUrlEnv} overrides)`)}`
          : `${r.baseUrlEnv} ${style.red('not set (required)')}`;
    io.stdout.write(`${r.provider.padEnd(width)}${key}${' '.repeat(Math.max(1, 36 - keyWidth))}${base}\n`);
  }
  io.stdout.write(
    `${'scripted'.padEnd(width)}${style.dim('offline: --model scripted:<file.json> plays back a script (see the @a3s-code/core README)')}\n`,
  );
  io.stdout.write(
    current === null
      ? `model: none configured (use --model <provider>/<model>, "model" in a3s.config.json, or A3S_MODEL)\n`
      : `model: ${terminalText(current.model)} (from ${current.from})\n`,
  );
  for (const t of tiers)
    io.stdout.write(
      `vibe tier ${t.tier}: ${terminalText(t.model)} (from ${t.from}${t.vibeOn ? '' : '; vibe mode starts off'})\n`,
    );
  if (problem !== undefined) io.stdout.write(style.red(`${terminalText(problem)}\n`));
  for (const t of tiers) if (t.problem !== undefined) io.stdout.write(style.red(`${terminalText(t.problem)}\n`));
  return refused ? EXIT.usage : EXIT.ok;
}

/** A vibe tier the config file names a model for, and why a session could not use it. */
interface VibeTierRow {
  readonly tier: 'fast' | 'good';
  readonly model: string;
  readonly from: string;
  /** Whether vibe mode starts on (so a session command would refuse a tier it cannot use). */
  readonly vibeOn: boolean;
  readonly problem?: string;
}

/**
 * The tiers of the config file's `vibe` that name a model, each checked as a session resolves it:
 * when vibe mode starts on, a session command refuses one it cannot use; when it starts off, the
 * first `vibe_*` call after `--vibe` or `/vibe on` fails instead.
 */
function vibeTierRows(config: CodeConfig, file: string, rows: readonly ProviderRow[]): VibeTierRow[] {
  const vibe = config.vibe;
  if (typeof vibe !== 'object' || vibe === null) return [];
  const vibeOn = vibe.enabled !== false;
  const out: VibeTierRow[] = [];
  for (const tier of ['fast', 'good'] as const) {
    const model = vibe.tiers?.[tier];
    if (typeof model !== 'string') continue;
    const field = `vibe.tiers.${tier} (in ${file}): `;
    const when = vibeOn
      ? 'a3s run would refuse it'
      : 'vibe mode starts off, so only turning it on (--vibe, /vibe on) would fail';
    const spelled = modelProblem(model, dirname(file), field);
    const ready = spelled === undefined ? readinessProblem(model, rows) : undefined;
    const problem =
      spelled !== undefined
        ? `${spelled} (${when})`
        : ready === undefined
          ? undefined
          : `${field}${model}: ${ready.replace(', so a3s run would refuse this model:', `; ${when}:`)}`;
    out.push({ tier, model, from: file, vibeOn, ...(problem === undefined ? {} : { problem }) });
  }
  return out;
}

/**
 * Why a session could not call the model `spec` names even though it is spelled right: its
 * provider's key or base URL is not set. `undefined` when both are (or the provider is not listed).
 */
function readinessProblem(spec: string, rows: readonly ProviderRow[]): string | undefined {
  const r = rows.find((p) => p.provider === spec.split('/')[0]);
  if (r === undefined) return undefined;
  if (r.keyEnv !== null && r.keyRequired && !r.keySet)
    return `${r.provider}: ${r.keyEnv} is not set, so a3s run would refuse this model: export ${r.keyEnv}=<your key>`;
  if (!r.baseUrlInConfig && !r.baseUrlEnvSet && r.defaultBaseUrl === null)
    return `${r.provider}: ${r.baseUrlEnv} is not set, so a3s run would refuse this model: export ${r.baseUrlEnv}=<url>, or set "providers": { "${r.provider}": { "baseUrl": … } } in a3s.config.json`;
  return undefined;
}

/** What is wrong with the model `label` names (the message a3s run would print), or `undefined`. */
function modelProblem(spec: string, cwd: string, label: string): string | undefined {
  try {
    checkModelFlag(spec, cwd, true, label);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
