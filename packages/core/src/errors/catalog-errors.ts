/**
 * Errors of the capability catalog: a preparation that could not be planned, validated,
 * published or completed (every side effect already rolled back), a bootstrap refused, a
 * widening child scope, and a resume refused because the capabilities drifted.
 */
import { A3sError } from '@a3s-code/effect';

/** One problem the validation of a projection found. */
export interface CatalogProblem {
  /** What is wrong: `tool 'read'`, `skill 'review'`, `permission ceiling`. */
  readonly subject: string;
  /** The field at fault (`name`, `inputSchema`, `tier`, `policy.deny[2]`). */
  readonly field: string;
  /** What is wrong and what is allowed. */
  readonly message: string;
}

/** A preparation plan is not a bounded, acyclic graph of uniquely named steps. */
export class CatalogPlanError extends A3sError {
  constructor(field: string, problem: string) {
    super('CATALOG_PLAN_INVALID', `capability preparation plan: ${field}: ${problem}`, { details: { field } });
  }
}

/** The projection a preparation built is not valid; nothing was published. */
export class CatalogValidationError extends A3sError {
  /** Every problem found, first one first. */
  readonly problems: readonly CatalogProblem[];
  constructor(problems: readonly CatalogProblem[]) {
    const first = problems[0] ?? { subject: 'projection', field: '(root)', message: 'invalid' };
    const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
    super('CATALOG_VALIDATION', `capability projection: ${first.subject}: ${first.field}: ${first.message}${more}`, {
      details: { problems },
    });
    this.problems = problems;
  }
}

/** The compare-and-swap found another generation published than the one the preparation started from. */
export class CatalogConflictError extends A3sError {
  constructor(expected: number, actual: number) {
    super(
      'CATALOG_CONFLICT',
      `capability catalog: expected generation ${expected} to be published, found ${actual}; prepare again`,
      { details: { expected, actual } },
    );
  }
}

/** A preparation failed or was cancelled at `step`; every side effect it had completed was rolled back. */
export class CatalogPreparationError extends A3sError {
  /** The step that failed (`validate` and `publish` are the catalog's own last steps). */
  readonly step: string;
  /** `true` when the preparation was cancelled rather than failed. */
  readonly cancelled: boolean;
  /** Undo actions that themselves failed (their messages); empty when the rollback was clean. */
  readonly rollbackErrors: readonly string[];
  constructor(step: string, cause: unknown, cancelled: boolean, rolledBack: number, rollbackErrors: readonly string[]) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const undo = rollbackErrors.length > 0 ? `; ${rollbackErrors.length} undo action(s) failed` : '';
    super(
      cancelled ? 'CATALOG_PREPARATION_CANCELLED' : 'CATALOG_PREPARATION_FAILED',
      `capability preparation ${cancelled ? 'cancelled' : 'failed'} at step '${step}': ${reason} (${rolledBack} side effect(s) rolled back${undo})`,
      {
        details: {
          step,
          rolled_back: rolledBack,
          ...(A3sError.isInstance(cause) ? { cause_code: cause.code } : {}),
          ...(rollbackErrors.length > 0 ? { rollback_errors: rollbackErrors } : {}),
        },
        cause,
      },
    );
    this.step = step;
    this.cancelled = cancelled;
    this.rollbackErrors = rollbackErrors;
  }
}

/** A bootstrap of the catalog's history was refused (already published, already bootstrapped, or a bad batch). */
export class CatalogBootstrapError extends A3sError {
  constructor(reason: string) {
    super('CATALOG_BOOTSTRAP_REFUSED', `capability catalog bootstrap refused: ${reason}`, { details: { reason } });
  }
}

/** A child scope (turn, sub-agent task) tried to widen what its parent scope may do. */
export class CapabilityScopeError extends A3sError {
  constructor(scope: string, field: string, problem: string) {
    super('CAPABILITY_SCOPE_WIDENED', `${scope}: ${field}: ${problem}; a child scope may only narrow permissions`, {
      details: { scope, field },
    });
  }
}

