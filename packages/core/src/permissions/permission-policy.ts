/**
 * `PermissionPolicy`: `deny`, `allow` and `ask` rule lists and a default decision.
 * Evaluation order is deny → ask → allow → default: a deny always wins, and an ask beats an
 * allow, so no rule someone wrote is made dead by a broader one in another list.
 */
import { didYouMean } from '../config/did-you-mean.js';
import { PermissionRuleError } from '../errors/tool-errors.js';
import {
  canonicalSubject,
  domainHostOf,
  parsePermissionRule,
  pathPatternOf,
  workspacePatternOf,
  ruleCoversAllCalls,
  ruleMatches,
  shellRulesCovering,
  type PermissionRule,
} from './permission-rule.js';
import { withAncestors } from './path-spelling.js';
import { checkPolicyConfig } from './policy-config-keys.js';
import { ruleField } from './rule-origins.js';
import { firstRelinked, firstWriteOutside } from './outside-writes.js';
import {
  MAX_MCP_STRINGS,
  mcpPathArguments,
  shellRelinked,
  shellSecrets,
  shellWrites,
  unreadableCommand,
} from './rule-subjects.js';

const MCP_TOOL = /^mcp__/i;
/** Why an MCP call whose arguments cannot all be read is held to a path rule. */
const TOO_MANY = `(the call's arguments hold more than ${MAX_MCP_STRINGS} strings, or nest too deep, to be checked against the path rules)`;
import { firstShellRuleMatching, isShellRule } from './shell-equivalent.js';

/** A permission decision. */
export type PermissionDecision = 'allow' | 'deny' | 'ask';

/** The policy's configuration, as written in config files (`Bash(git status:*)`). */
export interface PermissionPolicyConfig {
  /** Rules that deny; final. */
  readonly deny?: readonly string[];
  /** Rules that allow without asking. For multi-path tools every path must match. */
  readonly allow?: readonly string[];
  /** Rules that ask a person (when a confirmation manager exists). */
  readonly ask?: readonly string[];
  /** Decision when no rule matches. Default `ask`. */
  readonly defaultDecision?: PermissionDecision;
}

/** The result of evaluating a call. `rule` is the matching rule text, or `default`. */
export interface PolicyEvaluation {
  readonly decision: PermissionDecision;
  readonly rule: string;
}

const DECISIONS: readonly PermissionDecision[] = ['allow', 'deny', 'ask'];

/** The file-writing tools whose path rules hold for every write through the workspace. */
const WRITE_TOOLS: readonly string[] = ['write', 'edit', 'patch'];

/** The file-reading tool whose path rules hold for every read, listing and search through the workspace. */
const READ_TOOL = 'read';

/** The configuration each policy was made from (see {@link withDenyRules}). */
const configs = new WeakMap<PermissionPolicy, PermissionPolicyConfig>();

/** A compiled permission policy. Immutable; rules are parsed once at construction. */
export class PermissionPolicy {
  readonly #deny: readonly PermissionRule[];
  readonly #allow: readonly PermissionRule[];
  readonly #ask: readonly PermissionRule[];
  readonly #writeDeny: readonly PermissionRule[];
  readonly #readDeny: readonly PermissionRule[];
  readonly #writeAsk: readonly PermissionRule[];
  readonly #readAsk: readonly PermissionRule[];
  readonly #shellDeny: readonly PermissionRule[];
  readonly #shellAsk: readonly PermissionRule[];
  readonly #deniedPrograms: readonly string[];
  readonly #readAllow: boolean;
  readonly #hosts = new Map<string, readonly string[]>();
  /** The decision when no rule matches. */
  readonly defaultDecision: PermissionDecision;

