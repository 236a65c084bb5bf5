/**
 * Templates of workflow prompts: `{{query}}` (the original query), `{{steps.<id>}}` and
 * `{{steps.<id>.<path>}}` (an input step's output, or a field of it: `a.b.0.c`), and, in the
 * task of a `forEach` fan-out, `{{item}}`, `{{item.<path>}}` and `{{index}}` (0-based). Strings
 * are inserted as they are, other values as JSON; a missing field fails the step, naming the
 * reference and the fields that exist where it stopped.
 */
import { WORKFLOW_LIMITS } from './workflow-definition.js';
import { WorkflowStepError } from './workflow-errors.js';

/** One `{{...}}` reference. */
export interface TemplateRef {
  /** The reference as written, without braces. */
  readonly text: string;
  readonly root: 'query' | 'index' | 'item' | 'steps';
  /** The step, for `steps.<id>...`. */
  readonly step?: string;
  /** Field path below the root (or below the step's output). */
  readonly path: readonly string[];
}

/** What a template can see. */
export interface TemplateScope {
  readonly query: string;
  /** Outputs of the step's inputs. */
  readonly steps: ReadonlyMap<string, unknown>;
  /** The element of a `forEach` fan-out, and its index. */
  readonly item?: { readonly value: unknown; readonly index: number };
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** Parses the text of one reference (`steps.plan.tasks`); `undefined` when it is not one. */
export function parseRef(text: string): TemplateRef | undefined {
  const parts = text.split('.');
  if (parts.some((p) => !SEGMENT.test(p))) return undefined;
  const [root, ...rest] = parts;
  if (root === 'query' || root === 'index') return rest.length === 0 ? { text, root, path: [] } : undefined;
  if (root === 'item') return { text, root, path: rest };
  if (root === 'steps' && rest.length > 0) return { text, root, step: rest[0]!, path: rest.slice(1) };
  return undefined;
}

/**
 * The references of `template`, or the text of the first `{{...}}` that is not a reference.
 */
export function templateRefs(template: string): { refs: TemplateRef[] } | { bad: string } {
  const refs: TemplateRef[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) {
    const ref = parseRef(m[1]!);
    if (ref === undefined) return { bad: m[0] };
    refs.push(ref);
  }
  return { refs };
}

function at(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) {
    if (Array.isArray(v) && /^\d+$/.test(key)) v = v[Number(key)];
    else if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, key))
      v = (v as Record<string, unknown>)[key];
    else return undefined;
  }
  return v;
}

/** The value a reference names in `scope` (`undefined` when absent). */
export function resolveRef(ref: TemplateRef, scope: TemplateScope): unknown {
  switch (ref.root) {
    case 'query':
      return scope.query;
    case 'index':
      return scope.item?.index;
    case 'item':
      return scope.item === undefined ? undefined : at(scope.item.value, ref.path);
    case 'steps':
      return at(scope.steps.get(ref.step!), ref.path);
  }
}

/** What there is at a value: its fields, its indexes, or its type. */
function describeValue(v: unknown): string {
  if (Array.isArray(v))
    return v.length === 0 ? 'an empty array' : `an array of ${v.length} (indexes 0..${v.length - 1})`;
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    if (keys.length === 0) return 'an object with no fields';
    const shown = keys.slice(0, 20).join(', ');
    return `an object with fields ${shown}${keys.length > 20 ? `, … (${keys.length} in all)` : ''}`;
  }
  return v === null ? 'null' : `a ${typeof v}`;
}

/** Why `ref` names nothing in `scope`: where the walk stopped and what is there. */
function missing(ref: TemplateRef, scope: TemplateScope): string {
  if (ref.root === 'index' || (ref.root === 'item' && scope.item === undefined))
    return `{{${ref.text}}} is only defined in the task of a forEach step`;
  if (ref.root === 'steps' && !scope.steps.has(ref.step!))
    return `{{${ref.text}}}: step '${ref.step}' is not an input of this step; inputs: ${[...scope.steps.keys()].join(', ') || 'none'}`;
  let v: unknown = ref.root === 'item' ? scope.item!.value : scope.steps.get(ref.step!);
  const walked = [ref.root === 'item' ? 'item' : `steps.${ref.step!}`];
  for (const key of ref.path) {
    const next = at(v, [key]);
    if (next === undefined) return `{{${ref.text}}}: ${walked.join('.')} has no '${key}'; it is ${describeValue(v)}`;
    v = next;
    walked.push(key);
  }
  return `{{${ref.text}}} is missing`;
}

function text(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const max = WORKFLOW_LIMITS.maxSubstitutionChars;
  return s.length > max ? `${s.slice(0, max)}… [cut: ${s.length - max} more characters]` : s;
}

/**
 * Renders `template` in `scope` (its references were checked when the workflow was validated).
 * @throws WorkflowStepError (`TEMPLATE_FIELD_MISSING`) of step `stepId` when a reference names
 *   nothing, saying which and what fields there are.
 */
export function renderTemplate(template: string, scope: TemplateScope, stepId: string): string {
  return template.replace(PLACEHOLDER, (whole, inner: string) => {
    const ref = parseRef(inner);
    if (ref === undefined) return whole;
    const value = resolveRef(ref, scope);
    if (value === undefined) throw new WorkflowStepError(stepId, 'TEMPLATE_FIELD_MISSING', missing(ref, scope));
    return text(value);
  });
}
