/**
 * Flattens lexed shell text into the simple commands it may run, whatever the structure around
 * them: lists and pipelines, subshells `( )`, groups `{ }`, `if`/`while`/`until`/`for`/`select`
 * loops, `case` arms, `!`, `time`, `coproc` and function bodies. Redirections and their targets
 * stay out of the words; `for` lists and `case` patterns are data, not commands. A `[[ … ]]` test
 * is kept as one command of its words.
 */
import type { ShellToken } from './shell-lexer.js';
import { assignmentWord, isEnvironmentLike, isKeyword, isStatic, type ShellWord } from './shell-word.js';

/** One simple command: its words (assignments, name and arguments), redirections removed. */
export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  /** True when its input is given (`< file`, `<<< text`, a here-document) or piped into it. */
  readonly input: boolean;
  /** Where its own redirections stand among the tokens (not those of a structure around it). */
  readonly redirects?: readonly number[];
}

/** Redirections that give a command its input (any descriptor: read generously). */
export const INPUT = new Set(['<', '<<', '<<-', '<<<', '<>', '<&']);

/**
 * True when something in `tokens` gives input to a command: a redirection of input, a pipe or a
 * coprocess. Given to a group, a loop or `exec`, it reaches every command inside, and the shell
 * code those run.
 */
export function givesInput(tokens: readonly ShellToken[]): boolean {
  return tokens.some(
    (t) =>
      (t.kind === 'redirect' && INPUT.has(t.op)) ||
      (t.kind === 'op' && (t.op === '|' || t.op === '|&')) ||
      (t.kind === 'word' && isKeyword(t.word, 'coproc')),
  );
}

// Reserved words that only open or close a structure; the commands inside are judged on their own.
const STRUCTURE = new Set(['if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!']);
const ARM_END = new Set([';;', ';&', ';;&']);
// The reserved words that may follow the `time` keyword (a command in `( )` follows as an operator).
const RESERVED_AFTER_TIME = new Set([...STRUCTURE, 'case', 'for', 'select', 'function', 'coproc', '[[', 'time']);

const wordAt = (tokens: readonly ShellToken[], i: number): ShellWord | undefined => {
  const t = tokens[i];
  return t?.kind === 'word' ? t.word : undefined;
};
const opAt = (tokens: readonly ShellToken[], i: number): string | undefined => {
  const t = tokens[i];
  return t?.kind === 'op' ? t.op : undefined;
};

