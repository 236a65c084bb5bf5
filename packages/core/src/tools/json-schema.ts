/** A JSON value, as tools receive and return it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON Schema document (draft 2020-12 preferred; draft-07 from MCP servers is accepted). Kept
 * structural so that zod's output, hand-written schemas and MCP schemas all fit.
 */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}
