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
import { scanBudgetExhausted, startScanBudget } from './shell-scan.js';
import { OPAQUE } from './shell-word.js';

/** The subjects of a command line. */
export interface ShellJudgement {
  /** Normalised simple commands (basename and unquoted arguments), deduplicated, in order. */
  readonly subjects: readonly string[];
  /** True when some command cannot be named statically (`OPAQUE` is a subject). */
  readonly opaque: boolean;
}

// Shell code nested deeper than this (`sh -c "sh -c '…'"`) is not read: it is opaque.
const MAX_DEPTH = 8;
// Scanning work allowed per judgement: far above what real commands need (a few steps a character).
const SCAN_STEPS_PER_CHAR = 64;
const SCAN_STEPS_BASE = 1_000_000;

function judgeShell(text: string, depth: number): string[] {
  if (depth > MAX_DEPTH) return [OPAQUE];
  const lexed = lexShell(text);
  const out: string[] = [];
  for (const command of parseSimpleCommands(lexed.tokens))
    out.push(...judgeSimpleCommand(command.words, { depth, judgeShell }));
  for (const body of lexed.nested) out.push(...judgeShell(body, depth + 1));
  return out;
}

/** Judges `command` (see the module comment). */
export function judgeShellCommand(command: string): ShellJudgement {
  startScanBudget(SCAN_STEPS_PER_CHAR * command.length + SCAN_STEPS_BASE);
  const judged = judgeShell(command, 0);
  if (scanBudgetExhausted()) judged.push(OPAQUE);
  const subjects = [...new Set(judged)];
  return { subjects, opaque: subjects.includes(OPAQUE) };
}
