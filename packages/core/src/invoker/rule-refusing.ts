/**
 * What a tool asks when its work reaches more than its arguments named (a fetch redirected to
 * another host): would the session's rules refuse a call of this tool with these arguments?
 * The same judgement as the call's own (restrictions, then the policy), for model-side calls;
 * an ask rule counts unless the session runs unasked (YOLO) or it is the one the call itself was
 * judged under (the person confirming it saw that rule), and a call an allow rule let run
 * unasked reaches only what an allow rule covers.
 */
import type { PolicyEvaluation } from '../permissions/permission-policy.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { Tool } from '../tools/tool.js';
import { isModelSide, type CallFrame, type Kernel } from './kernel.js';
import { restrictionDenial } from './restrictions.js';

/** `ToolContext.ruleRefusing` of a call of `tool` with `args`, or `undefined` for a host-side call. */
export function ruleRefusingFor(
  k: Kernel,
  tool: Tool,
  args: unknown,
  frame: Pick<CallFrame, 'source' | 'context'>,
): ToolContext['ruleRefusing'] {
  if (!isModelSide(frame.source)) return undefined;
  const governance = frame.context.governance;
  const root = k.workspace.root;
  let own: PolicyEvaluation | undefined;
  return (other: unknown): string | undefined => {
    const restricted = restrictionDenial(governance, tool, other, root);
    if (restricted !== undefined) return restricted;
    const verdict = k.policy.evaluate(tool.name, other, root);
    if (verdict.decision === 'deny') return verdict.rule;
    if (verdict.decision !== 'ask' || governance.yolo === true) return undefined;
    own ??= k.policy.evaluate(tool.name, args, root);
    // A call an allow rule let run unasked reaches only what an allow rule covers.
    if (verdict.rule === 'default')
      return own.decision === 'allow' && own.rule !== 'default'
        ? `no allow rule covers it (the call ran under ${own.rule})`
        : undefined;
    return own.decision === 'ask' && verdict.rule === own.rule ? undefined : verdict.rule;
  };
}

/** `ToolContext.ruleHosts` of a model-side call of `tool`, or `undefined` when no `domain:` rule holds it. */
export function ruleHostsFor(k: Kernel, tool: Tool): readonly string[] | undefined {
  const hosts = k.policy.ruleHosts(tool.name);
  return hosts.length === 0 ? undefined : hosts;
}
