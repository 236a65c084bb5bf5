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
  /** Approval tier. */
  readonly tier: ToolTier;
  /** Static scheduling capabilities. */
  readonly capabilities?: Partial<ToolCapabilities>;
  /** Capabilities that depend on the parsed args. */
  readonly capabilitiesFor?: (args: z.output<S>) => Partial<ToolCapabilities>;
  /** Capabilities required for registration. */
  readonly requires?: readonly WorkspaceCapability[];
  /** Execution timeout in milliseconds. */
  readonly timeoutMs?: number;
  /** `false` forbids self-nesting. */
  readonly reentrant?: boolean;
  /** The handler. */
  readonly execute: (args: z.output<S>, ctx: ToolContext) => Promise<ToolResult>;
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
 * Builds a {@link Tool} from a zod schema. Throws `INVALID_TOOL_DEFINITION` for a bad name,
 * tier, capability or a schema that is not an object (for a schema builder, on the tool's first use).
 */
export function defineTool<S extends z.ZodType<Record<string, unknown>>>(
  options: DefineToolOptions<S>,
): Tool<z.output<S>> {
  const input = options.input;
  const schemaOf = typeof input === 'function' ? lazyZod(input) : () => input;
  const dynamic = options.capabilitiesFor;
  const subject = `tool '${options.name}'`;
  const head = { name: options.name, description: options.description };
  const rest = {
    tier: options.tier,
    ...(options.capabilities === undefined ? {} : { capabilities: Object.freeze({ ...options.capabilities }) }),
    ...(options.requires === undefined ? {} : { requires: Object.freeze([...options.requires]) }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.reentrant === undefined ? {} : { reentrant: options.reentrant }),
    ...(dynamic === undefined
      ? {}
      : { capabilitiesFor: (args: z.output<S>) => dynamic(parseArgs(options.name, schemaOf(), args)) }),
    // The kernel has validated against the JSON Schema already; zod parses again to apply
    // defaults and transforms and to enforce refinements JSON Schema cannot express.
    execute: async (args: z.output<S>, ctx: ToolContext) =>
      options.execute(parseArgs(options.name, schemaOf(), args), ctx),
  };
  const hidden = { [ZOD_INPUT]: { value: schemaOf } };
  const precomputed = options.inputJsonSchema;
  if (typeof input !== 'function' || precomputed !== undefined) {
    const inputSchema = precomputed ?? zodInputSchema(schemaOf());
    const tool: Tool<z.output<S>> = { ...head, inputSchema, ...rest };
    assertValidTool(tool, subject);
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
