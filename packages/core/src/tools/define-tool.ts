/**
 * `defineTool`: a tool from a zod schema and a handler. The JSON Schema the model and the
 * validator see is zod's *input* side (fields with defaults are optional); `execute` receives
 * zod's parsed *output* (defaults applied, transforms run). The schema may be given as a builder
 * `(z) => schema`: then zod loads, and the schema is built, on the first use of the tool.
 */
import type { z } from 'zod';
import { InvalidToolArgsError, type ToolArgIssue } from '../errors/tool-errors.js';
import type { JsonSchema } from './json-schema.js';
import type { Tool, ToolResult, ToolTier } from './tool.js';
import type { ToolCapabilities } from './tool-capabilities.js';
import type { ToolContext } from './tool-context.js';
import type { WorkspaceCapability } from '../workspace/capabilities.js';
import { assertValidTool } from './validate-tool.js';
import { lazyZod, type Zod } from './zod-loader.js';
import { parsePlainArgs, UNSURE } from './plain-args.js';
import { whyNotPlain } from './plain-input.js';

/** What `defineTool` needs. `S` is an object schema; `execute` gets `z.output<S>`. */
export interface DefineToolOptions<S extends z.ZodType<Record<string, unknown>>> {
  /** See {@link Tool.name}. */
  readonly name: string;
  /** Model-facing description. */
  readonly description: string;
  /**
   * zod schema of the arguments; must describe an object. A function `(z) => schema` is called
   * once, on the first use of the tool (its JSON Schema, a call), with zod's `z` namespace, so
   * that defining the tool does not load zod.
   */
  readonly input: S | ((z: Zod) => S);
  /**
   * The JSON Schema zod derives from `input` ({@link zodInputSchema}), computed ahead (a file
   * generated at build time): the tool's `inputSchema` is then this object, so registering the
   * tool and offering it to the model need no zod; zod loads on the first call. It must equal
   * zod's output: check it in a test with {@link zodJsonSchemaOf}.
   */
  readonly inputJsonSchema?: JsonSchema;
  /**
   * Declares that `input` is a plain schema: objects, records with string keys, arrays, strings,
   * numbers, booleans, enums, literals, `unknown`, `optional`, `nullable` and `default` (of a
   * constant: the JSON Schema keeps one value, so not `.default(() => Date.now())`), with only
   * length, range, integer and flag-less regex checks (no transform, refinement, other format or
   * union; rules across fields go in {@link DefineToolOptions.refine}). A call whose arguments
   * pass the JSON Schema is then parsed without zod (known fields copied, defaults filled in), and
   * zod loads only to explain a failure. Check the claim in a test with {@link zodInputIsPlain}.
   */
  readonly plainInput?: boolean;
  /**
   * Rules across fields, checked after the arguments are parsed: each issue names the field
   * (`path`, as in zod) and what is wrong. Any issue fails the call with `INVALID_TOOL_ARGS`.
   */
  readonly refine?: (args: z.output<S>) => readonly ToolArgRefinement[];
  /**
   * See {@link Tool.checkArgs}: limits the JSON Schema cannot state, checked on the arguments as
   * sent (before defaults), by the kernel before the permission rules and again before `execute`.
   */
  readonly limits?: (args: z.input<S>) => readonly ToolArgRefinement[];
  /** Approval tier. */
  readonly tier: ToolTier;
  /** Static scheduling capabilities. */
  readonly capabilities?: Partial<ToolCapabilities>;
  /** Capabilities that depend on the parsed args. */
  readonly capabilitiesFor?: (args: z.output<S>) => Partial<ToolCapabilities>;
  /** See {@link Tool.shellEquivalent}: the shell command lines the parsed call is equivalent to. */
  readonly shellEquivalent?: (args: z.output<S>) => readonly string[];
  /** Capabilities required for registration. */
  readonly requires?: readonly WorkspaceCapability[];
  /** Execution timeout in milliseconds. */
  readonly timeoutMs?: number;
  /** `false` forbids self-nesting. */
  readonly reentrant?: boolean;
  /** The handler. */
  readonly execute: (args: z.output<S>, ctx: ToolContext) => Promise<ToolResult>;
}

/** One issue {@link DefineToolOptions.refine} found: the field and what is wrong with it. */
export interface ToolArgRefinement {
  /** The field, as keys and indexes from the arguments' root (`['files', 0, 'path']`). */
  readonly path: readonly PropertyKey[];
  /** What is wrong, as the model will read it (`must differ from old_string`). */
  readonly message: string;
}

/** Converts a zod issue path to the `args.a[0].b` form used by {@link InvalidToolArgsError}. */
export function formatArgPath(path: readonly PropertyKey[]): string {
  let out = 'args';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}

