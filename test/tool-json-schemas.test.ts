import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaCostProblem } from '../packages/core/src/tools/schema-cost.js';
import { toolSchemaSets, zodSchemas } from '../scripts/tool-json-schemas.js';

// The built-in tools carry JSON Schemas generated ahead from their zod schemas (so that a session
// offers them without loading zod). They must never drift from zod's output: after changing a
// tool's schema, build and run `pnpm exec tsx scripts/tool-json-schemas.ts`.
describe('the generated JSON Schemas of the built-in tools', () => {
  it.each(toolSchemaSets().map((set) => [set.pkg, set] as const))(
    '%s: the generated file equals zod’s output for every tool, and each tool carries it',
    (_pkg, set) => {
      const committed = JSON.parse(readFileSync(set.file, 'utf8')) as Record<string, unknown>;
      const fromZod = zodSchemas(set);
      expect(Object.keys(committed)).toEqual(Object.keys(fromZod));
      for (const [name, schema] of Object.entries(fromZod)) {
        // Byte for byte: the model request is the same as when zod built the schema.
        expect(JSON.stringify(committed[name]), `${set.pkg}: ${name}`).toBe(JSON.stringify(schema));
      }
      for (const tool of set.tools) {
        // A plain value (not a getter that would build the schema with zod), equal to the file's.
        const own = Object.getOwnPropertyDescriptor(tool, 'inputSchema');
        expect(own?.get, `${set.pkg}: ${tool.name} has a precomputed schema`).toBeUndefined();
        expect(JSON.stringify(own?.value)).toBe(JSON.stringify(committed[tool.name]));
      }
    },
  );

  it.each(toolSchemaSets().map((set) => [set.pkg, set] as const))(
    '%s: every tool schema is within the cost bound that untrusted schemas are held to',
    (_pkg, set) => {
      for (const tool of set.tools)
        expect(schemaCostProblem(tool.inputSchema), `${set.pkg}: ${tool.name}`).toBeUndefined();
    },
  );
});
