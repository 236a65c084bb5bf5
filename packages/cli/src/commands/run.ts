/**
 * `a3s run "<prompt>"`: one run, non-interactive. Text and tool cards go to stdout (or, with
 * `--json`, one event envelope per line). Nobody can answer a confirmation or a question, so the
 * run parks (exit 3) and can be continued with `a3s sessions --resume <id>`; calls nested inside
 * another tool that would ask are refused. Ctrl-C interrupts the run; a second Ctrl-C exits.
 */
import { NO_APPROVER_REASON, type ConfirmationManager, type RunResult } from '@a3s-code/sdk';
import { checkSessionFlag, parse, SESSION_FLAGS, SESSION_FLAGS_HELP, sessionFlags } from '../args.js';
import { resumeCommand } from '../resume-command.js';
import { vibeStart } from '../vibe-settings.js';
import { newSessionNote } from '../session-lookup.js';
import { flagAttachments } from '../attachments.js';
import { EXIT, UsageError } from '../errors.js';
import { errorJson, eventJson } from '../event-json.js';
import { cliMessage, hintsFor } from '../hints.js';
import type { Io } from '../io.js';
import { runCost } from '../cost.js';
import { progressLine } from '../interactive/flow-command.js';
import { undecodedPrompt } from '../prompt-text.js';
import { closeOnSigterm, closeOrQuit, openSession, warnTo } from '../open-session.js';
import { artifactSaver, sessionArtifacts } from '../render/artifacts.js';
import { createEventPrinter } from '../render/event-printer.js';
import { printMcpWarnings } from '../render/mcp-status.js';
import { runSummary } from '../render/run-summary.js';
import { styleFor } from '../style.js';
import { terminalText } from '@a3s-code/core';

/** Help of `a3s run`. */
export const RUN_HELP = `Usage: a3s run [options] "<prompt>"
       a3s run [options] -        (reads the prompt from stdin: echo "…" | a3s run -, or
                                  echo "…" | a3s run with no prompt; a file: a3s run - < f)

Runs one prompt to its end and exits: 0 completed, 1 run failed, 2 usage or configuration error,
3 parked (continue with a3s sessions --resume <id>), 4 session in use (another process has its
log open), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM; the run is recorded as cancelled),
129 terminal closed (SIGHUP; as SIGTERM).

Options:
      --json           print every event envelope as one JSON line (JSONL) on stdout
      --session <id>   continue the session with this id (its log under .a3s/effect-log)
      --image <path>   send an image (PNG, JPEG, GIF, WebP; at most 5 MB) with the prompt; repeatable
      --file <path>    send a text file (inlined with its name; at most 5 MB) with the prompt;
                       repeatable (paths are relative to the current folder and must lie in
                       the workspace; at most 20 MB in all)
${SESSION_FLAGS_HELP}`;

/** A confirmation manager for a host nobody sits at: nested calls that would ask are refused. */
const nobodyToAsk: ConfirmationManager = {
  confirm: async () => ({
    approved: false,
    reason: `${NO_APPROVER_REASON}: a3s run cannot ask for confirmation; rerun with --yolo, or use a3s code`,
  }),
};

/** The largest prompt `a3s run -` reads from stdin. */
const MAX_STDIN_PROMPT_BYTES = 8 * 1024 * 1024;

/** The whole of stdin as UTF-8 (`a3s run -`); a terminal is refused, as nobody would see the wait. */
async function promptFromStdin(io: Io): Promise<string> {
  if (io.stdin.isTTY === true)
    throw new UsageError(
      'a3s run - reads the prompt from stdin, but stdin is a terminal; pipe the prompt in (echo "…" | a3s run -)',
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_STDIN_PROMPT_BYTES)
      throw new UsageError(
        `the prompt on stdin is over ${MAX_STDIN_PROMPT_BYTES / 1024 / 1024} MiB; send large files with --file`,
      );
    chunks.push(b);
  }
  const bytes = Buffer.concat(chunks);
  try {
    // A BOM (as some editors save) is not part of the prompt.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `the prompt on stdin is not valid UTF-8 (first bad byte at offset ${firstBadByte(bytes)}); convert it first (iconv -f latin1 -t utf-8) or send the file with --file`,
    );
  }
}

/** The offset of the first byte that starts no valid UTF-8 sequence (the input is known to be invalid). */
function firstBadByte(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0) return i;
    // The second byte's range is narrower after E0, ED, F0 and F4 (no overlong forms, no surrogates).
    const second = bytes[i + 1] ?? 0;
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return bytes.length;
}

