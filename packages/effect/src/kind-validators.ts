/** The checks of the payloads of the version 1 fact kinds (see `kinds.ts`). */
import { validateAttachments } from './attachment-ref.js';
import { Checker } from './check.js';
import { type FactKindV1, isKnownKind } from './kinds.js';
import { recipeProblem } from './recipe.js';

type Validator = (c: Checker, p: Record<string, unknown>) => void;

const P = 'payload';

function validateCall(c: Checker, raw: unknown, path: string): void {
  const call = c.object(raw, path);
  c.string(call, 'id', path, { nonEmpty: true });
  c.string(call, 'name', path, { nonEmpty: true });
  c.object(call.args, `${path}.args`);
  c.boolean(call, 'needs_confirmation', path);
}

function validateDecision(c: Checker, raw: unknown): void {
  const path = `${P}.decision`;
  const d = c.object(raw, path);
  const kind = c.oneOf(d, 'kind', path, ['text', 'tool', 'question'] as const);
  if (kind === 'text') {
    c.string(d, 'text', path);
  } else if (kind === 'tool') {
    c.optString(d, 'text', path);
    const calls = c.array(d, 'calls', path);
    if (calls.length === 0) c.fail(`${path}.calls`, 'must hold at least one call (use kind "text" for none)');
    const ids = new Set<string>();
    calls.forEach((call, i) => {
      validateCall(c, call, `${path}.calls[${i}]`);
      const id = (call as { id: string }).id;
      if (ids.has(id)) c.fail(`${path}.calls[${i}].id`, `duplicates call id '${id}'`);
      ids.add(id);
    });
  } else {
    c.string(d, 'question_id', path, { nonEmpty: true });
    c.string(d, 'question', path, { nonEmpty: true });
    c.optString(d, 'context', path);
    c.array(d, 'options', path).forEach((o, i) => {
      const opt = c.object(o, `${path}.options[${i}]`);
      c.string(opt, 'label', `${path}.options[${i}]`, { nonEmpty: true });
      c.optString(opt, 'description', `${path}.options[${i}]`);
    });
    c.boolean(d, 'allow_free_text', path);
    c.boolean(d, 'multi_select', path);
  }
}

function validateReasoningBlocks(c: Checker, p: Record<string, unknown>): void {
  if (p.reasoning_blocks === undefined) return;
  c.array(p, 'reasoning_blocks', P).forEach((raw, i) => {
    const path = `${P}.reasoning_blocks[${i}]`;
    const block = c.object(raw, path);
    if (block.redacted === undefined) {
      c.string(block, 'text', path);
      c.string(block, 'signature', path, { nonEmpty: true });
      return;
    }
    c.string(block, 'redacted', path, { nonEmpty: true });
    if (block.text !== undefined || block.signature !== undefined) {
      c.fail(path, 'must be either {text, signature} or {redacted}, not both');
    }
  });
}

function validateBinding(c: Checker, raw: unknown, path: string): void {
  const b = c.object(raw, path);
  if (b.version !== 1) c.fail(`${path}.version`, 'must be 1');
  c.integer(b, 'generation', path, 1);
  c.string(b, 'catalog_digest', path, { nonEmpty: true });
  c.string(b, 'ceiling_digest', path, { nonEmpty: true });
  if (b.kinds !== undefined) {
    const kinds = c.object(b.kinds, `${path}.kinds`);
    for (const k of Object.keys(kinds)) c.string(kinds, k, `${path}.kinds`, { nonEmpty: true });
  }
  if (b.contributions !== undefined) {
    const each = c.object(b.contributions, `${path}.contributions`);
    for (const k of Object.keys(each)) c.string(each, k, `${path}.contributions`, { nonEmpty: true });
  }
  c.optString(b, 'external_cursor', path);
}

function validateToolSpecs(c: Checker, p: Record<string, unknown>): void {
  if (p.tools === undefined) return;
  c.array(p, 'tools', P).forEach((t, i) => {
    const path = `${P}.tools[${i}]`;
    const spec = c.object(t, path);
    c.string(spec, 'name', path, { nonEmpty: true });
    c.string(spec, 'description', path);
    c.object(spec.input_schema, `${path}.input_schema`);
  });
}

