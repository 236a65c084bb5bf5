import { wellFormedAttachments } from './attachment-ref.js';
import { FACT_KINDS_V1 } from './kinds.js';
import { recipeProblem } from './recipe.js';

// Allocation-free checks of the common case. Each predicate returns true only for values the
// full checks (`parseFactLine`, `validateDraft`, `validatePayload`) accept; anything else
// returns false and the caller runs the full checks, which throw the precise error (or
// accept a value these predicates are too strict for). So they change speed, never results.

type Obj = Record<string, unknown>;

/** A fact as the fast path hands it back: the shape of `Fact`, kept here so this module is a leaf. */
interface CheckedFact {
  readonly seq: number;
  readonly type: string;
  readonly key: string;
  readonly cause: string | null;
  readonly payload: unknown;
}
type Check = (p: Obj) => boolean;

const KNOWN = new Set<string>(FACT_KINDS_V1);
/** The fields of a fact in the order `encodeFact` writes them. */
const ORDER: readonly string[] = ['seq', 'type', 'key', 'cause', 'payload'];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const full = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const optStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const bool = (v: unknown): boolean => typeof v === 'boolean';
const optBool = (v: unknown): boolean => v === undefined || typeof v === 'boolean';
const count = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Calls up to this many are checked for a repeated id pair by pair (no allocation); more, with a set. */
const PAIRWISE_CALLS = 16;

function calls(list: unknown): boolean {
  if (!Array.isArray(list) || list.length === 0) return false;
  const ids = list.length > PAIRWISE_CALLS ? new Set<unknown>() : undefined;
  for (let i = 0; i < list.length; i++) {
    const c: unknown = list[i];
    if (!isObj(c) || !full(c.id) || !full(c.name) || !isObj(c.args) || !bool(c.needs_confirmation)) {
      return false;
    }
    if (ids !== undefined) {
      if (ids.has(c.id)) return false;
      ids.add(c.id);
    } else for (let j = 0; j < i; j++) if ((list[j] as Obj).id === c.id) return false;
  }
  return true;
}

function decision(d: unknown): boolean {
  if (!isObj(d)) return false;
  switch (d.kind) {
    case 'text':
      return str(d.text);
    case 'tool':
      return optStr(d.text) && calls(d.calls);
    case 'question': {
      const options = d.options;
      if (!full(d.question_id) || !full(d.question) || !optStr(d.context) || !Array.isArray(options)) {
        return false;
      }
      for (const o of options) if (!isObj(o) || !full(o.label) || !optStr(o.description)) return false;
      return bool(d.allow_free_text) && bool(d.multi_select);
    }
    default:
      return false;
  }
}

function reasoningBlocks(list: unknown): boolean {
  if (list === undefined) return true;
  if (!Array.isArray(list)) return false;
  for (const b of list) {
    if (!isObj(b)) return false;
    if (b.redacted === undefined) {
      if (!str(b.text) || !full(b.signature)) return false;
    } else if (!full(b.redacted) || b.text !== undefined || b.signature !== undefined) return false;
  }
  return true;
}

function binding(b: unknown): boolean {
  if (!isObj(b) || b.version !== 1) return false;
  const g = b.generation;
  if (typeof g !== 'number' || !Number.isSafeInteger(g) || g < 1) return false;
  if (!full(b.catalog_digest) || !full(b.ceiling_digest) || !optStr(b.external_cursor)) return false;
  for (const digests of [b.kinds, b.contributions]) {
    if (digests === undefined) continue;
    if (!isObj(digests)) return false;
    for (const k in digests) if (!full(digests[k])) return false;
  }
  return true;
}

function toolSpecs(tools: unknown): boolean {
  if (tools === undefined) return true;
  if (!Array.isArray(tools)) return false;
  for (const t of tools) {
    if (!isObj(t) || !full(t.name) || !str(t.description) || !isObj(t.input_schema)) return false;
  }
  return true;
}

function runStarted(p: Obj): boolean {
  if (!full(p.run_id)) return false;
  if (p.capability_binding !== undefined && !binding(p.capability_binding)) return false;
  if (p.model !== undefined && !str(p.model)) return false;
  if (p.recipe !== undefined && recipeProblem(p.recipe) !== undefined) return false;
  const system = p.system;
  if (system !== undefined) {
    if (!Array.isArray(system)) return false;
    for (const line of system) if (!str(line)) return false;
  }
  return toolSpecs(p.tools);
}