/** The simple commands of `tokens`, in order (see the module comment). */
export function parseSimpleCommands(tokens: readonly ShellToken[]): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let current: ShellWord[] = [];
  let redirects: number[] = [];
  let input = false;
  let piped = false;
  let caseDepth = 0;
  const flush = (): void => {
    if (current.length > 0) {
      out.push({ words: current, input: input || piped, redirects });
      piped = false;
    }
    current = [];
    redirects = [];
    input = false;
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'redirect') {
      if (INPUT.has(token.op)) input = true;
      redirects.push(i);
      if (tokens[i + 1]?.kind === 'word') i++;
      continue;
    }
    if (token.kind === 'arith') continue;
    if (token.kind === 'op') {
      if (token.op === '(' && current.length === 1 && opAt(tokens, i + 1) === ')') {
        // `name() body`: the name is not run here; the body is judged as commands.
        current = [];
        i++;
        continue;
      }
      flush();
      // The next command reads what this one writes.
      if (token.op === '|' || token.op === '|&') piped = true;
      else if (token.op !== '(' && token.op !== ')') piped = false;
      if (ARM_END.has(token.op) && caseDepth > 0) i = skipCasePatterns(tokens, i + 1, () => caseDepth--) - 1;
      continue;
    }
    const w = token.word;
    if (current.length > 0 || w.quoted) {
      current.push(w);
      continue;
    }
    if (STRUCTURE.has(w.text)) continue;
    switch (w.text) {
      case 'case': {
        caseDepth++;
        let j = i + 1;
        while (j < tokens.length && !(wordAt(tokens, j) !== undefined && isKeyword(wordAt(tokens, j)!, 'in'))) j++;
        i = skipCasePatterns(tokens, j + 1, () => caseDepth--) - 1;
        continue;
      }
      case 'esac':
        if (caseDepth > 0) caseDepth--;
        continue;
      case 'for':
      case 'select': {
        // The loop's variable is assigned: one later commands may read from their environment is judged as an assignment.
        const name = wordAt(tokens, i + 1);
        if (
          name !== undefined &&
          isStatic(name) &&
          /^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text) &&
          isEnvironmentLike(name.text)
        )
          out.push({ words: [assignmentWord(name.text)], input: false });
        i = skipForHead(tokens, i + 1) - 1;
        continue;
      }
      case 'function':
        i += wordAt(tokens, i + 1) !== undefined ? 1 : 0;
        if (opAt(tokens, i + 1) === '(' && opAt(tokens, i + 2) === ')') i += 2;
        continue;
      case 'coproc': {
        const after = tokens[i + 2];
        const named =
          wordAt(tokens, i + 1) !== undefined &&
          (after?.kind === 'op' ? after.op === '(' : after?.kind === 'word' && isKeyword(after.word, '{'));
        if (named) i++;
        continue;
      }
      case '[[':
        i = takeTest(tokens, i, out) - 1;
        continue;
      case 'time': {
        // The keyword times a whole pipeline: before a reserved word (`time { rm x; }`) it is
        // dropped so that word opens its structure; before a command it stays, read as a wrapper.
        let j = i + 1;
        while (wordAt(tokens, j) !== undefined && ['-p', '--'].includes(wordAt(tokens, j)!.raw)) j++;
        const next = wordAt(tokens, j);
        if (next !== undefined && !next.quoted && RESERVED_AFTER_TIME.has(next.text)) {
          i = j - 1;
          continue;
        }
        current.push(w);
        continue;
      }
      default:
        current.push(w);
    }
  }
  flush();
  return out;
}

// From `from` (first token of a case arm's patterns): skips the patterns up to their `)`, or the
// `esac` that closes the case. Returns the index of the first token of the arm's commands.
function skipCasePatterns(tokens: readonly ShellToken[], from: number, closeCase: () => void): number {
  for (let j = from; j < tokens.length; j++) {
    const w = wordAt(tokens, j);
    if (w !== undefined && isKeyword(w, 'esac')) {
      closeCase();
      return j + 1;
    }
    if (opAt(tokens, j) === ')') return j + 1;
  }
  return tokens.length;
}

// From the token after `for`/`select`: skips the variable name and the `in` list (data, whose
// substitutions were already collected). Returns the index of the first token after the head.
function skipForHead(tokens: readonly ShellToken[], from: number): number {
  let j = from;
  if (tokens[j]?.kind === 'arith') return j + 1;
  if (wordAt(tokens, j) !== undefined) j++;
  while (opAt(tokens, j) === '\n') j++;
  const w = wordAt(tokens, j);
  if (w === undefined || !isKeyword(w, 'in')) return j;
  for (j++; j < tokens.length; j++) {
    const op = opAt(tokens, j);
    if (op === ';' || op === '\n') return j + 1;
  }
  return j;
}

// `[[ … ]]` from `from` (the `[[`): one command of its words. Returns the index after `]]`.
function takeTest(tokens: readonly ShellToken[], from: number, out: SimpleCommand[]): number {
  const words: ShellWord[] = [];
  for (let j = from; j < tokens.length; j++) {
    const w = wordAt(tokens, j);
    if (w === undefined) continue;
    words.push(w);
    if (j > from && isKeyword(w, ']]')) {
      out.push({ words, input: false });
      return j + 1;
    }
  }
  out.push({ words, input: false });
  return tokens.length;
}
