/**
 * The commands a confirmation card shows whole: what a person approves must be what runs. A
 * `bash` command that is not one short plain line, and every check of a `verify` call (whose
 * approval covers them), are printed in full, line by line, with every control character shown
 * as a visible mark (core's `visibleText`): nothing is cut, and no escape sequence can hide text.
 */
import { visibleText } from '@a3s-code/core';
import type { Out } from '../io.js';
import type { Style } from '../style.js';

/** A one-line summary shows this much of a command; longer or multi-line ones are shown whole. */
const SHORT = 100;

/** The commands of a `verify` call's checks (`commands[].command`), in order. */
export function verifyCommands(args: unknown): string[] {
  const listed = typeof args === 'object' && args !== null ? (args as { commands?: unknown }).commands : undefined;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((c: unknown) => {
    const command = (c as { command?: unknown } | null)?.command;
    return typeof command === 'string' ? [command] : [];
  });
}

/** The commands of a call the card shows whole, each with its label. */
export function commandsShown(toolName: string, args: unknown): { label: string; command: string }[] {
  if (toolName === 'verify') return verifyCommands(args).map((command) => ({ label: 'runs', command }));
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const command = a.command;
  if (toolName !== 'bash' || typeof command !== 'string') return [];
  const plain = command.length <= SHORT && !command.includes('\n') && visibleText(command) === command;
  return plain ? [] : [{ label: 'command', command }];
}

/** Prints the commands of a call whole under its card's first line. */
export function printCommands(out: Out, style: Style, toolName: string, args: unknown): void {
  for (const { label, command } of commandsShown(toolName, args)) {
    const lines = visibleText(command).split('\n');
    out.write(`  ${style.dim(label)}${lines.length > 1 ? style.dim(` (${lines.length} lines)`) : ''}\n`);
    for (const line of lines) out.write(`  ${style.dim('│')} ${line}\n`);
  }
}