  /**
   * Parses every rule; throws `INVALID_PERMISSION_RULE` naming the list and index of a bad one,
   * a key that is not `deny`, `ask`, `allow` or `defaultDecision`, or a bad `defaultDecision`.
   */
  constructor(config: PermissionPolicyConfig = {}) {
    checkPolicyConfig(config);
    const parse = (list: readonly string[] | undefined, name: string): PermissionRule[] => {
      if (list === undefined) return [];
      if (!Array.isArray(list)) throw new PermissionRuleError(name, String(list), 'must be an array of rule strings');
      const options = { alsoUnderWorkspace: name !== 'allow' };
      return list.map((r, i) => parsePermissionRule(r, ruleField(list, name, i), options));
    };
    this.#deny = parse(config.deny, 'deny');
    this.#allow = parse(config.allow, 'allow');
    this.#ask = parse(config.ask, 'ask');
    this.#writeDeny = this.#deny.filter((r) => r.pattern !== undefined && WRITE_TOOLS.some((t) => r.tool.test(t)));
    this.#readDeny = this.#deny.filter((r) => r.pattern !== undefined && r.tool.test(READ_TOOL));
    this.#writeAsk = this.#ask.filter((r) => r.pattern !== undefined && WRITE_TOOLS.some((t) => r.tool.test(t)));
    this.#readAsk = this.#ask.filter((r) => r.pattern !== undefined && r.tool.test(READ_TOOL));
    this.#shellDeny = this.#deny.filter(isShellRule);
    this.#shellAsk = this.#ask.filter(isShellRule);
    this.#deniedPrograms = Object.freeze([
      ...new Set(this.#shellDeny.map(wholeProgram).filter((n): n is string => n !== undefined)),
    ]);
    this.#readAllow = this.#allow.some(
      (r) => r.pattern !== undefined && ['read', 'grep', 'glob'].some((t) => r.tool.test(t)) && !r.tool.test('bash'),
    );
    const d = config.defaultDecision ?? 'ask';
    if (!DECISIONS.includes(d))
      throw new PermissionRuleError(
        'defaultDecision',
        String(d),
        'is not a decision',
        `allowed: ${DECISIONS.join(', ')}${didYouMean(String(d), DECISIONS)}`,
      );
    this.defaultDecision = d;
    configs.set(this, config);
  }

  /**
   * Evaluates a call: deny → ask → allow → default. `root`, the workspace root, lets path rules
   * match absolute paths under it (every path is also matched as its canonical relative spelling).
   * `shellCommands`, the shell command lines the call is equivalent to (see
   * `Tool.shellEquivalent`), are judged by the `Bash(…)` deny and ask rules as calls of `bash`
   * are: a matching deny denies the call and a matching ask makes an allowed call ask. Bash allow
   * rules are not consulted, so the tool's own rules still decide what is allowed.
   */
  evaluate(toolName: string, args: unknown, root?: string, shellCommands?: readonly string[]): PolicyEvaluation {
    const own = this.#branchesOf(toolName, args, this.#evaluateOwn(toolName, args, root), root);
    if (own.decision === 'deny' || shellCommands === undefined || shellCommands.length === 0) return own;
    const denied = firstShellRuleMatching(this.#shellDeny, shellCommands, root);
    if (denied !== undefined) return { decision: 'deny', rule: denied };
    if (own.decision === 'ask') return own;
    const asked = firstShellRuleMatching(this.#shellAsk, shellCommands, root);
    return asked === undefined ? own : { decision: 'ask', rule: asked };
  }

  // `parallel_task` runs each of its tasks as `task` would: a `Task(…)` deny or ask rule holds for them too.
  #branchesOf(toolName: string, args: unknown, own: PolicyEvaluation, root: string | undefined): PolicyEvaluation {
    if (own.decision === 'deny' || !/^parallel[_-]?task$/i.test(toolName)) return own;
    const tasks = typeof args === 'object' && args !== null ? (args as { tasks?: unknown }).tasks : undefined;
    if (!Array.isArray(tasks)) return own;
    let asked: PolicyEvaluation | undefined;
    for (const task of tasks) {
      const v = this.#evaluateOwn('task', task, root);
      // Only a rule counts: the default decision for `task` says nothing of `parallel_task`.
      if (v.rule === 'default') continue;
      if (v.decision === 'deny') return v;
      if (v.decision === 'ask') asked ??= v;
    }
    return asked !== undefined && own.decision === 'allow' ? asked : own;
  }

  // Whether some path deny or ask rule exists (an MCP call's arguments are then read as paths).
  get #pathRules(): boolean {
    return this.#readDeny.length + this.#writeDeny.length + this.#readAsk.length + this.#writeAsk.length > 0;
  }

  #evaluateOwn(toolName: string, args: unknown, root: string | undefined): PolicyEvaluation {
    for (const r of this.#deny)
      if (ruleMatches(r, toolName, args, 'any', root)) return { decision: 'deny', rule: heldRule(r, toolName, args) };
    const paths = MCP_TOOL.test(toolName) && this.#pathRules ? mcpPathArguments(args, root) : [];
    // Arguments too many (or too deep) to be read are held to the first path rule, unread.
    const unread = paths === undefined ? (this.#readDeny[0] ?? this.#writeDeny[0]) : undefined;
    if (unread !== undefined) return { decision: 'deny', rule: `${unread.source} ${TOO_MANY}` };
    const denied = paths && this.#pathRule(this.#readDeny, this.#writeDeny, paths);
    if (denied !== undefined) return { decision: 'deny', rule: denied };
    for (const r of this.#ask)
      if (ruleMatches(r, toolName, args, 'any', root)) return { decision: 'ask', rule: heldRule(r, toolName, args) };
    if (paths === undefined)
      return { decision: 'ask', rule: `${(this.#readAsk[0] ?? this.#writeAsk[0])!.source} ${TOO_MANY}` };
    const asked = this.#pathRule(this.#readAsk, this.#writeAsk, paths);
    if (asked !== undefined) return { decision: 'ask', rule: asked };
    // A rule naming commands does not cover a line that itself writes a file outside the workspace.
    const written = shellWrites(toolName, args);
    // Nor one writing through a link another of its commands may make first (`git checkout l && echo > l/f`),
    // nor one naming a place where credentials are kept (`cat ~/.aws/credentials`).
    const outside =
      (written === undefined || written.length === 0 ? undefined : firstWriteOutside(written, root)) ??
      firstRelinked(shellRelinked(toolName, args) ?? []) ??
      shellSecrets(toolName, args)?.[0];
    for (const r of this.#allow)
      if ((outside === undefined || ruleCoversAllCalls(r, toolName)) && ruleMatches(r, toolName, args, 'all', root))
        return { decision: 'allow', rule: r.source };
    // Commands joined (`a && b; c`), each allowed by a rule of its own.
    const together = outside === undefined ? shellRulesCovering(this.#allow, toolName, args, root) : undefined;
    if (together !== undefined) return { decision: 'allow', rule: together.join(' + ') };
    return { decision: this.defaultDecision, rule: 'default' };
  }

  // An MCP tool's server opens files itself: a path in its arguments that a path rule covers
  // (for reads or writes: what the tool does with it is not known) holds the call to that rule.
  #pathRule(
    reads: readonly PermissionRule[],
    writes: readonly PermissionRule[],
    paths: readonly (readonly string[])[],
  ): string | undefined {
    for (const spellings of paths) {
      const rule = firstMatching(reads, spellings) ?? firstMatching(writes, spellings);
      if (rule !== undefined) return rule;
    }
    return undefined;
  }

  /**
   * The first path deny rule of a file-writing tool (`Write(secret/**)`, `Edit(…)`, `Patch(…)`) matching
   * one of `paths` (the spellings of one workspace file), or `undefined`. The kernel holds every
   * file any tool writes or removes through the workspace to these rules, so a deny on a path
   * cannot be beaten by another writer or another spelling of the path.
   */
  denyingWriteRule(paths: readonly string[]): string | undefined {
    return firstMatching(this.#writeDeny, paths);
  }

  /**
   * The programs a `Bash(…)` deny rule denies whatever their arguments (`Bash(curl:*)`,
   * `Bash(curl *)` name `curl`): the kernel keeps their files from the commands it runs, so a copy
   * or another name of the program does not run it either (all but the programs builds and
   * scripts run on, `rm` or `git`: for them the rule reads the command line only).
   */
  get deniedPrograms(): readonly string[] {
    return this.#deniedPrograms;
  }

  /** True when some path deny rule of a file-writing tool exists (the kernel then checks each write). */
  get hasWriteDenyRules(): boolean {
    return this.#writeDeny.length > 0;
  }

  /**
   * The first path deny rule of the file-reading tool (`Read(.env)`, `Read(secret/**)`) matching one
   * of `paths` (the spellings of one workspace file), or `undefined`. The kernel holds every file
   * any tool reads, lists or searches through the workspace to these rules (`read`, `grep`, `glob`,
   * `ls`, structural search, a pack's own tool), so a deny on a path cannot be beaten by another
   * reader or another spelling of the path.
   */
  denyingReadRule(paths: readonly string[]): string | undefined {
    return firstMatching(this.#readDeny, paths);
  }

  /**
   * True when some allow rule names a path for the file-reading or searching tools (`Read(src/**)`,
   * `Grep(src/**)`): a call it allows is then held to the policy where a symbolic link it reads
   * through leads.
   */
  get hasReadAllowRules(): boolean {
    return this.#readAllow;
  }

  /**
   * True when some deny or ask rule may judge a call of the `git` tool by the ref it names (a
   * `Git(…)` or `Bash(…)` rule with a pattern): the kernel then asks git what the ref resolves to.
   */
  get judgesGitRefs(): boolean {
    return [...this.#deny, ...this.#ask].some((r) => r.pattern !== undefined && (r.tool.test('git') || isShellRule(r)));
  }

  /** True when some path deny rule of the file-reading tool exists (the kernel then checks each read). */
  get hasReadDenyRules(): boolean {
    return this.#readDeny.length > 0;
  }

  /**
   * The first path ask rule of a file-writing tool matching one of `paths` (the spellings of one
   * workspace file), or `undefined`. A call allowed without a confirmation has every file it writes
   * held to these rules, so a write a person would have been asked about (reached through a
   * symbolic link, or by a tool whose arguments do not name the file) is refused, never made unasked.
   */
  askingWriteRule(paths: readonly string[]): string | undefined {
    return firstMatching(this.#writeAsk, paths);
  }

  /** True when some path ask rule of a file-writing tool exists. */
  get hasWriteAskRules(): boolean {
    return this.#writeAsk.length > 0;
  }

  /** The path ask rules of the file-writing tools, as written (`Write(src/**)`). */
  get writeAskRules(): readonly string[] {
    return this.#writeAsk.map((r) => r.source);
  }

  /**
   * The first path ask rule of the file-reading tool matching one of `paths`, or `undefined`. A
   * call allowed without a confirmation does not see files under these rules (as under a deny).
   */
  askingReadRule(paths: readonly string[]): string | undefined {
    return firstMatching(this.#readAsk, paths);
  }

  /** True when some path ask rule of the file-reading tool exists. */
  get hasReadAskRules(): boolean {
    return this.#readAsk.length > 0;
  }

  /**
   * The path patterns (as matched: NFC, anchored globs) of the deny rules, or with `ask` the ask
   * rules, for reads or for writes: where the files they cover can be, for a search of them.
   */
  pathPatterns(kind: 'read' | 'write', ask = false): string[] {
    const rules = kind === 'read' ? (ask ? this.#readAsk : this.#readDeny) : ask ? this.#writeAsk : this.#writeDeny;
    return rules.flatMap((r) => {
      const pattern = pathPatternOf(r) ?? canonicalSubject(/\((.*)\)$/s.exec(r.source)?.[1] ?? '**');
      const inWorkspace = workspacePatternOf(r);
      return inWorkspace === undefined ? [pattern] : [pattern, inWorkspace];
    });
  }

  /**
   * The hosts the deny and ask `domain:` rules for `toolName` name (`WebFetch(domain:evil.example)`
   * names `evil.example`, `domain:*.evil.example` too). A rule matches host names; a tool that
   * connects by address asks `ToolContext.ruleRefusing` about each of these hosts whose addresses
   * include the one it reaches, so the same server reached by its address or another name is held too.
   */
  ruleHosts(toolName: string): readonly string[] {
    let hosts = this.#hosts.get(toolName);
    if (hosts === undefined) {
      const named = new Set<string>();
      for (const r of [...this.#deny, ...this.#ask]) {
        const host = domainHostOf(r);
        if (host !== undefined && r.tool.test(toolName)) named.add(host);
      }
      hosts = Object.freeze([...named]);
      this.#hosts.set(toolName, hosts);
    }
    return hosts;
  }

  /** True when a deny rule covers every call of the tool: it is then hidden from the model. */
  deniesEveryCall(toolName: string): boolean {
    if (this.#deny.some((r) => ruleCoversAllCalls(r, toolName))) return true;
    return (
      this.defaultDecision === 'deny' &&
      !this.#allow.some((r) => r.tool.test(toolName)) &&
      !this.#ask.some((r) => r.tool.test(toolName))
    );
  }
}

/**
 * The source of a deny or ask rule that matched a call, with the reason when the call is a shell
 * command the judge could not read in full: such a command matches every deny and ask rule, and
 * the rule alone would not tell the model why.
 */
function heldRule(rule: PermissionRule, toolName: string, args: unknown): string {
  const why = rule.pattern === undefined ? undefined : unreadableCommand(toolName, args);
  return why === undefined
    ? rule.source
    : `${rule.source} (the command could not be read in full: ${why}; a command the rules cannot read is held to every deny and ask rule, so simplify it)`;
}

/** Parses a list of rules into a matcher: used for skill restrictions (`allowed_tools`). */
export function compileRuleList(
  rules: readonly string[],
  field: string,
): (toolName: string, args: unknown, root?: string) => string | undefined {
  const parsed = rules.map((r, i) => parsePermissionRule(r, `${field}[${i}]`));
  return (toolName, args, root) => parsed.find((r) => ruleMatches(r, toolName, args, 'all', root))?.source;
}

/**
 * The first of `rules` whose path pattern matches one of `paths` (spellings of one file) or a
 * folder holding it (a rule naming a folder covers what is in it).
 */
function firstMatching(rules: readonly PermissionRule[], paths: readonly string[]): string | undefined {
  if (rules.length === 0) return undefined;
  // Only a spelling without `.`, `..` or empty segments names its folders by its prefixes.
  const canonical = paths.flatMap((p) =>
    /(^|\/)\.{1,2}(\/|$)|.\/\//.test(p) ? [canonicalSubject(p)] : withAncestors(canonicalSubject(p)),
  );
  for (const r of rules) for (const path of canonical) if (r.pattern?.test(path) === true) return r.source;
  return undefined;
}

/** `policy` with the deny rules `rules` added after its own. */
export function withDenyRules(policy: PermissionPolicy, rules: readonly string[]): PermissionPolicy {
  const config = configs.get(policy) ?? {};
  return new PermissionPolicy({ ...config, deny: [...(config.deny ?? []), ...rules] });
}

/** The program a shell rule denies with every argument (`Bash(curl:*)`, `Bash(curl *)`: `curl`), or `undefined`. */
function wholeProgram(rule: PermissionRule): string | undefined {
  const inner = /^[^(]*\((.*)\)$/s.exec(rule.source)?.[1];
  const name = inner === undefined ? undefined : /^([A-Za-z0-9_+-][A-Za-z0-9._+-]*)(?::\*| \*)$/.exec(inner)?.[1];
  return name === undefined || name === '.' || name === '..' ? undefined : name;
}
