/** A zod issue as a `SessionConfigurationError` that names the key path (`permissions.deny[2]`). */
import type { z } from 'zod';
import { SessionConfigurationError } from '../errors/session-errors.js';

/** Joins a zod path into `a.b[2].c` form, under `prefix`. */
export function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out === '' ? '(root)' : out;
}

/** Turns the first zod issue into a `SessionConfigurationError` naming its path (`where` adds the file). */
export function configError(issues: readonly z.core.$ZodIssue[], where?: string): SessionConfigurationError {
  const first = issues[0];
  const suffix = where === undefined ? '' : ` (in ${where})`;
  if (!first) return new SessionConfigurationError('(root)', `is invalid${suffix}`);
  if (first.code === 'unrecognized_keys')
    return new SessionConfigurationError(
      joinPath('', [...first.path, first.keys[0] ?? '?']),
      `is not a known key; ${first.message}${suffix}`,
    );
  const allowed = first.code === 'invalid_value' ? first.values.map(String) : undefined;
  return new SessionConfigurationError(
    joinPath('', first.path),
    `${first.message}${suffix}`,
    allowed ? { allowed } : {},
  );
}
