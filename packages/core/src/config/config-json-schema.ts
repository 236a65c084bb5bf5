/**
 * The JSON Schema (draft 2020-12) of `a3s.config.json`, generated from the zod file schema the
 * loader validates with, so editors complete and check the same keys. The build writes it to
 * `dist/config.schema.json` (exported as `@a3s-code/core/config.schema.json`). Checks zod runs as
 * code (a provider name, a base URL, an MCP entry's outline) are added here where JSON Schema can
 * say them; the loader stays the authority.
 */
import { PROVIDER_NAMES } from './model-ref.js';
import { getCodeConfigFileSchema, SCRIPTED_MODEL_PREFIX } from './config-schema.js';

/** The file name of the shipped schema, inside the package's `dist/`. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/** A JSON Schema document (plain JSON). */
export type JsonSchemaDocument = { readonly [key: string]: unknown };

type Mutable = Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };

/** The JSON Schema of a config file, as shipped in `dist/config.schema.json`. */
export function codeConfigJsonSchema(): JsonSchemaDocument {
  const schema = getCodeConfigFileSchema().toJSONSchema({ io: 'input' }) as Mutable;
  const p = schema.properties;
  const providers = PROVIDER_NAMES.join('|');
  Object.assign(schema, { title: 'A3S Code configuration (a3s.config.json)' });
  Object.assign(p.$schema!, { description: 'The JSON Schema of this file (for editors); ignored by A3S Code.' });
  const modelPattern = `^(${SCRIPTED_MODEL_PREFIX}.+|(${providers})/.+)$`;
  Object.assign(p.model!, {
    description: `The model: 'provider/model' (provider one of ${PROVIDER_NAMES.join(', ')}), or '${SCRIPTED_MODEL_PREFIX}<file.json>' (an offline script, relative to this file's folder).`,
    pattern: modelPattern,
  });
  Object.assign(p.vibe!, {
    description:
      "Vibe mode (the vibe_* tools, with which the agent conducts background workers): true, false or { enabled?, tiers?: { fast?, good? }, maxWorkers? }. The object turns vibe mode on unless enabled is false. Flags and the host's settings win, tier by tier.",
  });
  const vibeObject = (p.vibe!.anyOf as Record<string, unknown>[] | undefined)?.find((s) => s.type === 'object') as
    | Mutable
    | undefined;
  Object.assign(vibeObject?.properties.enabled ?? {}, {
    description:
      'Vibe mode at the start. Default true: the object alone turns vibe mode on; false keeps these settings with vibe mode off until the host turns it on (in a3s: --vibe or /vibe).',
  });
  const tiers = vibeObject?.properties.tiers as Mutable | undefined;
  for (const [tier, what] of [
    ['fast', 'well-specified mechanical work'],
    ['good', 'design, judgement and review'],
  ] as const)
    Object.assign(tiers?.properties[tier] ?? {}, {
      description: `The model of ${tier} workers (${what}): 'provider/model' or '${SCRIPTED_MODEL_PREFIX}<file.json>' (relative to this file's folder). Default: the session's model.`,
      pattern: modelPattern,
    });
  Object.assign(p.pricing!, {
    description: "Prices per million tokens by 'provider/model', to show what a run cost.",
    propertyNames: { pattern: '^[^/]+/.+$' },
  });
  Object.assign(p.providers!, {
    description: 'Per-provider base URL, API-key variable name and headers.',
    propertyNames: { enum: [...PROVIDER_NAMES] },
  });
  return schema;
}
