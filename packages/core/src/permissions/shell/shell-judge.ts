/**
 * Judges a shell command line for permission rules: every simple command it may run, at any
 * depth (lists, pipelines, structures, substitutions, `sh -c` bodies), yields the subjects a rule
 * pattern must see. Subjects hold `HOLE` where text is computed at run time; the subject `OPAQUE`
 * stands for a command that cannot be named statically (`eval`, `$CMD x`, `… | sh`). Judging
 * never throws: what it cannot read, it reports as `OPAQUE` (fail closed).
 */
import { judgeSimpleCommand } from './command-judge.js';
import { lexShell } from './shell-lexer.js';
import { parseSimpleCommands } from './shell-parser.js';
import { giveUp, MAX_SHELL_NESTING, startScanBudget, TOO_DEEP, unreadableReason } from './shell-scan.js';
import { OPAQUE } from './shell-word.js';

/** The subjects of a command line. */
export interface ShellJudgement {
  /** Normalised simple commands (basename and unquoted arguments), deduplicated, in order. */
  readonly subjects: readonly string[];
  /** True when some command cannot be named statically (`OPAQUE` is a subject). */
  readonly opaque: boolean;
  /**
   * Why the command could not be read in full (it nests too deep, or is too intricate for the
   * scanning work allowed): it is then opaque, whatever else it holds.
   */
  readonly unreadable?: string;
}
// Scanning work allowed per judgement: far above what real commands need (a few steps a character).
const SCAN_STEPS_PER_CHAR = 64;
const SCAN_STEPS_BASE = 1_000_000;

function judgeShell(text: string, depth: number): string[] {
  if (depth > MAX_SHELL_NESTING) {
    giveUp(TOO_DEEP);
    return [OPAQUE];
  }
  const lexed = lexShell(text);
  const out: string[] = [];
  // Loops, not spreads: a long command line has more subjects than a call can take arguments.
  for (const command of parseSimpleCommands(lexed.tokens))
    for (const s of judgeSimpleCommand(command.words, { depth, judgeShell })) out.push(s);
  for (const body of lexed.nested) for (const s of judgeShell(body, depth + 1)) out.push(s);
  return out;
}

/** Judges `command` (see the module comment). */
export function judgeShellCommand(command: string): ShellJudgement {
  startScanBudget(SCAN_STEPS_PER_CHAR * command.length + SCAN_STEPS_BASE);
  const judged = judgeShell(command, 0);
  const unreadable = unreadableReason();
  if (unreadable !== undefined) judged.push(OPAQUE);
  const subjects = [...new Set(judged)];
  return { subjects, opaque: subjects.includes(OPAQUE), ...(unreadable === undefined ? {} : { unreadable }) };
}
