/**
 * The `a3s` command: dispatch to a subcommand and turn typed errors into clear messages and exit
 * codes (2 for configuration and usage mistakes, 1 for failures).
 */
import { A3sError } from '@a3s-code/effect';
import { codeCommand } from './commands/code.js';
import { replayCommand } from './commands/replay.js';
import { runCommand } from './commands/run.js';
import { sessionsCommand } from './commands/sessions.js';
import { toolsCommand } from './commands/tools.js';
import { EXIT } from './errors.js';
import type { Io } from './io.js';

/** The top-level help. */
export const MAIN_HELP = `a3s — A3S Code, a coding agent whose every run is a replayable fact log

Usage: a3s <command> [options]

Commands:
  code                 interactive session (the default)
  run "<prompt>"       one run, then exit (--json: event envelopes as JSONL)
  replay <log|id>      phase timeline, tool table, tokens and errors of a fact log
  tools                the session's tool surface with tiers and capabilities
  sessions             the sessions of this workspace; --resume <id> continues one

Models: --model openai/<model> | anthropic/<model> | scripted:<file.json>, or A3S_MODEL
(keys: OPENAI_API_KEY, ANTHROPIC_API_KEY). 'a3s <command> --help' for each command.`;

const COMMANDS: Readonly<Record<string, (args: readonly string[], io: Io) => Promise<number>>> = {
  code: codeCommand,
  run: runCommand,
  replay: replayCommand,
  tools: toolsCommand,
  sessions: sessionsCommand,
};

/** Codes of the caller's mistakes: reported with exit code 2. */
const USAGE_CODES = new Set(['CLI_USAGE', 'MODEL_NOT_CONFIGURED', 'MODEL_CONFIGURATION', 'SESSION_CONFIGURATION', 'INVALID_SCRIPT', 'INVALID_PERMISSION_RULE']);

/** Runs the `a3s` command line; resolves with the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(`${MAIN_HELP}\n`);
    return EXIT.ok;
  }
  const explicit = first !== undefined && !first.startsWith('-');
  const name = explicit ? first : 'code';
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`a3s: unknown command '${name}'; expected one of ${Object.keys(COMMANDS).join(', ')}\n`);
    return EXIT.usage;
  }
  try {
    return await command(explicit ? rest : argv, io);
  } catch (e) {
    const code = A3sError.isInstance(e) ? e.code : undefined;
    const message = e instanceof Error ? e.message : String(e);
    io.stderr.write(`a3s ${name}: ${code && code !== 'CLI_USAGE' ? `${code}: ` : ''}${message}\n`);
    if (code === 'MODEL_NOT_CONFIGURED') io.stderr.write(`hint: a3s ${name} --model openai/<model> (OPENAI_API_KEY), --model anthropic/<model> (ANTHROPIC_API_KEY), or --model scripted:<file.json>\n`);
    return code !== undefined && USAGE_CODES.has(code) ? EXIT.usage : EXIT.failed;
  }
}
