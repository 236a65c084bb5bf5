/**
 * `a3s serve`: the runtime as a JSON-RPC 2.0 server on stdio, one JSON message per line
 * (`docs/serve.md`). stdout carries only protocol messages; diagnostics go to stderr. When stdin
 * ends (or on SIGTERM / SIGHUP / SIGINT, or when stdout's reader goes away) every session is closed —
 * active runs are interrupted and report their `run/result`, parked runs stay parked in their
 * logs — and the command exits 0 (stdin ended, stdout's reader gone), 130 (SIGINT), 143
 * (SIGTERM) or 129 (SIGHUP), as `a3s code` and `a3s run` do.
 */
import { parse } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import { exitWith } from '../exit-with.js';
import type { Io } from '../io.js';
import { DEFAULT_MAX_MESSAGE_BYTES, FRAMINGS, type Framing, type FrameReader, frameReader } from './framing.js';
import { ServeOutput } from './output.js';
import { ServeServer } from './server.js';

/** Help of `a3s serve`. */
export const SERVE_HELP = `Usage: a3s serve [options]

Serves sessions over JSON-RPC 2.0 on stdin/stdout, one JSON message per line (newline-delimited,
UTF-8). Methods: initialize, session/open, session/send, session/interrupt, session/steer,
confirmation/answer, question/answer, session/tools, session/close, session/list,
session/resume. Notifications: event (an EventEnvelopeV1, as a3s run --json prints it),
run/result, and run/eventsDropped (a run's events dropped while the client did not read stdout;
responses and run/result are never dropped). The JSON Schema of every message:
@a3s-code/cli/serve.schema.json. Closing stdin closes every session (exit 0; SIGINT: 130,
SIGTERM: 143, SIGHUP: 129, after closing them); parked runs stay parked in their logs
(session/resume continues them).

Options:
      --framing <f>    ndjson (default: one message per line) or content-length (LSP-style
                       Content-Length headers, as vscode-jsonrpc's stream reader and writer use)
      --max-message-bytes <n>
                       the largest message read (default 33554432, 32 MiB); a longer one is
                       answered with a parse error and skipped
  -h, --help           show this help`;

/** Runs `a3s serve` until stdin ends. */
export async function serveCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    { framing: { type: 'string' }, 'max-message-bytes': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'serve',
  );
  if (values.help) {
    io.stdout.write(`${SERVE_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'; see 'a3s serve --help'`);
  const framing = (values.framing ?? 'ndjson') as Framing;
  if (!FRAMINGS.includes(framing))
    throw new UsageError(`--framing: must be one of ${FRAMINGS.join(', ')}, got '${values.framing}'`);
  const maxMessageBytes = messageLimit(values['max-message-bytes']);
  // While stdout refuses writes (the client does not read), no request is read either.
  let reader: FrameReader | undefined;
  const output = new ServeOutput(io.stdout, framing, {
    onBlocked: () => reader?.pause(),
    onDrained: () => reader?.resume(),
  });
  const server = new ServeServer(output, io, framing, maxMessageBytes);
  const report = (e: unknown): void => void io.stderr.write(`a3s serve: ${(e as Error).message}\n`);
  reader = frameReader(
    io.stdin,
    framing,
    {
      onMessage: (text) => void server.accept(text).catch(report),
      onBadFrame: (problem) => void server.badFrame(problem).catch(report),
    },
    maxMessageBytes,
  );
  const stop = (): void => reader?.close();
  // A signal ends the server as it ends the other commands: everything closed, then 130, 143 or 129;
  // a second signal while it closes quits at once (exit hooks kill what is still being stopped).
  let exitCode: number = EXIT.ok;
  let signalled = false;
  // An open in flight is not waited for (its MCP servers may take their whole start-up deadline):
  // it is answered with SHUTTING_DOWN, and the process exits once the open sessions are closed.
  const onSignal = (code: number, name: string) => (): void => {
    if (signalled) exitWith(code);
    signalled = true;
    exitCode = code;
    server.abandonOpens(name);
    stop();
  };
  const onTerm = onSignal(EXIT.terminated, 'SIGTERM');
  const onHup = onSignal(EXIT.hangup, 'SIGHUP');
  const onInt = onSignal(EXIT.cancelled, 'SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  process.on('SIGINT', onInt);
  io.stdoutClosed?.addEventListener('abort', stop);
  try {
    await reader.ended;
    await server.shutdown();
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
    process.off('SIGINT', onInt);
    io.stdoutClosed?.removeEventListener('abort', stop);
    io.stdin.destroy(); // after a signal stdin may still be open, and would keep the process alive
  }
  // An abandoned open still starting MCP servers would hold the process until their deadline: it
  // exits now, and the exit hooks kill those servers' process groups.
  if (server.abandonedOpens > 0) {
    await drained(io.stdout, 2000);
    exitWith(exitCode);
  }
  return exitCode;
}

/** Resolves once `out` has nothing waiting to be written, or after `ms`. */
function drained(out: Io['stdout'], ms: number): Promise<void> {
  const stream = out as { readonly writableLength?: number; once?(event: 'drain', listener: () => void): unknown };
  if ((stream.writableLength ?? 0) === 0 || stream.once === undefined) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    stream.once?.('drain', () => {
      clearTimeout(timer);
      done();
    });
  });
}

/** `--max-message-bytes`: a whole number of bytes, at least 1 KiB. @throws UsageError naming the flag. */
function messageLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_MESSAGE_BYTES;
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1024)
    throw new UsageError(`--max-message-bytes: must be a whole number of bytes, 1024 or more; got '${value}'`);
  return n;
}
