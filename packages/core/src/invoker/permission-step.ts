/**
 * The authorisation steps: skill restrictions (every source), then for model-side
 * sources the tier gate, the policy (deny → ask → allow → default; YOLO records an ask
 * as allow), the checker and confirmation. Host sources skip only
 * the permission decision and confirmation.
 */
import { CancelledError, PermissionDeniedError } from '../errors/tool-errors.js';
import type { DeniedBy } from '../events/agent-event.js';
import { eventArgs } from '../events/bounded-value.js';
import { compileRuleList } from '../permissions/permission-policy.js';
import { approverFailed, checkConfirmationAnswer, type ConfirmationAnswer } from '../permissions/confirmation.js';
import { GIT_REF_NAMES, gitToolCommandLines } from '../permissions/git-rules.js';
import { SHELL_TOOL, shellEquivalentOf } from '../permissions/shell-equivalent.js';
import { hiddenReason } from '../registry/tool-surface.js';
import type { Tool } from '../tools/tool.js';
import type { SkillRestriction } from './governance.js';
import type { PermissionOutcome } from './invocation-types.js';
import { abortSignalOf } from './call-signal.js';
import { gitRefNamesOf } from './git-ref-names.js';
import { isModelSide, type CallFrame, type Kernel } from './kernel.js';
import { linkSignals, watchAbort } from './link-signals.js';
import { restrictionDenial } from './restrictions.js';

/** An authorisation verdict. */
export type Authorization =
  | {
      readonly ok: true;
      readonly permission: PermissionOutcome;
      /**
       * True when no person confirmed the files this call reaches while one would be asked: it was
       * allowed by an allow rule or the default, or confirmed under the default or a rule without a
       * path. The files it writes or reads are then held to the path ask rules too, so a file under
       * one is never reached unasked by another spelling or another route. `links`: a person
       * confirmed the paths the call names; a file it reaches through a symbolic link under an
       * ask rule those paths are not under is still refused. `allow`: as `true`, and a file it
       * writes through a symbolic link must be allowed where the link leads as well.
       */
      readonly holdAsk?: HoldAsk;
    }
  | { readonly ok: false; readonly error: PermissionDeniedError };

/** How a call's files are held to the path ask rules (see {@link Authorization}). */
export type HoldAsk = boolean | 'links' | 'allow';

const skillMatchers = new WeakMap<SkillRestriction, ReturnType<typeof compileRuleList>>();

function skillAllows(skill: SkillRestriction, name: string, args: unknown, root: string): boolean {
  let match = skillMatchers.get(skill);
  if (match === undefined) {
    match = compileRuleList(skill.allowedTools, `skill '${skill.name}'.allowedTools`);
    skillMatchers.set(skill, match);
  }
  return match(name, args, root) !== undefined;
}

function deny(frame: CallFrame, id: string, tool: Tool, args: unknown, rule: string, by: DeniedBy): Authorization {
  frame.context.events.emit({
    kind: 'permissionDenied',
    payload: { tool_id: id, tool_name: tool.name, ...eventArgs(args), reason: rule, denied_by: by },
  });
  return { ok: false, error: new PermissionDeniedError(tool.name, rule) };
}

/**
 * True when `rule` (a rule's source) names a path pattern: a person confirming a call asked by it
 * saw the path that needs confirmation. A call confirmed under the default or a rule for every
 * call of a tool was not shown which files it would reach, so those are still held to the path
 * ask rules.
 */
function confirmsPaths(rule: string): boolean {
  return /\(.*\)$/s.test(rule);
}

/** A call refused because the approver failed (threw, or answered in a form it may not). */
function refusedBy(frame: CallFrame, id: string, tool: Tool, args: unknown, error: Error): Authorization {
  return deny(frame, id, tool, args, `not confirmed: ${error.message}`, 'confirmation');
}

/** A call a person (or a checker) approved under `rule`. */
function approved(rule: string): Authorization {
  if (confirmsPaths(rule)) return approvedPaths();
  return { ok: true, permission: 'ask_approved', holdAsk: true };
}

/** A call a person approved after seeing the paths it names under `rule`. */
function approvedPaths(): Authorization {
  return { ok: true, permission: 'ask_approved', holdAsk: 'links' };
}

