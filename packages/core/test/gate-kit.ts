// Real file and command tools for the completion-gate tests: `write_file` writes into the
// workspace folder and reports its change with a content digest; `bash` runs a real shell command.
import { exec } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, defineToolPack, type ToolPack } from '../src/index.js';

/** A pack with `write_file` (write tier) and `bash` (exec tier) working in `dir`. */
export function filePack(dir: string): ToolPack {
  const writeFile = defineTool({
    name: 'write_file',
    description: 'Write a file.',
    tier: 'write',
    input: z.object({ file_path: z.string(), content: z.string() }),
    execute: async ({ file_path, content }) => {
      writeFileSync(join(dir, file_path), content);
      const digest = `sha256:${createHash('sha256').update(content).digest('hex')}`;
      return {
        output: `wrote ${file_path}`,
        exitCode: 0,
        metadata: {
          changes: [{ path: file_path, action: 'modify', digest_after: digest }],
          changed_paths: [file_path],
        },
      };
    },
  });
  const bash = defineTool({
    name: 'bash',
    description: 'Run a command.',
    tier: 'exec',
    input: z.object({ command: z.string(), timeout: z.number().int().optional() }),
    execute: async ({ command, timeout }, ctx) =>
      new Promise((resolve) => {
        exec(command, { cwd: dir, timeout: timeout ?? 120_000, signal: ctx.signal }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          const timedOut = Boolean(error && (error as { killed?: boolean }).killed);
          resolve({
            output: `${stdout}${stderr}`,
            exitCode: timedOut ? 124 : code,
            metadata: { exit_code: code, timed_out: timedOut, changed_paths: [] },
          });
        });
      }),
  });
  return defineToolPack({ name: 'gate-test', version: '1.0.0', tools: [writeFile, bash] });
}
