/**
 * The files a call may not read, as the lsp tools see them: a language server reads the whole
 * project from disk and answers with other files' paths and text, so each answer is held to the
 * call's read deny rules (the workspace's `readDenied`) before it is shown: locations in hidden
 * files are left out here, text that could quote one is withheld (`exposure.ts`, `withheld.ts`).
 */
import { fileURLToPath } from 'node:url';
import type { ToolContext } from '@a3s-code/core';
import type { LspSupervisor } from './supervisor.js';

/** The read deny rule hiding an absolute path from the call, or `undefined` when it may be shown. */
export type HiddenRule = (abs: string) => Promise<string | undefined>;

/** Nothing is hidden (a call whose workspace has no read deny rule). */
export const NOTHING_HIDDEN: HiddenRule = async () => undefined;

/** The hidden-file check of a call, asked with workspace-relative paths where the file is inside. */
export function hiddenRuleOf(ctx: ToolContext, sup: LspSupervisor): HiddenRule {
  const readDenied = ctx.workspace.readDenied;
  if (readDenied === undefined) return NOTHING_HIDDEN;
  const known = new Map<string, Promise<string | undefined>>();
  return (abs) => {
    let rule = known.get(abs);
    if (rule === undefined) {
      const rel = sup.display(abs);
      rule = readDenied(rel === '' || rel.startsWith('..') ? abs : rel);
      known.set(abs, rule);
    }
    return rule;
  };
}

/** The rule hiding a file URI (`undefined` for a shown file or a non-file URI). */
export function hiddenUri(hidden: HiddenRule, uri: string): Promise<string | undefined> {
  return uri.startsWith('file:') ? hidden(fileURLToPath(uri)) : Promise.resolve(undefined);
}

/** The note that replaces answers left out: how many, never where. */
export function leftOutNote(count: number, what: string): string[] {
  return count === 0 ? [] : [`(${count} ${what}${count === 1 ? '' : 's'} in files this session may not read left out)`];
}

/** The items whose file `hidden` does not name, and how many were left out. */
export async function visible<T>(
  items: readonly T[],
  uriOf: (item: T) => string,
  hidden: HiddenRule,
): Promise<{ shown: T[]; left: number }> {
  const shown: T[] = [];
  for (const item of items) if ((await hiddenUri(hidden, uriOf(item))) === undefined) shown.push(item);
  return { shown, left: items.length - shown.length };
}

const LEADING_PATH = /^(\s*)([^\s():]+\.[A-Za-z0-9]+)(?=[(:]|$)/;

/**
 * A project checker's output without the lines about hidden files: a line that starts with a
 * hidden file's path (`secret/k.ts(1,7): error …`, pyright's `  /abs/secret/k.py:1:7 - error`)
 * goes, with the more indented lines that continue it.
 */
export async function checkerOutputShown(
  output: string,
  absolute: (path: string) => string,
  hidden: HiddenRule,
): Promise<{ text: string; left: number }> {
  if (hidden === NOTHING_HIDDEN) return { text: output, left: 0 };
  const kept: string[] = [];
  let dropIndent: number | undefined;
  let left = 0;
  for (const line of output.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (dropIndent !== undefined && indent > dropIndent && line.trim() !== '') continue;
    dropIndent = undefined;
    const m = LEADING_PATH.exec(line);
    if (m !== null && (await hidden(absolute(m[2]!))) !== undefined) {
      dropIndent = indent;
      left++;
      continue;
    }
    kept.push(line);
  }
  return { text: kept.join('\n'), left };
}
