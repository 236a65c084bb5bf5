/**
 * The JSON Schema (draft 2020-12) of every `a3s serve` message, generated from the zod schemas the
 * server validates with: `<method>.request`, `<method>.response`, `<notification>.notification`
 * and `error.response` under `$defs`, and the document itself accepts any of them. The build
 * writes it to `dist/serve.schema.json` (exported as `@a3s-code/cli/serve.schema.json`).
 */
import { z } from 'zod';
import { METHODS, NOTIFICATIONS, SERVE_PROTOCOL_VERSION } from './protocol.js';

/** The file name of the shipped schema, inside the package's `dist/`. */
export const SERVE_SCHEMA_FILE = 'serve.schema.json';

/** A JSON Schema document (plain JSON). */
export type ServeJsonSchema = { readonly [key: string]: unknown };

const ID = { type: ['string', 'integer', 'null'], description: 'The request id, echoed by the response.' };

function plain(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function envelope(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: { jsonrpc: { const: '2.0' }, ...properties },
    required: ['jsonrpc', ...required],
    additionalProperties: false,
  };
}

/** The JSON Schema of the protocol, as shipped in `dist/serve.schema.json`. */
export function serveJsonSchema(): ServeJsonSchema {
  const defs: Record<string, unknown> = {};
  for (const [method, m] of Object.entries(METHODS)) {
    defs[`${method}.request`] = envelope({ id: ID, method: { const: method }, params: plain(m.params, 'input') }, [
      'method',
    ]);
    defs[`${method}.response`] = envelope({ id: ID, result: plain(m.result, 'output') }, ['id', 'result']);
  }
  for (const [method, params] of Object.entries(NOTIFICATIONS))
    defs[`${method}.notification`] = envelope({ method: { const: method }, params: plain(params, 'output') }, [
      'method',
      'params',
    ]);
  defs['error.response'] = envelope(
    {
      id: ID,
      error: {
        type: 'object',
        properties: {
          code: {
            type: 'integer',
            description:
              '-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params (data.field names it), -32603 internal error, -32000 runtime error (data.code), -32001 session not open.',
          },
          message: { type: 'string' },
          data: { type: 'object' },
        },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
    ['id', 'error'],
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `a3s serve: JSON-RPC 2.0 messages over stdio, protocol version ${SERVE_PROTOCOL_VERSION}`,
    description:
      'One JSON message per line. $defs holds each method request and response, each notification, and the error response; a message is valid when it matches one of them.',
    anyOf: Object.keys(defs).map((k) => ({ $ref: `#/$defs/${k.replaceAll('~', '~0').replaceAll('/', '~1')}` })),
    $defs: defs,
  };
}
