/**
 * Argument validation: every call's args are checked against the tool's JSON Schema
 * with ajv before anything else. Validators are compiled once per tool object and shared by every
 * session of the process (the pack tools are the same objects in each; compiling a tool's schema
 * anew in every session cost a millisecond or two per tool). A schema whose validation could run
 * away (branches that multiply, see `schemaCostProblem`) is refused before it is compiled. A
 * schema of only linear keywords (`nonLinearKeyword`) is checked on the host thread when its
 * static bound is small for the arguments at hand (arguments a plain such schema surely accepts
 * are passed without ajv: a process whose calls all pass never loads it); every other validation
 * is stopped after a time bound, so no schema or argument can hold the process.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { InvalidToolArgsError, ToolDefinitionError, type ToolArgIssue } from '../errors/tool-errors.js';
import type { Tool } from '../tools/tool.js';
import { newAjv2020 } from './ajv-loader.js';
import { surelyValidArgs } from '../tools/plain-args.js';
import { jsonArgsCopy, nonJsonArg } from './json-args.js';
import { malformedArgsOf } from '../llm/tool-args-text.js';
import { schemaCost } from '../tools/schema-cost.js';
import { nonLinearKeyword } from '../tools/schema-linear.js';
import { runBounded, VALIDATION_TIME_LIMIT_MS, ValidationTimeout } from '../generate-object/schema-guard.js';

function pointerToPath(pointer: string): string {
  let out = 'args';
  if (pointer === '') return out;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`;
  }
  return out;
}

/** The property names the object schema at `schemaPath` (ajv's, ending in the failing keyword) allows. */
function allowedNames(schema: Readonly<Record<string, unknown>>, schemaPath: string): string[] {
  let at: unknown = schema;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1)) {
    if (raw === '') continue;
    if (typeof at !== 'object' || at === null) return [];
    at = (at as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  const props = (at as { properties?: unknown } | null)?.properties;
  return typeof props === 'object' && props !== null ? Object.keys(props) : [];
}

function describe(error: ErrorObject, schema: Readonly<Record<string, unknown>>): ToolArgIssue {
  const base = pointerToPath(error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: `${base}.${String(p.missingProperty)}`, message: 'is required' };
    case 'additionalProperties': {
      const allowed = allowedNames(schema, error.schemaPath);
      const list = allowed.length === 0 ? '' : ` (allowed: ${allowed.slice(0, 24).join(', ')})`;
      return { field: `${base}.${String(p.additionalProperty)}`, message: `is not an allowed property${list}` };
    }
    case 'enum':
      return { field: base, message: `must be one of ${JSON.stringify(p.allowedValues)}` };
    case 'const':
      return { field: base, message: `must be ${JSON.stringify(p.allowedValue)}` };
    default:
      return { field: base, message: error.message ?? `fails '${error.keyword}'` };
  }
}

/**
 * The tool's own limits of arguments that passed its schema (`Tool.checkArgs`), checked before
 * anything else judges the call. A check that throws is a defect of the tool: the call fails with
 * `INVALID_TOOL_DEFINITION`, never runs unchecked.
 */
