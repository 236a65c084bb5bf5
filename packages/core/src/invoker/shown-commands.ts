/**
 * Tools whose confirmation shows the shell commands they run (`verify`'s checks): a person who
 * approves a call of one has seen those commands, so its own nested `bash` calls of exactly them
 * run as approved (see `CallFrame.confirmedCommands`). By object identity, core-internal and not
 * exported from the package entry: no extension code can mark a tool this way.
 */
import type { Tool } from '../tools/tool.js';

const shown = new WeakMap<object, (args: unknown) => readonly string[]>();

/** Marks a core tool whose confirmation shows the commands `commands(args)` (core-internal). */
export function markShownCommands<T extends Tool>(tool: T, commands: (args: unknown) => readonly string[]): T {
  shown.set(tool, commands);
  return tool;
}

/** The commands a confirmation of a call of `tool` with `args` showed (empty for other tools). */
export function shownCommands(tool: Tool, args: unknown): readonly string[] {
  const of = shown.get(tool);
  if (of === undefined) return [];
  try {
    return of(args).filter((c): c is string => typeof c === 'string');
  } catch {
    return [];
  }
}
