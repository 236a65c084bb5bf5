/**
 * Rules for the `git` tool, written as a git command line without `git`: `Git(status)`,
 * `git(checkout -b *)`, `Git(stash push:*)`, `Git(worktree remove --force *)`. A call of the tool
 * is seen as the git commands it runs, each in the spellings git accepts for it (`stash pop` and
 * `stash pop stash@{0}`, `--staged` and `--cached`, `-f` and `--force`), and such a rule matches
 * as `Bash(git …)` matches a command: a deny or ask rule naming options also holds for their
 * other spellings and order. The subcommand is matched in any case and spacing (`Git(  STATUS )`).
 * The same command lines are what `Bash(git …)` deny and ask rules see of the tool's calls.
 */
import { PermissionRuleError } from '../errors/tool-errors.js';
import { compileGlobAutomaton, globMayMatch, globMustMatch, type GlobAutomaton } from './glob-match.js';
import { optionRuleMayMatch, optionRuleOf, type OptionRule } from './shell/option-spellings.js';

/** A compiled `Git(…)` rule pattern, matched against the command lines of a `git` call. */
export interface GitRuleMatcher {
  /** The pattern as a command glob, `git` first (`git checkout -b *`). */
  readonly automaton: GlobAutomaton;
  /** The options it names, for deny and ask rules (see `option-spellings.ts`). */
  readonly options: OptionRule | undefined;
  /** Its words after the subcommand other than options: the refs it may name. */
  readonly refs: readonly string[];
}

/**
 * Where the arguments a policy judges of a `git` call keep the names git resolves the call's ref
 * to, when the workspace's repository was asked (see {@link gitRefNamesOf}). A symbol: no call's
 * JSON arguments can hold it.
 */
export const GIT_REF_NAMES: unique symbol = Symbol('a3s.gitRefNames');

/**
 * True when git resolves `ref` by the repository's state at run time, so that its spelling says
 * nothing of the branch or commit it names: the previous branch or the upstream (`@{-1}`, `@{u}`),
 * a reflog entry (`main@{0}`, `HEAD@{1}`), a commit reached from another (`main~0`, `main^`,
 * `main^{commit}`), a path in a tree (`main:src`), `@`, or `HEAD` and its kin (`ORIG_HEAD`).
 */