function questionAnswered(p: Obj): boolean {
  const { text, skipped, error } = p;
  if (!full(p.question_id) || !optStr(text) || !optStr(error) || error === '') return false;
  if (skipped !== undefined && !bool(skipped)) return false;
  const n = (str(text) ? 1 : 0) + (skipped === true ? 1 : 0) + (str(error) ? 1 : 0);
  return n === 1;
}

const CHECKS: Record<string, Check> = {
  'run.started': runStarted,
  'user.message': (p) => {
    const s = p.source;
    const o = p.origin;
    return (
      str(p.text) &&
      (s === 'user' || s === 'steer' || s === 'history' || s === 'continuation') &&
      (o === undefined || o === 'completion_gate' || o === 'stop_hook') &&
      optStr(p.reason) &&
      wellFormedAttachments(p.attachments)
    );
  },
  'model.turn': (p) => {
    const u = p.usage;
    return (
      decision(p.decision) &&
      isObj(u) &&
      count(u.input_tokens) &&
      count(u.output_tokens) &&
      optStr(p.reasoning) &&
      optBool(p.cut_off) &&
      reasoningBlocks(p.reasoning_blocks)
    );
  },
  'compaction.done': (p) => str(p.summary) && count(p.kept) && optBool(p.keep_request),
  'confirmation.answered': (p) => full(p.tool_call_id) && bool(p.approved) && optStr(p.reason),
  'question.answered': questionAnswered,
  'tool.result': (p) => {
    const m = p.metadata;
    const code = p.exit_code;
    return (
      full(p.tool_call_id) &&
      full(p.name) &&
      bool(p.ok) &&
      str(p.output) &&
      typeof code === 'number' &&
      Number.isSafeInteger(code) &&
      (m === undefined || m === null || isObj(m))
    );
  },
  'budget.denied': (p) => full(p.tool_call_id),
  'run.rebound': (p) =>
    full(p.run_id) &&
    binding(p.capability_binding) &&
    (p.previous === undefined || binding(p.previous)) &&
    toolSpecs(p.tools),
  'run.ended': (p) => {
    const s = p.status;
    const e = p.error;
    return (
      (s === 'completed' || s === 'cancelled' || s === 'failed') &&
      optStr(p.run_id) &&
      optStr(p.completion) &&
      (e === undefined || e === null || (isObj(e) && str(e.code) && str(e.message)))
    );
  },
};

/** True when `type`, `key` and `payload` form a draft of a known kind that `validateDraft` accepts. */
export function wellFormedDraft(type: unknown, key: unknown, payload: unknown): boolean {
  if (typeof type !== 'string' || typeof key !== 'string' || key.length === 0 || key.length > 512) return false;
  const check = KNOWN.has(type) ? CHECKS[type] : undefined;
  if (check === undefined || !isObj(payload)) return false;
  const at = payload.at_ms;
  if (at !== undefined && !(typeof at === 'number' && Number.isFinite(at))) return false;
  return check(payload);
}

/**
 * The fact a parsed JSON line holds when it is a well-formed fact of a known kind, or
 * `undefined` when the full checks must decide.
 */
export function wellFormedFact(raw: unknown): CheckedFact | undefined {
  if (!isObj(raw)) return undefined;
  let fields = 0;
  let ordered = true;
  for (const k in raw) {
    if (k !== ORDER[fields]) {
      if (k !== 'seq' && k !== 'type' && k !== 'key' && k !== 'cause' && k !== 'payload') return undefined;
      ordered = false;
    }
    fields++;
  }
  if (fields !== 5) return undefined;
  const { seq, type, key, cause, payload } = raw;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  if (cause !== null && typeof cause !== 'string') return undefined;
  if (!wellFormedDraft(type, key, payload)) return undefined;
  // A line in the order `encodeFact` writes already is the fact: keep it rather than copy it.
  return ordered ? (raw as unknown as CheckedFact) : { seq, type: type as string, key: key as string, cause, payload };
}
