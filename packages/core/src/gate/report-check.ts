/**
 * The check of a verification report a host records (`session.recordVerificationReport`, e.g. a
 * CI result): every field the completion gate, the report's text and a saved snapshot read must
 * have its documented shape, so a bad report is refused by name at once — never a run that fails
 * later on it, nor a snapshot that cannot be loaded again.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { VerificationReport } from './verification-report.js';

const STATUSES = ['passed', 'failed', 'needs_review', 'skipped'] as const;
const CHECK_STATUSES = [...STATUSES, 'denied'] as const;
const SOURCES = ['commands', 'attestor'] as const;

type Fields = Readonly<Record<string, unknown>>;

const isRecord = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

function need(ok: boolean, field: string, what: string): void {
  if (!ok) throw new SessionConfigurationError(field, `must be ${what}`);
}

function checkCheck(c: unknown, at: string): void {
  need(isRecord(c), at, 'a check { id, kind, description, status, required, evidence }');
  const check = c as Fields;
  for (const key of ['id', 'kind', 'description'] as const)
    need(typeof check[key] === 'string', `${at}.${key}`, 'a string');
  need(
    (CHECK_STATUSES as readonly unknown[]).includes(check.status),
    `${at}.status`,
    `one of ${CHECK_STATUSES.join(', ')}`,
  );
  need(typeof check.required === 'boolean', `${at}.required`, 'true or false');
  need(isRecord(check.evidence), `${at}.evidence`, 'an object (command, exit_code, output_tail, reason, ...)');
}

/**
 * `report` when it is an `a3s.verification_report.v1` report.
 * @throws SessionConfigurationError naming the first bad field (`report.status`, `report.checks[0].required`, ...).
 */
export function checkHostReport(report: unknown): VerificationReport {
  need(isRecord(report), 'report', 'an a3s.verification_report.v1 object');
  const r = report as Fields;
  need(r.schema === 'a3s.verification_report.v1', 'report.schema', "'a3s.verification_report.v1'");
  need(typeof r.id === 'string' && r.id !== '', 'report.id', 'a non-empty string');
  need(typeof r.subject === 'string', 'report.subject', 'a string');
  need((STATUSES as readonly unknown[]).includes(r.status), 'report.status', `one of ${STATUSES.join(', ')}`);
  need(Array.isArray(r.checks), 'report.checks', 'an array of checks');
  for (const [i, c] of (r.checks as readonly unknown[]).entries()) checkCheck(c, `report.checks[${i}]`);
  need(
    Array.isArray(r.residual_risks) && r.residual_risks.every((x) => typeof x === 'string'),
    'report.residual_risks',
    'an array of strings',
  );
  need(r.effect_digest === null || typeof r.effect_digest === 'string', 'report.effect_digest', 'a string or null');
  need(r.run_id === null || typeof r.run_id === 'string', 'report.run_id', 'a string or null');
  need(
    typeof r.created_at_ms === 'number' && Number.isFinite(r.created_at_ms) && r.created_at_ms >= 0,
    'report.created_at_ms',
    'epoch milliseconds (a finite number >= 0)',
  );
  need((SOURCES as readonly unknown[]).includes(r.source), 'report.source', `one of ${SOURCES.join(', ')}`);
  return report as VerificationReport;
}