/** The input-side JSON Schema of a zod schema, without the `$schema` marker. */
export function zodInputSchema(schema: z.ZodType): JsonSchema {
  const json = schema.toJSONSchema({ io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json as JsonSchema;
}

/** Where a tool made by {@link defineTool} keeps its zod schema (shared by every copy of core). */
const ZOD_INPUT = Symbol.for('@a3s-code/core.tool-zod-input');

/** Where a tool made by {@link defineTool} records `plainInput`. */
const PLAIN_INPUT = Symbol.for('@a3s-code/core.tool-plain-input');

/** Whether `tool` was made by {@link defineTool} with `plainInput: true`. */
export function declaresPlainInput(tool: Tool): boolean {
  return (tool as { readonly [PLAIN_INPUT]?: boolean })[PLAIN_INPUT] === true;
}

/**
 * The JSON Schema zod derives from the schema a tool was defined with (`defineTool`'s `input`),
 * computed afresh (zod loads), whatever `inputJsonSchema` the tool was given; `undefined` for a
 * tool not made by `defineTool`. A test compares it with a precomputed `inputJsonSchema`.
 */
export function zodJsonSchemaOf(tool: Tool): JsonSchema | undefined {
  const schemaOf = (tool as { readonly [ZOD_INPUT]?: () => z.ZodType })[ZOD_INPUT];
  return schemaOf === undefined ? undefined : zodInputSchema(schemaOf());
}

/**
 * Whether the schema a tool was defined with (`defineTool`'s `input`) is plain, and if not, the
 * first part that is not (zod loads). A test of a tool declared with `plainInput: true` expects
 * `plain: true`.
 */
export function zodInputIsPlain(tool: Tool): { readonly plain: boolean; readonly why?: string } {
  const schemaOf = (tool as { readonly [ZOD_INPUT]?: () => z.ZodType })[ZOD_INPUT];
  if (schemaOf === undefined) return { plain: false, why: 'the tool was not made by defineTool' };
  const why = whyNotPlain(schemaOf());
  return why === undefined ? { plain: true } : { plain: false, why };
}

/**
 * Builds a {@link Tool} from a zod schema. Throws `INVALID_TOOL_DEFINITION` for a bad name,
 * tier, capability or a schema that is not an object (for a schema builder, on the tool's first use).
 */
export function defineTool<S extends z.ZodType<Record<string, unknown>>>(
  options: DefineToolOptions<S>,
): Tool<z.output<S>> {
  const input = options.input;
  const schemaOf = typeof input === 'function' ? lazyZod(input) : () => input;
  const dynamic = options.capabilitiesFor;
  const shell = options.shellEquivalent;
  const subject = `tool '${options.name}'`;
  const { refine, plainInput } = options;
  const limits = options.limits;
  const checkArgs =
    limits === undefined
      ? undefined
      : (args: unknown): ToolArgIssue[] =>
          limits(args as z.input<S>).map((i) => ({ field: formatArgPath(i.path), message: i.message }));
  // Filled in below: the tool's JSON Schema, for the zod-free parse of a plain input.
  let jsonSchemaOf: () => JsonSchema = () => ({});
  const parse = (args: unknown): z.output<S> => {
    const fast = plainInput === true ? parsePlainArgs(jsonSchemaOf(), args) : UNSURE;
    const value = fast === UNSURE ? parseArgs(options.name, schemaOf(), args) : (fast as z.output<S>);
    // The limits judge the arguments as sent, once they are known to have the schema's shape.
    const over = checkArgs?.(args) ?? [];
    if (over.length > 0) throw new InvalidToolArgsError(options.name, over);
    const issues = refine?.(value) ?? [];
    if (issues.length > 0)
      throw new InvalidToolArgsError(
        options.name,
        issues.map((i) => ({ field: formatArgPath(i.path), message: i.message })),
      );
    return value;
  };
  const head = { name: options.name, description: options.description };
  const rest = {
    tier: options.tier,
    ...(options.capabilities === undefined ? {} : { capabilities: Object.freeze({ ...options.capabilities }) }),
    ...(options.requires === undefined ? {} : { requires: Object.freeze([...options.requires]) }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.reentrant === undefined ? {} : { reentrant: options.reentrant }),
    ...(dynamic === undefined ? {} : { capabilitiesFor: (args: z.output<S>) => dynamic(parse(args)) }),
    ...(shell === undefined ? {} : { shellEquivalent: (args: z.output<S>) => shell(parse(args)) }),
    ...(checkArgs === undefined ? {} : { checkArgs }),
    // The kernel has validated against the JSON Schema already; the arguments are parsed again to
    // apply defaults and transforms and to enforce the rules JSON Schema cannot express.
    execute: async (args: z.output<S>, ctx: ToolContext) => options.execute(parse(args), ctx),
  };
  const hidden = { [ZOD_INPUT]: { value: schemaOf }, [PLAIN_INPUT]: { value: plainInput === true } };
  const precomputed = options.inputJsonSchema;
  if (typeof input !== 'function' || precomputed !== undefined) {
    const inputSchema = precomputed ?? zodInputSchema(schemaOf());
    const tool: Tool<z.output<S>> = { ...head, inputSchema, ...rest };
    assertValidTool(tool, subject);
    jsonSchemaOf = () => inputSchema;
    return Object.freeze(Object.defineProperties(tool, hidden));
  }
  // A schema builder: everything but the schema is checked now, the schema when it is first built.
  assertValidTool({ ...head, inputSchema: { type: 'object' }, ...rest }, subject);
  let inputSchema: JsonSchema | undefined;
  const tool = {
    ...head,
    get inputSchema(): JsonSchema {
      if (inputSchema === undefined) {
        const built = zodInputSchema(schemaOf());
        assertValidTool({ ...head, inputSchema: built, ...rest }, subject);
        inputSchema = built;
      }
      return inputSchema;
    },
    ...rest,
  };
  jsonSchemaOf = () => tool.inputSchema;
  return Object.freeze(Object.defineProperties(tool, hidden));
}

function parseArgs<S extends z.ZodType>(name: string, schema: S, args: unknown): z.output<S> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issues: ToolArgIssue[] = parsed.error.issues.map((issue) => ({
    field: formatArgPath(issue.path),
    message: issue.message,
  }));
  throw new InvalidToolArgsError(name, issues);
}
