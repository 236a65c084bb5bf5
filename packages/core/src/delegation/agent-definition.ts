/**
 * Sub-agent definitions: the built-in `general`, `explore`, `plan` and `verification`, and
 * custom ones from Markdown files with front matter (`name`, `description`, `tools`, `tier`,
 * `model`, `max_steps`; the body is the agent's instructions).
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import { parseFrontMatter, listAttr, stringAttr, FrontMatterError } from '../config/front-matter.js';
import type { ToolTier } from '../tools/tool.js';
import { TOOL_TIERS } from '../tools/tool.js';
import { parsePermissionRule } from '../permissions/permission-rule.js';

/** A sub-agent a task can be delegated to. */
export interface AgentDefinition {
  /** Unique name: `[A-Za-z][A-Za-z0-9_-]{0,63}`. */
  readonly name: string;
  /** What the agent is for (shown to the model in the `task` tool's description). */
  readonly description: string;
  /** Instructions added to the child's system prompt. */
  readonly instructions: string;
  /** Permission rules the agent's calls must match (an allow-list; absent: every tool of its tiers). */
  readonly tools?: readonly string[];
  /** Tiers the agent may see and call. Default: every tier. */
  readonly tiers?: readonly ToolTier[];
  /** Rules `exec`-tier calls must also match (the `verification` agent: test commands only). */
  readonly execTools?: readonly string[];
  /** Plan mode for the child (read tier only; the checker denies writes). */
  readonly plan?: boolean;
  /** `provider/model` for the child; default: the session's model. */
  readonly model?: string;
  /** Tool rounds of the child before its tools are withdrawn, `1..1000`. */
  readonly maxSteps?: number;
  /** `builtin`, `config`, or the file it came from. */
  readonly source: string;
}

/** Rules that let the `verification` agent run test suites and the `verify` tool (prefix matches). */
export const TEST_COMMAND_RULES: readonly string[] = Object.freeze([
  'verify',
  'Bash(npm test:*)',
  'Bash(npm run test:*)',
  'Bash(pnpm test:*)',
  'Bash(pnpm run test:*)',
  'Bash(pnpm exec vitest:*)',
  'Bash(npx vitest:*)',
  'Bash(yarn test:*)',
  'Bash(node --test:*)',
  'Bash(cargo test:*)',
  'Bash(go test:*)',
  'Bash(pytest:*)',
  'Bash(python -m pytest:*)',
  'Bash(python3 -m pytest:*)',
  'Bash(make test:*)',
]);

/** The built-in agents. */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = Object.freeze(
  [
    {
      name: 'general',
      description: 'General-purpose agent for multi-step work; has the session’s tools (never more).',
      instructions:
        'You are a general-purpose sub-agent. Do the delegated task completely, then answer with a concise report of what you did and found.',
      source: 'builtin',
    },
    {
      name: 'explore',
      description: 'Read-only exploration: finds files, reads code, collects evidence. Cannot change anything.',
      instructions:
        'You are a read-only exploration sub-agent. Search and read to answer the question; return a compact list of evidence (file paths, line numbers, short quotes). You cannot change files or run commands.',
      tiers: ['read'],
      source: 'builtin',
    },
    {
      name: 'plan',
      description: 'Read-only planning: studies the code and returns a step-by-step implementation plan.',
      instructions:
        'You are a planning sub-agent in plan mode. Read what you need, then answer with a numbered implementation plan: files to change, the change in each, risks, and how to verify. Do not change anything.',
      tiers: ['read'],
      plan: true,
      source: 'builtin',
    },
    {
      name: 'verification',
      description: 'Verification: reads code and runs the test suites (test commands only) to check a change.',
      instructions:
        'You are a verification sub-agent. Read the relevant code, run the relevant tests, and report precisely what passed and what failed, with the commands you ran. You may not edit files.',
      tiers: ['read', 'exec'],
      execTools: TEST_COMMAND_RULES,
      source: 'builtin',
    },
  ].map((a) => Object.freeze(a as AgentDefinition)),
);

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The shape of an agent given in configuration (`agents`); the same fields as the front matter. */
export interface AgentDefinitionInput {
  readonly name: string;
  readonly description: string;
  readonly instructions?: string;
  readonly tools?: readonly string[];
  /** One tier (`read`: read only; `write`: read and write; `exec`: all) or a list of tiers. */
  readonly tier?: ToolTier | readonly ToolTier[];
  readonly model?: string;
  readonly maxSteps?: number;
}

