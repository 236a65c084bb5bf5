/**
 * What to do next, for the errors a new user meets first: no model, a missing key or base URL, a
 * model server that does not answer, a key the provider refuses. Each hint names the variable or
 * config key to set, and the offline way to try `a3s` with no key at all (a scripted model).
 */
import { terminalText } from '@a3s-code/core';
import { describeProviders } from '@a3s-code/sdk';
import { shellWord } from './shell-quote.js';

/** A model script of one answer, written by a shell command a user can paste. */
export const SCRIPTED_EXAMPLE = `echo '{"turns":[{"text":"Hello from a scripted model."}]}' > model.json`;

/** The offline hint: a scripted model, for `command` (`run` gets a prompt; `sessions` takes --model only with --resume). */
export function offlineHint(command: string): string {
  const run = command === 'run' ? ' "say hello"' : '';
  const named = command === 'sessions' ? 'sessions --resume <id>' : command;
  return `to try a3s offline with no key, play back a scripted model: ${SCRIPTED_EXAMPLE} && a3s ${named} --model scripted:model.json${run}`;
}

/**
 * What else to do about a vibe tier whose model cannot be used: it comes from `vibe.tiers` (the
 * config file's, or `--vibe-tier`), which `--model` does not change.
 */
function tierHint(tier: string): string {
  return `the ${tier} tier's model comes from "vibe": { "tiers": { "${tier}": … } } in a3s.config.json or --vibe-tier ${tier}=<model> (--model does not change it): name a model you can use there (--vibe-tier ${tier}=scripted:<file.json> plays back a script), drop the tier to run its workers on the session's model, or leave vibe mode off ("enabled": false, no --vibe) until you need it`;
}

/** What a failure looks like to the hints: its code, message and (for model calls) provider and status. */
interface Failure {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly provider?: unknown;
  readonly status?: unknown;
  readonly key?: unknown;
  /** A damaged log's file and line (`FACT_PARSE`). */
  readonly file?: unknown;
  readonly line?: unknown;
}

/** A provider as the hints name it: its id and where its base URL comes from. */
type Preset = ReturnType<typeof describeProviders>[number];

/**
 * A model call that timed out (`LLM_TIMEOUT`, after the retries): where the server's address comes
 * from, the network, a local server still loading. The limits are the provider clients' defaults
 * (`connectTimeoutMs`, `idleTimeoutMs`), which no flag or config key of the CLI changes.
 */
function timeoutHint(preset: Preset | undefined): string {
  const fixed =
    "a3s has no flag or config key for these time limits (60 s until the answer starts, 120 s between its parts); an SDK program can set the provider client's connectTimeoutMs and idleTimeoutMs";
  if (preset === undefined)
    return `the model did not answer in time, and the retries timed out as well: check the model server's address and the network ('a3s models' shows each provider's base URL); ${fixed}`;
  const where = `${preset.baseUrlEnv}, else "providers": { "${preset.name}": { "baseUrl": … } } in a3s.config.json${preset.defaultBaseUrl === undefined ? '' : `, else ${preset.defaultBaseUrl}`}`;
  return `${preset.name} did not answer in time, and the retries timed out as well: check that its base URL is the server you mean (${where}; 'a3s models' shows which applies) and that the network reaches it; a local server may still be loading the model (try again once it answers). ${fixed}`;
}

/**
 * A run that changed the workspace and never passed a `verify` of the change
 * (`COMPLETION_INCOMPLETE`): the changes are kept; how to have them verified, and the config
 * keys that shape the completion gate (`gate.continuation.maxTurns`, `gate.requiredChecks`).
 */
function incompleteHints(command: string, context: HintContext): string[] {
  const ask = 'ask the model to check its work with the verify tool (e.g. "run the tests with verify")';
  const next =
    command === 'code'
      ? `type a prompt that asks it to check its work with the verify tool (e.g. "run the tests with verify")`
      : `continue the session (${context.resume ?? 'a3s sessions --resume <id>'}) and ${ask}`;
  return [
    `the model changed the workspace but no passing verify covered the change, even after the completion gate asked for one; the changes stay in the workspace (git diff shows them): ${next}`,
    `in a3s.config.json, "gate": { "continuation": { "maxTurns": 10 } } gives the model more turns to verify (default 3, at most 10), and "gate": { "requiredChecks": [{ "id": "unit", "command": "npm test" }] } names checks every verify must pass`,
  ];
}

/**
 * What to do about a log with a damaged line (`FACT_PARSE`): which file and line, that the runtime
 * never rewrites a log, and how to keep the intact lines before it (a copy aside, then the log cut
 * before the damaged line), or, for a command that opens the session, how to start a new one.
 */
