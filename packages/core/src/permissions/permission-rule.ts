/**
 * Permission rules: `Tool` or `Tool(pattern)`. The tool part is a case-insensitive glob over tool
 * names (`mcp__github__*`, `Bash`); `mcp__<server>` alone matches every tool of that server. The
 * pattern part is a glob (see `glob.ts`) over the call's *subjects* (see `rule-subjects.ts`).
 */
import { homedir } from 'node:os';
import { PermissionRuleError } from '../errors/tool-errors.js';
import { compileGitRule, gitRuleMatches, gitRulePattern, type GitRuleMatcher } from './git-rules.js';
import { compileGlob } from './glob.js';
import { compileGlobAutomaton, globMayMatch, globMustMatch, type GlobAutomaton } from './glob-match.js';
import { canonicalPathPattern, withAncestors } from './path-spelling.js';
import { ruleSubjects } from './rule-subjects.js';
import { optionRuleMayMatch, optionRuleOf, type OptionRule } from './shell/option-spellings.js';
import { HOLE } from './shell/shell-word.js';

/** A parsed rule. */
export interface PermissionRule {
  /** The rule as written, used as the denial reason (`Permission denied: Bash(rm:*)`). */
  readonly source: string;
  /** Matches a tool name. */
  readonly tool: RegExp;
  /** Matches a subject; `undefined` for a rule without a pattern (every call of the tool). */
  readonly pattern: RegExp | undefined;
}

// Shell subjects are matched on an automaton of the rule's glob (holes are judged exactly).
const automata = new WeakMap<PermissionRule, GlobAutomaton>();
// A command rule naming options, as a deny or ask rule also reads it (see `option-spellings.ts`).
const optionRules = new WeakMap<PermissionRule, OptionRule>();
// The path pattern of a file rule, as matched (see `canonicalPathPattern`), and the workspace
// path a deny or ask rule written with one leading `/` covers as well.
const pathPatterns = new WeakMap<PermissionRule, string>();
const underWorkspace = new WeakMap<PermissionRule, string>();
// A `Git(…)` rule as matched against the command lines of a `git` call (see `git-rules.ts`).
const gitRules = new WeakMap<PermissionRule, GitRuleMatcher>();
// The host a `domain:` rule names (`*.` dropped), when it names one without other wildcards.
const domainHosts = new WeakMap<PermissionRule, string>();

// The tools whose rule patterns are file paths, and the one whose patterns are commands.
const FILE_TOOLS = ['read', 'write', 'edit', 'patch', 'grep', 'glob', 'ls'];

const RULE_RE = /^([A-Za-z*?][A-Za-z0-9_.*?-]*)(?:\((.*)\))?$/s;

/** How a rule list reads its rules. */
export interface RuleParseOptions {
  /**
   * A deny or ask list: a file rule written with one leading `/` (`Read(/secrets/**)`) covers
   * that absolute path and the same path in the workspace (other products read `/x` from the
   * folder of their settings file), so a rule meant either way protects what it names; `//x`
   * is the absolute path alone. Never set for an allow list: it would allow more.
   */
  readonly alsoUnderWorkspace?: boolean;
}

