/**
 * A rule whose tool is a near miss of a tool the session has (`Bsh(rm *)`, `Raed`) holds nothing:
 * it matches no call, so a deny written that way denies nothing. Such a rule is refused when the
 * session is built, naming the tool it was probably meant for. A name far from every tool (a
 * tool of a pack this session does not load) and MCP names (their servers come later) pass.
 */
import { PermissionRuleError } from '../errors/tool-errors.js';
import type { PermissionPolicyConfig } from './permission-policy.js';

const LISTS = ['deny', 'ask', 'allow'] as const;

/** The name as rules match it: lower case, without `_` and `-`. */
const canonical = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/** True when `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length < b.length ? a.slice(i) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}

/**
 * Throws `INVALID_PERMISSION_RULE` for the first rule naming (without wildcards) a tool that is
 * not among `toolNames` but one edit away from one of them.
 */
export function checkRuleToolNames(config: PermissionPolicyConfig, toolNames: readonly string[]): void {
  const known = new Set(toolNames.map(canonical));
  for (const list of LISTS) {
    const rules = config[list];
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, i) => {
      if (typeof rule !== 'string') return;
      const tool = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(|$)/.exec(rule.trim())?.[1];
      if (tool === undefined || /^mcp__/i.test(tool)) return;
      const name = canonical(tool);
      if (known.has(name) || name.length < 3) return;
      const near = toolNames.find((t) => canonical(t).length >= 3 && oneEditApart(name, canonical(t)));
      if (near !== undefined)
        throw new PermissionRuleError(
          `${list}[${i}]`,
          rule,
          `names no tool of this session (did you mean '${near}'?); a rule for a tool that does not exist matches no call`,
        );
    });
  }
}
