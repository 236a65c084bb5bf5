/**
 * Who approves the tool calls a session's permissions ask about. The SDK never hands out a
 * session whose `ask` runs unasked by accident: core runs an `ask` directly when a session has no
 * confirmation manager, so the SDK always installs one — the host's `onConfirm` or
 * `confirmation`, else {@link noApprover}, which refuses at once with the reason `no approver`.
 * Only an explicit `confirmation: false` (or `governance: { yolo: true }`) runs asks directly.
 */
import {
  mergePermissions,
  noApprover,
  SessionConfigurationError,
  type ConfirmationAnswer,
  type ConfirmationManager,
  type ConfirmationRequest,
  type PermissionPolicyConfig,
} from '@a3s-code/core';

/**
 * The read-only tools every SDK session (and the CLI) runs without asking, as Claude Code and
 * its SDK do: they can only look at the workspace (`ast_grep` is a structural `grep`: it parses
 * files in-process and starts nothing), at the agent's memories (`recall`) or at its skills
 * (`search_skills`). A host's own rules still apply over them
 * (deny → ask → allow), so `ask: ['read']` or `deny: ['grep']` take them back.
 */
export const READ_TOOL_RULES: readonly string[] = Object.freeze([
  'read',
  'grep',
  'glob',
  'ls',
  'batch',
  'ast_grep',
  'ask_user',
  'recall',
  'search_skills',
]);

/**
 * The host's permissions with {@link READ_TOOL_RULES} (and `extra`, such as the `vibe_*` tools of a
 * session in vibe mode, whose workers' own calls are the ones approved) added to `allow`.
 */
export function withReadTools(
  permissions: PermissionPolicyConfig | undefined,
  extra: readonly string[] = [],
): PermissionPolicyConfig {
  const allow = [...READ_TOOL_RULES, ...extra];
  return mergePermissions({ allow }, permissions) ?? { allow };
}

/**
 * Approves or refuses one tool call the permissions ask about. Must settle (or reject) when
 * `signal` aborts (the run was interrupted or the session closed).
 */
export type ConfirmHandler = (
  request: ConfirmationRequest,
  signal: AbortSignal,
) => ConfirmationAnswer | Promise<ConfirmationAnswer>;

/** The approval options of an agent's configuration and of a session's options. */
export interface ApprovalOptions {
  /**
   * Asks a person to approve a tool call whose permission decision is `ask` (the default for
   * every tool no rule allows). Without it (and without `confirmation`), such a call is refused
   * with the reason `no approver` and does not run.
   */
  readonly onConfirm?: ConfirmHandler;
  /**
   * The same as `onConfirm`, as a `ConfirmationManager` object; or `false` to turn confirmation
   * off, so that an `ask` runs the tool without asking anyone (core's default). Set at most one
   * of `onConfirm` and `confirmation`.
   */
  readonly confirmation?: ConfirmationManager | false;
}

/**
 * The approval a layer sets, if any.
 * @throws SessionConfigurationError for both, a non-function `onConfirm`, or a `confirmation` that
 *   is neither `false` nor an object with `confirm()`.
 */
function approvalOf(o: ApprovalOptions, layer: string): ConfirmationManager | false | undefined {
  const { onConfirm, confirmation } = o;
  const manager = confirmation as { readonly confirm?: unknown } | false | undefined;
  if (manager !== undefined && manager !== false && typeof manager?.confirm !== 'function')
    throw new SessionConfigurationError(
      'confirmation',
      'must be false or a ConfirmationManager (an object with confirm(request, signal)); or pass onConfirm',
    );
  if (onConfirm !== undefined && confirmation !== undefined) {
    throw new SessionConfigurationError(
      'onConfirm',
      `conflicts with confirmation in the ${layer}; set only one of them`,
      { conflictsWith: 'confirmation' },
    );
  }
  if (onConfirm === undefined) return confirmation;
  if (typeof onConfirm !== 'function')
    throw new SessionConfigurationError('onConfirm', 'must be a function (request, signal) => { approved, reason? }');
  return { confirm: async (request, signal) => onConfirm(request, signal) };
}

/**
 * The confirmation manager a session gets: the session options' approval, else the agent's,
 * else {@link noApprover}; `undefined` only for an explicit `confirmation: false`.
 */
export function resolveApproval(session: ApprovalOptions, agent: ApprovalOptions): ConfirmationManager | undefined {
  const chosen = approvalOf(session, 'session options') ?? approvalOf(agent, 'agent configuration') ?? noApprover;
  return chosen === false ? undefined : chosen;
}
