/**
 * The strings a rule pattern sees for a call: `bash` each simple command the command line may run,
 * normalised (see `shell/shell-judge.ts`: quotes removed, wrappers unwrapped, the command's
 * basename, at any depth, plus the command as written when it differs); `read`, `write`,
 * `edit`, `patch` every file path (`file_path`, `path`, `files[].path`, and the paths named in a
 * patch's `---`/`+++` headers and git rename/copy lines, unquoted as the tool reads them); `grep`, `glob` the pattern and the path (alternatives: a rule
 * matches when it matches either); `web_fetch` `domain:<host>`, the URL and its args as JSON
 * (alternatives); `task` the agent's name or its args as JSON (alternatives); `parallel_task`
 * each agent's name and its args as JSON; any other tool its args as JSON.
 */

import { homedir } from 'node:os';
import { posix } from 'node:path';
import { diffPaths } from './diff-paths.js';
import { canonicalSpellings } from './path-spelling.js';
import { judgeShellCommand, type ShellJudgement } from './shell/shell-judge.js';
import { HOLE } from './shell/shell-word.js';

/** The subjects of a call, and whether they are alternatives or a set that must all match. */
export interface RuleSubjects {
  /**
   * The subjects. For `bash`, `\uE000` (a hole) stands for text computed at run time, and a subject
   * that is only a hole for a command that cannot be named statically (`eval …`, `$CMD`, `… | sh`).
   */
  readonly subjects: readonly string[];
  /** `true`: matching any subject is enough even for allow rules (grep/glob). */
  readonly alternatives: boolean;
  /** `true`: some shell subject holds text computed at run time (only a rule covering every value of it may allow). */
  readonly unverifiable?: boolean;
  /** `true`: the subjects are shell commands, matched hole-aware (see `glob-match.ts`). */
  readonly shell?: boolean;
  /**
   * File tools: each path's canonical spellings (see `canonicalSpellings`). An allow rule must
   * cover one spelling of every path; a deny or ask rule matches any subject, and the subjects
   * hold every path as given and canonical, so `./secret/x` or `a/../secret/x` cannot slip past
   * `Write(secret/**)`.
   */
  readonly paths?: readonly (readonly string[])[];
  /**
   * Subjects only a deny or ask rule sees: for a tool judged by its arguments as JSON, each
   * top-level string argument (and, for a path, its canonical spellings), so `Git(checkout)` or
   * `mcp__fs__write_file(secret/**)` holds; an allow rule still has to match the JSON. Made only
   * when a deny or ask rule's other subjects did not match.
   */
  readonly denyOnly?: () => readonly string[];
}

const PATH_TOOLS = new Set(['read', 'write', 'edit', 'patch', 'ls']);
const SEARCH_TOOLS = new Set(['grep', 'glob']);

function field(args: unknown, key: string): unknown {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[key] : undefined;
}

function pushString(out: string[], value: unknown): void {
  if (typeof value === 'string' && value.length > 0) out.push(value);
}

// Every rule of a policy asks for the same call's subjects: the last judgement is kept.
let lastJudged: { readonly command: string; readonly judgement: ShellJudgement } | undefined;

function judgeShell(command: string): ShellJudgement {
  if (lastJudged?.command !== command) lastJudged = { command, judgement: judgeShellCommand(command) };
  return lastJudged.judgement;
}

// The judgement of a `bash` call's command, or `undefined` for another tool or a call without one.
function judgedCall(toolName: string, args: unknown): ShellJudgement | undefined {
  if (toolName.toLowerCase() !== 'bash') return undefined;
  const command = field(args, 'command');
  return typeof command === 'string' && command.length > 0 ? judgeShell(command) : undefined;
}

/**
 * Why the command of a `bash` call could not be read in full (see `ShellJudgement.unreadable`),
 * or `undefined`: such a command is held to every deny and ask rule.
 */
export function unreadableCommand(toolName: string, args: unknown): string | undefined {
  return judgedCall(toolName, args)?.unreadable;
}

/**
 * The words of a `bash` call that name a place where credentials are kept (see
 * `ShellJudgement.secrets`), or `undefined` for another tool or a call without a command.
 */
export function shellSecrets(toolName: string, args: unknown): readonly string[] | undefined {
  return judgedCall(toolName, args)?.secrets;
}

/**
 * The files a `bash` call writes (see `ShellJudgement.writes`), or `undefined` for another tool
 * or a call without a command.
 */
export function shellWrites(toolName: string, args: unknown): readonly string[] | undefined {
  return judgedCall(toolName, args)?.writes;
}

