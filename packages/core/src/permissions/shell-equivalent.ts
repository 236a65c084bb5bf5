/**
 * Shell equivalents: a tool whose input runs code (a notebook cell, a script) names the shell
 * command lines a call is equivalent to (`Tool.shellEquivalent`), and the `Bash(…)` deny and ask
 * rules judge each of them exactly as they judge a call of tool `bash`. Bash allow rules are never
 * consulted for such a tool: they can only make its calls stricter, never looser.
 */
import { ToolDefinitionError } from '../errors/tool-errors.js';
import type { Tool } from '../tools/tool.js';
import { ruleMatches, type PermissionRule } from './permission-rule.js';

/** The tool whose rules judge shell command lines. */
export const SHELL_TOOL = 'bash';

/** True when `rule` applies to the shell tool (`Bash(…)`, `B*`, `*`). */
export function isShellRule(rule: PermissionRule): boolean {
  return rule.tool.test(SHELL_TOOL);
}

/**
 * The shell command lines a call of `tool` with (validated) `args` is equivalent to: `[]` for a
 * tool that declares none. Throws `INVALID_TOOL_DEFINITION` when the tool returns anything but an
 * array of strings, so a broken declaration stops the call instead of letting it pass unjudged.
 */
export function shellEquivalentOf(tool: Pick<Tool, 'name' | 'shellEquivalent'>, args: unknown): readonly string[] {
  if (tool.shellEquivalent === undefined) return [];
  const lines: unknown = tool.shellEquivalent(args);
  if (!Array.isArray(lines) || !lines.every((l): l is string => typeof l === 'string'))
    throw new ToolDefinitionError(`tool '${tool.name}'`, 'shellEquivalent', 'must return an array of strings');
  return lines;
}

/**
 * The source of the first of `rules` (shell rules) that matches one of `commands` as a deny or
 * ask rule matches a `bash` call (any subject, a command that cannot be named matching every
 * rule), or `undefined`. `root` is the workspace root.
 */
export function firstShellRuleMatching(
  rules: readonly PermissionRule[],
  commands: readonly string[],
  root?: string,
): string | undefined {
  if (rules.length === 0) return undefined;
  // Commands outermost: each is judged once, then matched against every rule.
  let first: number | undefined;
  for (const command of new Set(commands)) {
    const args = { command };
    const i = rules.findIndex((r) => ruleMatches(r, SHELL_TOOL, args, 'any', root));
    if (i !== -1 && (first === undefined || i < first)) first = i;
    if (first === 0) break;
  }
  return first === undefined ? undefined : rules[first]!.source;
}
