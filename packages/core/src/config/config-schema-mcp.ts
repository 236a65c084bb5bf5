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

/**
 * Whether the URL `v` carries credentials (`user:password@host`), which would then be shown
 * wherever the URL is (the trust listing, status, errors). A token belongs in `headers`.
 */
function urlHasCredentials(v: string): boolean {
  try {
    const { username, password } = new URL(v);
    if (username !== '' || password !== '') return true;
  } catch {
    // Not a URL: the scheme check says so.
  }
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(v);
}

/** What an MCP server URL with credentials is told (never echoing the URL). */
const MCP_URL_CREDENTIALS =
  'must not contain credentials (user:password@host): they would be shown wherever the URL is; send a token in `headers` (e.g. {"Authorization": "Bearer …"})';

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
        else if (remote && urlHasCredentials(entry.url as string))
          ctx.addIssue({ code: 'custom', path: [name, 'url'], message: MCP_URL_CREDENTIALS });
      }
    });
}