function damagedLogHint(command: string, f: Failure, message: string): string | undefined {
  const found =
    typeof f.file === 'string'
      ? f.file
      : (/^fact log '(.+?)' line \d+:/.exec(message)?.[1] ?? /\(in (.+)\)$/.exec(message)?.[1]);
  const line = typeof f.line === 'number' ? f.line : Number(/\bline (\d+):/.exec(message)?.[1]);
  if (found === undefined || !Number.isSafeInteger(line) || line < 1) return undefined;
  // The path is printed, so any control character in it is shown, never sent to the terminal.
  const file = terminalText(found);
  const log = shellWord(file);
  const aside = shellWord(`${file}.damaged`);
  const seal = shellWord(`${file}.seal`);
  const fresh =
    command === 'replay'
      ? ''
      : command === 'sessions'
        ? '; or start a new session with a3s code'
        : '; or start a new session by leaving out --session';
  if (line === 1)
    return `line 1 of ${file} is damaged, so no fact of it can be read; a3s never rewrites a log (it only appends), so it stays so: move it aside (mv ${log} ${aside}) to start that session afresh${fresh}`;
  return `line ${line} of ${file} is damaged; a3s never rewrites a log (it only appends), so it stays so. Lines 1 to ${line - 1} before it are intact: to keep them, copy the log aside and cut it before the damaged line (cp ${log} ${aside} && head -n ${line - 1} ${aside} > ${log} && rm -f ${seal}; what came after it stays only in the copy, and the seal, which records what the session wrote, would refuse the shorter log)${fresh}`;
}

/**
 * A message in the CLI's words for an error whose own message speaks to SDK programs: no model, or
 * a change nothing verified (`COMPLETION_INCOMPLETE`, whose SDK advice, `verifyCommands` or a
 * waiver, a CLI user has no way to follow: its hints say what to do instead).
 */
export function cliMessage(e: unknown): string | undefined {
  const f = e as (Failure & { readonly details?: { readonly reason?: unknown }; readonly digest?: unknown }) | null;
  if (f?.code === 'MODEL_NOT_CONFIGURED')
    return 'no model is configured: pass --model <provider>/<model>, put "model" in a3s.config.json (a3s init writes one), or set A3S_MODEL';
  if (f?.code === 'COMPLETION_INCOMPLETE' && typeof f.details?.reason === 'string' && typeof f.digest === 'string')
    return `the run changed the workspace but cannot complete: ${f.details.reason} (effect digest ${f.digest.slice(0, 12)}…)`;
  return undefined;
}

/** The provider a failure names: its `provider`, or the `provider/` or `'provider/...'` in its message. */
function providerOf(f: Failure): string | undefined {
  if (typeof f.provider === 'string') return f.provider.split('/')[0];
  const message = typeof f.message === 'string' ? f.message : '';
  const named = /model '([a-z-]+)\//.exec(message)?.[1] ?? /provider '([a-z-]+)'/.exec(message)?.[1];
  return named ?? /^([a-z-]+): /.exec(message)?.[1];
}

/** What the command knows that a hint can name: the command line that continues the session. */
export interface HintContext {
  /** E.g. `a3s sessions --resume s1 --model scripted:m.json` (`a3s run` knows it). */
  readonly resume?: string;
}

/**
 * The lines (`hint: …`) to print after the error `e` of `a3s <command>`, if it is one a hint
 * helps with; `context` names the session's continue command where the command knows it.
 */
