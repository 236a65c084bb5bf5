/**
 * Judges a shell command line for permission rules: every simple command it may run, at any
 * depth (lists, pipelines, structures, substitutions, `sh -c` bodies), yields the subjects a rule
 * pattern must see. Subjects hold `HOLE` where text is computed at run time; the subject `OPAQUE`
 * stands for a command that cannot be named statically (`eval`, `$CMD x`, `… | sh`). Judging
 * never throws: what it cannot read, it reports as `OPAQUE` (fail closed).
 */
import { judgeSimpleCommand } from './command-judge.js';
import { lexShell, type ShellToken } from './shell-lexer.js';
import { givesInput, parseSimpleCommands } from './shell-parser.js';
import { giveUp, MAX_SHELL_NESTING, opaqueReason, startScanBudget, TOO_DEEP, unreadableReason } from './shell-scan.js';
import { OPAQUE } from './shell-word.js';
import { newCommand, noteSecrets, noteWrites, startLineFacts, takeLineFacts } from './line-facts.js';

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
  /**
   * The files the line writes, at any depth, after quote removal (`HOLE` where computed),
   * deduplicated, in order: its redirections' targets (`> out.txt`, `>> ~/.bashrc`, `&> log`,
   * `<> f`) and what its commands write through their arguments (`cp x ~/y`, `tee f`, `sort -o f`).
   */
  readonly writes: readonly string[];
  /**
   * The files among `writes` that another command of the line may first make into, or put behind,
   * a symbolic link (`git checkout`, `tar x`, `cp -r`, see `link-makers.ts`): where they are is not
   * known when the line is judged.
   */
  readonly relinked: readonly string[];
  /**
   * The words of the line that name a place where credentials are kept (`~/.ssh/id_ed25519`,
   * `$HOME/.aws/credentials`, `< ~/.netrc`), at any depth, in order (see `secret-paths.ts`).
   */
  readonly secrets: readonly string[];
}
// Scanning work allowed per judgement: far above what real commands need (a few steps a character).
const SCAN_STEPS_PER_CHAR = 64;
const SCAN_STEPS_BASE = 1_000_000;

// Redirections that open their target for writing (`>&` and `<&` with a number or `-` duplicate a descriptor).
const WRITING = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
const DESCRIPTOR = /^(?:\d+-?|-)$/;

// `owners`: the simple command each redirection belongs to, by its place among `tokens`.
function collectWrites(tokens: readonly ShellToken[], owners: ReadonlyMap<number, number>): void {
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1]!;
    if (token.kind === 'redirect' && next.kind === 'word') noteSecrets([next.word.text]);
    if (token.kind !== 'redirect' || !WRITING.has(token.op) || next.kind !== 'word') continue;
    if (token.op === '>&' && DESCRIPTOR.test(next.word.text)) continue;
    noteWrites([next.word.text], owners.get(i));
  }
}

function judgeShell(text: string, depth: number, inheritedInput = false): string[] {
  if (depth > MAX_SHELL_NESTING) {
    giveUp(TOO_DEEP);
    return [OPAQUE];
  }
  const lexed = lexShell(text);
  const commands = parseSimpleCommands(lexed.tokens);
  const ids = commands.map(newCommand);
  const owners = new Map<number, number>();
  commands.forEach((c, i) => {
    for (const r of c.redirects ?? []) owners.set(r, ids[i]!);
  });
  collectWrites(lexed.tokens, owners);
  const out: string[] = [];
  // Input given anywhere in the line may reach every command in it (`{ vi; } <<< …`, `exec < f`,
  // a loop's redirection) and the shell code those run (`sh -c 'gdb' <<< …`): read generously.
  const lineInput = inheritedInput || givesInput(lexed.tokens);
  const judge = (code: string, d: number): string[] => judgeShell(code, d, lineInput);
  // Loops, not spreads: a long command line has more subjects than a call can take arguments.
  commands.forEach((c, i) => {
    for (const s of judgeSimpleCommand(c.words, {
      depth,
      judgeShell: judge,
      input: c.input || lineInput,
      command: ids[i],
    }))
      out.push(s);
  });
  for (const body of lexed.nested) for (const s of judgeShell(body, depth + 1, lineInput)) out.push(s);
  return out;
}

/** Judges `command` (see the module comment). */
export function judgeShellCommand(command: string): ShellJudgement {
  startScanBudget(SCAN_STEPS_PER_CHAR * command.length + SCAN_STEPS_BASE);
  startLineFacts();
  const judged = judgeShell(command, 0);
  const { writes: written, relinked, secrets } = takeLineFacts();
  const unreadable = unreadableReason();
  if (unreadable !== undefined) judged.push(OPAQUE);
  const subjects = [...new Set(judged)];
  const why = unreadable ?? (subjects.includes(OPAQUE) ? opaqueReason() : undefined);
  return {
    subjects,
    opaque: subjects.includes(OPAQUE),
    writes: written,
    relinked,
    secrets,
    ...(why === undefined ? {} : { unreadable: why }),
  };
}
