/**
 * Tests only: `grep`, `glob`, `read` and `ls` over an in-memory file map, with the argument and
 * result shapes of `@a3s-code/tools-workspace` (numbered `read` lines, `metadata.paths`,
 * `metadata.entries`), so `ctx.grep/glob/readFile/ls` are exercised against the real contract.
 */
import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { defineToolPack, type ToolPack } from '../../tools/tool-pack.js';

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(glob.includes('/') ? `^${re}$` : `(^|/)${re}$`);
}

/** A pack over `files` (path → content). */
export function memoryWorkspaceTools(files: Readonly<Record<string, string>>): ToolPack {
  const paths = Object.keys(files).sort();
  const caps = { readOnly: true, idempotent: true };
  return defineToolPack({
    name: 'memory-workspace-tools',
    version: '0.0.0',
    tools: [
      defineTool({
        name: 'grep',
        description: 'grep',
        tier: 'read',
        capabilities: caps,
        input: z
          .object({ pattern: z.string().min(1), glob: z.string().optional(), path: z.string().optional() })
          .strict(),
        execute: async (args) => {
          const re = new RegExp(args.pattern);
          const only = args.glob === undefined ? undefined : globToRegExp(args.glob);
          const lines: string[] = [];
          for (const p of paths) {
            if (only !== undefined && !only.test(p)) continue;
            files[p]!.split('\n').forEach((l, i) => {
              if (re.test(l)) lines.push(`${p}:${i + 1}:${l}`);
            });
          }
          return {
            output: lines.length === 0 ? 'No matches found' : lines.join('\n'),
            exitCode: 0,
            metadata: { mode: 'content', matches: lines.length },
          };
        },
      }),
      defineTool({
        name: 'glob',
        description: 'glob',
        tier: 'read',
        capabilities: caps,
        input: z.object({ pattern: z.string().min(1) }).strict(),
        execute: async (args) => {
          const re = globToRegExp(args.pattern);
          const hits = paths.filter((p) => re.test(p));
          return {
            output: hits.length === 0 ? 'No files found' : hits.join('\n'),
            exitCode: 0,
            metadata: { paths: hits, total: hits.length },
          };
        },
      }),
      defineTool({
        name: 'read',
        description: 'read',
        tier: 'read',
        capabilities: caps,
        input: z.object({ file_path: z.string().min(1) }).strict(),
        execute: async (args) => {
          const content = files[args.file_path];
          if (content === undefined) return { output: `File not found: ${args.file_path}`, exitCode: 1 };
          const lines = content.replace(/\n$/, '').split('\n');
          const output = lines.map((l, i) => `${String(i + 1).padStart(6, ' ')}\t${l}\n`).join('');
          return { output, exitCode: 0, metadata: { path: args.file_path, total_lines: lines.length } };
        },
      }),
      defineTool({
        name: 'ls',
        description: 'ls',
        tier: 'read',
        capabilities: caps,
        input: z.object({ path: z.string().optional() }).strict(),
        execute: async (args) => {
          const dir = args.path === undefined || args.path === '.' ? '' : `${args.path.replace(/\/$/, '')}/`;
          const names = new Set<string>();
          for (const p of paths) if (p.startsWith(dir)) names.add(p.slice(dir.length).split('/')[0]!);
          const entries = [...names]
            .sort()
            .map((name) => ({ name, type: files[dir + name] === undefined ? 'directory' : 'file' }));
          return { output: entries.map((e) => e.name).join('\n'), exitCode: 0, metadata: { entries } };
        },
      }),
    ],
  });
}
