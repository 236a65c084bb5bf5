/**
 * Arithmetic runs code. bash evaluates a variable named in an arithmetic expression as an
 * expression in turn, and expands an array subscript met there, so a value like `a[$(rm x)]`
 * runs `rm x` when `((v))`, `$((v))`, `[[ $v -eq 1 ]]`, `let v`, `${arr[v]}`, `${s:v}` or
 * `read 'a[v]'` evaluates it. Such a value need not be on the command line (it can be read from
 * a file), so an arithmetic expression that reads a variable whose value the expression itself
 * does not set to a number makes the command unreadable (opaque, with the reason).
 */

// Variables bash itself keeps numeric, whatever the environment says.
const NUMERIC = new Set([
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'EPOCHSECONDS',
  'HISTCMD',
  'BASH_SUBSHELL',
]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TOKEN = /[A-Za-z0-9_#@]+/g;
const LITERAL_ASSIGNMENT = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*[-+]?[0-9][A-Za-z0-9_#@]*\s*$/;
// Expansions whose value is always a number: `$#`, `$?`, `$$`, `$!`, `${#name}`, `${#arr[@]}`.
const NUMERIC_EXPANSION = /\$\{#[A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\])?\}|\$\{[#?$!]\}|\$[#?$!]/g;

/** Why evaluating `subject` as arithmetic may run a command (for a judgement's `unreadable`). */
export function arithmeticReason(subject: string): string {
  return `it evaluates ${subject} as arithmetic (or as a prompt), where a value like a[$(cmd)] runs cmd, and that value is not on the command line`;
}

/**
 * What in the arithmetic expression `expr` (shell text as written) may run a command when it is
 * evaluated (`` `n` ``, `` `$1` ``, `` `$(…)` ``), or `undefined` when it reads only numbers, the
 * variables bash keeps numeric, and variables an earlier part of it set to a number (`i=0; i<9; i++`).
 */
export function arithmeticRisk(expr: string): string | undefined {
  let text = expr.replace(/["'\\]/g, '').replace(NUMERIC_EXPANSION, ' 0 ');
  if (/\$\((?!\()|`/.test(text)) return 'the output of a command substitution';
  const braced = /\$\{!?([A-Za-z_][A-Za-z0-9_]*)?/.exec(text);
  if (braced !== null) return braced[1] === undefined ? 'an expansion' : `\`${braced[1]}\``;
  const special = /\$[0-9@*-]/.exec(text);
  if (special !== null) return `\`${special[0]}\``;
  text = text.replaceAll('$((', ' ((').replaceAll('$[', ' [');
  const assigned = new Set<string>();
  for (const part of topLevelParts(text)) {
    const literal = LITERAL_ASSIGNMENT.exec(part);
    if (literal !== null) {
      assigned.add(literal[1]!);
      continue;
    }
    for (const [token] of part.matchAll(TOKEN))
      if (NAME.test(token) && !NUMERIC.has(token) && !assigned.has(token)) return `\`${token}\``;
  }
  return undefined;
}

// The parts of `text` separated by `,` or `;` outside parentheses and brackets.
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if ((ch === ',' || ch === ';') && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const NAMED = '(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])';
const SUBSCRIPT = new RegExp(`^[!#]?${NAMED}\\[(.*)\\]$`, 's');
const SUBSTRING = new RegExp(`^${NAMED}(?:\\[[^\\]]*\\])?:(?![-=?+])(.*)$`, 's');
const INDIRECT = /^![A-Za-z_][A-Za-z0-9_]*(?:\[(.*)\])?$/s;

/**
 * What in the inside of a `${…}` expansion may run a command: an array subscript or a substring's
 * offset and length are arithmetic (`${arr[i]}`, `${s:i:2}`), and `${!v}` reads the variable `v`
 * names, subscript included; `undefined` when none does.
 */
export function parameterRisk(inner: string): string | undefined {
  // A prompt expansion runs the command substitutions of the value.
  if (/@P$/.test(inner)) return `\`\${${inner}}\``;
  const indirect = INDIRECT.exec(inner);
  if (indirect !== null && indirect[1] !== '@' && indirect[1] !== '*') return `the variable \`${inner}\` names`;
  const substring = SUBSTRING.exec(inner);
  if (substring !== null) return arithmeticRisk(substring[1]!.replaceAll(':', ','));
  const subscript = SUBSCRIPT.exec(inner);
  if (subscript !== null && subscript[1] !== '@' && subscript[1] !== '*') return arithmeticRisk(subscript[1]!);
  return undefined;
}

const COMPARISONS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const DECLARING = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

// The names the builtin `name` assigns or tests among `args` (`read -r 'a[i]'`, `printf -v 'a[i]'`).
function namesGiven(name: string, args: readonly string[]): readonly string[] {
  const after = (option: string) => args.filter((_, i) => args[i - 1] === option);
  if (name === 'printf' || name === 'wait') return after(name === 'printf' ? '-v' : '-p');
  if (name === '[' || name === 'test' || name === '[[') return after('-v');
  if (name === 'read') {
    const names: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (!a.startsWith('-') || names.length > 0) names.push(a);
      else if (/^-[A-Za-z]*[adinNptu]$/.test(a)) i++;
    }
    return names;
  }
  if (DECLARING.has(name) || name === 'unset' || name === 'getopts') return args.filter((a) => !/^[-+]/.test(a));
  return [];
}

const NAME_WITH_SUBSCRIPT = /^[A-Za-z_][A-Za-z0-9_]*\[(.*)\](?:\+?=.*)?$/s;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^=]*\])?\+?=/s;
const PREFIXES = new Set(['builtin', 'command', 'time', '-p', '--']);

/**
 * What in the simple command `raw` (its words as written: assignments, name, arguments) is
 * evaluated as arithmetic and may run a command: a subscript of an assigned array element
 * (`a[i]=1`), an operand of `[[ … -eq … ]]`, an argument of `let`, a value given to a variable
 * declared an integer (`declare -i`) or a name reference (`declare -n`), a subscript in a name a
 * builtin assigns or tests (`read 'a[i]'`, `unset "$v"`); `undefined` when nothing is.
 */
export function commandArithmeticRisk(raw: readonly string[]): string | undefined {
  const bare = raw.map((w) => w.replace(/["']/g, ''));
  let at = 0;
  for (; at < bare.length; at++) {
    if (!ASSIGNMENT.test(bare[at]!)) break;
    const m = NAME_WITH_SUBSCRIPT.exec(bare[at]!);
    const risk = m === null ? undefined : arithmeticRisk(m[1]!);
    if (risk !== undefined) return risk;
  }
  // `builtin let`, `command let`, `time let` run the same builtin.
  while (at < bare.length && PREFIXES.has(bare[at]!)) at++;
  const name = bare[at];
  if (name === undefined) return undefined;
  const args = bare.slice(at + 1);
  if (name === '[[') {
    for (let i = 0; i < args.length; i++)
      if (COMPARISONS.has(args[i]!))
        for (const operand of [args[i - 1], args[i + 1]]) {
          const risk = operand === undefined ? undefined : arithmeticRisk(operand);
          if (risk !== undefined) return risk;
        }
  }
  if (name === 'let')
    for (const arg of args) {
      const risk = arithmeticRisk(arg);
      if (risk !== undefined) return risk;
    }
  if (DECLARING.has(name) && args.some((a) => /^[-+][A-Za-z]*[in]/.test(a)))
    return `\`${name}\` with -i or -n (a value it is given is evaluated as arithmetic, or names another variable)`;
  for (const given of namesGiven(name, args)) {
    // A name made at run time may hold a subscript (`read "$v"` with v=a[$(cmd)]).
    if (/[$`]/.test(given)) return `the variable name \`${given}\``;
    const m = NAME_WITH_SUBSCRIPT.exec(given);
    const risk = m === null ? undefined : arithmeticRisk(m[1]!);
    if (risk !== undefined) return risk;
  }
  return undefined;
}