/** Parses a rule; `field` (`deny[2]`) names it in the error. Throws `INVALID_PERMISSION_RULE`. */
export function parsePermissionRule(rule: unknown, field: string, options: RuleParseOptions = {}): PermissionRule {
  if (typeof rule !== 'string') throw new PermissionRuleError(field, String(rule), 'must be a string');
  const text = rule.trim();
  const m = RULE_RE.exec(text);
  if (m === null) throw new PermissionRuleError(field, rule, 'malformed rule');
  const toolGlob = m[1] as string;
  // Unicode text is matched in one normal form (see `canonicalSubject`).
  const written = m[2] === undefined ? undefined : canonicalSubject(m[2]);
  if (written !== undefined && written.length === 0) throw new PermissionRuleError(field, rule, 'empty pattern');
  // `mcp__server` (no tool part) matches every tool of that server.
  const isServer = /^mcp__[^_*?]+(?:_[^_*?]+)*$/i.test(toolGlob) && !toolGlob.slice(5).includes('__');
  const tool = isServer
    ? new RegExp(`^${toolGlob.replace(/[.+^${}()|[\]\\-]/g, '\\$&')}(?:__.+)?$`, 'i')
    : /^mcp__/i.test(toolGlob)
      ? compileGlob(toolGlob, true)
      : compileToolNameGlob(toolGlob);
  if (written?.startsWith('domain:') === true) checkDomainPattern(written, field, text, toolGlob);
  // A file rule's path is matched in its canonical spelling (`Read(./.env)` is `Read(.env)`).
  const isPathRule = written !== undefined && FILE_TOOLS.some((t) => tool.test(t)) && !tool.test('bash');
  if (isPathRule) checkPathPattern(written, field, text, toolGlob);
  const domain = written?.startsWith('domain:') === true ? domainPattern(written) : undefined;
  // A rule naming the `git` tool (not by a wildcard) is a git command line (see `git-rules.ts`).
  const isGitRule = written !== undefined && domain === undefined && !/[*?]/.test(toolGlob) && tool.test('git');
  const gitPattern = isGitRule ? gitRulePattern(written, field, text) : undefined;
  const patternText = isPathRule ? canonicalPathPattern(written, homedir()) : (gitPattern ?? domain ?? written);
  const relative =
    isPathRule && options.alsoUnderWorkspace === true && /^\/[^/]/.test(written)
      ? canonicalPathPattern(written.slice(1))
      : undefined;
  // A command rule's `*` matches any text: `Bash(rm *)` sees `rm -rf /`.
  const isCommandRule = written !== undefined && !isPathRule && tool.test('bash');
  const absolute = patternText === undefined ? undefined : compileGlob(patternText, false, isCommandRule);
  const parsed: PermissionRule = Object.freeze({
    source: text,
    tool,
    pattern:
      absolute === undefined || relative === undefined
        ? absolute
        : new RegExp(`(?:${absolute.source})|(?:${compileGlob(relative).source})`, absolute.flags),
  });
  if (patternText !== undefined) automata.set(parsed, compileGlobAutomaton(patternText, isCommandRule));
  if (isPathRule) pathPatterns.set(parsed, patternText!);
  const optionRule = isCommandRule ? optionRuleOf(patternText!) : undefined;
  if (optionRule !== undefined) optionRules.set(parsed, optionRule);
  if (relative !== undefined) underWorkspace.set(parsed, relative);
  if (gitPattern !== undefined) gitRules.set(parsed, compileGitRule(gitPattern));
  const host = domain?.slice('domain:'.length).replace(/^\*\./, '');
  if (host !== undefined && !/[*?]/.test(host)) domainHosts.set(parsed, host);
  return parsed;
}

/**
 * Refuses a path pattern that would match no file the host can have meant, so a mistyped deny
 * rule never protects nothing in silence: white space around it, quotes around it, an
 * environment variable (rules are not expanded), a list of paths, brace alternatives, and the
 * agent process's own `/proc/self/cwd` (not the workspace). `Tool(pattern)` is suggested.
 */
function checkPathPattern(written: string, field: string, rule: string, toolGlob: string): void {
  const refuse = (why: string, instead?: string): never => {
    const fix = instead === undefined ? '' : `; write ${toolGlob}(${instead})`;
    throw new PermissionRuleError(field, rule, `${why}${fix}`);
  };
  const trimmed = written.trim();
  if (trimmed !== written)
    refuse('the path pattern starts or ends with white space, which no file name the rule means has', trimmed);
  const quoted = /^(["'`])(.*)\1$/s.exec(written);
  if (quoted !== null) refuse('quotes are not part of a path pattern', quoted[2]);
  const variable = /\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)/.exec(written);
  if (variable !== null)
    refuse(
      `'${variable[0]}' is not expanded in rules (a file rule is a path, not a shell word); write the path itself, or ~/ for the home folder`,
    );
  if (/,\s/.test(written) || /;/.test(written)) refuse('a rule takes one path pattern; write one rule per path');
  if (/\{[^{}]*,[^{}]*\}/.test(written))
    refuse('brace alternatives ({a,b}) are not supported in rules; write one rule per path');
  // `[id]` (a route folder's name) is a name; `[t]`, `[a-z]` or `[!x]` can only be meant as a set.
  const set = /\[([!^]?)([^\]/]*)\]/.exec(written);
  if (set !== null && (set[1] !== '' || [...set[2]!].length === 1 || /^.-.$|.-./u.test(set[2]!)))
    refuse(
      `'${set[0]}' would be a set of characters in a shell, but rules read [ and ] as themselves; write one rule per name, or use * and ?`,
    );
  if (/^\/proc\/(?:self|thread-self|\d+)\/cwd(?:\/|$)/.test(written))
    refuse(
      "'/proc/self/cwd' is the folder of the agent's own process, not the workspace; write the path relative to the workspace",
    );
}