/** True when `tool` is `bash` running exactly a command a person confirmed with an ancestor call. */
function confirmedAbove(frame: CallFrame, tool: Tool, args: unknown): boolean {
  if (frame.confirmedCommands === undefined || tool.name !== SHELL_TOOL) return false;
  const command = (args as { command?: unknown } | null)?.command;
  return typeof command === 'string' && frame.confirmedCommands.has(command);
}

/** The note of a call asked again because a crash cut off the attempt a person approved. */
export const CUT_OFF_NOTE =
  'the approved attempt of this call was cut off when the process ended and may have run in part; it runs again only if approved again';

/**
 * True for the re-run of an approved top-level call a crash interrupted. The approval was given
 * for an attempt that may have run in part, in a process that is gone, and only the log says it
 * was given at all: a log is a file, which anyone who can write the workspace can edit, so an
 * approval read back from it authorises nothing by itself (even for a tool whose repeat would be
 * harmless, the arguments it approved are only as trustworthy as the file).
 */
function cutOffRerun(frame: CallFrame): boolean {
  return frame.interrupted === true && frame.depth === 0;
}

/** The permission projection of a call before it runs: allowed, parked for a person, or denied (by `rule`). */
export type Projection =
  | { readonly ok: true; readonly permission: PermissionOutcome; readonly holdAsk?: HoldAsk }
  | { readonly ok: 'ask'; readonly rule: string }
  | { readonly ok: false; readonly rule: string; readonly by: DeniedBy };

/** Runs the authorisation steps for a validated call. */
export async function authorize(
  k: Kernel,
  frame: CallFrame,
  id: string,
  tool: Tool,
  args: unknown,
): Promise<Authorization> {
  const projected = await project(frame, k, tool, args);
  if (projected.ok === false) return deny(frame, id, tool, args, projected.rule, projected.by);
  if (projected.ok === true) return projected;
  if (confirmedAbove(frame, tool, args)) return approved(projected.rule);
  const answer = frame.preconfirmed;
  if (answer !== undefined) {
    if (answer.approved && cutOffRerun(frame)) {
      if (k.confirmation === undefined)
        return deny(frame, id, tool, args, `not confirmed: ${CUT_OFF_NOTE}; nobody can be asked`, 'confirmation');
      return confirmWithManager(k, frame, id, tool, args, projected.rule, CUT_OFF_NOTE);
    }
    if (answer.approved) return approved(projected.rule);
    return deny(
      frame,
      id,
      tool,
      args,
      `not confirmed${answer.reason === undefined ? '' : `: ${answer.reason}`}`,
      'confirmation',
    );
  }
  return confirmWithManager(k, frame, id, tool, args, projected.rule);
}

/**
 * The projection alone (skill, tier gate, policy, YOLO, checker), without asking anyone and
 * without events: `ask` when a person must decide and the session has a confirmation manager,
 * else the verdict.
 */
export async function project(
  frame: Pick<CallFrame, 'source' | 'context'>,
  k: Kernel,
  tool: Tool,
  args: unknown,
): Promise<Projection> {
  const governance = frame.context.governance;
  const root = k.workspace.root;
  if (governance.skill !== undefined && !skillAllows(governance.skill, tool.name, args, root))
    return { ok: false, rule: `skill:${governance.skill.name}`, by: 'skill' };
  // A tool whose input runs code is also judged as the shell commands it is equivalent to.
  const shell = shellEquivalentOf(tool, args);
  const restricted = restrictionDenial(governance, tool, args, root, shell);
  if (restricted !== undefined) return { ok: false, rule: restricted, by: 'restriction' };
  if (!isModelSide(frame.source)) return { ok: true, permission: 'trusted' };

  const hidden = hiddenReason(tool, governance, undefined);
  if (hidden !== undefined) return { ok: false, rule: hidden, by: 'mode' };

  const judged = await withGitRefNames(k, tool, args);
  const verdict = k.policy.evaluate(
    tool.name,
    judged,
    root,
    judged === args ? shell : [...new Set([...shell, ...gitToolCommandLines(judged)])],
  );
  if (verdict.decision === 'deny') return { ok: false, rule: verdict.rule, by: 'rule' };
  if (verdict.decision === 'allow')
    return governance.yolo !== true && k.confirmation !== undefined
      ? { ok: true, permission: 'allow', holdAsk: 'allow' }
      : { ok: true, permission: 'allow' };
  if (governance.yolo === true) return { ok: true, permission: 'yolo' };

  const checked = await k.checker.check({
    toolName: tool.name,
    tier: tool.tier,
    args,
    source: frame.source,
    governance,
    rule: verdict.rule,
  });
  if (checked.decision === 'deny') return { ok: false, rule: checked.reason ?? verdict.rule, by: 'checker' };
  if (checked.decision === 'allow')
    return k.confirmation === undefined || confirmsPaths(verdict.rule)
      ? { ok: true, permission: 'allow' }
      : { ok: true, permission: 'allow', holdAsk: 'allow' };

  if (k.confirmation === undefined) return { ok: true, permission: 'ask_unconfirmed' };
  return { ok: 'ask', rule: verdict.rule };
}