/** What changed between a run's recorded capability binding and the catalog it would resume under. */
export interface CapabilityDrift {
  /** `generation`, `catalog`, `permission_ceiling`, `external_cursor`. */
  readonly changed: readonly string[];
  /** Capability kinds whose digest differs (`tool`, `mcp`, `skill`, ...), when the binding recorded them. */
  readonly kinds: readonly string[];
  /** Tools offered to the model now but not when the run started. */
  readonly toolsAdded: readonly string[];
  /** Tools offered when the run started but not now. */
  readonly toolsRemoved: readonly string[];
  /** Tools offered both times with a different description or schema. */
  readonly toolsChanged: readonly string[];
  /**
   * Whether the recorded binding has a digest per contribution (bindings written by an earlier
   * version have none: the contributions that changed cannot then be named, only their kinds).
   */
  readonly contributionsRecorded: boolean;
  /** Contributions other than tools published now but not when the run started, as `<kind>:<name>` (`flow:triage`). */
  readonly contributionsAdded: readonly string[];
  /** Contributions published when the run started but not now, as `<kind>:<name>`. */
  readonly contributionsRemoved: readonly string[];
  /** Contributions published both times with a different digest, as `<kind>:<name>` (`hook:pre_tool_use:0`). */
  readonly contributionsChanged: readonly string[];
  /** Generation the run was bound to, and the current one. */
  readonly recordedGeneration: number;
  readonly currentGeneration: number;
}

/** How a drift's summary names the contributions of each kind (in the order of the kinds). */
const KIND_LABELS: readonly (readonly [string, string])[] = [
  ['skill', 'skills'],
  ['agent', 'agents'],
  ['command', 'commands'],
  ['hook', 'hooks'],
  ['mcp', 'MCP servers'],
  ['context', 'context'],
  ['flow', 'flows'],
  ['knowledge', 'knowledge'],
  ['ui', 'UI contributions'],
];

/** `flows changed: triage`, `hooks added: pre_tool_use:1`, ... for the contributions of `drift`. */
function contributionParts(drift: CapabilityDrift): string[] {
  const parts: string[] = [];
  const lists = [
    ['added', drift.contributionsAdded],
    ['removed', drift.contributionsRemoved],
    ['changed', drift.contributionsChanged],
  ] as const;
  for (const [kind, label] of KIND_LABELS) {
    for (const [how, list] of lists) {
      const names = list.filter((k) => k.startsWith(`${kind}:`)).map((k) => k.slice(kind.length + 1));
      if (names.length > 0) parts.push(`${label} ${how}: ${names.join(', ')}`);
    }
  }
  if (!drift.contributionsRecorded && drift.kinds.some((k) => k !== 'tool'))
    parts.push(
      'the run was recorded by an earlier version that did not record each flow, hook and other contribution, so which of them changed cannot be named',
    );
  return parts;
}

/** A resume was refused before admission: the run's recorded capabilities differ from the current ones. */
export class CapabilityDriftError extends A3sError {
  /** The run that was not resumed. */
  readonly runId: string;
  /** What changed. */
  readonly drift: CapabilityDrift;
  /** What changed, in words (`generation 1 -> 2; the permission ceiling changed; tools added: x`). */
  readonly summary: string;
  constructor(runId: string, drift: CapabilityDrift) {
    const parts = [`generation ${drift.recordedGeneration} -> ${drift.currentGeneration}`];
    if (drift.changed.includes('permission_ceiling')) parts.push('the permission ceiling changed');
    if (drift.changed.includes('external_cursor')) parts.push('the external capability cursor moved');
    if (drift.kinds.length > 0) parts.push(`changed kinds: ${drift.kinds.join(', ')}`);
    if (drift.toolsAdded.length > 0) parts.push(`tools added: ${drift.toolsAdded.join(', ')}`);
    if (drift.toolsRemoved.length > 0) parts.push(`tools removed: ${drift.toolsRemoved.join(', ')}`);
    if (drift.toolsChanged.length > 0) parts.push(`tools changed: ${drift.toolsChanged.join(', ')}`);
    parts.push(...contributionParts(drift));
    super(
      'CAPABILITY_DRIFT',
      `run '${runId}' cannot resume: its capabilities changed since it started (${parts.join('; ')}); resume with { rebind: true } to continue under the current ones`,
      {
        details: {
          run_id: runId,
          changed: drift.changed,
          kinds: drift.kinds,
          tools_added: drift.toolsAdded,
          tools_removed: drift.toolsRemoved,
          tools_changed: drift.toolsChanged,
          contributions_recorded: drift.contributionsRecorded,
          contributions_added: drift.contributionsAdded,
          contributions_removed: drift.contributionsRemoved,
          contributions_changed: drift.contributionsChanged,
          recorded_generation: drift.recordedGeneration,
          current_generation: drift.currentGeneration,
        },
      },
    );
    this.runId = runId;
    this.drift = drift;
    this.summary = parts.join('; ');
  }
}
