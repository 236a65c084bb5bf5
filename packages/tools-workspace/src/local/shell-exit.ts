/**
 * When a command's shell has exited and its output pipes have closed, for a shell started
 * directly and for one started under the reaper (see `reaper.ts`), which outlives its shell while
 * background processes run and reports the shell's status on its fourth pipe.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { parseReport, type ShellExit } from './reaper.js';

/** Longest report the reaper writes (a wait status, or why it started nothing), with room to spare. */
const MAX_REPORT_CHARS = 8192;

/** The exit of `child` itself (a spawn failure counts as an exit with neither code nor signal). */
export function processExit(child: ChildProcess): Promise<ShellExit> {
  return new Promise((resolve) => {
    child.once('exit', (code, sig) => resolve({ code, sig }));
    child.once('error', () => resolve({ code: null, sig: null }));
  });
}

/**
 * The exit of the shell under the reaper `child`, from its report. Without a report (the reaper
 * was killed first, or could not start the shell), the reaper's own exit stands for it. Once the
 * shell has exited, the reaper no longer holds the host open.
 */
export function shellExit(child: ChildProcess): Promise<ShellExit> {
  const own = processExit(child);
  const report = child.stdio[3] as Readable | null | undefined;
  if (!report) return own;
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    report.setEncoding('latin1');
    report.on('data', (chunk: string) => {
      if (done) return;
      text += chunk;
      const exit = parseReport(text);
      if (exit !== undefined) {
        done = true;
        resolve(exit);
        child.unref();
        unrefStream(report);
      } else if (text.length > MAX_REPORT_CHARS) {
        report.destroy();
      }
    });
    report.on('error', () => undefined);
    report.once('close', () => {
      if (!done) void own.then(resolve);
    });
  });
}

/** Both output pipes of `child` have closed (whoever held them). */
export function pipesClosed(child: ChildProcess): Promise<void> {
  const closed = (s: Readable | null): Promise<void> =>
    s === null || s.closed ? Promise.resolve() : new Promise((resolve) => s.once('close', () => resolve()));
  return Promise.all([closed(child.stdout), closed(child.stderr)]).then(() => undefined);
}

function unrefStream(stream: Readable): void {
  const handle = stream as Readable & { unref?: () => void };
  if (typeof handle.unref === 'function') handle.unref();
}
