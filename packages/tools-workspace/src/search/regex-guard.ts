/**
 * Runs a regex that V8 cannot finish in linear time (a repetition count above its linear engine's
 * limit, such as `(a+){2,30}`) inside a `vm` context with a time budget, so a pattern that
 * backtracks without bound ends in a typed refusal instead of holding the process.
 */
import { createContext, runInContext, Script, type Context } from 'node:vm';
import { WorkspaceSearchError } from '../errors.js';

/** Time one file's lines may take under a guarded pattern, in milliseconds. */
export const GUARDED_MATCH_BUDGET_MS = 5000;

const RUN = new Script(
  '(() => { const out = []; for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) out.push(i); lines = []; return out; })()',
);

/** Matches lines against a pattern in a separate context, stopping it after a time budget. */
export class GuardedLines {
  private readonly context: Context;
  private readonly budgetMs: number;
  constructor(source: string, budgetMs = GUARDED_MATCH_BUDGET_MS, flags = '') {
    this.budgetMs = budgetMs;
    this.context = createContext({ source, flags, lines: [] as readonly string[] });
    runInContext('globalThis.re = new RegExp(source, flags)', this.context);
  }

  /** Indexes of the matching lines; throws `WORKSPACE_SEARCH` naming `pattern` when over budget. */
  matching(lines: readonly string[], path: string): number[] {
    this.context.lines = lines;
    try {
      return Array.from(RUN.runInContext(this.context, { timeout: this.budgetMs }) as ArrayLike<number>);
    } catch (error) {
      this.context.lines = [];
      if ((error as { code?: unknown }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
      throw new WorkspaceSearchError(
        'pattern',
        `matching ${JSON.stringify(path)} took more than ${this.budgetMs / 1000} s: the pattern backtracks too much; ` +
          'allowed: a pattern without nested or large counted repetitions (such as (a+){2,30}); search for a simpler pattern',
        error,
      );
    }
  }
}
