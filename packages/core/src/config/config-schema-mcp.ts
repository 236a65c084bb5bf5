/**
 * The zod schema of `CodeConfig.mcpServers` in a config file: server names, and each entry's kind
 * (`command` or `url`) with the type of that key, so a wrong value is named by its own key path
 * (and the file's line and column). `@a3s-code/mcp` checks the rest of each entry when it starts.
 */
import type { z } from 'zod';
import type { Zod } from '../tools/zod-loader.js';

const MCP_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*$/;

/** Whether `v` is an absolute http:// or https:// URL. */
function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const { protocol } = new URL(v);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Builds the schema of the `mcpServers` map. */
export function mcpServersSchema(z: Zod): z.ZodType<Record<string, Record<string, unknown>>> {
  return z
    .record(
      z.string(),
      z.record(z.string(), z.unknown(), { error: 'must be an object with `command` (stdio) or `url` (remote)' }),
      { error: 'must be an object mapping server names to entries' },
    )
    .superRefine((value, ctx) => {
      for (const [name, entry] of Object.entries(value)) {
        if (name.length > 64 || !MCP_NAME.test(name))
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: "is not a valid server name: 1..64 of [A-Za-z0-9_-], starting with a letter or digit, no '__'",
          });
        const local = 'command' in entry;
        const remote = 'url' in entry;
        if (local === remote)
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'needs exactly one of `command` (a stdio server) or `url` (a Streamable HTTP / SSE server)',
          });
        else if (local && (typeof entry.command !== 'string' || entry.command === ''))
          ctx.addIssue({
            code: 'custom',
            path: [name, 'command'],
            message: 'must be a non-empty string: the command that starts a stdio server (its arguments go in `args`)',
          });
        else if (remote && !isHttpUrl(entry.url))
          ctx.addIssue({
            code: 'custom',
            path: [name, 'url'],
            message: 'must be an http:// or https:// URL (a Streamable HTTP / SSE server)',
          });
      }
    });
}
