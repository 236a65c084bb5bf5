/**
 * The `a3s` command: dispatch to a subcommand and turn typed errors into one message on stderr and
 * an exit code from {@link EXIT} (2 for configuration and usage mistakes, 4 for a session another
 * process holds, 1 for failures).
 */
import { A3sError } from '@a3s-code/effect';
import { closest } from './did-you-mean.js';
import { isAbsolute } from 'node:path';
import { EXIT, exitCodeOf, UsageError } from './errors.js';
import { errorJson } from './event-json.js';
import type { Io } from './io.js';
import { foreignSpelling } from './foreign-spellings.js';
import { folderWithoutCwd } from './missing-folder.js';
import { cliVersion } from './version.js';

/** The top-level help. */
export const MAIN_HELP = `a3s — A3S Code, a coding agent whose every run is a replayable fact log

Usage: a3s <command> [options]

Commands:
  code                 interactive session (the default)
  run "<prompt>"       one run, then exit (--json: event envelopes as JSONL)
  replay <log|id|dir>  phase timeline, tool table, tokens, cost and errors of a fact log
                       (--web: the same log in the browser viewer, served on 127.0.0.1)
  tools                the session's tool surface with tiers and capabilities
  sessions             the sessions of this workspace; --resume <id> continues one
  models               the model providers, the keys each needs and whether they are set
  init                 write a starter a3s.config.json (with its JSON Schema)
  serve                JSON-RPC 2.0 over stdio: sessions, runs and events for other programs
  version              print the version (also --version, -V, -v)

Models: --model <provider>/<model> (openai, anthropic, openai-compatible, deepseek, openrouter,
groq, vllm, llamacpp, ollama, lmstudio) | scripted:<file.json>, or "model" in a3s.config.json,
or A3S_MODEL; 'a3s models' lists the keys. 'a3s <command> --help' for each command; a command's
flags may also come before it (a3s -C ../app run "...").

Exit codes: 0 completed, 1 run failed, 2 usage or configuration error, 3 parked, 4 session in use
(another process has its log open), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM),
129 terminal closed (SIGHUP).`;

type Command = (args: readonly string[], io: Io) => Promise<number>;

// Each command is loaded when it runs, so `--help`, `--version` and a usage error answer without
// loading the runtime, and a command loads only its own modules.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  code: async () => (await import('./commands/code.js')).codeCommand,
  run: async () => (await import('./commands/run.js')).runCommand,
  replay: async () => (await import('./commands/replay.js')).replayCommand,
  tools: async () => (await import('./commands/tools.js')).toolsCommand,
  sessions: async () => (await import('./commands/sessions.js')).sessionsCommand,
  models: async () => (await import('./commands/models.js')).modelsCommand,
  init: async () => (await import('./commands/init.js')).initCommand,
  serve: async () => (await import('./serve/command.js')).serveCommand,
};

/** Runs the `a3s` command line; resolves with the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  // `a3s help <command>` is `a3s <command> --help`.
  if (first === 'help' && rest.length > 0) return main([rest[0]!, '--help', ...rest.slice(1)], io);
  // `a3s --help run` is `a3s run --help` too.
  if ((first === '--help' || first === '-h') && rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0]))
    return main([rest[0], '--help'], io);
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(`${MAIN_HELP}\n`);
    return EXIT.ok;
  }
  if (first === '--version' || first === '-V' || first === '-v' || first === 'version') {
    if (rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
      io.stdout.write(`${VERSION_HELP}\n`);
      return EXIT.ok;
    }
    if (rest.length > 0) {
      io.stderr.write(`a3s version: unexpected argument '${rest[0]}'; a3s version takes no arguments\n`);
      return EXIT.usage;
    }
    io.stdout.write(`a3s ${cliVersion()}\n`);
    return EXIT.ok;
  }
  // `a3s -C ../app run "…"`: flags typed before the command go to it.
  const hoisted = first?.startsWith('-') === true ? commandAfterFlags(argv) : undefined;
  if (hoisted !== undefined) return main(hoisted, io);
  // `a3s exec "…"`, `a3s -p "…"`, `a3s --continue`: said in a3s's words, nothing run.
  const foreign = foreignSpelling(argv, VALUE_FLAGS);
  if (foreign !== undefined) {
    io.stderr.write(`a3s: ${await terminalSafe(foreign)}\n`);
    return EXIT.usage;
  }
  const explicit = first !== undefined && !first.startsWith('-');
  const name = explicit ? first : 'code';
  // Own keys only: `a3s toString` is an unknown command, not Object.prototype's method.
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr.write(`a3s: ${await terminalSafe(unknownCommand(name, rest))}\n`);
    return EXIT.usage;
  }
  const args = explicit ? rest : argv;
  const wantsHelp = args.includes('--help') || args.includes('-h');
  let folderIo = io;
  if (io.cwdGone === true && !wantsHelp) {
    // No folder to start from: only an absolute -C names one.
    const folder = folderWithoutCwd(name, args, VALUE_FLAGS);
    if ('problem' in folder) {
      io.stderr.write(`a3s: ${await terminalSafe(folder.problem)}\n`);
      if ((name === 'run' || name === 'replay') && jsonRequested(args))
        io.stdout.write(`${errorJson('CLI_USAGE', folder.problem, [], EXIT.usage)}\n`);
      return EXIT.usage;
    }
    folderIo = { ...io, cwd: folder.cwd };
  }
  let code: number;
  try {
    if (!wantsHelp) checkA3sHome(io.env);
    const command = await load();
    code = await command(args, folderIo);
  } catch (e) {
    code = await reportError(name, e, folderIo, explicit, args);
  }
  // A reader that went away (`| head`) interrupted the run: that is not a failure.
  return io.stdoutClosed?.aborted === true && code === EXIT.cancelled ? EXIT.ok : code;
}

/**
 * Refuses a relative `A3S_HOME`: it would name another folder from each folder a3s starts in (a
 * trust record written inside the workspace, not found again with `-C` from elsewhere).
 * @throws UsageError saying it must be absolute.
 */