function tiersOf(value: ToolTier | readonly ToolTier[] | undefined, field: string): readonly ToolTier[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? TOOL_TIERS.slice(0, TOOL_TIERS.indexOf(value) + 1) : value;
  for (const t of typeof value === 'string' ? [value] : list) {
    if (!TOOL_TIERS.includes(t))
      throw new SessionConfigurationError(
        field,
        `must be one of ${TOOL_TIERS.map((x) => `'${x}'`).join(', ')} or a list of them, got ${JSON.stringify(t)}`,
        { allowed: [...TOOL_TIERS] },
      );
  }
  return list;
}

/**
 * Checks an agent given in configuration (or read from a file) and returns its definition.
 * @throws SessionConfigurationError naming the field (`agents[2].tier`) and what is allowed.
 */
export function defineAgent(input: AgentDefinitionInput, where: string, source = 'config'): AgentDefinition {
  if (typeof input?.name !== 'string' || !NAME.test(input.name))
    throw new SessionConfigurationError(`${where}.name`, 'must be 1..64 of [A-Za-z0-9_-], starting with a letter');
  if (typeof input.description !== 'string' || input.description.trim() === '')
    throw new SessionConfigurationError(`${where}.description`, 'must be a non-empty string');
  if (input.tools !== undefined)
    for (const [i, r] of input.tools.entries()) parsePermissionRule(r, `${where}.tools[${i}]`);
  const maxSteps = input.maxSteps;
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > 1000))
    throw new SessionConfigurationError(
      `${where}.max_steps`,
      `must be an integer from 1 to 1000, got ${String(maxSteps)}`,
    );
  if (input.model !== undefined && !/^[^/\s]+\/\S+$/.test(input.model))
    throw new SessionConfigurationError(`${where}.model`, "must be 'provider/model'");
  const tiers = tiersOf(input.tier, `${where}.tier`);
  return Object.freeze({
    name: input.name,
    description: input.description.trim(),
    instructions:
      (input.instructions ?? '').trim() || `You are the '${input.name}' sub-agent: ${input.description.trim()}`,
    ...(input.tools ? { tools: [...input.tools] } : {}),
    ...(tiers ? { tiers } : {}),
    ...(input.model ? { model: input.model } : {}),
    ...(maxSteps === undefined ? {} : { maxSteps }),
    source,
  });
}

/** Parses an agent file (`.a3s/agents/<name>.md`). Errors name the file and the field. */
export function parseAgentFile(text: string, file: string): AgentDefinition {
  try {
    const doc = parseFrontMatter(text, file);
    const steps = stringAttr(doc, 'max_steps', file) ?? stringAttr(doc, 'maxSteps', file);
    const tier = doc.attributes.tier;
    const tools = listAttr(doc, 'tools');
    const model = stringAttr(doc, 'model', file);
    return defineAgent(
      {
        name: stringAttr(doc, 'name', file) ?? '',
        description: stringAttr(doc, 'description', file) ?? '',
        instructions: doc.body,
        ...(tools ? { tools } : {}),
        ...(tier === undefined
          ? {}
          : {
              tier: (typeof tier === 'string' && tier.includes(',') ? listAttr(doc, 'tier') : tier) as
                | ToolTier
                | readonly ToolTier[],
            }),
        ...(model ? { model } : {}),
        ...(steps === undefined ? {} : { maxSteps: /^\d+$/.test(steps) ? Number(steps) : Number.NaN }),
      },
      file,
      file,
    );
  } catch (e) {
    if (e instanceof FrontMatterError) throw new SessionConfigurationError(file, e.message);
    throw e;
  }
}