/**
 * A `git` call's arguments as its deny and ask rules judge them: with the names git resolves its
 * ref to in the workspace's repository (`GIT_REF_NAMES`), so that a rule naming a branch holds for
 * every spelling of it. The arguments as they are when no such rule exists or git has no answer.
 */
async function withGitRefNames(k: Kernel, tool: Tool, args: unknown): Promise<unknown> {
  const git = k.workspace.git;
  if (tool.name !== 'git' || git === undefined || !k.policy.judgesGitRefs) return args;
  const names = await gitRefNamesOf(git, args, k.sessionSignal);
  return names === undefined ? args : { ...(args as object), [GIT_REF_NAMES]: names };
}

/**
 * The approver's answer, or a `CancelledError` as soon as `signal` aborts: an approver that
 * never settles and ignores the signal cannot keep a call (or the run waiting on it) alive.
 */
function untilAborted(ask: () => Promise<unknown>, signal: AbortSignal, toolName: string): Promise<unknown> {
  const cancelled = () => new CancelledError(`confirmation of '${toolName}'`, signal.reason);
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise((resolve, reject) => {
    const stop = watchAbort(signal, () => reject(cancelled()));
    let asked: Promise<unknown>;
    try {
      asked = Promise.resolve(ask());
    } catch (e) {
      asked = Promise.reject(e);
    }
    asked.then(resolve, reject).finally(stop);
  });
}

async function confirmWithManager(
  k: Kernel,
  frame: CallFrame,
  id: string,
  tool: Tool,
  args: unknown,
  rule: string,
  note?: string,
): Promise<Authorization> {
  const manager = k.confirmation!;
  const verdict = { rule };
  frame.context.events.emit({
    kind: 'confirmationRequired',
    payload: {
      tool_id: id,
      tool_name: tool.name,
      ...eventArgs(args),
      rule: verdict.rule,
      ...(note ? { note } : {}),
      ...(frame.depth > 0 ? { nested: true as const } : {}),
    },
  });
  // The wait for a person ends with the run or the session, whichever aborts first.
  const linked = linkSignals([abortSignalOf(frame.signal), k.sessionSignal]);
  let answer: ConfirmationAnswer;
  try {
    let given: unknown;
    try {
      given = await untilAborted(
        () =>
          manager.confirm(
            {
              toolId: id,
              toolName: tool.name,
              args,
              rule: verdict.rule,
              ...(note ? { note } : {}),
              source: frame.source,
              runId: frame.context.runId,
              sessionId: frame.context.sessionId,
            },
            linked.signal,
          ),
        linked.signal,
        tool.name,
      );
    } catch (e) {
      if (linked.signal.aborted) throw e;
      // A failing approver refuses the call: it never runs unconfirmed, and the reason says why.
      return refusedBy(frame, id, tool, args, approverFailed(e, { toolName: tool.name, toolId: id }));
    }
    try {
      answer = checkConfirmationAnswer(given);
    } catch (e) {
      return refusedBy(frame, id, tool, args, e as Error);
    }
  } finally {
    linked.dispose();
  }
  if (answer.approved === true) return approved(rule);
  return deny(
    frame,
    id,
    tool,
    args,
    `not confirmed${answer.reason === undefined ? '' : `: ${answer.reason}`}`,
    'confirmation',
  );
}
