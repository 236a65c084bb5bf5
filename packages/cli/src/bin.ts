#!/usr/bin/env node
// The `a3s` executable.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
