/**
 * Checks of what is remembered and recalled, shared by the tools and the stores (a host calling a
 * store directly gets the same typed errors as the model).
 */
import { A3sError } from '@a3s-code/effect';
import type { RecallQuery, RememberInput } from './memory-store.js';

/** A memory or a recall query that breaks the limits; names the field and what is allowed. */
export class MemoryInputError extends A3sError {
  constructor(field: string, problem: string) {
    super('INVALID_MEMORY_INPUT', `memory: ${field}: ${problem}`, { details: { field } });
  }
}

/**
 * The memory folder is not a plain folder of the workspace: `.a3s` or `.a3s/memory` is a symbolic
 * link (or not a folder), so memories would be read from or written to somewhere else.
 */
export class MemoryFolderError extends A3sError {
  constructor(path: string, problem: string) {
    super(
      'WORKSPACE_PATH',
      `memory: ${path} ${problem}; allowed: a real folder inside the workspace (remove the link to use memories)`,
      { details: { field: 'memory folder', path } },
    );
  }
}

const str = (v: unknown, field: string, min: number, max: number): string => {
  if (typeof v !== 'string' || v.length < min || v.length > max)
    throw new MemoryInputError(field, `must be a string of ${min} to ${max} characters`);
  return v;
};

function tagsOf(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 16) throw new MemoryInputError(field, 'must be an array of at most 16 tags');
  return [...new Set(v.map((t, i) => str(t, `${field}[${i}]`, 1, 64)))];
}

/** The checked input of a remember. @throws MemoryInputError */
export function checkRemember(input: RememberInput): RememberInput {
  return {
    content: str(input?.content, 'content', 1, 10_000),
    tags: tagsOf(input.tags, 'tags'),
    ...(input.key === undefined ? {} : { key: str(input.key, 'key', 1, 200) }),
  };
}

/** The checked recall query. @throws MemoryInputError */
export function checkRecall(query: RecallQuery): RecallQuery {
  const limit = query?.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    throw new MemoryInputError('limit', 'must be an integer from 1 to 50');
  return {
    ...(query.query === undefined ? {} : { query: str(query.query, 'query', 0, 2000) }),
    tags: tagsOf(query.tags, 'tags'),
    limit,
  };
}
