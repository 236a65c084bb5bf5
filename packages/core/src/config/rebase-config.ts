/**
 * A config file used by a session in a subfolder of the file's folder (see `workspace-folders.ts`)
 * keeps the meaning it had where it was written: its path rules and folders are relative to its
 * own folder, not to the session's, so they are made absolute against it. `Read(**\/.env)` in
 * `/repo/a3s.config.json` is `Read(//repo/**\/.env)` for a session in `/repo/pkg`. A rule that
 * cannot be carried over with the same meaning refuses the session, naming the rule and the file.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { parsePermissionRule, pathPatternOf } from '../permissions/permission-rule.js';
import type { CodeConfig } from './code-config.js';

// The tools whose rule patterns are file paths (as `permission-rule.ts` reads them).
const FILE_TOOLS = ['read', 'write', 'edit', 'patch', 'grep', 'glob', 'ls'];
const RULE_RE = /^([A-Za-z*?][A-Za-z0-9_.*?-]*)(?:\((.*)\))?$/s;

/** What a rule list does with a match: `deny` and `ask` lists hold, `allow` lists (and agents' tools) let through. */
type ListKind = 'hold' | 'allow';

/**
 * `config` (read from `file`, written for the folder `folder`) as it reads from a subfolder: path
 * rules of `permissions` and `agents[].tools` anchored at `folder` (`//<folder>/<pattern>`; for the
 * real path of `folder` too when it differs), `skillDirs` and `agentDirs` made absolute. Command,
 * domain and tool-only rules, and absolute or `~/` paths, mean the same anywhere and are kept; a
 * deny or ask rule of another tool (MCP) with a pattern is kept and anchored too.
 * @throws SessionConfigurationError naming the rule, its key path and the file, for a rule whose
 *   meaning cannot be carried over: a path pattern with a `..` left in it, a rule matching both
 *   file paths and commands, or a folder path a rule cannot spell.
 */
export function rebaseConfig(config: CodeConfig, folder: string, file: string): CodeConfig {
  const bases = [resolve(folder)];
  try {
    const real = realpathSync(folder);
    if (real !== bases[0]) bases.push(real);
  } catch {
    // The folder is gone: its spelling as found is the only one.
  }
  const rebaseList = (list: readonly string[] | undefined, field: string, kind: ListKind) =>
    list?.flatMap((rule, i) => rebaseRule(rule, `${field}[${i}]`, kind, bases, file));
  const { permissions, agents, skillDirs, agentDirs } = config;
  return {
    ...config,
    ...(permissions === undefined
      ? {}
      : {
          permissions: {
            ...permissions,
            ...(permissions.deny ? { deny: rebaseList(permissions.deny, 'permissions.deny', 'hold') } : {}),
            ...(permissions.ask ? { ask: rebaseList(permissions.ask, 'permissions.ask', 'hold') } : {}),
            ...(permissions.allow ? { allow: rebaseList(permissions.allow, 'permissions.allow', 'allow') } : {}),
          },
        }),
    ...(agents === undefined
      ? {}
      : {
          agents: agents.map((a, i) =>
            a.tools === undefined ? a : { ...a, tools: rebaseList(a.tools, `agents[${i}].tools`, 'allow') },
          ),
        }),
    ...(skillDirs === undefined ? {} : { skillDirs: skillDirs.map((d) => resolve(folder, d)) }),
    ...(agentDirs === undefined ? {} : { agentDirs: agentDirs.map((d) => resolve(folder, d)) }),
  };
}

/** The rules `rule` (at `field` of `file`) is, read from a subfolder of the folder spelled `bases`. */
function rebaseRule(rule: string, field: string, kind: ListKind, bases: readonly string[], file: string): string[] {
  const refuse = (why: string): never => {
    throw new SessionConfigurationError(
      field,
      `rule '${rule}' of ${file} cannot be applied in a subfolder of ${bases[0]}: ${why}. Write the rule as an absolute path (//${bases[0]!.slice(1)}/…), or open the session in ${bases[0]}`,
    );
  };
  const parsed = parsePermissionRule(rule, field, kind === 'hold' ? { alsoUnderWorkspace: true } : {});
  const m = RULE_RE.exec(rule.trim());
  const toolGlob = m?.[1];
  const written = m?.[2];
  // A tool-only rule names every call of the tool, wherever the session is.
  if (toolGlob === undefined || written === undefined) return [rule];
  const fileTool = FILE_TOOLS.some((t) => parsed.tool.test(t));
  const shell = parsed.tool.test('bash');
  const path = pathPatternOf(parsed);
  if (path === undefined) {
    if (fileTool && shell)
      refuse('its tool part matches both file tools (whose pattern is a path in the workspace) and bash (a command)');
    // A command or domain rule means the same anywhere; an MCP tool's deny or ask rule also sees its
    // path arguments, so it holds for them at the config's folder too.
    if (kind === 'allow' || shell || written.startsWith('domain:') || /^\/|^~(?:\/|$)/.test(written)) return [rule];
    return [rule, ...anchored(toolGlob, written, field, bases, refuse)];
  }
  // `/x` in a deny or ask list is both the absolute `/x` and `x` in the config's folder.
  if (kind === 'hold' && /^\/[^/]/.test(written))
    return [`${toolGlob}(/${written})`, ...anchored(toolGlob, written.slice(1), field, bases, refuse)];
  // Absolute (`//x`, `/x` in an allow list, `~/x`): the same anywhere.
  if (path.startsWith('/')) return [rule];
  return anchored(toolGlob, path, field, bases, refuse);
}

/** `Tool(//<base>/<pattern>)` for each spelling of the base folder, each checked as a rule. */
function anchored(
  toolGlob: string,
  pattern: string,
  field: string,
  bases: readonly string[],
  refuse: (why: string) => never,
): string[] {
  const relative = pattern.replace(/^(?:\.\/)+/, '');
  if (relative.split('/').includes('..'))
    refuse("its path pattern has a '..' that cannot be resolved, so where it points depends on the folder");
  const rest = relative === '' || relative === '.' ? '**' : relative;
  return bases.map((base) => {
    if (/[*?[\]]/.test(base))
      refuse(`the folder's path has a glob character (* ? [ ]), which a rule would read as one`);
    const rebased = `${toolGlob}(/${base === '/' ? '' : base}/${rest})`;
    try {
      parsePermissionRule(rebased, field);
    } catch (e) {
      refuse(`anchored at the folder it would be '${rebased}', which is no valid rule (${(e as Error).message})`);
    }
    return rebased;
  });
}
