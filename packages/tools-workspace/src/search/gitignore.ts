/**
 * `.gitignore` rules for the JS search engine, evaluated as git does: rules of deeper files
 * override shallower ones, the last matching rule of a file wins, `!` re-includes, and an
 * excluded directory is never entered (so nothing below it can be re-included).
 */
import { compileGlob, globMatches, type CompiledGlob } from './glob-pattern.js';

/** One rule of one `.gitignore`. */
interface IgnoreRule {
  readonly glob: CompiledGlob;
  readonly negate: boolean;
}

/** The rules of one `.gitignore`, with the directory (root-relative) that holds it. */
export interface IgnoreFile {
  readonly base: string;
  readonly rules: readonly IgnoreRule[];
}

/** Parses a `.gitignore` text; malformed lines are skipped, as git does. */
export function parseGitignore(base: string, text: string): IgnoreFile {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    if (!line.endsWith('\\ ')) line = line.replace(/[ \t]+$/, '');
    if (line === '') continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    if (line === '' || line === '/') continue;
    try {
      rules.push({ glob: compileGlob(line, 'gitignore'), negate });
    } catch {
      // git ignores lines it cannot parse.
    }
  }
  return { base, rules };
}

/** Decides whether `rel` (root-relative) is ignored by a stack of ignore files, shallowest first. */
export function isIgnored(stack: readonly IgnoreFile[], rel: string, isDir: boolean): boolean {
  for (let f = stack.length - 1; f >= 0; f--) {
    const file = stack[f]!;
    if (file.base !== '' && !rel.startsWith(`${file.base}/`)) continue;
    const local = file.base === '' ? rel : rel.slice(file.base.length + 1);
    for (let r = file.rules.length - 1; r >= 0; r--) {
      const rule = file.rules[r]!;
      if (globMatches(rule.glob, local, isDir)) return !rule.negate;
    }
  }
  return false;
}
