/**
 * JSON-RPC 2.0 for `a3s serve`: the standard error codes, the server's own, checking a request's
 * envelope (naming the field that is wrong), and turning a zod failure into `-32602` with the
 * path of the first bad field (`params.workspace`).
 */
import { A3sError } from '@a3s-code/sdk';
import type { z } from 'zod';

/** JSON-RPC error codes: the standard ones, then the server's (-32000 and below). */
export const RPC_ERROR = Object.freeze({
  /** The line is not JSON. */
  parseError: -32700,
  /** The JSON is not a request object (`jsonrpc`, `method`, `id`, `params`). */
  invalidRequest: -32600,
  /** No such method. */
  methodNotFound: -32601,
  /** The params do not match the method's schema; the message and `data.field` name the field. */
  invalidParams: -32602,
  /** A bug in the server. */
  internalError: -32603,
  /** The runtime refused or failed (`data.code`: `SESSION_BUSY`, `RESUME_FAILED`, ...). */
  runtimeError: -32000,
  /** `params.sessionId` names no session open in this server. */
  sessionNotOpen: -32001,
});

/** A request id: a string, an integer, or null (the client could not be told apart). */
export type RpcId = string | number | null;

/** A JSON-RPC error a handler throws; the dispatcher sends it as the response. */
export class RpcError extends Error {
  readonly rpcCode: number;
  readonly data: Readonly<Record<string, unknown>> | undefined;
  constructor(rpcCode: number, message: string, data?: Readonly<Record<string, unknown>>) {
    super(message);
    this.name = 'RpcError';
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** A request after its envelope was checked. */
export interface RpcRequest {
  /** Absent for a notification (nothing is answered). */
  readonly id?: RpcId;
  readonly method: string;
  readonly params: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `v` is an id the shipped schema allows: a string, an integer or null. */
function isId(v: unknown): v is RpcId {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));
}

/** A short description of a value that is not an id. */
function describe(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return 'an array';
  return v === null ? 'null' : `a value of type ${typeof v}`;
}

/** The id of a malformed request, when it has a usable one (else null). */
export function idOf(value: unknown): RpcId {
  if (!isRecord(value)) return null;
  const id = value.id;
  return isId(id) && id !== null ? id : null;
}

/** Checks the envelope of one request. @throws RpcError (-32600) naming the field. */
export function checkRequest(value: unknown): RpcRequest {
  const bad = (field: string, problem: string): never => {
    throw new RpcError(RPC_ERROR.invalidRequest, `Invalid Request: ${field}: ${problem}`, { field });
  };
  if (!isRecord(value)) return bad('(root)', 'must be a JSON object');
  if (value.jsonrpc !== '2.0') bad('jsonrpc', `must be "2.0", got ${JSON.stringify(value.jsonrpc) ?? 'nothing'}`);
  if (typeof value.method !== 'string' || value.method === '') bad('method', 'must be a non-empty string');
  const hasId = Object.hasOwn(value, 'id');
  const id = value.id;
  if (hasId && !isId(id)) bad('id', `must be a string, an integer or null, got ${describe(id)}`);
  const params = value.params;
  if (params !== undefined && (typeof params !== 'object' || params === null))
    bad('params', 'must be an object (or an array) when present');
  return { ...(hasId ? { id: id as RpcId } : {}), method: value.method as string, params };
}

type Issue = z.core.$ZodIssue;

/** The deepest issue (the longest path) of some union forms, or undefined when none has a path. */
function deepestOf(branches: readonly (readonly Issue[])[]): Issue | undefined {
  let best: Issue | undefined;
  for (const branch of branches)
    for (const inner of branch)
      if (inner.path.length > 0 && (best === undefined || inner.path.length > best.path.length)) best = inner;
  return best;
}

/**
 * The issue to report for a union none of whose forms matched. A form whose literal did not match
 * (`type: 'file'` for an image) is of another kind: the forms of the value's kind are looked at
 * (their deepest issue, or else their first one: `data` is not allowed beside `path`). When no
 * form is of the value's kind and every form refused the same literal field, that field is named
 * with every value allowed. Else the deepest issue of any form (`vibe.tiers.slow`).
 */
function deepest(issue: Issue): Issue {
  if (issue.code !== 'invalid_union') return issue;
  const otherKind = (branch: readonly Issue[]): boolean => branch.some((i) => i.code === 'invalid_value');
  const sameKind = issue.errors.filter((b) => !otherKind(b));
  let best: Issue | undefined;
  if (sameKind.length > 0 && sameKind.length < issue.errors.length)
    best = deepestOf(sameKind) ?? sameKind.find((b) => b.length > 0)?.[0];
  else if (sameKind.length === 0) {
    const literals = issue.errors.map((b) => b.find((i) => i.code === 'invalid_value')!);
    const at = literals[0]!.path.join('.');
    if (literals.every((l) => l.path.join('.') === at)) {
      const values = [...new Set(literals.flatMap((l) => (l.code === 'invalid_value' ? l.values : [])))];
      const allowed = values.map((v) => JSON.stringify(v)).join(', ');
      best = { ...literals[0]!, message: `Invalid input: expected one of ${allowed}` };
    }
  }
  best ??= deepestOf(issue.errors);
  return best === undefined ? issue : deepest({ ...best, path: [...issue.path, ...best.path] } as Issue);
}

/** The text of one issue: an unknown field says which fields are allowed there. */
function problemOf(issue: Issue): string {
  if (issue.code !== 'unrecognized_keys') return issue.message;
  const keys = issue.keys;
  const allowed = issue.message.startsWith('allowed:') ? `; ${issue.message}` : '';
  return `unknown field${keys.length > 1 ? `s ${keys.join(', ')}` : ''}${allowed}`;
}

/** Validates params with `schema`. @throws RpcError (-32602) naming the first bad field. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const r = schema.safeParse(params ?? {});
  if (r.success) return r.data;
  const issue = deepest(r.error.issues[0]!);
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = [...issue.path, ...(keys.length === 1 ? keys : [])];
  const field = ['params', ...path.map(String)].join('.');
  throw new RpcError(RPC_ERROR.invalidParams, `Invalid params: ${field}: ${problemOf(issue)}`, {
    field,
    issues: r.error.issues.map((i) => {
      const named = i.code === 'unrecognized_keys' && i.keys.length === 1 ? i.keys : [];
      return { path: ['params', ...i.path.map(String), ...named].join('.'), message: problemOf(i) };
    }),
  });
}

/** The error object of a response for anything a handler threw. */
export function errorObject(e: unknown): { code: number; message: string; data?: Readonly<Record<string, unknown>> } {
  if (e instanceof RpcError) return { code: e.rpcCode, message: e.message, ...(e.data ? { data: e.data } : {}) };
  if (A3sError.isInstance(e)) {
    const details = Object.keys(e.details).length > 0 ? { details: e.details } : {};
    return { code: RPC_ERROR.runtimeError, message: `${e.code}: ${e.message}`, data: { code: e.code, ...details } };
  }
  return { code: RPC_ERROR.internalError, message: `Internal error: ${e instanceof Error ? e.message : String(e)}` };
}

/** A response line's object. */
export function response(id: RpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

/** An error response line's object. */
export function errorResponse(id: RpcId, e: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: errorObject(e) });
}

/** A notification line whose params are already JSON text (an event, byte for byte as `a3s run --json`). */
export function notificationWithJson(method: string, paramsJson: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${paramsJson}}`;
}
