/**
 * What a tool asks when its work reaches more than its arguments named (a fetch redirected to
 * another host): would the session's rules refuse a call of this tool with these arguments?
 * The same judgement as the call's own (restrictions, then the policy), for model-side calls;
 * an ask rule counts unless the session runs unasked (YOLO) or it is the one the call itself was
 * judged under (the person confirming it saw that rule).
 */
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
  let own: string | undefined | null = null;
  return (other: unknown): string | undefined => {
    const restricted = restrictionDenial(governance, tool, other, root);
    if (restricted !== undefined) return restricted;
    const verdict = k.policy.evaluate(tool.name, other, root);
    if (verdict.decision === 'deny') return verdict.rule;
    if (verdict.decision !== 'ask' || verdict.rule === 'default' || governance.yolo === true) return undefined;
    if (own === null) {
      const first = k.policy.evaluate(tool.name, args, root);
      own = first.decision === 'ask' ? first.rule : undefined;
    }
    return verdict.rule === own ? undefined : verdict.rule;
  };
}