function checkA3sHome(env: Io['env']): void {
  const home = env.A3S_HOME;
  if (home === undefined || home === '' || isAbsolute(home)) return;
  throw new UsageError(
    `A3S_HOME: must be an absolute path, got '${home}' (a relative one would name another folder from each folder a3s starts in); set it to a full path (e.g. A3S_HOME="$HOME/.a3s"), or unset it for the default ~/.a3s`,
  );
}

/** The flags of any command that take a value, long and short: what follows them is their value, not a command. */
const VALUE_FLAGS: ReadonlySet<string> = new Set([
  '--model',
  '-m',
  '--cwd',
  '-C',
  '--session',
  '--resume',
  '--vibe-tier',
  '--image',
  '--file',
  '--framing',
  '--max-message-bytes',
]);

/**
 * `argv` with its first command name moved to the front, when only flags come before it
 * (`a3s --model x run hi` is `a3s run --model x hi`); `undefined` when there is no such name.
 */
function commandAfterFlags(argv: readonly string[]): string[] | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a.startsWith('-')) {
      if (VALUE_FLAGS.has(a)) i++;
      continue;
    }
    if (!Object.hasOwn(COMMANDS, a)) return undefined;
    return [a, ...argv.slice(0, i), ...argv.slice(i + 1)];
  }
  return undefined;
}

/** Help of `a3s version`. */
const VERSION_HELP = `Usage: a3s version (also a3s --version, -V, -v)

Prints the version of the a3s command.`;

/**
 * The message for an unknown command: the commands, the closest one, or how to run a prompt (a
 * quoted one, or the words of an unquoted one: `a3s fix the bug`).
 */
function unknownCommand(name: string, rest: readonly string[]): string {
  const names = [...Object.keys(COMMANDS), 'version', 'help'];
  const base = `unknown command '${name}'; expected one of ${names.join(', ')}`;
  const prompt = (text: string) => `${base}; to run a prompt: a3s run "${text}" (or a3s code, then type it)`;
  if (/\s/.test(name.trim())) return prompt(name);
  const close = closest(name.toLowerCase(), names);
  if (close !== undefined) return `${base} (did you mean '${close}'?)`;
  const words = rest.length > 0 && rest.every((w) => !w.startsWith('-'));
  return words ? prompt([name, ...rest].join(' ')) : base;
}

/** `text` with terminal controls made visible; the runtime is loaded for it only on this path. */
async function terminalSafe(text: string): Promise<string> {
  return (await import('@a3s-code/core')).terminalText(text);
}

/** Prints an error once, on stderr (with hints for the first errors a new user meets), and returns its exit code. */
async function reportError(
  name: string,
  e: unknown,
  io: Io,
  explicit: boolean,
  args: readonly string[],
): Promise<number> {
  // Loaded only on an error (the hints read the SDK's provider table).
  const { cliMessage, hintsFor } = await import('./hints.js');
  const code = A3sError.isInstance(e) ? e.code : undefined;
  const message = cliMessage(e) ?? (e instanceof Error ? e.message : String(e));
  io.stderr.write(`a3s ${name}: ${code && code !== 'CLI_USAGE' ? `${code}: ` : ''}${await terminalSafe(message)}\n`);
  const hints = hintsFor(name, e);
  // A hint may quote a path or a message (a file name can hold escape sequences): shown safe too.
  for (const hint of hints) io.stderr.write(`hint: ${await terminalSafe(hint)}\n`);
  // `a3s run --json` ends its stdout with what went wrong, as JSON, even before the run started;
  // `a3s replay --json` too, so a script reading either finds the error where the output would be.
  if ((name === 'run' || name === 'replay') && jsonRequested(args))
    io.stdout.write(`${errorJson(code, message, hints, exitCodeOf(code))}\n`);
  // `a3s --nope`: the user typed no command, so say which one read the flags and what the others are.
  if (!explicit && code === 'CLI_USAGE')
    io.stderr.write(
      `hint: a3s with no command runs a3s code; the commands are ${[...Object.keys(COMMANDS), 'version', 'help'].join(', ')} (see 'a3s --help')\n`,
    );
  return exitCodeOf(code);
}

/** Whether `--json` is among the flags (before any `--`). */
function jsonRequested(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}