/** A `domain:` pattern as a URL names its host: lower-case, international names in ASCII (`xn--`), no final dot. */
function domainPattern(written: string): string {
  const host = written.slice('domain:'.length);
  let ascii = host.toLowerCase();
  if (!host.includes('?'))
    try {
      ascii = new URL(`http://${host}`).hostname;
    } catch {
      // Kept lower-case as written.
    }
  return `domain:${ascii.replace(/\.$/, '')}`;
}

/** Refuses a `domain:` pattern that names more than a host (`domain:https://x/y`), which no host matches. */
function checkDomainPattern(written: string, field: string, rule: string, toolGlob: string): void {
  const host = written.slice('domain:'.length);
  if (host.length === 0 || /[/\s@]|:\/\//.test(host)) {
    const plain = host
      .replace(/^[a-z]+:\/\//i, '')
      .replace(/[/?#].*$/s, '')
      .replace(/^.*@/, '');
    throw new PermissionRuleError(
      field,
      rule,
      `a domain: pattern is a host name (with * for any part), not a URL${plain.length > 0 ? `; write ${toolGlob}(domain:${plain})` : ''}`,
    );
  }
}

/** The path pattern of a file rule as it is matched (`./secret/` is `secret`), or `undefined` for another rule. */
export function pathPatternOf(rule: PermissionRule): string | undefined {
  return pathPatterns.get(rule);
}

/** The host a `domain:` rule names (`domain:*.x.org` names `x.org`), or `undefined`. */
export function domainHostOf(rule: PermissionRule): string | undefined {
  return domainHosts.get(rule);
}

/** The workspace path a deny or ask rule written `/x` covers besides `/x` (see {@link RuleParseOptions}). */
export function workspacePatternOf(rule: PermissionRule): string | undefined {
  return underWorkspace.get(rule);
}

/**
 * The tool part of a rule that names a built-in or pack tool: case-insensitive, and `_` and `-`
 * are optional between characters on both sides, so `WebFetch`, `web_fetch` and `Web-Fetch` all
 * name the tool `web_fetch` (a rule written in another product's spelling still holds). MCP names
 * (`mcp__server__tool`) keep their exact structure.
 */
function compileToolNameGlob(glob: string): RegExp {
  const parts: string[] = [];
  for (const c of glob.replace(/[_-]/g, '')) {
    parts.push(c === '*' ? '.*' : c === '?' ? '[^_-]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'));
  }
  return new RegExp(`^[_-]*${parts.join('[_-]*')}[_-]*$`, 'is');
}

/**
 * A rule pattern or a subject in the one form they are matched in: Unicode NFC. A name typed in a
 * rule (`Read(clé/**)`, composed) then covers the file whatever form its name has on disk (`clé`
 * decomposed, as macOS writes it and archives keep it), and the reverse.
 */
export function canonicalSubject(text: string): string {
  // ASCII is already in every normal form.
  return /^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFC');
}

/** How a rule list is used: `any` subject must match (deny/ask) or `all` path subjects (allow). */
export type RuleMatchMode = 'any' | 'all';

/**
 * True when `rule` applies to this call; `root` (the workspace root) lets path rules see absolute
 * paths under it as workspace-relative ones.
 */
export function ruleMatches(
  rule: PermissionRule,
  toolName: string,
  args: unknown,
  mode: RuleMatchMode,
  root?: string,
): boolean {
  if (!rule.tool.test(toolName)) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  const git = gitRules.get(rule);
  if (git !== undefined && toolName.toLowerCase() === 'git' && gitRuleMatches(git, args, mode)) return true;
  const found = ruleSubjects(toolName, args, root);
  const { alternatives, unverifiable, shell } = found;
  const subjects = found.subjects.map(canonicalSubject);
  const paths = found.paths?.map((spellings) => spellings.map(canonicalSubject));
  if (subjects.length === 0) return false;
  if (shell === true) return shellRuleMatches(rule, pattern, subjects, mode);
  if (mode === 'all' && unverifiable) return false;
  // An allow rule covers a file by its canonical path: `src/../secret/x` is not under `src/**`.
  if (mode === 'all' && paths !== undefined) return paths.every((spellings) => spellings.some((s) => pattern.test(s)));
  if (mode === 'all' && !alternatives) return subjects.every((s) => pattern.test(s));
  if (subjects.some((s) => pattern.test(s))) return true;
  // A deny or ask rule also sees the string arguments of a tool judged by its JSON (a folder named covers what is in it).
  if (mode === 'any' && found.denyOnly?.().some((s) => withAncestors(canonicalSubject(s)).some((a) => pattern.test(a))))
    return true;
  // A deny or ask rule naming a folder (`Read(secret)`) covers every file in it.
  return paths?.some((spellings) => spellings.some((s) => withAncestors(s).some((a) => pattern.test(a)))) === true;
}

// A deny (`any`) matches when some value of some subject's holes fits the pattern, so a command
// that cannot be named matches every deny rule; an allow (`all`) needs every value of every subject.
function shellRuleMatches(
  rule: PermissionRule,
  pattern: RegExp,
  subjects: readonly string[],
  mode: RuleMatchMode,
): boolean {
  const automaton = automata.get(rule);
  if (mode === 'any') {
    // A rule naming options also holds for other spellings of them (`rm -fr /` for `Bash(rm -rf *)`).
    const options = optionRules.get(rule);
    return subjects.some(
      (s) =>
        (automaton !== undefined ? globMayMatch(automaton, s) : s.includes(HOLE) || pattern.test(s)) ||
        (options !== undefined && optionRuleMayMatch(options, s)),
    );
  }
  return subjects.every((s) =>
    automaton !== undefined ? globMustMatch(automaton, s) : !s.includes(HOLE) && pattern.test(s),
  );
}

/** True when `rule` covers every call of `toolName` (no pattern, or `**`). */
export function ruleCoversAllCalls(rule: PermissionRule, toolName: string): boolean {
  return rule.tool.test(toolName) && (rule.pattern === undefined || rule.pattern.source === '^.*$');
}

// Commands that change what the commands after them in the same line do (the folder, the
// environment, options, functions, or a new repository whose settings the next commands may write
// before git reads them): a line holding one is judged whole, by one rule.
const SHELL_STATE =
  /^(?:(?:cd|pushd|popd|export|declare|typeset|local|readonly|set|unset|alias|unalias|shopt|hash|enable|trap|umask|ulimit|exec|source|\.|builtin|read|mapfile|readarray|getopts|let|git init|git clone)(?: |$)|printf -v|wait (?:-[a-z]*p|.* -[a-z]*p)|[A-Za-z_][A-Za-z0-9_]*=)/;

/**
 * The allow rules that together cover a call judged as shell commands (`npm run build && npm
 * test`): each of its commands matched by one of `rules`, not necessarily the same one. The
 * sources of the rules used, in order, or `undefined` when some command is not covered or one
 * changes the shell for the next (`cd dir && npm test`, `export PATH=…; npm test`).
 */
export function shellRulesCovering(
  rules: readonly PermissionRule[],
  toolName: string,
  args: unknown,
  root?: string,
): string[] | undefined {
  const candidates = rules.filter((r) => r.tool.test(toolName) && r.pattern !== undefined);
  if (candidates.length < 2) return undefined;
  const found = ruleSubjects(toolName, args, root);
  if (found.shell !== true || found.subjects.length < 2) return undefined;
  const subjects = found.subjects.map(canonicalSubject);
  if (subjects.some((s) => SHELL_STATE.test(s))) return undefined;
  const used: string[] = [];
  for (const subject of subjects) {
    const rule = candidates.find((r) => shellRuleMatches(r, r.pattern as RegExp, [subject], 'all'));
    if (rule === undefined) return undefined;
    if (!used.includes(rule.source)) used.push(rule.source);
  }
  return used;
}
