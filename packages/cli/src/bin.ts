#!/usr/bin/env node
// The `a3s` executable.
import { EXIT } from './errors.js';
import { exitWith } from './exit-with.js';
import { main } from './main.js';
import { currentFolder } from './missing-folder.js';
import { pipeOut } from './pipe-out.js';

const stdout = pipeOut(process.stdout);
const stderr = pipeOut(process.stderr);
// The folder may have been deleted while a shell stood in it: `process.cwd()` then throws.
const cwd = currentFolder();
const code = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdinPiped: piped(),
  stdout: stdout.out,
  stderr: stderr.out,
  env: process.env,
  cwd: cwd ?? '/',
  ...(cwd === undefined ? { cwdGone: true } : {}),
  stdoutClosed: stdout.closed,
  watchStdoutReader: stdout.watchReader,
});
// Output that could not be written is lost: said once on stderr, and the command failed. A write
// error is reported on the next tick, so the last writes' errors are waited for.
await new Promise((resolve) => setImmediate(resolve));
const failure = stdout.failure();
if (failure !== undefined && code !== 2)
  stderr.out.write(`a3s: cannot write to stdout: ${failure.message}; output was lost\n`);
process.exitCode = failure !== undefined && code !== 2 ? 1 : code;
// The terminal closed (SIGHUP, 129): ended by the signal itself, see exitWith.
if (process.exitCode === EXIT.hangup) exitWith(EXIT.hangup);

/**
 * Whether stdin is a pipe or a socket (`echo … | a3s run`): Node makes a `net.Socket` of it. Told
 * from the stream Node made, not by an `fstat` of descriptor 0: under Node 20 that call at start
 * made later ES module imports keep their symbolic-link paths, loading a second copy of a package.
 */
function piped(): boolean {
  return process.stdin.isTTY !== true && process.stdin.constructor.name === 'Socket';
}
