// The JSON Schemas of the built-in tools, generated from their zod schemas so that registering a
// tool and offering it to the model load no zod (`defineTool({ inputJsonSchema })`). Writes one
// `src/tool-json-schemas.generated.json` per package; test/tool-json-schemas.test.ts checks that
// each file still equals zod's output. After changing a tool's zod schema, build, then run:
//
//   pnpm exec tsx scripts/tool-json-schemas.ts
//
// `task` and `parallel_task` list the session's agents: their schemas are generated with one
// placeholder agent, which each session replaces by its own (`withAgentNames`).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonSchema, Tool } from '../packages/core/src/index.js';
import { zodJsonSchemaOf } from '../packages/core/src/tools/define-tool.js';
import { AGENT_NAMES_PLACEHOLDER } from '../packages/core/src/delegation/task-args.js';
import { createDelegationTools, type DelegationPort } from '../packages/core/src/delegation/task-tools.js';
import type { SessionGate } from '../packages/core/src/gate/session-gate.js';
import { createVerifyTool } from '../packages/core/src/gate/verify-tool.js';
import { createGenerateObjectTool } from '../packages/core/src/generate-object/generate-object-tool.js';
import { createProgramTool } from '../packages/core/src/program/program-tool.js';
import { askUserTool } from '../packages/core/src/run/ask-user.js';
import { createBatchTool } from '../packages/core/src/runtime-tools/batch-tool.js';
import { createSkillTools } from '../packages/core/src/skills/skill-tools.js';
import { memoryWorkflowStore } from '../packages/core/src/workflow/workflow-store.js';
import { createDynamicWorkflowTool } from '../packages/core/src/workflow/workflow-tool.js';
import { createMemoryTools } from '../packages/core/src/memory/memory-tools.js';
// The resource packs come from their build: a JSON module with a key named `eval` cannot be
// loaded from source by tsx (it becomes `var eval`).
import { astToolPack } from '../packages/tools-resource/dist/ast.js';
import { debugToolPack } from '../packages/tools-resource/dist/debug.js';
import { evalToolPack } from '../packages/tools-resource/dist/eval.js';
import { lspToolPack } from '../packages/tools-resource/dist/lsp.js';
import { vibeToolPack } from '../packages/tools-resource/dist/vibe.js';
import { createWebTools } from '../packages/tools-web/src/web-tools.js';
import { workspaceTools } from '../packages/tools-workspace/src/pack.js';

const root = join(import.meta.dirname, '..');

/** One package's built-in tools and the file that holds their JSON Schemas. */
export interface ToolSchemaSet {
  /** The package folder under `packages/`. */
  readonly pkg: string;
  /** The generated file, absolute. */
  readonly file: string;
  /** The tools, as the package defines them (with the zod schema each was defined with). */
  readonly tools: readonly Tool[];
}

/** Every package's built-in tools with a static schema. */
export function toolSchemaSets(): ToolSchemaSet[] {
  const unused = (): never => {
    throw new Error('not called: the tool is built only for its schema');
  };
  // Only the schemas are read: the tools are never run, so their ports are never called.
  const agent = { name: AGENT_NAMES_PLACEHOLDER, description: 'an agent' };
  const port = {
    agents: new Map([[agent.name, agent]]),
    settings: { maxParallelTasks: 4 },
  } as unknown as DelegationPort;
  const core: Tool[] = [
    createBatchTool(),
    createProgramTool(),
    askUserTool,
    createVerifyTool({} as SessionGate),
    createGenerateObjectTool(unused),
    ...createDelegationTools(port),
    ...createSkillTools(new Map()),
    createDynamicWorkflowTool({
      store: memoryWorkflowStore(),
      llmFor: unused,
      clock: Date.now,
      flows: [],
      permissions: {},
    }),
    ...createMemoryTools(unused),
  ];
  const web = createWebTools({ search: { http: false, browser: false } }).tools;
  const file = (pkg: string) => join(root, 'packages', pkg, 'src', 'tool-json-schemas.generated.json');
  return [
    { pkg: 'core', file: file('core'), tools: core },
    { pkg: 'tools-workspace', file: file('tools-workspace'), tools: workspaceTools },
    { pkg: 'tools-web', file: file('tools-web'), tools: web },
    {
      pkg: 'tools-resource',
      file: file('tools-resource'),
      tools: [
        ...astToolPack.tools,
        ...lspToolPack.tools,
        ...evalToolPack.tools,
        ...debugToolPack.tools,
        ...vibeToolPack.tools,
      ],
    },
  ];
}

/** The JSON Schema zod derives for each tool of `set`, by tool name, in the order of the tools. */
export function zodSchemas(set: ToolSchemaSet): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const tool of set.tools) {
    const schema = zodJsonSchemaOf(tool);
    if (schema === undefined) throw new Error(`${set.pkg}: tool '${tool.name}' was not made by defineTool`);
    out[tool.name] = schema;
  }
  return out;
}

/** The text of `set`'s generated file. */
export function render(set: ToolSchemaSet): string {
  return `${JSON.stringify(zodSchemas(set), null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sets = toolSchemaSets();
  for (const set of sets) {
    writeFileSync(set.file, render(set));
    console.log(`wrote ${set.file.slice(root.length + 1)} (${set.tools.length} tools)`);
  }
  // In the repository's JSON style (the test compares the parsed files, not their layout).
  execFileSync(join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', ...sets.map((s) => s.file)], {
    stdio: 'inherit',
  });
}
