#!/usr/bin/env node
// The `a3s` executable.
import { main } from './main.js';
import { pipeOut } from './pipe-out.js';

const stdout = pipeOut(process.stdout);
const stderr = pipeOut(process.stderr);
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: stdout.out,
  stderr: stderr.out,
  env: process.env,
  cwd: process.cwd(),
  stdoutClosed: stdout.closed,
});
