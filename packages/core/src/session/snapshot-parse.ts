/**
 * Reading snapshots back: shape validation (zod), the integrity rules a store checks on load
 * (unique run ids, run and event session ids equal to the snapshot's, strictly increasing event
 * sequences per run); the legacy bare-session shape is migrated by `legacy-session.ts`. Every failure
 * is a `SessionSnapshotError` naming the source and the field.
 */
import { ATTACHMENT_MEDIA_TYPES, MAX_ATTACHMENT_NAME, MAX_ATTACHMENTS } from '@a3s-code/effect';
import type { z } from 'zod';
import { SessionSnapshotError } from '../errors/persistence-errors.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import { migrateLegacySession } from './legacy-session.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';
import { lazyZod } from '../tools/zod-loader.js';

/** The zod schemas of a snapshot, built (and zod loaded) when the first snapshot is read. */
const schemas = lazyZod((z) => {
  const int = z.number().int().min(0);
  const ms = z.number().min(0);
  const usage = z.object({ input_tokens: int, output_tokens: int });
  const status = z.enum(['passed', 'failed', 'needs_review', 'skipped']);

  // Attachment references name artifact files by their hash: only a SHA-256 in hex is accepted.
  const attachment = z.looseObject({
    sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a SHA-256 in lowercase hex' }),
    media_type: z.enum(ATTACHMENT_MEDIA_TYPES),
    size: int,
    name: z.string().min(1).max(MAX_ATTACHMENT_NAME).optional(),
  });
  const message = z.discriminatedUnion('role', [
    z.looseObject({
      role: z.literal('user'),
      text: z.string(),
      source: z.string(),
      seq: int,
      attachments: z.array(attachment).min(1).max(MAX_ATTACHMENTS).optional(),
    }),
    z.looseObject({
      role: z.literal('assistant'),
      text: z.string(),
      tool_calls: z.array(z.looseObject({ id: z.string(), name: z.string() })),
      seq: int,
    }),
    z.looseObject({
      role: z.literal('tool'),
      tool_call_id: z.string(),
      name: z.string(),
      ok: z.boolean(),
      output: z.string(),
      exit_code: z.number().int(),
      seq: int,
    }),
  ]);

  const snapshotSchema = z.object({
    version: z.literal(1),
    session_id: z.string().min(1),
    created_at_ms: ms,
    updated_at_ms: ms,
    workspace_dir: z.string().optional(),
    conversation: z.array(message),
    artifacts: z.array(
      z.looseObject({
        id: z.string().min(1),
        uri: z.string(),
        size_bytes: int,
        sha256: z.string(),
        tool_name: z.string().optional(),
        call_id: z.string().optional(),
        content: z.string().nullable(),
      }),
    ),
    trace_events: z.array(
      z.looseObject({
        version: z.literal(1),
        type: z.string().min(1),
        payload: z.record(z.string(), z.unknown()),
        metadata: z.looseObject({
          run_id: z.string(),
          session_id: z.string(),
          sequence: z.number().int().min(1),
          timestamp_ms: z.number(),
        }),
      }),
    ),
    runs: z.array(
      z.looseObject({
        run_id: z.string().min(1),
        session_id: z.string().min(1),
        status: z.enum(['running', 'completed', 'cancelled', 'failed']),
        prompt: z.string(),
        started_at_ms: ms.nullable(),
        ended_at_ms: ms.nullable(),
        started_seq: int,
        last_seq: int,
        usage,
        tool_calls: int,
        completion: z.string().nullable(),
        capability_binding: z
          .looseObject({
            version: z.literal(1),
            generation: z.number().int().min(1),
            catalog_digest: z.string().min(1),
            ceiling_digest: z.string().min(1),
          })
          .optional(),
      }),
    ),
    verification_reports: z.array(
      z.looseObject({ schema: z.string().min(1), subject: z.string(), status, effect_digest: z.string().nullable() }),
    ),
    subagent_tasks: z.array(z.looseObject({ task_id: z.string().min(1), agent: z.string(), status: z.string() })),
  });

  return { snapshotSchema };
});

function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out === '' ? '(root)' : out;
}

function fail(source: string, issues: readonly z.core.$ZodIssue[]): never {
  const first = issues[0];
  throw new SessionSnapshotError(source, first ? pathOf(first.path) : '(root)', first?.message ?? 'is invalid');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates a decoded snapshot (or migrates a legacy session) and checks its integrity.
 * `expectedSessionId`, when given, must equal the snapshot's id. `source` names it in errors.
 * @throws SessionSnapshotError naming the field that is wrong.
 */
export function parseSessionSnapshot(value: unknown, source: string, expectedSessionId?: string): SessionSnapshotV1 {
  if (!isRecord(value)) throw new SessionSnapshotError(source, '(root)', 'must be a JSON object');
  const snapshot =
    value.version === undefined && 'messages' in value ? migrateLegacySession(value, source) : parseV1(value, source);
  if (expectedSessionId !== undefined && snapshot.session_id !== expectedSessionId) {
    throw new SessionSnapshotError(
      source,
      'session_id',
      `is '${snapshot.session_id}', expected '${expectedSessionId}'`,
    );
  }
  return snapshot;
}

/**
 * Validates a decoded version-1 snapshot and checks its integrity.
 * @throws SessionSnapshotError naming the field that is wrong.
 */
export function parseV1(value: Record<string, unknown>, source: string): SessionSnapshotV1 {
  if (value.version !== 1)
    throw new SessionSnapshotError(source, 'version', `must be 1, got ${JSON.stringify(value.version)}`);
  const parsed = schemas().snapshotSchema.safeParse(value);
  if (!parsed.success) fail(source, parsed.error.issues);
  const s = parsed.data as unknown as SessionSnapshotV1;
  checkIntegrity(s, source);
  return s;
}

/** The integrity rules: unique run ids, matching session ids, strictly increasing event sequences per run. */
export function checkIntegrity(s: SessionSnapshotV1, source: string): void {
  const seen = new Set<string>();
  s.runs.forEach((r, i) => {
    if (seen.has(r.run_id))
      throw new SessionSnapshotError(source, `runs[${i}].run_id`, `'${r.run_id}' appears more than once`);
    seen.add(r.run_id);
    if (r.session_id !== s.session_id)
      throw new SessionSnapshotError(
        source,
        `runs[${i}].session_id`,
        `is '${r.session_id}', expected '${s.session_id}'`,
      );
  });
  const lastSequence = new Map<string, number>();
  s.trace_events.forEach((e: EventEnvelopeV1, i) => {
    const m = e.metadata;
    if (m.session_id !== s.session_id)
      throw new SessionSnapshotError(
        source,
        `trace_events[${i}].metadata.session_id`,
        `is '${m.session_id}', expected '${s.session_id}'`,
      );
    const last = lastSequence.get(m.run_id);
    if (last !== undefined && m.sequence <= last) {
      throw new SessionSnapshotError(
        source,
        `trace_events[${i}].metadata.sequence`,
        `${m.sequence} does not increase (previous event of run '${m.run_id}' had ${last})`,
      );
    }
    lastSequence.set(m.run_id, m.sequence);
  });
}
