/**
 * Structural checks of a tool object, run once at definition and at registration, so that a bad
 * tool fails loudly before any call (a caller's mistake, thrown at construction).
 */
import { ToolDefinitionError } from '../errors/tool-errors.js';
import { isWorkspaceCapability } from '../workspace/capabilities.js';
import { TOOL_TIERS, type Tool } from './tool.js';

/** Tool names: a letter, then up to 127 of `[A-Za-z0-9_.-]`. */
export const TOOL_NAME_RE = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;

const OUTPUT_TYPES = ['text', 'json', 'diff', 'binary'];
const BOOLEAN_CAPS = ['readOnly', 'idempotent', 'resumable', 'cancelSafe', 'paginated'] as const;

/** What {@link assertValidTool} leaves out. */
export interface ValidateToolOptions {
  /**
   * `true` skips an `inputSchema` that is a getter (a schema built on first use, see `defineTool`),
   * so that defining a pack does not build it; the registry checks it when the tool is registered.
   */
  readonly deferSchemaGetter?: boolean;
}

/** Throws `INVALID_TOOL_DEFINITION` naming the first bad field of `tool`. */
export function assertValidTool(tool: Tool, subject: string, options: ValidateToolOptions = {}): void {
  const fail = (field: string, problem: string): never => {
    throw new ToolDefinitionError(subject, field, problem);
  };
  if (typeof tool !== 'object' || tool === null) fail('tool', 'must be an object');
  if (typeof tool.name !== 'string' || !TOOL_NAME_RE.test(tool.name)) {
    fail('name', `must match ${TOOL_NAME_RE.source}, got ${JSON.stringify(tool.name)}`);
  }
  if (typeof tool.description !== 'string') fail('description', 'must be a string');
  if (!TOOL_TIERS.includes(tool.tier))
    fail('tier', `must be one of ${TOOL_TIERS.join(', ')}, got ${JSON.stringify(tool.tier)}`);
  const deferred = options.deferSchemaGetter === true && Object.getOwnPropertyDescriptor(tool, 'inputSchema')?.get;
  if (!deferred) {
    const schema = tool.inputSchema as unknown;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      fail('inputSchema', 'must be a JSON Schema object');
    const type = (schema as { type?: unknown }).type;
    if (type !== undefined && type !== 'object')
      fail('inputSchema.type', `must be 'object' (tool arguments are an object), got ${JSON.stringify(type)}`);
  }
  if (typeof tool.execute !== 'function') fail('execute', 'must be a function');
  const caps = tool.capabilities;
  if (caps !== undefined) {
    for (const key of BOOLEAN_CAPS) {
      if (caps[key] !== undefined && typeof caps[key] !== 'boolean') fail(`capabilities.${key}`, 'must be a boolean');
    }
    const mp = caps.maxParallelism;
    if (mp !== undefined && (!Number.isInteger(mp) || mp < 1 || mp > 1024))
      fail('capabilities.maxParallelism', `must be an integer in 1..1024, got ${String(mp)}`);
    if (caps.outputType !== undefined && !OUTPUT_TYPES.includes(caps.outputType)) {
      fail('capabilities.outputType', `must be one of ${OUTPUT_TYPES.join(', ')}`);
    }
  }
  if (tool.requires !== undefined) {
    if (!Array.isArray(tool.requires)) fail('requires', 'must be an array of capability names');
    tool.requires.forEach((cap, i) => {
      if (!isWorkspaceCapability(cap)) {
        fail(
          `requires[${i}]`,
          `unknown capability ${JSON.stringify(cap)}; allowed: fs.read, fs.write, fs.list, search, exec, git, resource.<name>, mcp.<server>`,
        );
      }
    });
  }
  const t = tool.timeoutMs;
  if (t !== undefined && (!Number.isInteger(t) || t < 1 || t > 86_400_000))
    fail('timeoutMs', `must be an integer in 1..86400000, got ${String(t)}`);
  if (tool.reentrant !== undefined && typeof tool.reentrant !== 'boolean') fail('reentrant', 'must be a boolean');
  if (tool.shellEquivalent !== undefined && typeof tool.shellEquivalent !== 'function')
    fail('shellEquivalent', 'must be a function returning shell command lines');
  if (tool.checkArgs !== undefined && typeof tool.checkArgs !== 'function')
    fail('checkArgs', 'must be a function returning argument issues');
}
