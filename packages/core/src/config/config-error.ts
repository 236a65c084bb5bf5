/** A zod issue as a `SessionConfigurationError` that names the key path (`permissions.deny[2]`). */
import type { z } from 'zod';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { didYouMean } from './did-you-mean.js';

/** How the schemas' message for an unknown key begins (`allowed keys: a, b`). */
const ALLOWED_KEYS = 'allowed keys: ';

/** Joins a zod path into `a.b[2].c` form, under `prefix`. */
export function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out === '' ? '(root)' : out;
}

/**
 * The issue to report: for a union none of whose forms matched (`vibe: true | {...}`), the issue
 * inside the form that got furthest, so the path named is the one that is wrong.
 */
export function deepestIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors)
    for (const inner of branch)
      if (inner.path.length > 0 && (best === undefined || inner.path.length > best.path.length)) best = inner;
  return best === undefined
    ? issue
    : deepestIssue({ ...best, path: [...issue.path, ...best.path] } as z.core.$ZodIssue);
}

/** The path of the value an issue is about (an unknown key's own path for `unrecognized_keys`). */
export function issuePath(issue: z.core.$ZodIssue): readonly PropertyKey[] {
  const deepest = deepestIssue(issue);
  return deepest.code === 'unrecognized_keys' ? [...deepest.path, deepest.keys[0] ?? '?'] : deepest.path;
}

/** Turns the first zod issue into a `SessionConfigurationError` naming its path (`where` adds the file). */
export function configError(issues: readonly z.core.$ZodIssue[], where?: string): SessionConfigurationError {
  const first = issues[0] === undefined ? undefined : deepestIssue(issues[0]);
  const suffix = where === undefined ? '' : ` (in ${where})`;
  if (!first) return new SessionConfigurationError('(root)', `is invalid${suffix}`);
  if (first.code === 'unrecognized_keys') {
    const key = String(first.keys[0] ?? '?');
    const allowed = first.message.startsWith(ALLOWED_KEYS) ? first.message.slice(ALLOWED_KEYS.length).split(', ') : [];
    return new SessionConfigurationError(
      joinPath('', [...first.path, key]),
      `is not a known key; ${first.message}${suffix}${didYouMean(key, allowed)}`,
      allowed.length > 0 ? { allowed } : {},
    );
  }
  const allowed = first.code === 'invalid_value' ? first.values.map(String) : undefined;
  return new SessionConfigurationError(
    joinPath('', first.path),
    `${first.message}${suffix}`,
    allowed ? { allowed } : {},
  );
}