/**
 * The files a `bash` call writes that another of its commands may first put behind a symbolic link
 * (see `ShellJudgement.relinked`), or `undefined` for another tool or a call without a command.
 */
export function shellRelinked(toolName: string, args: unknown): readonly string[] | undefined {
  return judgedCall(toolName, args)?.relinked;
}

/** Adds each spelling of `paths` to `out` once; returns the canonical spellings of each path. */
function spelled(out: string[], paths: readonly string[], root: string | undefined): string[][] {
  const seen = new Set(out);
  const add = (s: string): void => {
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  };
  return paths.map((p) => {
    const canonical = canonicalSpellings(p, root);
    add(p);
    for (const c of canonical) add(c);
    return canonical;
  });
}

/**
 * Extracts the subjects of a call of `toolName` (case-insensitive) with `args`; `root` (the
 * workspace root) lets absolute paths under it be matched as workspace-relative ones.
 */
export function ruleSubjects(toolName: string, args: unknown, root?: string): RuleSubjects {
  const name = toolName.toLowerCase();
  const out: string[] = [];
  if (name === 'bash') {
    const command = field(args, 'command');
    if (typeof command !== 'string' || command.length === 0) return { subjects: [], alternatives: false };
    // Every simple command of a compound one is judged on its own (`npm test; rm -rf ~`).
    const { subjects } = judgeShell(command);
    return { subjects, alternatives: false, unverifiable: subjects.some((s) => s.includes(HOLE)), shell: true };
  }
  if (PATH_TOOLS.has(name)) {
    const given: string[] = [];
    pushString(given, field(args, 'file_path'));
    pushString(given, field(args, 'path'));
    const files = field(args, 'files');
    if (Array.isArray(files)) for (const f of files) pushString(given, typeof f === 'string' ? f : field(f, 'path'));
    for (const key of ['patch', 'diff']) {
      const text = field(args, key);
      if (typeof text === 'string') given.push(...diffPaths(text));
    }
    const paths = spelled(out, given, root);
    return { subjects: out, alternatives: false, paths };
  }
  if (SEARCH_TOOLS.has(name)) {
    pushString(out, field(args, 'pattern'));
    const path = field(args, 'path');
    spelled(out, [typeof path === 'string' && path.length > 0 ? path : '.'], root);
    return { subjects: out, alternatives: true };
  }
  if (WEB_FETCH_TOOLS.has(name)) {
    // `WebFetch(domain:docs.python.org)` (as other products write it) and URL globs see the host
    // and the URL as the tool will fetch them; the arguments as JSON stay a subject too.
    const url = webUrl(field(args, 'url'));
    const json = JSON.stringify(args ?? {});
    if (url === undefined) return { subjects: [json], alternatives: true };
    // A deny or ask rule naming a domain covers its subdomains too (`domain:evil.example` holds for `a.evil.example`).
    const labels = url.host.split('.');
    const parents = labels.slice(1, -1).map((_, i) => `domain:${labels.slice(i + 1).join('.')}`);
    return { subjects: [`domain:${url.host}`, url.href, json], alternatives: true, denyOnly: () => parents };
  }
  if (name === 'task') {
    // `Task(explore)` (as other products name a sub-agent) sees the agent's name.
    const agent = field(args, 'agent');
    const json = JSON.stringify(args ?? {});
    return { subjects: typeof agent === 'string' ? [agent, json] : [json], alternatives: true };
  }
  if (name === 'parallel_task' || name === 'paralleltask') {
    // Each sub-agent's name and the arguments: a deny or ask rule naming one agent matches.
    const tasks = field(args, 'tasks');
    const agents = Array.isArray(tasks) ? tasks.map((t) => field(t, 'agent')).filter((a) => typeof a === 'string') : [];
    return { subjects: [...new Set(agents as string[]), JSON.stringify(args ?? {})], alternatives: false };
  }
  return {
    subjects: [JSON.stringify(args ?? {})],
    alternatives: false,
    denyOnly: () => stringArguments(args, root),
  };
}

// Bounds of the string arguments a deny or ask rule sees besides the JSON: how many, the longest
// matched as written, and the longest read as a path at all (a path longer than the system's
// limit, `./././…/.env`, still names a short one once a server resolves it).
const MAX_STRING_ARGUMENTS = 64;
const MAX_STRING_ARGUMENT = 4096;
const MAX_PATH_TEXT = 1 << 20;

