/**
 * The `mcpServers` configuration (part of `CodeConfig`): one entry per server, keyed by the
 * server's name. A stdio server has `command` (with optional `args`, `env`, `cwd`); a remote
 * server has `url` (with optional `headers` and `transport`); either may say its `type` as Claude
 * Code's `.mcp.json` does (`stdio`; `http`, `sse`). Validated with zod; every error
 * names the key path (`mcpServers.github.command`) and what is allowed.
 */
import { lazyZod } from '@a3s-code/core';
import type { z } from 'zod';
import { McpConfigError } from './errors.js';
import { MAX_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES } from './message-limit.js';
import { assertServerName } from './server-name.js';

/**
 * Whether the URL `v` carries credentials (`user:password@host`), which would be shown wherever
 * the URL is (the trust listing, status, errors). A token belongs in `headers`.
 */
function urlHasCredentials(v: string): boolean {
  try {
    const { username, password } = new URL(v);
    if (username !== '' || password !== '') return true;
  } catch {
    // Not a URL: the URL check says so.
  }
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(v);
}

/** The zod schemas of the two kinds of entry, built (and zod loaded) when the first entry is read. */
const schemas = lazyZod((z) => {
  const timeoutMs = z.number().int().min(1).max(86_400_000);

  const common = {
    /** `false` keeps the entry in the file but does not start the server. */
    enabled: z.boolean().optional(),
    /** Timeout of each tool call, milliseconds; also becomes the bridged tools' `timeoutMs`. */
    timeoutMs: timeoutMs.optional(),
    /** Deadline for start-up and the `initialize` handshake, milliseconds. Default 30000. */
    connectTimeoutMs: timeoutMs.optional(),
    /**
     * The most bytes read of one message: a stdio line, an HTTP response body, an SSE event.
     * `1024..268435456`; default 10485760 (10 MiB).
     */
    maxMessageBytes: z
      .number()
      .int('must be an integer number of bytes')
      .min(MIN_MAX_MESSAGE_BYTES, `must be at least ${MIN_MAX_MESSAGE_BYTES} bytes`)
      .max(MAX_MAX_MESSAGE_BYTES, `must be at most ${MAX_MAX_MESSAGE_BYTES} bytes (256 MiB)`)
      .optional(),
  };

  const stdioSchema = z
    .object({
      command: z.string().min(1, 'must be a non-empty command'),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().min(1).optional(),
      /** Bytes of stderr kept for `mcpStatus()`, `1024..1048576`. Default 16384. */
      stderrBytes: z.number().int().min(1024).max(1_048_576).optional(),
      ...common,
    })
    .strict();

  const httpSchema = z
    .object({
      url: z
        .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
        .refine((u) => !urlHasCredentials(u), {
          error:
            'must not contain credentials (user:password@host): they would be shown wherever the URL is; send a token in `headers` (e.g. {"Authorization": "Bearer …"})',
        }),
      headers: z.record(z.string(), z.string()).optional(),
      /** `auto` (default) tries Streamable HTTP, then falls back to SSE. */
      transport: z.enum(['auto', 'streamable-http', 'sse']).optional(),
      ...common,
    })
    .strict();
  return { stdioSchema, httpSchema };
});

/** A stdio server: started by us as a process-group leader. */
export type McpStdioServerConfig = z.output<ReturnType<typeof schemas>['stdioSchema']>;
/** A remote server over Streamable HTTP (or SSE). */
export type McpHttpServerConfig = z.output<ReturnType<typeof schemas>['httpSchema']>;
/** One server entry. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;
/** The `mcpServers` map: server name to entry. */
export type McpServersConfig = Readonly<Record<string, McpServerConfig>>;

/** True for a stdio entry. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config;
}

function joinPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}

/** The keys of each kind of entry, as an unknown key's error lists them. */
const COMMON_KEYS = ['enabled', 'timeoutMs', 'connectTimeoutMs', 'maxMessageBytes'];
const STDIO_KEYS = ['command', 'type', 'args', 'env', 'cwd', 'stderrBytes', ...COMMON_KEYS];
const HTTP_KEYS = ['url', 'type', 'headers', 'transport', ...COMMON_KEYS];

/**
 * The `type` of an entry as Claude Code's `.mcp.json` writes it, and the transport each means:
 * `stdio` for a `command` entry; `http` (Streamable HTTP) and `sse` for a `url` entry.
 */
const ENTRY_TYPES = { stdio: 'stdio', http: 'streamable-http', sse: 'sse' } as const;

/**
 * The entry without `type`, which is taken when it agrees with the entry (`stdio` with `command`;
 * `http` or `sse` with `url`, then it sets `transport`, which it must agree with when both are given).
 * @throws McpConfigError naming `<path>.type` and the types allowed for the entry.
 */
