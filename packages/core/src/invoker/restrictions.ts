/**
 * Evaluation of {@link ToolRestriction}s: each is compiled once (cached by object
 * identity) into allow and deny matchers over the permission-rule syntax.
 */
import {
  parsePermissionRule,
  ruleCoversAllCalls,
  ruleMatches,
  type PermissionRule,
} from '../permissions/permission-rule.js';
import { firstShellRuleMatching, isShellRule } from '../permissions/shell-equivalent.js';
import type { Tool } from '../tools/tool.js';
import type { GovernanceSnapshot, ToolRestriction } from './governance.js';

interface Compiled {
  readonly allow: readonly PermissionRule[] | undefined;
  readonly deny: readonly PermissionRule[];
  /** The deny rules that judge shell command lines (`Bash(…)`). */
  readonly shellDeny: readonly PermissionRule[];
}

const compiled = new WeakMap<ToolRestriction, Compiled>();

function compile(r: ToolRestriction): Compiled {
  let c = compiled.get(r);
  if (c === undefined) {
    const deny = (r.deniedTools ?? []).map((rule, i) =>
      parsePermissionRule(rule, `restriction '${r.name}'.deniedTools[${i}]`, { alsoUnderWorkspace: true }),
    );
    c = {
      allow: r.allowedTools?.map((rule, i) => parsePermissionRule(rule, `restriction '${r.name}'.allowedTools[${i}]`)),
      deny,
      shellDeny: deny.filter(isShellRule),
    };
    compiled.set(r, c);
  }
  return c;
}

const applies = (r: ToolRestriction, tool: Pick<Tool, 'tier'>): boolean =>
  r.tiers === undefined || r.tiers.includes(tool.tier);

/**
 * The name of the first restriction that denies this call, or `undefined` when all allow it;
 * `root` (the workspace root) lets path rules see absolute paths under it. `shellCommands`, the
 * shell command lines the call is equivalent to, are held to the `Bash(…)` denied tools.
 */
export function restrictionDenial(
  governance: GovernanceSnapshot,
  tool: Pick<Tool, 'name' | 'tier'>,
  args: unknown,
  root?: string,
  shellCommands: readonly string[] = [],
): string | undefined {
  for (const r of governance.restrictions ?? []) {
    const c = compile(r);
    if (c.deny.some((rule) => ruleMatches(rule, tool.name, args, 'any', root))) return r.name;
    if (shellCommands.length > 0 && firstShellRuleMatching(c.shellDeny, shellCommands, root) !== undefined)
      return r.name;
    if (
      c.allow !== undefined &&
      applies(r, tool) &&
      !c.allow.some((rule) => ruleMatches(rule, tool.name, args, 'all', root))
    )
      return r.name;
  }
  return undefined;
}

/** The name of a restriction that rules out every call of the tool (it is then hidden). */
export function restrictionHiding(
  governance: GovernanceSnapshot,
  tool: Pick<Tool, 'name' | 'tier'>,
): string | undefined {
  for (const r of governance.restrictions ?? []) {
    const c = compile(r);
    if (c.deny.some((rule) => ruleCoversAllCalls(rule, tool.name))) return r.name;
    if (c.allow !== undefined && applies(r, tool) && !c.allow.some((rule) => rule.tool.test(tool.name))) return r.name;
  }
  return undefined;
}

/** Checks every rule of a restriction now, so a bad rule fails where it is declared. */
export function assertRestriction(r: ToolRestriction): void {
  compile(r);
}
