/**
 * `ObjectStoreError`: an object store (S3) refused or failed a request: access denied, no such
 * bucket, credentials it does not accept, a network failure, no answer in time, an answer it
 * could not read. A run-time outcome like any file error: the tools turn it into a failed result.
 */
import { WorkspaceFileError } from '../errors.js';

/** A request to the object store failed. Names the operation, the key and what the store said. */
export class ObjectStoreError extends WorkspaceFileError {
  /** The request, e.g. `GetObject` or `PUT src/a.ts`. */
  readonly operation: string;
  /** The HTTP status, when the store answered. */
  readonly status: number | undefined;
  /** The store's own error code (`AccessDenied`, `NoSuchBucket`, ...), when it gave one. */
  readonly storeCode: string | undefined;
  constructor(
    operation: string,
    key: string,
    problem: string,
    extra: { readonly status?: number; readonly storeCode?: string; readonly cause?: unknown } = {},
  ) {
    super(key, 'store', `object store ${operation}: ${problem}`, extra.cause);
    this.operation = operation;
    this.status = extra.status;
    this.storeCode = extra.storeCode;
  }
}