function withoutType(value: object, path: string, stdio: boolean): object {
  const { type, ...rest } = value as Record<string, unknown>;
  // Left out, or set to `undefined` (a host building entries in code), as for every other key.
  if (type === undefined) return 'type' in value ? rest : value;
  const field = `${path}.type`;
  const fits = stdio
    ? "this entry has `command` (a stdio server): its type is 'stdio', or leave type out"
    : "this entry has `url` (a remote server): its type is 'http' (Streamable HTTP) or 'sse', or leave type out";
  if (typeof type !== 'string' || !Object.hasOwn(ENTRY_TYPES, type)) {
    const given =
      typeof type === 'string'
        ? JSON.stringify(type)
        : type === null
          ? 'null'
          : Array.isArray(type)
            ? 'an array'
            : typeof type === 'object'
              ? 'an object'
              : `a ${typeof type}`;
    throw new McpConfigError(
      field,
      `must be 'stdio', 'http' or 'sse' (as in Claude Code's .mcp.json), not ${given}; ${fits}`,
    );
  }
  if ((type === 'stdio') !== stdio) throw new McpConfigError(field, `'${type}' contradicts the entry: ${fits}`);
  if (stdio) return rest;
  const transport = ENTRY_TYPES[type as 'http' | 'sse'];
  if (rest.transport !== undefined && rest.transport !== transport)
    throw new McpConfigError(
      field,
      `'${type}' means transport '${transport}', but transport is ${JSON.stringify(rest.transport)}: keep one of them`,
    );
  return { ...rest, transport };
}

/** What a value of each key must be, for a value of the wrong type (zod's words name only the JSON type). */
const EXPECTED: Readonly<Record<string, string>> = {
  command: 'a non-empty command',
  args: 'an array of strings, e.g. ["-y", "@modelcontextprotocol/server-github"]',
  env: 'an object of string values, e.g. { "TOKEN": "..." }',
  headers: 'an object of string values, e.g. { "Authorization": "Bearer ..." }',
  cwd: 'a folder path',
  url: 'an http:// or https:// URL',
  enabled: 'true or false',
  timeoutMs: 'an integer number of milliseconds',
  connectTimeoutMs: 'an integer number of milliseconds',
  maxMessageBytes: 'an integer number of bytes',
  stderrBytes: 'an integer number of bytes from 1024 to 1048576',
};

/** The JSON name of the type zod received (`received string` in its message), as `a string`. */
function received(message: string): string {
  const type = /received (\w+)/.exec(message)?.[1];
  if (type === undefined) return '';
  const named =
    type === 'array' ? 'an array' : type === 'object' ? 'an object' : type === 'null' ? 'null' : `a ${type}`;
  return `, not ${named}`;
}

function fail(path: string, issues: readonly z.core.$ZodIssue[], stdio: boolean): never {
  const first = issues[0];
  if (first === undefined) throw new McpConfigError(path, 'is invalid');
  if (first.code === 'unrecognized_keys') {
    const keys = stdio ? STDIO_KEYS : HTTP_KEYS;
    const kind = stdio ? 'a stdio server (command)' : 'a remote server (url)';
    throw new McpConfigError(
      joinPath(path, [...first.path, first.keys[0] ?? '?']),
      `is not a known key of ${kind}; allowed keys: ${keys.join(', ')}`,
    );
  }
  if (first.code === 'invalid_type') {
    const [key, index] = first.path;
    // An item of `args` (`args[1]`), or the value of a key of `env` / `headers`.
    const what =
      first.path.length === 1 && typeof key === 'string'
        ? EXPECTED[key]
        : key === 'args' && typeof index === 'number'
          ? 'a string'
          : first.path.length === 2 && (key === 'env' || key === 'headers')
            ? 'a string'
            : undefined;
    if (what !== undefined)
      throw new McpConfigError(joinPath(path, first.path), `must be ${what}${received(first.message)}`);
  }
  throw new McpConfigError(joinPath(path, first.path), first.message);
}

/**
 * Validates one server entry. `path` names it in errors (`mcpServers.github`). A value with
 * both `command` and `url` (or neither) is rejected: a server is either local or remote. A
 * `type` copied from Claude Code's `.mcp.json` is taken when it agrees with the entry (see
 * {@link withoutType}) and is not kept in the result: `http` and `sse` become `transport`.
 */
export function parseMcpServerConfig(value: unknown, path = 'server'): McpServerConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new McpConfigError(path, 'must be an object with `command` or `url`');
  const hasCommand = 'command' in value;
  const hasUrl = 'url' in value;
  if (hasCommand && hasUrl)
    throw new McpConfigError(
      `${path}.url`,
      'cannot be combined with `command`: a server is either stdio (`command`) or remote (`url`)',
    );
  if (!hasCommand && !hasUrl)
    throw new McpConfigError(path, 'needs `command` (a stdio server) or `url` (a Streamable HTTP / SSE server)');
  const entry = withoutType(value, path, hasCommand);
  const parsed = hasCommand ? schemas().stdioSchema.safeParse(entry) : schemas().httpSchema.safeParse(entry);
  if (!parsed.success) fail(path, parsed.error.issues, hasCommand);
  return Object.freeze(parsed.data);
}

/** Validates a whole `mcpServers` map. `path` names it in errors (default `mcpServers`). */
export function parseMcpServers(value: unknown, path = 'mcpServers'): McpServersConfig {
  if (value === undefined) return Object.freeze({});
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new McpConfigError(path, 'must be an object mapping server names to entries');
  const out: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(value)) {
    assertServerName(name, `${path}.${name}`);
    out[name] = parseMcpServerConfig(entry, `${path}.${name}`);
  }
  return Object.freeze(out);
}