function limitsOf(tool: Tool, args: unknown): InvalidToolArgsError | ToolDefinitionError | undefined {
  if (tool.checkArgs === undefined) return undefined;
  let issues: readonly ToolArgIssue[];
  try {
    issues = tool.checkArgs(args);
  } catch (cause) {
    return new ToolDefinitionError(
      `tool '${tool.name}'`,
      'checkArgs',
      `threw: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  return issues.length > 0 ? new InvalidToolArgsError(tool.name, issues) : undefined;
}

/** The error for arguments that are not one JSON object (text that never parsed), or `undefined`. */
function malformedArgs(tool: Tool, args: unknown): InvalidToolArgsError | undefined {
  const malformed = malformedArgsOf(args);
  return malformed === undefined
    ? undefined
    : new InvalidToolArgsError(tool.name, [
        {
          field: 'args',
          message: malformed.problem.startsWith('cut off:')
            ? `are not one JSON object: ${malformed.problem}`
            : `are not one JSON object: ${malformed.problem}; send the call again with its arguments as a single JSON object`,
        },
      ]);
}

/**
 * The compiled validator of each tool object (or why its schema is too costly to run), whichever invoker
 * compiled it: the options are the same for all, and a validator is self-contained once compiled
 * (its errors are read right after each call, on the one thread).
 */
const compiled = new WeakMap<Tool, ValidateFunction | ToolDefinitionError>();

/** How a tool's arguments are checked, decided once per tool object from its schema. */
interface CheckPlan {
  /** The schema as compiled (without `$schema`). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Why the schema is too costly to run, if it is. */
  readonly problem?: string;
  /** The most subschemas one value of its arguments is checked against. */
  readonly perValue: number;
  /**
   * Whether the schema uses only keywords whose check of a value is a step, so that a validation
   * within {@link DIRECT_CHECKS} may run without the time bound (and the plain fast path, which
   * runs a schema's `pattern`s as they are, may be used at all).
   */
  readonly linear: boolean;
}

const plans = new WeakMap<Tool, CheckPlan>();

function planOf(tool: Tool): CheckPlan {
  let plan = plans.get(tool);
  if (plan === undefined) {
    // Draft-07 schemas from MCP servers validate the same for the keywords tools use; the
    // `$schema` marker would make Ajv2020 refuse them, so compile without it.
    const { $schema: _ignored, ...schema } = tool.inputSchema;
    const cost = schemaCost(schema);
    plan =
      cost.problem === undefined
        ? { schema, perValue: cost.perValue, linear: nonLinearKeyword(schema) === undefined }
        : { schema, problem: cost.problem, perValue: cost.perValue, linear: false };
    plans.set(tool, plan);
  }
  return plan;
}

/**
 * Checks a validation may make on the host thread as it is (at a few microseconds each, tens of
 * milliseconds at worst); arguments whose values times the schema's checks per value could make
 * more are checked under the time bound, which costs a watchdog thread per call. So is every
 * validation against a schema that is not linear, whatever the arguments' size: one short string
 * can make a backtracking `pattern` run for days.
 */
const DIRECT_CHECKS = 5_000;

/** The number of values (objects, arrays and scalars) in `value`, counted up to `limit`. */
function valuesUpTo(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const v = stack.pop();
    count++;
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else for (const key in v) stack.push((v as Record<string, unknown>)[key]);
  }
  return count;
}

/** Compiles validators (with an ajv of its own, so schemas with an `$id` never meet another invoker's) and checks args. */
export class ArgValidator {
  #ajv: Ajv2020 | undefined;

  /**
   * The compiled validator of `tool`, compiling it on first use.
   * @throws ToolDefinitionError when the schema does not compile, or its validation could run away.
   */
  validatorOf(tool: Tool): ValidateFunction {
    let fn = compiled.get(tool);
    if (fn === undefined) {
      const { schema, problem } = planOf(tool);
      if (problem !== undefined) fn = new ToolDefinitionError(`tool '${tool.name}'`, 'inputSchema', `it ${problem}`);
      else
        try {
          // ajv is loaded and set up on the first compile. `inlineRefs: false`: a `$ref` is a
          // call, never a copy of its target (a large target referred to from a thousand places
          // would be compiled a thousand times, minutes of work from a 64 KiB schema).
          this.#ajv ??= newAjv2020({ allErrors: true, strict: false, validateSchema: false, inlineRefs: false });
          fn = this.#ajv.compile(schema);
        } catch (cause) {
          throw new ToolDefinitionError(
            `tool '${tool.name}'`,
            'inputSchema',
            `does not compile: ${cause instanceof Error ? cause.message : String(cause)}`,
          );
        }
      compiled.set(tool, fn);
    }
    if (fn instanceof ToolDefinitionError) throw fn;
    return fn;
  }

  /**
   * `undefined` when `args` are valid, otherwise the typed error naming the first bad field; a
   * tool whose input schema does not compile (an MCP server's, say) fails the call with
   * `INVALID_TOOL_DEFINITION`, never the run.
   */
  check(tool: Tool, args: unknown): InvalidToolArgsError | ToolDefinitionError | undefined {
    const malformed = malformedArgs(tool, args);
    if (malformed !== undefined) return malformed;
    const notJson = nonJsonArg(args);
    if (notJson !== undefined) return new InvalidToolArgsError(tool.name, [notJson]);
    return this.#checkSchema(tool, args);
  }

  /**
   * {@link check}, and on success a private copy of `args` (made in the walk that finds them JSON),
   * which the call then works on.
   */
  checkCopy(
    tool: Tool,
    args: unknown,
  ):
    | { readonly ok: true; readonly args: unknown }
    | { readonly ok: false; readonly error: InvalidToolArgsError | ToolDefinitionError } {
    const malformed = malformedArgs(tool, args);
    if (malformed !== undefined) return { ok: false, error: malformed };
    const copied = jsonArgsCopy(args);
    if (!('copy' in copied)) return { ok: false, error: new InvalidToolArgsError(tool.name, [copied]) };
    const invalid = this.#checkSchema(tool, copied.copy);
    return invalid === undefined ? { ok: true, args: copied.copy } : { ok: false, error: invalid };
  }

  #checkSchema(tool: Tool, args: unknown): InvalidToolArgsError | ToolDefinitionError | undefined {
    const plan = planOf(tool);
    // Most calls of a plain schema are decided without ajv; ajv judges (and explains) the rest.
    // A schema with a keyword that is not linear (a `pattern` that may backtrack) is always
    // judged by ajv under the time bound.
    if (plan.linear && surelyValidArgs(tool.inputSchema, args)) return limitsOf(tool, args);
    let fn: ValidateFunction;
    try {
      fn = this.validatorOf(tool);
    } catch (e) {
      if (e instanceof ToolDefinitionError) return e;
      throw e;
    }
    let valid: boolean;
    try {
      const perValue = plan.perValue;
      const direct = plan.linear && valuesUpTo(args, Math.floor(DIRECT_CHECKS / perValue)) * perValue <= DIRECT_CHECKS;
      valid = direct ? fn(args) === true : runBounded(() => fn(args) === true);
    } catch (e) {
      if (!(e instanceof ValidationTimeout)) throw e;
      return new InvalidToolArgsError(tool.name, [
        {
          field: 'args',
          message: `took longer than ${VALIDATION_TIME_LIMIT_MS} ms to check against the tool's input schema and were refused; send smaller arguments`,
        },
      ]);
    }
    if (valid) return limitsOf(tool, args);
    const issues = (fn.errors ?? []).map((e) => describe(e, planOf(tool).schema));
    return new InvalidToolArgsError(tool.name, issues.length > 0 ? issues : [{ field: 'args', message: 'invalid' }]);
  }
}
