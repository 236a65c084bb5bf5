/**
 * `a3s code`: the interactive session. Streamed text, a card per tool call, confirmation and
 * `ask_user` cards, `/` commands; a line typed during a run steers it (see `continuation.ts` for
 * steers the run never delivered, and for `/resume`); Ctrl-C interrupts the run it was pressed
 * for (never a later one) and a second Ctrl-C (within two seconds, or at an idle prompt) exits.
 */
import { CapabilityDriftError, type EventStream, type RunResult, type Session } from '@a3s-code/sdk';
import { newSessionNote } from '../session-lookup.js';
import { checkSessionFlag, noPositionals, parse, SESSION_FLAGS, SESSION_FLAGS_HELP, sessionFlags } from '../args.js';
import { attachmentFor } from '../attachments.js';
import { EXIT } from '../errors.js';
import { planResume, undeliveredSteers } from '../interactive/continuation.js';
import { LineReader } from '../interactive/line-reader.js';
import { resumeStart } from '../interactive/resume-start.js';
import { RunInput, type UndeliveredSteer } from '../interactive/run-input.js';
import { attachmentPath, slashProblem, toggleVibe } from '../interactive/slash.js';
import { terminalConfirmation, terminalQuestions } from '../interactive/prompts.js';
import {
  FLOW_COMMANDS,
  FLOW_HELP,
  type FlowOutcome,
  parseFlowCommand,
  progressLine,
  runFlowCommand,
} from '../interactive/flow-command.js';
import { cliMessage, hintsFor } from '../hints.js';
import type { Io, Out } from '../io.js';
import { runCost } from '../cost.js';
import { closeOnSigterm, closeOrQuit, openSession, type OpenedSession, warnTo } from '../open-session.js';
import { artifactSaver, sessionArtifacts } from '../render/artifacts.js';
import { createEventPrinter } from '../render/event-printer.js';
import { printMcpServers, printMcpWarnings } from '../render/mcp-status.js';
import { runSummary } from '../render/run-summary.js';
import { styleFor } from '../style.js';
import { undecodedPrompt } from '../prompt-text.js';
import { resumeCommand } from '../resume-command.js';
import { printTools } from './tools.js';
import { terminalText } from '@a3s-code/core';

/** Help of `a3s code`. */
export const CODE_HELP = `Usage: a3s code [options]

Starts an interactive session on the workspace. Type a prompt; a line typed while a run is going
steers it (/image and /file then attach to that steer). Ctrl-C interrupts the run; Ctrl-C twice
exits; Ctrl-D (end of input) or /exit leaves. Exits with 1 when the last run failed.

Options:
      --session <id>   continue the session with this id
${SESSION_FLAGS_HELP}`;

/** The `/` commands. */
export const SLASH_HELP = `/help      this list
/tools     the tool surface (tiers, capabilities)
/mcp       MCP servers: source, state, tool count, restarts, last error
/image <path>  attach an image (PNG, JPEG, GIF, WebP) to the next prompt (path relative to the workspace);
               during a run, to your next steer (or the next prompt if the run ends first)
/file <path>   attach a text file, inlined with its name, the same way
/vibe      vibe mode on or off (/vibe on, /vibe off): the agent conducts background workers
/compact   summarise the conversation now
/save      save the session (.a3s/sessions/<id>.json); reopen it with a3s sessions --resume <id>
/resume    continue the last run: a parked one from its log; an interrupted or failed one in a new run
${FLOW_HELP}
/exit      leave (also Ctrl-D, or Ctrl-C twice)`;

const DOUBLE_PRESS_MS = 2_000;

/** How `a3s code` starts: continue a log by id, or reopen a saved session (`a3s sessions --resume`). */
export interface CodePreset {
  /** Continue the fact log of this session id. */
  readonly sessionId?: string;
  /** Reopen this saved session (`agent.resumeSession`). */
  readonly resume?: string;
}

