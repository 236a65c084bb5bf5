/**
 * The schema a `tools/call` answer is read with. The SDK's own fails the whole answer when one
 * content block is of a type it does not know (a newer protocol's, or a server's invention), so
 * the call's other content (and what a mutating tool reports it did) would be lost. Here such a
 * block becomes a text block naming its type; every other part of the answer is checked as before.
 */
import { loadSdkTypes } from './sdk-types.js';

type CallToolResultSchema = typeof import('@modelcontextprotocol/sdk/types.js').CallToolResultSchema;

let schema: Promise<CallToolResultSchema> | undefined;

/** `[unsupported content: "video"]`: what stands in for a content block of an unknown type. */
function unsupportedContentText(item: unknown): string {
  const type = (item as { type?: unknown } | null)?.type;
  const named = JSON.stringify(type) ?? String(type);
  return `[unsupported content: ${named.length > 100 ? `${named.slice(0, 100)}…` : named}]`;
}

/** The lenient `tools/call` result schema (built once, on the first call). */
export function callResultSchema(): Promise<CallToolResultSchema> {
  schema ??= Promise.all([import('zod'), loadSdkTypes()]).then(
    ([{ z }, { CallToolResultSchema, ContentBlockSchema }]) =>
      z.preprocess((raw) => {
        const content = (raw as { content?: unknown } | null)?.content;
        if (!Array.isArray(content)) return raw;
        return {
          ...(raw as object),
          content: content.map((item: unknown) =>
            ContentBlockSchema.safeParse(item).success ? item : { type: 'text', text: unsupportedContentText(item) },
          ),
        };
      }, CallToolResultSchema) as unknown as CallToolResultSchema, // `callTool` takes it where the SDK's own goes.
  );
  return schema;
}
