/**
 * The `matcher` of a command hook (`pre` / `post`): which calls run the hook. It is written as
 * permission rules are, with `|` between alternatives: a tool (`Bash`, `bash`, `write_*`,
 * `mcp__github__*`; case-insensitive, `_` and `-` optional, as in rules) or a tool with a pattern
 * (`Bash(rm:*)`, `Write(src/**)`), which holds for the calls a deny rule of that text holds for.
 * `Edit|Write` runs the hook for either tool. A matcher naming no tool of the session would never
 * run its hook, so the session's build refuses it, naming the hook and the tools there are.
 */
import { suggestKey } from '../config/did-you-mean.js';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { PermissionRuleError } from '../errors/tool-errors.js';
import { parsePermissionRule, ruleMatches, type PermissionRule } from '../permissions/permission-rule.js';
import { otherAgentsName, programNamedAsTool } from '../permissions/rule-tool-names.js';

/** A compiled hook matcher. */
interface HookMatcher {
  /** The hook's field, `hooks.pre[0].matcher`. */
  readonly field: string;
  /** Each alternative as written, with its tool part and the rule it reads as. */
  readonly alternatives: readonly { readonly text: string; readonly tool: string; readonly rule: PermissionRule }[];
}

/** The matcher each compiled command hook was made with. */
const matchers = new WeakMap<object, HookMatcher>();

/** The alternatives of `text`, split at each `|` outside parentheses (a pattern may hold one: `Bash(a | b)`). */
function alternativesOf(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === '|' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((a) => a.trim());
}

/**
 * Compiles the matcher `text` of the hook at `field` (`hooks.pre[0].matcher`); `root` is the
 * workspace root path patterns are read against.
 * @throws SessionConfigurationError naming `field` for an empty alternative or one that is no rule.
 */
export function compileHookMatcher(
  text: string,
  field: string,
  root: string,
): { readonly matcher: HookMatcher; matches(toolName: string, args: unknown): boolean } {
  const alternatives = alternativesOf(text).map((alt) => {
    if (alt === '')
      throw new SessionConfigurationError(
        field,
        `${JSON.stringify(text)} has an empty alternative; write tool names (or rules such as Bash(rm:*)) between the '|'`,
      );
    try {
      const rule = parsePermissionRule(alt, field, { alsoUnderWorkspace: true });
      return { text: alt, tool: alt.replace(/\(.*$/s, ''), rule };
    } catch (e) {
      if (!(e instanceof PermissionRuleError)) throw e;
      const problem = e.message.startsWith(`${field}: `) ? e.message.slice(field.length + 2) : e.message;
      throw new SessionConfigurationError(
        field,
        `${problem} (a matcher is a tool name or glob, or a permission rule, with '|' between alternatives)`,
        { cause: e },
      );
    }
  });
  const matcher: HookMatcher = { field, alternatives };
  return {
    matcher,
    matches: (toolName, args) => alternatives.some((a) => ruleMatches(a.rule, toolName, args, 'any', root)),
  };
}

/** Records that the compiled `hook` runs for the calls `matcher` holds for (core-internal). */
export function markHookMatcher<H extends object>(hook: H, matcher: HookMatcher): H {
  matchers.set(hook, matcher);
  return hook;
}

/** Why the tool part `tool` of an alternative names no tool among `toolNames`, with what to write. */
function noToolProblem(alt: string, tool: string, toolNames: readonly string[]): string {
  const pattern = /\((.*)\)$/s.exec(alt)?.[1];
  const ours = otherAgentsName(tool, toolNames);
  const program = programNamedAsTool(tool);
  const hint =
    ours !== undefined
      ? `'${tool}' is another agent's name for what is '${ours}' here (write ${ours}${alt.slice(tool.length)})`
      : program === 'program'
        ? `'${tool}' is a program, which 'bash' runs (write ${pattern === undefined || pattern === '*' ? `Bash(${tool}:*)` : `Bash(${tool} ${pattern})`})`
        : program === 'verb'
          ? `commands are run by 'bash' here (write Bash${pattern === undefined ? '' : `(${pattern})`})`
          : undefined;
  const near = hint === undefined ? suggestKey(tool, toolNames) : undefined;
  const why = `names no tool of this session${hint !== undefined ? `: ${hint}` : near === undefined ? '' : ` (did you mean '${near}'?)`}`;
  const shown = toolNames.length > 40 ? `${toolNames.slice(0, 40).join(', ')}, …` : toolNames.join(', ');
  return `'${alt}' ${why}; a hook whose matcher names no tool never runs. The session's tools: ${shown || '(none)'}; MCP tools are named mcp__<server>__<tool>`;
}

/**
 * Refuses a command hook of `hooks` (`pre` and `post`) with a matcher alternative that matches
 * none of `toolNames` (the tools the session has when it is built, and those waiting for a
 * workspace capability). Not checked: `mcp__` names (servers connect later) and globs with `*` or
 * `?`, which may be meant for tools a pack added later brings.
 * @throws SessionConfigurationError naming the hook's matcher (`hooks.pre[0].matcher`), the
 *   allowed tool names in its details.
 */
export function checkHookMatchers(
  hooks: { readonly pre?: readonly object[]; readonly post?: readonly object[] },
  toolNames: readonly string[],
): void {
  for (const hook of [...(hooks.pre ?? []), ...(hooks.post ?? [])]) {
    const m = matchers.get(hook);
    if (m === undefined) continue;
    for (const alt of m.alternatives) {
      if (/^mcp__/i.test(alt.tool) || /[*?]/.test(alt.tool)) continue;
      if (toolNames.some((name) => alt.rule.tool.test(name))) continue;
      throw new SessionConfigurationError(m.field, noToolProblem(alt.text, alt.tool, toolNames), {
        allowed: toolNames,
      });
    }
  }
}