/** Runs `a3s code`; `preset` continues or reopens a session (from `a3s sessions --resume`). */
export async function codeCommand(args: readonly string[], io: Io, preset: CodePreset = {}): Promise<number> {
  const { values, positionals } = parse(args, { ...SESSION_FLAGS, session: { type: 'string' } }, 'code');
  if (values.help) {
    io.stdout.write(`${CODE_HELP}\n`);
    return EXIT.ok;
  }
  noPositionals(positionals, 'code', ' (type prompts at its prompt, or use a3s run "<prompt>")');
  checkSessionFlag(values.session, 'code');
  // What is for the person (the banner, the prompt, confirmation and question cards, notes on
  // input) goes to stdout on a terminal, else to stderr: redirected stdout keeps only the session's
  // output (the model's text, tool cards, run summaries, what a command printed).
  const chrome: Out = io.stdout.isTTY === true ? io.stdout : io.stderr;
  const reader = new LineReader(io.stdin, chrome, io.stdin.isTTY === true);
  const style = styleFor(io.stdout, io.env);
  const cs = chrome === io.stdout ? style : styleFor(chrome, io.env);
  const flags = {
    ...sessionFlags(values, io.cwd),
    warn: warnTo(io.stderr, io.env),
    // On a terminal the person answers for the folder's config file; elsewhere it takes the flag.
    ...(io.stdin.isTTY === true
      ? {
          askTrust: async (what: string): Promise<boolean> => {
            chrome.write(`${cs.yellow(what)}\n`);
            const answer = await reader.read('trust this folder? [y/N] ');
            return /^y(es)?$/i.test((answer ?? '').trim());
          },
        }
      : {}),
  };
  let current: Session | undefined;
  const print = createEventPrinter(io.stdout, style, {
    tty: io.stdout.isTTY === true && io.env.TERM !== 'dumb',
    artifacts: artifactSaver(
      style,
      flags.cwd,
      () => current?.sessionId ?? 'unknown',
      (id) => (current === undefined ? undefined : sessionArtifacts(current)(id)),
    ),
  });
  const sessionId = preset.sessionId ?? values.session;
  const note = values.session === undefined ? undefined : newSessionNote(flags.cwd, values.session);
  if (note !== undefined) chrome.write(cs.yellow(note));
  // Ctrl-C while the session opens (at the trust question, or an MCP server slow to start) leaves
  // at once with 130, as a3s run does; the exit hooks stop what had started.
  const stopOpening = reader.onInterrupt(() => {
    chrome.write('\n');
    process.exit(EXIT.cancelled);
  });
  let opened: OpenedSession;
  try {
    opened = await openSession(
      flags,
      io.env,
      {
        // dynamic_workflow's steps (/ultracode, /research) print as they go.
        workflowProgress: (e) => io.stdout.write(progressLine(style, e)),
        confirmation: terminalConfirmation(reader, chrome, cs, print.newline, flags.cwd),
        onQuestion: terminalQuestions(reader, chrome, cs, print.newline),
        ...(sessionId === undefined || preset.resume !== undefined ? {} : { sessionId }),
      },
      preset.resume,
    );
  } catch (e) {
    reader.close();
    throw e;
  } finally {
    stopOpening();
  }
  const { session } = opened;
  current = session;
  const stopTerm = closeOnSigterm(opened);
  let running = false;
  /** The run the person sees now: Ctrl-C and steers are addressed to it, so a late key never reaches the next run. */
  let runId: string | undefined;
  /** Attachments (`/image`, `/file`), steers, and what a run never delivered. */
  const input = new RunInput(session, (t) => chrome.write(t), cs);
  let exitCode: number = EXIT.ok;
  let lastInterrupt = 0;
  /** The flow running now (`/ultracode`, `/research`): Ctrl-C aborts it as it interrupts a run. */
  let flow: AbortController | undefined;
  /** The last flow, when it was interrupted: `/resume` continues it under its run id. */
  let interruptedFlow: FlowOutcome['again'] | undefined;
  const quit = (): void => {
    exitCode = EXIT.cancelled;
    if (runId !== undefined && !session.closed) session.interrupt({ runId, reason: 'the user left (Ctrl-C twice)' });
    flow?.abort(new Error('the user left (Ctrl-C twice)'));
    reader.close();
  };
  // The reader of stdout went away (`a3s code | head`): the answers would be lost, so the run is
  // interrupted and the session closed, as a3s run does; the exit code stays 0.
  const onStdoutClosed = (): void => {
    if (runId !== undefined && !session.closed) session.interrupt({ runId, reason: 'stdout was closed by its reader' });
    flow?.abort(new Error('stdout was closed by its reader'));
    reader.close();
  };
  io.stdoutClosed?.addEventListener('abort', onStdoutClosed);
  const stopInterrupts = reader.onInterrupt(() => {
    const now = Date.now();
    if (now - lastInterrupt < DOUBLE_PRESS_MS) return quit();
    lastInterrupt = now;
    print.newline();
    const reason = 'interrupted from the terminal (Ctrl-C)';
    let stopped = false;
    if (running && flow !== undefined && !flow.signal.aborted) {
      flow.abort(new Error(reason));
      stopped = true;
    } else if (running && runId !== undefined && !session.closed) stopped = session.interrupt({ runId, reason });
    if (stopped) chrome.write(cs.yellow('interrupting… (Ctrl-C again to exit)\n'));
    else chrome.write(cs.dim('(Ctrl-C again to exit, or /exit)\n'));
  });
  /** `/image` and `/file`: attached to the next prompt, or during a run to the next steer. */
  const attach = (command: string, text: string): void => {
    const path = attachmentPath(text, command);
    try {
      input.attach(
        attachmentFor(command === '/image' ? 'image' : 'file', path, session.dir, session.dir, command),
        running,
      );
    } catch (e) {
      chrome.write(`${terminalText((e as Error).message)}\n`);
    }
  };
  // A line typed during a run steers it; a `/` command is not a steer: `/image` and `/file` attach
  // to the next steer, `/help`, `/tools` and `/mcp` answer at once, the others wait for the run's end.
  reader.onIdleLine = (line) => {
    const text = line.trim();
    if (!running || text === '') return false;
    if (!text.startsWith('/')) {
      const undecoded = undecodedPrompt(text, 'this steer');
      if (undecoded === undefined) return input.steer(line, runId);
      chrome.write(cs.yellow(`not sent: ${undecoded}\n`));
      return true;
    }
    const [command = ''] = text.split(/\s+/);
    const problem = slashProblem(text);
    if (problem !== undefined) chrome.write(`${problem}\n`);
    else if (command === '/image' || command === '/file') attach(command, text);
    else if (command === '/help') io.stdout.write(`${SLASH_HELP}\n`);
    else if (command === '/tools') printTools(io.stdout, style, session.toolInfo(), session.dir);
    else if (command === '/mcp') printMcpServers(io.stdout, style, session.mcpStatus());
    else {
      chrome.write(cs.dim(`  (${command} runs when this run ends; Ctrl-C interrupts the run)\n`));
      return false;
    }
    return true;
  };

  /** Whether the last run (or command) failed: a3s code then exits with 1, as a3s run would. */
  let lastFailed = false;
  const finish = (r: RunResult): void => {
    lastFailed = false;
    print.newline();
    io.stdout.write(`${style.dim(runSummary(style, r, print.stopped, runCost(session, r)))}\n`);
  };
  const streamed = async (stream: EventStream): Promise<void> => {
    interruptedFlow = undefined;
    runId = session.activeRunId ?? undefined;
    print.reset();
    let end: { steers: UndeliveredSteer[]; status: string } = { steers: [], status: '' };
    try {
      for await (const ev of stream) {
        if (ev.type !== 'error') print(ev); // a failure is reported once, by guarded
        if (ev.type === 'agent_end') end = { steers: undeliveredSteers(ev.payload), status: String(ev.payload.status) };
      }
      finish(await stream.result);
    } finally {
      runId = undefined;
      await input.runEnded(end.steers, end.status);
    }
  };
  // A run whose recorded capabilities differ from the session's (a config changed since it
  // started) is not resumed silently: the terminal is asked whether to continue under the current ones.
  const resumed = async (): Promise<void> => {
    try {
      await streamed(session.streamResume());
    } catch (e) {
      if (!(e instanceof CapabilityDriftError)) throw e;
      print.newline();
      chrome.write(cs.yellow(`run ${e.runId}: its capabilities changed since it started (${e.summary})\n`));
      const answer = await reader.read('resume under the current capabilities? [y/N] ');
      if (answer === null || !/^y(es)?$/i.test(answer.trim())) {
        chrome.write(cs.dim('not resumed; /resume asks again\n'));
        return;
      }
      await streamed(session.streamResume(undefined, { rebind: true }));
    }
  };
  /** Runs a flow command that Ctrl-C interrupts; an interrupted one is kept for `/resume`. */
  const flowed = async (command: Parameters<typeof runFlowCommand>[1]): Promise<void> => {
    interruptedFlow = undefined;
    flow = new AbortController();
    try {
      const write = (t: string): unknown => io.stdout.write(t);
      const reopen = resumeCommand(session.sessionId, flags, io.cwd);
      const outcome = await runFlowCommand({ session, style, write, signal: flow.signal, reopen }, command);
      // A flow is a run too: the exit status says whether the last one failed.
      lastFailed = outcome.status === 'failed';
      if (outcome.status === 'cancelled') interruptedFlow = outcome.again;
    } finally {
      flow = undefined;
    }
  };
  const errStyle = styleFor(io.stderr, io.env);
  const guarded = async (op: () => Promise<void>): Promise<void> => {
    running = true;
    try {
      await op();
    } catch (e) {
      lastFailed = true;
      print.newline();
      io.stderr.write(
        errStyle.red(
          `${(e as { code?: string }).code ?? 'error'}: ${terminalText(cliMessage(e) ?? (e as Error).message)}\n`,
        ),
      );
      for (const hint of hintsFor('code', e)) io.stderr.write(errStyle.dim(`hint: ${hint}\n`));
    } finally {
      running = false;
      // After a flow, /compact or /save too: what waited for a steer goes with the next prompt.
      await input.runEnded([], '');
    }
  };

  chrome.write(`${cs.bold('a3s code')} ${cs.dim(terminalText(`· ${session.dir} · session ${session.sessionId}`))}\n`);
  chrome.write(cs.dim('type a prompt · /help for commands · Ctrl-C interrupts, twice exits\n'));
  if (opened.vibeNote !== undefined) chrome.write(cs.cyan(`${opened.vibeNote}\n`));
  if (opened.repairNote !== undefined) io.stderr.write(`${terminalText(opened.repairNote)}\n`);
  printMcpWarnings(io.stderr, styleFor(io.stderr, io.env), session.mcpStatus());
  if (preset.resume !== undefined)
    chrome.write(
      cs.dim(
        `reopened saved session ${terminalText(preset.resume)} (${session.state.view.messages.length} message(s))\n`,
      ),
    );
  if ((sessionId !== undefined || preset.resume !== undefined) && session.state.view.run.status === 'running') {
    if ((await resumeStart(session, reader, io, chrome, cs, flags)) === 'parked') exitCode = EXIT.parked;
    else await guarded(resumed);
  }

  try {
    for (;;) {
      if (io.stdoutClosed?.aborted === true) break;
      let line: string | null = input.takeNext() ?? null;
      if (line !== null) chrome.write(`${cs.cyan('› ')}${line}\n`);
      else line = await reader.read(cs.cyan('› '));
      if (line === null) {
        if (chrome.isTTY === true) chrome.write('\n'); // Ctrl-D: the shell's prompt starts on its own line
        break;
      }
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        const [command] = text.split(/\s+/);
        const problem = slashProblem(text);
        if (problem !== undefined) chrome.write(`${problem}\n`);
        else if (command === '/exit' || command === '/quit') break;
        else if (command === '/image' || command === '/file') attach(command, text);
        else if (command === '/help') io.stdout.write(`${SLASH_HELP}\n`);
        else if (command === '/tools') printTools(io.stdout, style, session.toolInfo(), session.dir);
        else if (command === '/mcp') printMcpServers(io.stdout, style, session.mcpStatus());
        else if (command === '/vibe') chrome.write(`${toggleVibe(session, text.split(/\s+/)[1], cs)}\n`);
        else if (command === '/save') {
          await guarded(async () => {
            const snapshot = await session.save();
            io.stdout.write(
              style.dim(
                terminalText(
                  `saved session ${snapshot.session_id} (${snapshot.runs.length} run(s)) to ${session.dir}/.a3s/sessions; reopen it with: a3s sessions --resume ${snapshot.session_id}\n`,
                ),
              ),
            );
          });
        } else if (command === '/compact' && session.state.view.messages.length === 0)
          // Nothing to summarise: no model call, and no summary of nothing in later context.
          chrome.write(cs.dim('nothing to compact: this session has no conversation yet\n'));
        else if (command === '/compact') {
          await guarded(async () => {
            const c = await session.compact();
            io.stdout.write(
              style.dim(`compacted: ${c.factsFolded} facts into a ${c.summaryChars}-character summary\n`),
            );
          });
        } else if (command === '/resume' && interruptedFlow !== undefined) {
          const again = interruptedFlow;
          interruptedFlow = undefined;
          await guarded(() => flowed({ ...again }));
        } else if (command === '/resume') {
          const held = input.takeHeld();
          const plan = planResume(session.state, held.texts);
          if (plan.kind === 'nothing') chrome.write(cs.dim(`nothing to resume: ${plan.why}\n`));
          else if (plan.kind === 'resume') await guarded(resumed);
          else {
            chrome.write(
              cs.dim(`continuing the ${plan.after === 'cancelled' ? 'interrupted' : 'failed'} run in a new run…\n`),
            );
            const attachments = [...held.attachments];
            await guarded(() => streamed(session.stream(plan.prompt, attachments.length > 0 ? { attachments } : {})));
          }
        } else if (FLOW_COMMANDS.includes(command ?? '')) {
          const parsed = parseFlowCommand(text);
          if ('error' in parsed) chrome.write(`${parsed.error}\n`);
          else await guarded(() => flowed(parsed));
        }
        continue;
      }
      lastInterrupt = 0;
      const undecoded = undecodedPrompt(text, 'this prompt');
      if (undecoded !== undefined) {
        chrome.write(cs.yellow(`not sent: ${undecoded}\n`));
        continue;
      }
      // The attachments go with this prompt (sent or refused, they are not kept for the next one).
      const attachments = input.takePrompt();
      await guarded(() => streamed(session.stream(text, attachments.length > 0 ? { attachments } : {})));
    }
  } finally {
    print.close();
    stopInterrupts();
    io.stdoutClosed?.removeEventListener('abort', onStdoutClosed);
    stopTerm();
    reader.close();
    await closeOrQuit(opened);
  }
  return exitCode === EXIT.ok && lastFailed ? EXIT.failed : exitCode;
}
