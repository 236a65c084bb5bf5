/**
 * How `a3s code` starts on a session whose log left a run open (`a3s sessions --resume`,
 * `a3s code --session`): it continues the run, unless the run waits for an answer and there is
 * no terminal and no input left to give one.
 */
import { terminalText } from '@a3s-code/core';
import type { Session } from '@a3s-code/sdk';
import type { SessionFlags } from '../args.js';
import type { Io, Out } from '../io.js';
import { resumeCommand } from '../resume-command.js';
import { parkedInView } from '../render/run-summary.js';
import type { Style } from '../style.js';
import type { LineReader } from './line-reader.js';

/**
 * Says the open run is continued and returns `'continue'`; or, for a run parked at a confirmation
 * or a question when stdin is no terminal and its input ended before any line, prints the
 * `parked:` line `a3s run` prints and how to continue (with the session's `flags`), and returns
 * `'parked'`: a card would take the end of the input for an answer and refuse the call for good.
 */
export async function resumeStart(
  session: Session,
  reader: LineReader,
  io: Io,
  chrome: Out,
  cs: Style,
  flags: SessionFlags,
): Promise<'parked' | 'continue'> {
  const parked = parkedInView(session.state.view);
  if (parked !== undefined && io.stdin.isTTY !== true && (await reader.atEnd())) {
    io.stdout.write(`${parked.line}\n`);
    const how = `${resumeCommand(session.sessionId, flags, io.cwd)}${parked.confirm ? ' (or rerun with --yolo)' : ''}`;
    chrome.write(terminalText(`no answer (the input ended); continue it with: ${how}\n`));
    return 'parked';
  }
  chrome.write(cs.dim(`continuing run ${terminalText(session.state.view.run.run_id ?? '')}…\n`));
  return 'continue';
}