/** The spellings a rule sees of a string that may be a path: as written (when short), canonical, and normalised when absolute. */
function pathSpellings(text: string, root: string | undefined): string[] {
  if (text.length === 0 || text.length > MAX_PATH_TEXT) return [];
  const out = new Set<string>(text.length <= MAX_STRING_ARGUMENT ? [text] : []);
  // Text with a line break is content, not a path: it is matched only as written.
  if (text.includes('\n')) return [...out];
  for (const s of canonicalSpellings(text, root)) if (s.length <= MAX_STRING_ARGUMENT) out.add(s);
  if (text.startsWith('/')) out.add(posix.normalize(text));
  return [...out];
}

function stringArguments(args: unknown, root: string | undefined): string[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [];
  return Object.values(args as Record<string, unknown>)
    .filter((v): v is string => typeof v === 'string')
    .slice(0, MAX_STRING_ARGUMENTS)
    .flatMap((v) => pathSpellings(v, root));
}

const WEB_FETCH_TOOLS = new Set(['web_fetch', 'webfetch']);

/** The URL a fetch would get, its host lower-case without a final dot, or `undefined`. */
function webUrl(value: unknown): { host: string; href: string } | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return { host: url.hostname.replace(/\.$/, ''), href: url.href };
  } catch {
    return undefined;
  }
}

/** Strings of an MCP call's arguments judged as paths at most; a call holding more is not judged. */
export const MAX_MCP_STRINGS = 1024;
/** How deep an MCP call's arguments are looked into. */
const MAX_MCP_DEPTH = 32;

/**
 * Every string in an MCP call's arguments, however nested in objects and lists (servers often
 * take `{ options: { path } }`), object keys included, or `undefined` when there are more than {@link MAX_MCP_STRINGS}
 * or they nest deeper than can be looked into: such a call cannot be judged against path rules.
 */
function mcpStrings(args: unknown): string[] | undefined {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return out.push(v) <= MAX_MCP_STRINGS;
    if (typeof v !== 'object' || v === null) return true;
    if (depth >= MAX_MCP_DEPTH) return false;
    if (Array.isArray(v)) return v.every((item) => walk(item, depth + 1));
    // A server may key its request by path (`{ files: { '.env': {…} } }`): keys are read too.
    for (const [key, item] of Object.entries(v)) if (!walk(key, depth) || !walk(item, depth + 1)) return false;
    return true;
  };
  return walk(args, 0) ? out : undefined;
}

/**
 * The spellings of each path an MCP tool's arguments may name: every string in them, however
 * nested, a `file://` URI as its path; `undefined` when the arguments hold too many strings (or
 * nest too deep) to be judged.
 */
export function mcpPathArguments(args: unknown, root: string | undefined, home = homedir()): string[][] | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [];
  const values = mcpStrings(args);
  if (values === undefined) return undefined;
  // A folder whose every name a rule covers (`secret` under `Read(secret/**)`) counts as covered too.
  return values
    .map((p) => [...new Set(serverSpellings(p, root, home).flatMap((s) => pathSpellings(s, root)))])
    .filter((spellings) => spellings.length > 0)
    .map((spellings) => [...spellings, ...spellings.map((s) => `${s.replace(/\/+$/, '')}/\u0001`)]);
}

// A leading `/proc/<self|thread-self|pid>/root` (the root seen through a link) or `/cwd` (the
// server's working folder, which is the workspace when it was started there).
const PROC_LINK = /^\/+proc\/+(?:self|thread-self|\d+)\/+(root|cwd)(?=\/|$)/;

/**
 * `value` as a server may read it, beside the value as written: a `file:` URI in any case and
 * form (`FILE:///x`, `file:/x`) as its path; `~` and `~/x` in the home folder (servers expand
 * them); `/proc/self/root/x` as `/x`; `/proc/self/cwd/x` as `x` (relative to the workspace, where
 * servers are started). Each spelling is judged: a rule that covers any of them covers the call.
 */
function serverSpellings(value: string, root: string | undefined, home: string): string[] {
  const out = [value];
  let path = value;
  if (/^file:/i.test(path)) {
    path = fileUriPath(path);
    out.push(path);
  }
  if ((path === '~' || path.startsWith('~/')) && home.startsWith('/')) {
    path = `${home.replace(/\/+$/, '')}${path.slice(1)}`;
    out.push(path);
  }
  for (let m = PROC_LINK.exec(path), n = 0; m !== null && n < 8; m = PROC_LINK.exec(path), n++) {
    const rest = path.slice(m[0].length).replace(/^\/+/, '');
    path = m[1] === 'root' ? `/${rest}` : root === undefined ? rest : `${root.replace(/\/+$/, '')}/${rest}`;
    out.push(path);
  }
  return out;
}

function fileUriPath(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}