const VALIDATORS: Record<FactKindV1, Validator> = {
  'run.started': (c, p) => {
    c.string(p, 'run_id', P, { nonEmpty: true });
    if (p.model !== undefined) c.string(p, 'model', P);
    if (p.system !== undefined) {
      c.array(p, 'system', P).forEach((line, i) => {
        if (typeof line !== 'string') c.fail(`${P}.system[${i}]`, 'must be a string');
      });
    }
    validateToolSpecs(c, p);
    if (p.capability_binding !== undefined) validateBinding(c, p.capability_binding, `${P}.capability_binding`);
    if (p.recipe !== undefined) {
      const problem = recipeProblem(p.recipe);
      if (problem !== undefined) c.fail(`${P}.recipe`, problem);
    }
  },
  'run.rebound': (c, p) => {
    c.string(p, 'run_id', P, { nonEmpty: true });
    validateBinding(c, p.capability_binding, `${P}.capability_binding`);
    if (p.previous !== undefined) validateBinding(c, p.previous, `${P}.previous`);
    validateToolSpecs(c, p);
  },
  'user.message': (c, p) => {
    c.string(p, 'text', P);
    c.oneOf(p, 'source', P, ['user', 'steer', 'history', 'continuation'] as const);
    if (p.origin !== undefined) c.oneOf(p, 'origin', P, ['completion_gate', 'stop_hook'] as const);
    c.optString(p, 'reason', P);
    validateAttachments(c, p, P);
  },
  'model.turn': (c, p) => {
    validateDecision(c, p.decision);
    const usage = c.object(p.usage, `${P}.usage`);
    c.integer(usage, 'input_tokens', `${P}.usage`);
    c.integer(usage, 'output_tokens', `${P}.usage`);
    c.optString(p, 'reasoning', P);
    c.optBoolean(p, 'cut_off', P);
    validateReasoningBlocks(c, p);
  },
  'compaction.done': (c, p) => {
    c.string(p, 'summary', P);
    c.integer(p, 'kept', P);
    c.optBoolean(p, 'keep_request', P);
  },
  'confirmation.answered': (c, p) => {
    c.string(p, 'tool_call_id', P, { nonEmpty: true });
    c.boolean(p, 'approved', P);
    c.optString(p, 'reason', P);
  },
  'question.answered': (c, p) => {
    c.string(p, 'question_id', P, { nonEmpty: true });
    const text = c.optString(p, 'text', P);
    const skipped = c.optBoolean(p, 'skipped', P);
    const error = c.optString(p, 'error', P);
    if (error === '') c.fail(`${P}.error`, 'must be a non-empty string or absent');
    if ([text !== undefined, skipped === true, error !== undefined].filter(Boolean).length !== 1) {
      c.fail(P, 'must have exactly one of `text` (the answer), `skipped: true` or `error` (no answer came)');
    }
  },
  'tool.result': (c, p) => {
    c.string(p, 'tool_call_id', P, { nonEmpty: true });
    c.string(p, 'name', P, { nonEmpty: true });
    c.boolean(p, 'ok', P);
    c.string(p, 'output', P);
    const code = p.exit_code;
    if (typeof code !== 'number' || !Number.isSafeInteger(code)) c.fail(`${P}.exit_code`, 'must be an integer');
    if (p.metadata !== undefined && p.metadata !== null) c.object(p.metadata, `${P}.metadata`);
  },
  'budget.denied': (c, p) => {
    c.string(p, 'tool_call_id', P, { nonEmpty: true });
  },
  'run.ended': (c, p) => {
    c.oneOf(p, 'status', P, ['completed', 'cancelled', 'failed'] as const);
    c.optString(p, 'run_id', P);
    c.optString(p, 'completion', P);
    if (p.error !== undefined && p.error !== null) {
      const e = c.object(p.error, `${P}.error`);
      c.string(e, 'code', `${P}.error`);
      c.string(e, 'message', `${P}.error`);
    }
  },
};

/**
 * Checks the payload of a known fact kind, throwing a `FactValidationError` that names the
 * field (`payload.decision.calls[0].id`). Payloads of unknown kinds are accepted as they are.
 */
export function validatePayload(type: string, payload: unknown): void {
  if (!isKnownKind(type)) return;
  const c = new Checker(type);
  const p = c.object(payload, P);
  c.optNumber(p, 'at_ms', P);
  VALIDATORS[type](c, p);
}
