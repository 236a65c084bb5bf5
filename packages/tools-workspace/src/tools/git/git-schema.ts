/**
 * Arguments of `git`: one flat object (portable across model providers) whose fields are checked
 * per operation, so a field that does not belong to the operation is refused by name.
 */
import type { ToolArgRefinement } from '@a3s-code/core';
import type { z } from 'zod';

type Zod = typeof z;

/** The operations of `git`. */
export const GIT_OPERATIONS = ['status', 'log', 'diff', 'branch', 'checkout', 'stash', 'worktree'] as const;
/** One of {@link GIT_OPERATIONS}. */
export type GitOperation = (typeof GIT_OPERATIONS)[number];

// No leading '-' (it would be read as an option) and no whitespace or control characters.
const ref = (z: Zod) =>
  z
    .string()
    .min(1)
    .max(256)
    .regex(/^(?!-)[^\s\u0000-\u001f]+$/, 'must be a ref name, commit or range (no leading "-", no spaces)');

const FIELDS: Record<GitOperation, readonly string[]> = {
  status: ['limit', 'cursor'],
  log: ['limit', 'cursor', 'ref', 'path'],
  diff: ['ref', 'path', 'staged', 'byte_offset', 'max_bytes'],
  branch: ['action', 'name', 'start_point', 'limit', 'cursor'],
  checkout: ['ref', 'create'],
  stash: ['action', 'message', 'index', 'include_untracked', 'limit', 'cursor'],
  worktree: ['action', 'path', 'ref', 'name', 'force', 'limit', 'cursor'],
};

const ACTIONS: Partial<Record<GitOperation, readonly string[]>> = {
  branch: ['list', 'create'],
  stash: ['push', 'pop', 'apply', 'drop', 'list'],
  worktree: ['list', 'create', 'remove'],
};

/** The zod schema of `git` arguments. */
export const gitInput = (z: Zod) =>
  z.strictObject({
    operation: z.enum(GIT_OPERATIONS).describe('status | log | diff | branch | checkout | stash | worktree'),
    action: z
      .enum(['list', 'create', 'push', 'pop', 'apply', 'drop', 'remove'])
      .optional()
      .describe('branch: list|create; stash: push|pop|apply|drop|list; worktree: list|create|remove'),
    ref: ref(z)
      .optional()
      .describe(
        'log: start ref; diff: commit or range (a..b); checkout: branch or commit; worktree create: commit-ish to check out',
      ),
    name: ref(z).optional().describe('branch create: the new branch; worktree create: a new branch for the worktree'),
    start_point: ref(z).optional().describe('branch create: where the branch starts (default HEAD)'),
    path: z
      .string()
      .min(1)
      .optional()
      .describe('log/diff: limit to this path; worktree create/remove: the worktree folder inside the workspace'),
    staged: z.boolean().optional().describe('diff: the staged changes (--cached)'),
    create: z.boolean().optional().describe('checkout: create ref as a new branch (-b)'),
    message: z.string().min(1).max(1000).optional().describe('stash push: the message'),
    index: z.number().int().min(0).optional().describe('stash pop/apply/drop: the stash index (default 0)'),
    include_untracked: z.boolean().optional().describe('stash push: include untracked files'),
    force: z.boolean().optional().describe('worktree remove: remove even with local changes'),
    byte_offset: z.number().int().min(0).optional().describe('diff: first byte of the page (default 0)'),
    max_bytes: z
      .number()
      .int()
      .min(1024)
      .max(262_144)
      .optional()
      .describe('diff: page size in bytes, 1024..262144 (default 65536)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('list operations: entries per page, 1..1000 (default 50)'),
    cursor: z.string().min(1).optional().describe('list operations: the next_cursor of the previous page'),
  });

/** Arguments of `git` after validation. */
export type GitArgs = z.output<ReturnType<typeof gitInput>>;

/** `git`'s rules across fields: which fields and actions each operation takes, and which it needs. */
export function gitRules(v: GitArgs): ToolArgRefinement[] {
  const issues: ToolArgRefinement[] = [];
  const allowed = FIELDS[v.operation];
  for (const key of Object.keys(v)) {
    if (key !== 'operation' && v[key as keyof typeof v] !== undefined && !allowed.includes(key)) {
      issues.push({
        path: [key],
        message: `is not used by operation '${v.operation}'; allowed: ${allowed.join(', ')}`,
      });
    }
  }
  const actions = ACTIONS[v.operation];
  if (actions && v.action !== undefined && !actions.includes(v.action)) {
    issues.push({ path: ['action'], message: `must be one of ${actions.join(', ')} for operation '${v.operation}'` });
  }
  const need = (field: keyof typeof v, when: boolean, why: string): void => {
    if (when && v[field] === undefined) issues.push({ path: [field], message: `is required ${why}` });
  };
  need('name', v.operation === 'branch' && v.action === 'create', 'to create a branch');
  need('ref', v.operation === 'checkout', 'for checkout');
  need(
    'path',
    v.operation === 'worktree' && (v.action === 'create' || v.action === 'remove'),
    `to ${v.action ?? ''} a worktree`,
  );
  return issues;
}

/** True for the operations that change nothing. */
export function isReadOnlyGit(args: GitArgs): boolean {
  if (args.operation === 'status' || args.operation === 'log' || args.operation === 'diff') return true;
  if (args.operation === 'branch' || args.operation === 'worktree') return (args.action ?? 'list') === 'list';
  if (args.operation === 'stash') return args.action === 'list';
  return false;
}
