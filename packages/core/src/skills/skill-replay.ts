/**
 * Skill restrictions across a resume. Loading a Skill narrows the live run's governance in memory
 * only; so each top-level `tool.result` records the Skill restrictions its call applied (the
 * `Skill` call's own, or those of Skill calls nested in it: a `batch` entry, a `program`'s
 * `ctx.tool`), and a run continued from its log (after a crash, or after its park was answered
 * with no run live) applies them again, in log order, before its first call. A record that cannot
 * be read back refuses the resume: a guess could only be wider than the run was, or different.
 */
import type { Fact } from '@a3s-code/effect';
import { ResumeError } from '../errors/session-errors.js';
import { runStartIndex } from '../gate/mutation-ledger.js';
import type { GovernanceSnapshot, SkillRestriction } from '../invoker/governance.js';
import { withSkill } from './skill-tools.js';

/** `tool.result` metadata key: the Skill restrictions the call applied, in order (`[{ name, allowed_tools }]`). */
export const SKILLS_APPLIED_KEY = 'skills_applied';

/** Code of the refusal of a resume whose log records a Skill restriction that cannot be read back. */
export const SKILL_RECORD_UNREADABLE = 'SKILL_RECORD_UNREADABLE';

/** Key prefix of the facts of the `tool` transition (`tool:<turn>:<cycle>:<call_id>`). */
const TOOL_CAUSE = 'tool:';

/**
 * Writes the Skill restrictions a call applied into its `tool.result` metadata, or removes a
 * tool's own value of the key when it applied none (only the run writes it).
 */
export function recordSkillsApplied(metadata: Record<string, unknown>, applied: readonly SkillRestriction[]): void {
  delete metadata[SKILLS_APPLIED_KEY];
  if (applied.length > 0)
    metadata[SKILLS_APPLIED_KEY] = applied.map((s) => ({ name: s.name, allowed_tools: [...s.allowedTools] }));
}

/**
 * The governance of run `runId` resumed from `facts`: `governance` narrowed by every Skill
 * restriction the run's own facts (from its `run.started` on) record, in log order. A `Skill`
 * result written before the restrictions were recorded under {@link SKILLS_APPLIED_KEY} is read
 * from its own `skill` / `allowed_tools` / `active` metadata. Throws a `ResumeError`
 * ({@link SKILL_RECORD_UNREADABLE}) naming the fact when a record cannot be read back.
 */
export function withRecordedSkills(
  governance: GovernanceSnapshot,
  facts: readonly Fact[],
  runId: string,
): GovernanceSnapshot {
  const start = runStartIndex(facts, runId);
  if (start < 0) return governance;
  let g = governance;
  for (let i = start + 1; i < facts.length; i++) {
    const f = facts[i]!;
    if (f.type === 'run.started') break;
    if (f.type !== 'tool.result' || !f.cause?.startsWith(TOOL_CAUSE)) continue;
    for (const skill of recordedSkills(f, runId)) g = withSkill(g, skill);
  }
  return g;
}

/** The Skill restrictions fact `f` (a top-level `tool.result`) records. */
function recordedSkills(f: Fact, runId: string): readonly SkillRestriction[] {
  const payload = f.payload as { name?: unknown; ok?: unknown; metadata?: unknown } | null;
  const metadata = isRecord(payload?.metadata) ? payload.metadata : undefined;
  if (metadata !== undefined && SKILLS_APPLIED_KEY in metadata) {
    const list = metadata[SKILLS_APPLIED_KEY];
    if (!Array.isArray(list)) throw unreadable(f, runId, `metadata.${SKILLS_APPLIED_KEY} is not a list`);
    return list.map((entry, i) => {
      const at = `metadata.${SKILLS_APPLIED_KEY}[${i}]`;
      if (!isRecord(entry)) throw unreadable(f, runId, `${at} is not an object`);
      return restriction(f, runId, at, entry.name, entry.allowed_tools);
    });
  }
  // A `Skill` result recorded before the list was: its own fields say what it applied.
  if (payload?.name !== 'Skill' || payload.ok !== true) return [];
  if (metadata === undefined) throw unreadable(f, runId, 'a Skill result without metadata');
  if (metadata.active === false) return [];
  if (metadata.active !== true) throw unreadable(f, runId, 'metadata.active is not a boolean');
  if (metadata.allowed_tools === null) return [];
  return [restriction(f, runId, 'metadata', metadata.skill, metadata.allowed_tools)];
}

function restriction(f: Fact, runId: string, at: string, name: unknown, allowed: unknown): SkillRestriction {
  if (typeof name !== 'string' || name.length === 0) throw unreadable(f, runId, `${at}: the skill name is missing`);
  if (!Array.isArray(allowed) || !allowed.every((t): t is string => typeof t === 'string'))
    throw unreadable(f, runId, `${at}: the allowed tools of skill '${name}' are not a list of names`);
  return { name, allowedTools: [...allowed] };
}

function unreadable(f: Fact, runId: string, why: string): ResumeError {
  return new ResumeError(
    `run '${runId}' cannot be resumed: its fact #${f.seq} ('${f.key}') records a Skill restriction that cannot be read back (${why}); resuming without it could allow calls the run had refused. Allowed: a new prompt`,
    { code: SKILL_RECORD_UNREADABLE, details: { run_id: runId, fact_seq: f.seq, fact_key: f.key, reason: why } },
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
