/**
 * The note a command held to the path rules gets when it failed on a file they keep from it: to
 * the command a file the read rules cover does not exist, and one the write rules cover cannot be
 * changed, which alone would leave the model trying other spellings of the same path. The note
 * names the rules (as written) that keep the files.
 */
import { isAbsolute, relative } from 'node:path';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { ExecHiding, WorkspaceExecResult } from '../workspace/workspace-services.js';

const MISSING = /No such file or directory|cannot access|not found|does not exist/i;
const READ_ONLY = /Read-only file system|Device or resource busy/;
// The kept files looked at for the rules that keep them (a rule keeps many files; a few name it).
const LOOKED_AT = 64;
// A name standing for anything in a kept folder.
const FOLDER_CHILD = 'a3s-any-file';

/** The rules (as written) that keep those of `paths` the command's output names, in order, each once. */
function rulesFor(
  paths: readonly string[],
  root: string,
  text: string,
  rule: (spellings: readonly string[]) => string | undefined,
): string[] {
  const found = new Set<string>();
  const named = paths.filter((p) => {
    const rel = isAbsolute(p) ? relative(root, p) : p;
    return text.includes(rel.startsWith('..') ? p : rel);
  });
  for (const p of named.slice(0, LOOKED_AT)) {
    const spellings = isAbsolute(p) ? [p, relative(root, p)] : [p];
    // A folder kept whole is kept by a rule on what is in it (`keys` by `Read(keys/**)`).
    const r = rule(spellings) ?? rule(spellings.map((s) => `${s}/${FOLDER_CHILD}`));
    if (r !== undefined) found.add(r);
  }
  return [...found];
}

/**
 * The note for `result` of a command run with `hide` under `policy` in `root` (`ask`: the ask
 * rules held it too), or `undefined` when it did not fail on what the rules keep.
 */
export function heldFilesNote(
  result: WorkspaceExecResult,
  hide: ExecHiding,
  policy: PermissionPolicy,
  root: string,
  ask: boolean,
): string | undefined {
  if (result.exitCode === 0) return undefined;
  const text = [result.stderr.head, result.stderr.tail, result.stdout.head, result.stdout.tail].join('\n');
  const notes: string[] = [];
  if (hide.unreadable.length > 0 && MISSING.test(text)) {
    const denied = rulesFor(hide.unreadable, root, text, (s) => policy.denyingReadRule(s));
    const asked = ask ? rulesFor(hide.unreadable, root, text, (s) => policy.askingReadRule(s)) : [];
    const rules = [...new Set([...denied, ...asked])];
    if (rules.length > 0)
      notes.push(
        `[files the read rules cover (${rules.join(', ')}) are kept from this command: to it they do not exist, and another spelling of their paths reaches them no better${asked.length > 0 ? '; a command that reads what a rule asks about needs a person to approve it' : ''}]`,
      );
  }
  if (hide.unwritable.length > 0 && READ_ONLY.test(text)) {
    const rules = rulesFor(hide.unwritable, root, text, (s) => policy.denyingWriteRule(s));
    if (rules.length > 0)
      notes.push(`[files the write rules cover (${rules.join(', ')}) are read-only for this command]`);
  }
  return notes.length === 0 ? undefined : notes.join('\n');
}