export function hintsFor(command: string, e: unknown, context: HintContext = {}): string[] {
  const f = (e ?? {}) as Failure;
  const message = typeof f.message === 'string' ? f.message : '';
  const providers = describeProviders();
  const preset = providers.find((p) => p.name === providerOf(f));
  if (f.code === 'MODEL_NOT_CONFIGURED')
    return [
      `a3s ${command} --model openai/<model> (with OPENAI_API_KEY), --model anthropic/<model> (with ANTHROPIC_API_KEY), or --model ollama/<model> (a local server, no key); 'a3s models' lists every provider and its variables`,
      offlineHint(command),
    ];
  // The variable that is not set: the error's key, or (for a key path such as vibe.tiers.fast)
  // the one its message names.
  const variable =
    typeof f.key === 'string' && /^[A-Z][A-Z0-9_]*$/.test(f.key)
      ? f.key
      : /\b([A-Z][A-Z0-9_]+): is not set/.exec(message)?.[1];
  if (f.code === 'MODEL_CONFIGURATION' && variable !== undefined && /is not set/.test(message)) {
    const name = preset?.name ?? '<provider>';
    // A vibe tier's model: --model does not change it, so the offline hint names the tier instead.
    const tier = typeof f.key === 'string' ? /^vibe\.tiers\.(fast|good)$/.exec(f.key)?.[1] : undefined;
    if (variable === preset?.keyEnv)
      return [
        `export ${variable}=<your key>, or name the variable that holds it in a3s.config.json: "providers": { "${name}": { "apiKeyEnv": "<VARIABLE>" } }; 'a3s models' shows which variables are set`,
        tier === undefined ? offlineHint(command) : tierHint(tier),
      ];
    return [
      `export ${variable}=<url>, or set it in a3s.config.json: "providers": { "${name}": { "baseUrl": "<url>" } }; 'a3s models' shows the variables`,
    ];
  }
  // The server answered, with a server error (after the retries): the connection is not the problem.
  const serverError = /\bHTTP (5\d\d)\b/.exec(message)?.[1];
  if (f.code === 'LLM_TRANSPORT' && preset !== undefined && serverError !== undefined)
    return [
      `the ${preset.name} server answered with a server error (HTTP ${serverError}): try again later; if the server is yours, its log says why (${preset.baseUrlEnv} or "providers": { "${preset.name}": { "baseUrl": … } } sets which server is called)`,
    ];
  // fetch refuses some ports outright (those of other protocols: 6000, 9, 25, ...): nothing was called.
  if (f.code === 'LLM_TRANSPORT' && preset !== undefined && /\(bad port\)/.test(message))
    return [
      `the base URL's port is one that fetch never calls (it belongs to another protocol, e.g. 6000 or 9): serve the model on another port and set ${preset.baseUrlEnv} or "providers": { "${preset.name}": { "baseUrl": … } } to it`,
    ];
  if (f.code === 'LLM_TRANSPORT' && preset !== undefined) {
    const local = !preset.keyRequired;
    const setIt = `${preset.baseUrlEnv}, else "providers": { "${preset.name}": { "baseUrl": … } } in a3s.config.json`;
    // A provider that needs a key got this far with one: trying a3s with no key is beside the point.
    const offline = local ? [offlineHint(command)] : [];
    const unknownHost = /\bENOTFOUND (\S+?)\).*; the base URL is (\S+)$/s.exec(message);
    if (unknownHost !== null)
      return [
        `the host name ${unknownHost[1]} of the ${preset.name} base URL ${unknownHost[2]} does not resolve (no such host; a3s does not retry it): check its spelling, or point it at the server you mean (${setIt}; 'a3s models' shows which applies)`,
        ...offline,
      ];
    const refusedAt = /\bECONNREFUSED\b.*; the base URL is (\S+)$/s.exec(message)?.[1];
    if (refusedAt !== undefined)
      return [
        `nothing accepted the connection at ${refusedAt}, the ${preset.name} base URL: start the server there, or point it at the server you mean (${setIt}; 'a3s models' shows which applies)`,
        ...offline,
      ];
    return [
      local
        ? `is the ${preset.name} server running? Its URL: ${setIt}${preset.defaultBaseUrl === undefined ? '' : `, else ${preset.defaultBaseUrl}`} ('a3s models' shows which applies)`
        : `check the network connection to ${preset.name} (${preset.baseUrlEnv} or "providers": { "${preset.name}": { "baseUrl": … } } changes its URL)`,
      ...offline,
    ];
  }
  // The config file is there but cannot be read: making the workspace writable would not help.
  const config = /config: cannot read '(.+)': (EACCES|EPERM)\b/.exec(message)?.[1];
  if (f.code === 'SESSION_INITIALIZATION' && config !== undefined)
    return [
      `a3s reads the workspace's config file before every command: make it readable (chmod u+r '${config}'), or pass --cwd <dir> to work in another folder`,
    ];
  if (f.code === 'SESSION_INITIALIZATION' && /\b(EACCES|EPERM|EROFS)\b/.test(message))
    return [
      `a3s keeps each session's fact log and snapshot in the workspace's .a3s folder, so the workspace must be writable: run a3s ${command} in a folder you can write to, or pass --cwd <dir>`,
    ];
  if (f.code === 'FACT_LOG_LOCKED')
    return [
      `another process has this session's log open (its pid is above): leave that session first (/exit in a3s code, or let its a3s run end), ${command === 'sessions' ? 'or start a new session with a3s code' : 'or start a new session by leaving out --session'}`,
    ];
  if (f.code === 'LLM_TIMEOUT') return [timeoutHint(preset)];
  if (f.code === 'LLM_RATE_LIMITED' && /insufficient_quota|quota is used up/.test(message))
    return [
      `the ${preset?.name ?? 'provider'} account has no quota left (a billing state, not a rate limit): add credit or raise the plan's limit at the provider, or use another provider or key ('a3s models' lists them)`,
    ];
  if (f.code === 'COMPLETION_INCOMPLETE') return incompleteHints(command, context);
  if (f.code === 'FACT_PARSE') {
    const hint = damagedLogHint(command, f, message);
    if (hint !== undefined) return [hint];
  }
  if (f.code === 'LLM_STATUS' && (f.status === 401 || f.status === 403) && preset?.keyEnv !== undefined)
    return [
      `${preset.name} refused the key (HTTP ${String(f.status)}): check ${preset.keyEnv} ('a3s models' shows whether it is set)`,
    ];
  // A state file or folder this user may not read (another user's .a3s, a chmod): named, with the fix.
  const denied = /\b(?:EACCES|EPERM): [^,]*, \w+ '([^']+)'/.exec(message)?.[1];
  if (f.code === 'SESSION_STORE' && denied !== undefined)
    return [
      `you may not read '${denied}': the workspace's .a3s folder and what is in it must be readable by the user running a3s (ls -ld '${denied}' shows its owner and mode; chmod u+rwx or chown it, or run a3s as its owner)`,
    ];
  return [];
}