/** Runs `a3s run`. */
export async function runCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      ...SESSION_FLAGS,
      json: { type: 'boolean' },
      session: { type: 'string' },
      image: { type: 'string', multiple: true },
      file: { type: 'string', multiple: true },
    },
    'run',
  );
  if (values.help) {
    io.stdout.write(`${RUN_HELP}\n`);
    return EXIT.ok;
  }
  // `a3s run -` reads the prompt from stdin; so does `a3s run` with no prompt and stdin piped in.
  // A `-` among other words would be neither: refused rather than sent as prompt text.
  if (positionals.length > 1 && positionals.includes('-'))
    throw new UsageError(
      `'-' (read the prompt from stdin) must be the only prompt argument, but ${positionals.length} were given (${positionals.map((p) => `'${p}'`).join(' ')}); pipe the whole prompt in (echo "…" | a3s run -), or quote a prompt that contains a lone dash (a3s run "a - b")`,
    );
  const fromStdin =
    (positionals.length === 1 && positionals[0] === '-') || (positionals.length === 0 && io.stdinPiped === true);
  const prompt = (fromStdin ? await promptFromStdin(io) : positionals.join(' ')).trim();
  if (prompt === '')
    throw new UsageError(
      fromStdin
        ? `the prompt read from stdin${positionals.length === 0 ? ' (piped in, with no prompt given)' : ' (a3s run -)'} is empty`
        : `missing the prompt, e.g. a3s run "fix the failing test", or a3s run - to read it from stdin; see 'a3s run --help'`,
    );
  const undecoded = fromStdin ? undefined : undecodedPrompt(prompt, 'the prompt');
  if (undecoded !== undefined) throw new UsageError(undecoded);
  const flags = { ...sessionFlags(values, io.cwd), warn: warnTo(io.stderr, io.env) };
  checkSessionFlag(values.session, 'run');
  // A tier's model is for vibe workers: with vibe mode off (no --vibe, none in the config file),
  // and no /vibe to turn it on in a one-shot run, the flag would do nothing.
  if (flags.vibeTiers !== undefined && flags.vibe !== true && !(await vibeStart(flags)).on)
    throw new UsageError(
      `--vibe-tier applies only with vibe mode on (--vibe, or "vibe" in the workspace's config file: the workers whose model it sets); a3s run without it starts no workers, so add --vibe or leave --vibe-tier out`,
    );
  const attachments = flagAttachments(values.image, values.file, io.cwd, flags.cwd);
  const note = values.session === undefined ? undefined : newSessionNote(flags.cwd, values.session);
  if (note !== undefined) io.stderr.write(styleFor(io.stderr, io.env).yellow(note));
  const opened = await openSession(flags, io.env, {
    confirmation: nobodyToAsk,
    parkMode: 'return',
    // A workflow the model starts prints its steps as they go (not in --json: the events say it).
    ...(values.json ? {} : { workflowProgress: (e) => io.stdout.write(progressLine(styleFor(io.stdout, io.env), e)) }),
    ...(values.session === undefined ? {} : { sessionId: values.session }),
  });
  const { session } = opened;
  const stopTerm = closeOnSigterm(opened);
  const out = styleFor(io.stdout, io.env);
  const err = styleFor(io.stderr, io.env);
  const print = createEventPrinter(io.stdout, out, {
    tty: io.stdout.isTTY === true && io.env.TERM !== 'dumb',
    elapsed: !values.json,
    artifacts: artifactSaver(out, flags.cwd, () => session.sessionId, sessionArtifacts(session)),
  });
  printMcpWarnings(io.stderr, err, session.mcpStatus());
  // Notes to the person go to stderr: stdout keeps the run's output (text and tool cards, or JSONL).
  if (opened.vibeNote !== undefined) io.stderr.write(err.cyan(`${opened.vibeNote}\n`));
  if (opened.repairNote !== undefined) io.stderr.write(`${terminalText(opened.repairNote)}\n`);
  // A new prompt ends the run the log left open (parked, or cut off by a crash): said, not silent.
  const open = session.state.view.run;
  if (values.session !== undefined && open.status === 'running')
    io.stderr.write(
      err.yellow(
        terminalText(
          `note: session ${session.sessionId} had an open run (${open.run_id ?? 'unknown'}, parked or cut off); this prompt starts a new run and that one is recorded as cancelled (a3s sessions --resume ${session.sessionId} continues an open run instead)\n`,
        ),
      ),
    );
  let interrupts = 0;
  let runId: string | undefined;
  const onInterrupt = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.cancelled); // at once; MCP process groups are killed by their exit hook
    io.stderr.write(err.yellow('\ninterrupting the run… (Ctrl-C again to quit at once)\n'));
    if (runId !== undefined && !session.closed)
      session.interrupt({ runId, reason: 'interrupted from the terminal (Ctrl-C)' });
  };
  process.on('SIGINT', onInterrupt);
  // The reader of stdout went away (`| head -1`): end the run (its log records the interrupt) and close.
  const onStdoutClosed = (): void => void (session.closed || session.interrupt('stdout was closed by its reader'));
  io.stdoutClosed?.addEventListener('abort', onStdoutClosed);
  if (io.stdoutClosed?.aborted) onStdoutClosed();
  let result: RunResult;
  try {
    const stream = session.stream(prompt, attachments.length > 0 ? { attachments } : {});
    runId = session.activeRunId ?? undefined;
    // A run that fails is reported once, on stderr, below; errors a run lived through (a log
    // written back after something else changed it) are warnings on stderr once it is done.
    const lived: string[] = [];
    for await (const ev of stream) {
      if (values.json) io.stdout.write(`${eventJson(ev)}\n`);
      else if (ev.type !== 'error') print(ev);
      else lived.push(`warning: ${terminalText(String(ev.payload.code))}: ${terminalText(String(ev.payload.message))}`);
    }
    result = await stream.result;
    for (const line of lived) io.stderr.write(`${err.yellow(line)}\n`);
  } catch (e) {
    print.newline();
    const code = (e as { code?: unknown }).code;
    // An attachment that cannot be sent is a mistake on the command line: nothing was run or logged.
    if (code === 'ATTACHMENT_INVALID') {
      io.stderr.write(`a3s run: ${code}: ${terminalText((e as Error).message)}\n`);
      if (values.json) io.stdout.write(`${errorJson(code, (e as Error).message, [], EXIT.usage)}\n`);
      return EXIT.usage;
    }
    io.stderr.write(
      err.red(
        `run failed: ${typeof code === 'string' ? `${code}: ` : ''}${terminalText(cliMessage(e) ?? (e as Error).message)}\n`,
      ),
    );
    const resume = resumeCommand(session.sessionId, flags, io.cwd);
    for (const hint of hintsFor('run', e, { resume })) io.stderr.write(`hint: ${terminalText(hint)}\n`);
    if (session.logPath) io.stderr.write(err.dim(`log: ${session.logPath}\n`));
    return code === 'FACT_LOG_LOCKED' ? EXIT.locked : EXIT.failed;
  } finally {
    print.close();
    process.off('SIGINT', onInterrupt);
    io.stdoutClosed?.removeEventListener('abort', onStdoutClosed);
    stopTerm();
    await closeOrQuit(opened);
  }
  // A parked run continues where it stopped; an interrupted one is over in its log, and /resume
  // in the reopened session picks it up in a new run. A reader that went away wants no hint.
  const resumable =
    result.status === 'parked' ||
    (result.status === 'cancelled' && io.stdoutClosed?.aborted !== true) ||
    result.endedBy === 'budget' ||
    result.endedBy === 'tool_rounds' ||
    result.endedBy === 'output_limit' ||
    result.endedBy === 'refused';
  const how =
    result.parked?.kind === 'confirm'
      ? ' (or rerun with --yolo)'
      : result.status === 'cancelled'
        ? ', then type /resume'
        : result.endedBy === 'budget' ||
            result.endedBy === 'tool_rounds' ||
            result.endedBy === 'output_limit' ||
            result.endedBy === 'refused'
          ? ', then say how to go on'
          : '';
  const continueLine = `continue it with: ${resumeCommand(session.sessionId, flags, io.cwd)}${how}\n`;
  if (!values.json) {
    print.newline();
    io.stdout.write(`${runSummary(out, result, print.stopped, runCost(session, result))}\n`);
    // The id and the folder are the person's text (an argument, a folder name): printed inert.
    if (session.logPath)
      io.stdout.write(out.dim(terminalText(`log: ${session.logPath}\nsession: ${session.sessionId}\n`)));
    if (resumable) io.stdout.write(terminalText(continueLine));
    // A script file plays from its first turn in every process: the same file would replay the run.
    if (resumable && flags.model?.startsWith('scripted:') === true)
      io.stdout.write(
        out.dim(
          '(a scripted model plays its file from the first turn in each process: continue with a script of the turns still to come)\n',
        ),
      );
  } else if (resumable) {
    // Standard output holds only events; the person (or the script's log) learns how to go on here.
    const state =
      result.status === 'parked'
        ? 'parked'
        : result.endedBy === 'budget'
          ? 'stopped at the tool budget'
          : result.endedBy === 'tool_rounds'
            ? 'stopped at the tool-round cap'
            : result.endedBy === 'output_limit'
              ? "stopped at the model's output-token limit"
              : result.endedBy === 'refused'
                ? 'stopped at a refused call'
                : 'interrupted';
    io.stderr.write(terminalText(`a3s run: ${state} (session ${session.sessionId}); ${continueLine}`));
  }
  return result.status === 'completed' ? EXIT.ok : result.status === 'parked' ? EXIT.parked : EXIT.cancelled;
}