export function isDynamicRef(ref: string): boolean {
  return /@\{|[~^:]/.test(ref) || ref === '@' || /(?:^|\/|_)HEAD$/.test(ref);
}

/** The field of a call that names a ref to check out or read, or `undefined` (a new branch's name is no ref). */
export function gitCallRef(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const a = args as Record<string, unknown>;
  if (a.operation === 'checkout' && a.create === true) return undefined;
  if (!['checkout', 'log', 'diff', 'worktree'].includes(String(a.operation))) return undefined;
  return typeof a.ref === 'string' && a.ref.length > 0 ? a.ref : undefined;
}

// The names git resolved the call's ref to (see `GIT_REF_NAMES`), or none.
function resolvedNames(args: unknown): string[] {
  const names = (args as { readonly [GIT_REF_NAMES]?: unknown })[GIT_REF_NAMES];
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

// The refs a deny or ask rule sees for the call: as written, what git resolved it to, and where
// git resolves it at run time, every ref the rule names (so a rule naming one holds).
function refSpellings(matcher: GitRuleMatcher, args: unknown, ref: string): string[] {
  const names = resolvedNames(args);
  const commit = names.find((n) => /^[0-9a-f]{40,64}$/.test(n));
  const out = new Set([ref, ...names]);
  for (const word of matcher.refs) {
    const literal = word.replace(/:\*$/, '');
    if (isDynamicRef(ref)) out.add(word);
    else if (commit !== undefined && /^[0-9a-f]{4,}$/i.test(literal) && commit.startsWith(literal.toLowerCase()))
      out.add(literal);
  }
  return [...out];
}

const FORMS =
  'a git rule is Git(<subcommand> [arguments]) as the git command line without "git", with * for any text: ' +
  'Git(status), Git(log *), Git(checkout -b *), Git(stash push:*), Git(worktree remove --force *)';

// Actions of the subcommands that take one, matched in any case as the subcommand is.
const ACTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  stash: new Set(['push', 'pop', 'apply', 'drop', 'list', 'show', 'clear', 'save', 'branch', 'create', 'store']),
  worktree: new Set(['add', 'list', 'remove', 'prune', 'move', 'lock', 'unlock', 'repair']),
};

/**
 * The pattern of a `Git(…)` rule as it is matched, without `git`: white space runs made one space,
 * a leading `git` dropped, the subcommand (and a stash or worktree action) in lower case. Throws
 * `INVALID_PERMISSION_RULE` for a pattern no git command line can match as written: quotes, shell
 * syntax (`;`, `|`, `&`, `<`, `>`, `$(`, backquotes), or a git option before the subcommand; and
 * for one no call of the git tool can match: a subcommand, action or option it never runs, or the
 * tool's own word for git's (`worktree create` for `worktree add`).
 */
export function gitRulePattern(written: string, field: string, rule: string): string {
  const refuse = (why: string): never => {
    throw new PermissionRuleError(field, rule, `${why}; ${FORMS}`);
  };
  if (/["'`]/.test(written))
    refuse('quotes are not part of a git rule (words are matched as git receives them, unquoted)');
  if (/[;|&<>]|\$\(/.test(written)) refuse('a git rule names one git command, not shell syntax');
  const words = written.trim().split(/\s+/);
  if (words[0]?.toLowerCase() === 'git') words.shift();
  if (words.length === 0 || words[0] === '') refuse('the rule names no git subcommand');
  if (words[0]!.startsWith('-'))
    refuse(`'${words[0]}' is an option before the subcommand, which the git tool's calls never have`);
  const first = words[0]!;
  if (/^[A-Za-z-]+(?::\*)?$/.test(first)) words[0] = first.toLowerCase();
  const action = words[1];
  const actions = ACTIONS[words[0]!];
  if (actions !== undefined && action !== undefined && actions.has(action.replace(/:\*$/, '').toLowerCase()))
    words[1] = action.toLowerCase();
  const unproducible = neverRun(words);
  if (unproducible !== undefined) refuse(unproducible);
  return words.join(' ');
}

// What the tool's calls run: each subcommand, the actions that follow it (where it has them), and
// the options its command lines hold in any spelling.
const RUNS: Readonly<Record<string, { readonly actions?: readonly string[]; readonly options: readonly string[] }>> = {
  status: { options: [] },
  log: { options: ['--'] },
  diff: { options: ['--cached', '--staged', '--'] },
  branch: { options: ['--list', '--'] },
  checkout: { options: ['-b', '--'] },
  stash: {
    actions: ['push', 'pop', 'apply', 'drop', 'list'],
    options: ['-u', '--include-untracked', '-m', '--message'],
  },
  worktree: { actions: ['add', 'remove', 'list'], options: ['-f', '--force', '-b', '--'] },
};

// The tool's own words for what git spells otherwise.
const TOOL_WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  branch: {
    create: 'the tool creates a branch with git branch <name> [<start>]: write Git(branch <name> *) or Git(branch *)',
    list: 'the tool lists branches with git branch (or git branch --list): write Git(branch) or Git(branch --list)',
  },
  worktree: { create: 'the tool creates a worktree with git worktree add: write Git(worktree add *)' },
};

const isGlob = (word: string): boolean => /[*?]/.test(word.replace(/:\*$/, ''));

// True when the rule word `word` (literal, or a `:*` prefix) can be the word `produced`.
function fits(word: string, produced: string): boolean {
  return word.endsWith(':*') ? produced.startsWith(word.slice(0, -2)) : word === produced;
}

/**
 * Why no call of the git tool runs a command the rule's words can match (a subcommand, an action or
 * an option it never runs), or `undefined` when some call may.
 */
function neverRun(words: readonly string[]): string | undefined {
  const first = words[0]!;
  if (isGlob(first)) return undefined;
  const subcommands = Object.keys(RUNS).filter((c) => fits(first, c));
  const all = Object.keys(RUNS).join(', ');
  if (subcommands.length === 0) return `the git tool never runs git ${first.replace(/:\*$/, '')} (it runs ${all})`;
  if (subcommands.length > 1 || first.endsWith(':*')) return undefined;
  const sub = subcommands[0]!;
  const runs = RUNS[sub]!;
  const second = words[1];
  if (second !== undefined && !isGlob(second) && !second.startsWith('-')) {
    const hint = TOOL_WORDS[sub]?.[second.replace(/:\*$/, '').toLowerCase()];
    if (hint !== undefined) return `'${second}' is the git tool's word, not git's: ${hint}`;
    if (runs.actions !== undefined && !runs.actions.some((a) => fits(second, a)))
      return `the git tool never runs git ${sub} ${second.replace(/:\*$/, '')} (it runs git ${sub} ${runs.actions.join(', ')})`;
  }
  for (const word of words.slice(1)) {
    if (word === '--') break;
    if (!word.startsWith('-') || isGlob(word)) continue;
    const option = word.replace(/:\*$/, '').split('=')[0]!;
    // A long option cut short names every option it begins.
    const known = runs.options.some(
      (o) => o === option || (option.startsWith('--') && option.length > 3 && o.startsWith(option)),
    );
    if (!known)
      return `the git tool never runs git ${sub} with ${option} (its options there: ${runs.options.filter((o) => o !== '--').join(', ') || 'none'})`;
  }
  return undefined;
}

/** Compiles a pattern made by {@link gitRulePattern}. */
export function compileGitRule(pattern: string): GitRuleMatcher {
  const command = `git ${pattern}`;
  const refs = pattern
    .split(' ')
    .slice(1)
    .filter((w) => w !== '' && !w.startsWith('-'));
  return { automaton: compileGlobAutomaton(command, true), options: optionRuleOf(command), refs };
}

/**
 * True when a `Git(…)` rule matches a call of the `git` tool: a deny or ask rule (`any`) when it
 * matches one spelling of the call's command (or names options the call has, in any spelling), an
 * allow rule (`all`) when it matches one spelling whole.
 */
export function gitRuleMatches(matcher: GitRuleMatcher, args: unknown, mode: 'any' | 'all'): boolean {
  const ref = gitCallRef(args);
  const calls =
    mode === 'any' && ref !== undefined
      ? refSpellings(matcher, args, ref).map((r) => ({ ...(args as object), ref: r }))
      : [args];
  const lines = calls
    .flatMap((call) => gitCallWords(call, mode))
    .map((words) => ['git', ...words].join(' ').normalize('NFC'));
  if (mode === 'all') return lines.some((line) => globMustMatch(matcher.automaton, line));
  return lines.some(
    (line) =>
      globMayMatch(matcher.automaton, line) ||
      (matcher.options !== undefined && optionRuleMayMatch(matcher.options, line)),
  );
}

/**
 * The shell command lines (`git checkout -b feature`) a call of the `git` tool is equivalent to,
 * one per spelling git accepts for it, words quoted for a shell: what `Bash(git …)` deny and ask
 * rules judge of the tool's calls.
 */
export function gitToolCommandLines(args: unknown): string[] {
  const ref = gitCallRef(args);
  const names = ref === undefined ? [] : resolvedNames(args);
  const calls = [args, ...names.map((n) => ({ ...(args as object), ref: n }))];
  return [...new Set(calls.flatMap((call) => gitCallWords(call, 'any')).map((words) => words.join('\u0000')))].map(
    (joined) => ['git', ...joined.split('\u0000').map(shellWord)].join(' '),
  );
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function text(args: Record<string, unknown>, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Every combination of the given word groups, each group one of its spellings (`[]` for none). */
function spellings(parts: readonly (readonly (readonly string[])[])[]): string[][] {
  let out: string[][] = [[]];
  for (const choices of parts) out = out.flatMap((head) => choices.map((c) => [...head, ...c]));
  return out;
}

// The words of a call, in each spelling git accepts for the same command (options in either order).
// For deny and ask rules (`any`) a stash pop or drop of any index is also `stash pop` or `stash
// drop` with no index, and a pop is also the drop it ends with: `Git(stash drop)` covers every drop.
function gitCallWords(value: unknown, mode: 'any' | 'all'): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  const args = value as Record<string, unknown>;
  const ref = text(args, 'ref');
  const name = text(args, 'name');
  const path = text(args, 'path');
  const opt = (on: boolean, ...forms: (readonly string[])[]): (readonly string[])[] => (on ? forms : [[]]);
  const operands = (...words: (string | undefined)[]): (readonly string[])[] => [
    words.filter((w): w is string => w !== undefined),
  ];
  const tail = path === undefined ? [[]] : [['--', path]];
  // For deny and ask rules a branch by its full name is the branch (`refs/heads/main`, `heads/main`
  // are `main`). An allow rule sees the ref as written: `heads/feature` may be another branch
  // (`refs/heads/heads/feature`), so `Git(checkout feature)` does not allow it.
  const named = (r: string | undefined): (readonly string[])[] =>
    r === undefined
      ? [[]]
      : [...new Set([r, ...(mode === 'any' ? [r.replace(/^(?:refs\/)?heads\/(?=.)/, '')] : [])])].map((w) => [w]);
  const action = text(args, 'action');
  switch (args.operation) {
    case 'status':
      return [['status']];
    case 'log':
      return spellings([[['log']], named(ref), tail]);
    case 'diff':
      return spellings([[['diff']], opt(args.staged === true, ['--cached'], ['--staged']), operands(ref), tail]);
    case 'branch':
      if (action === 'create') return spellings([[['branch']], operands(name, text(args, 'start_point'))]);
      return [['branch'], ['branch', '--list']];
    case 'checkout':
      return spellings([
        [['checkout']],
        opt(args.create === true, ['-b']),
        args.create === true ? operands(ref) : named(ref),
      ]);
    case 'stash': {
      if (action === 'list') return [['stash', 'list']];
      if (action === undefined || action === 'push') {
        const untracked = opt(args.include_untracked === true, ['--include-untracked'], ['-u']);
        const message = text(args, 'message');
        const said = opt(message !== undefined, ['-m', message ?? ''], ['--message', message ?? '']);
        const options = [...spellings([untracked, said]), ...spellings([said, untracked])];
        return [['stash', 'push'], ['stash']].flatMap((head) => options.map((o) => [...head, ...o]));
      }
      const index = typeof args.index === 'number' ? args.index : 0;
      const forms = [[`stash@{${index}}`], [String(index)], ...(index === 0 || mode === 'any' ? [[]] : [])];
      const actions = mode === 'any' && action === 'pop' ? ['pop', 'drop'] : [action];
      return actions.flatMap((a) => forms.map((f) => ['stash', a, ...f]));
    }
    case 'worktree':
      if (action === 'remove')
        return spellings([[['worktree', 'remove']], opt(args.force === true, ['--force'], ['-f']), operands(path)]);
      if (action === 'create')
        return spellings([[['worktree', 'add']], opt(name !== undefined, ['-b', name ?? '']), operands(path, ref)]);
      return [['worktree', 'list']];
    default:
      return [];
  }
}
