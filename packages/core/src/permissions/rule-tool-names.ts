/**
 * A rule whose tool is a near miss of a tool the session has (`Bsh(rm *)`, `Raed`), or another
 * agent's name for one (`Shell(rm:*)`, `MultiEdit`), holds nothing: it matches no call, so a deny
 * written that way denies nothing. Such a rule is refused when the session is built, naming the
 * tool it was probably meant for; so is one naming a program (`rm`, `curl(*)`: commands are
 * matched inside `Bash(…)`). A name far from every tool (a tool of a pack this session does not
 * load) and MCP names (their servers come later) pass.
 */
import { PermissionRuleError } from '../errors/tool-errors.js';
import type { PermissionPolicyConfig } from './permission-policy.js';
import { ruleField } from './rule-origins.js';

const LISTS = ['deny', 'ask', 'allow'] as const;

/**
 * What other agents call the tools this runtime has (as rules match names: lower case, no `_` or
 * `-`). A rule written for another agent (`Shell(rm:*)`, `MultiEdit`) would match no call here.
 */
const OTHER_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    shell: 'bash',
    sh: 'bash',
    runshellcommand: 'bash',
    execcommand: 'bash',
    executecommand: 'bash',
    localshell: 'bash',
    terminal: 'bash',
    runterminalcmd: 'bash',
    multiedit: 'edit',
    strreplace: 'edit',
    strreplaceeditor: 'edit',
    strreplacebasededittool: 'edit',
    editfile: 'edit',
    replace: 'edit',
    applypatch: 'patch',
    writefile: 'write',
    createfile: 'write',
    writetofile: 'write',
    readfile: 'read',
    viewfile: 'read',
    view: 'read',
    readmanyfiles: 'read',
    listdirectory: 'ls',
    listdir: 'ls',
    listfiles: 'ls',
    findfiles: 'glob',
    filesearch: 'glob',
    searchfilecontent: 'grep',
    grepsearch: 'grep',
    codesearch: 'grep',
    ripgrep: 'grep',
    fetch: 'web_fetch',
    fetchurl: 'web_fetch',
    googlesearch: 'web_search',
    searchweb: 'web_search',
    agent: 'task',
    subagent: 'task',
    dispatchagent: 'task',
    askfollowupquestion: 'ask_user',
    askuserquestion: 'ask_user',
  }),
);

/**
 * Programs a rule may name by mistake as if they were tools (`deny: ['rm']`, `curl(*)`): commands
 * are matched inside `Bash(…)`, so such a rule matches no call.
 */
const SHELL_COMMANDS: ReadonlySet<string> = new Set(
  (
    'rm rmdir unlink shred truncate mv cp ln dd mkfs fdisk chmod chown chgrp touch mkdir cat head tail ' +
    'less more tee echo printf sed awk perl ruby php python python3 node deno bun npm npx pnpm yarn pip pip3 ' +
    'cargo make curl wget nc netcat ssh scp sftp rsync ftp telnet sudo su doas kill pkill killall ' +
    'reboot shutdown systemctl service crontab docker podman kubectl tar zip unzip find xargs env zsh ' +
    'fish dash ksh psql mysql sqlite3'
  ).split(' '),
);

/** Generic names a rule may use for running a command; `bash` is the tool that runs commands here. */
const COMMAND_VERBS: ReadonlySet<string> = new Set(['exec', 'execute', 'run', 'command', 'runcommand', 'cmd']);

/** The name as rules match it: lower case, without `_` and `-`. */
const canonical = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/** The tool among `toolNames` that `tool` is another agent's name for (`Shell` is `bash`), or `undefined`. */
export function otherAgentsName(tool: string, toolNames: readonly string[]): string | undefined {
  const ours = OTHER_NAMES.get(canonical(tool));
  return ours !== undefined && toolNames.some((t) => canonical(t) === canonical(ours)) ? ours : undefined;
}

/** Whether `tool` is a program (`rm`, `curl`) or a word for running one (`exec`, `run`), which `bash` runs here. */
export function programNamedAsTool(tool: string): 'program' | 'verb' | undefined {
  const name = canonical(tool);
  return SHELL_COMMANDS.has(name) ? 'program' : COMMAND_VERBS.has(name) ? 'verb' : undefined;
}

/** True when `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length < b.length ? a.slice(i) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}

/**
 * Throws `INVALID_PERMISSION_RULE` for the first rule naming (without wildcards) a tool that is
 * not among `toolNames` but one edit away from one of them, or another agent's name for one.
 */
export function checkRuleToolNames(config: PermissionPolicyConfig, toolNames: readonly string[]): void {
  const known = new Set(toolNames.map(canonical));
  for (const list of LISTS) {
    const rules = config[list];
    if (!Array.isArray(rules)) continue;
    rules.forEach((rule: unknown, i) => {
      if (typeof rule !== 'string') return;
      const tool = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(|$)/.exec(rule.trim())?.[1];
      if (tool === undefined || /^mcp__/i.test(tool)) return;
      const name = canonical(tool);
      if (known.has(name)) return;
      const ours = OTHER_NAMES.get(name);
      if (ours !== undefined && known.has(canonical(ours))) {
        throw new PermissionRuleError(
          ruleField(rules, list, i),
          rule,
          `names no tool of this session: '${tool}' is another agent's name for what is '${ours}' here (write ${ours}${rule.trim().slice(tool.length)}); a rule for a tool that does not exist matches no call`,
        );
      }
      const pattern = /\((.*)\)$/s.exec(rule.trim())?.[1];
      if (SHELL_COMMANDS.has(name)) {
        const instead = pattern === undefined || pattern === '*' ? `Bash(${tool}:*)` : `Bash(${tool} ${pattern})`;
        throw new PermissionRuleError(
          ruleField(rules, list, i),
          rule,
          `names no tool: '${tool}' is a program, which 'bash' runs; a rule for it is written ${instead} (a rule for a tool that does not exist matches no call)`,
        );
      }
      if (COMMAND_VERBS.has(name))
        throw new PermissionRuleError(
          ruleField(rules, list, i),
          rule,
          `names no tool of this session: commands are run by 'bash' here (write Bash${pattern === undefined ? '' : `(${pattern})`}); a rule for a tool that does not exist matches no call`,
        );
      if (name.length < 3) return;
      const near = toolNames.find((t) => canonical(t).length >= 3 && oneEditApart(name, canonical(t)));
      if (near !== undefined)
        throw new PermissionRuleError(
          ruleField(rules, list, i),
          rule,
          `names no tool of this session (did you mean '${near}'?); a rule for a tool that does not exist matches no call`,
        );
    });
  }
}
