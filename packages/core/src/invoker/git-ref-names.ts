/**
 * The names git resolves a `git` call's ref to in the workspace's repository, for the `Git(…)`
 * deny and ask rules: a rule naming a branch must hold for every spelling of it (`refs/heads/main`,
 * `heads/main`, a tag or a commit id at the same commit), not only the one it was written in.
 */
import { gitCallRef, isDynamicRef } from '../permissions/git-rules.js';
import type { WorkspaceGit } from '../workspace/workspace-services.js';

// The short forms of a full ref name: `refs/heads/main` is also `heads/main` and `main`.
function shortForms(full: string): string[] {
  if (!full.startsWith('refs/')) return [full];
  const rest = full.slice('refs/'.length);
  const short = /^(?:heads|tags|remotes)\/(.+)$/.exec(rest)?.[1];
  return [full, rest, ...(short === undefined ? [] : [short])];
}

/**
 * Every name of what the call's ref resolves to: its full ref name and short forms, the commit it
 * names, and every ref (branch, tag, remote branch) at that commit, each in its forms. `undefined`
 * for a call without a ref, one git resolves by the repository's state when it runs (those are
 * held to every ref a rule names instead), or a ref git cannot resolve. Runs git through the
 * workspace's git service, with the settings it runs every command with.
 */
export async function gitRefNamesOf(
  git: WorkspaceGit,
  args: unknown,
  signal?: AbortSignal,
): Promise<readonly string[] | undefined> {
  const ref = gitCallRef(args);
  if (ref === undefined || isDynamicRef(ref) || ref.startsWith('-') || ref.includes('..')) return undefined;
  const run = async (argv: string[]): Promise<string[] | undefined> => {
    const r = await git.run(argv, signal === undefined ? {} : { signal });
    if (r.timedOut || r.exitCode !== 0) return undefined;
    return (r.stdout.head + r.stdout.tail).split('\n').filter((l) => l !== '');
  };
  const commit = (await run(['rev-parse', '--verify', '-q', `${ref}^{commit}`]))?.[0];
  if (commit === undefined) return undefined;
  const full = (await run(['rev-parse', '--symbolic-full-name', ref]))?.[0];
  const at = (await run(['for-each-ref', '--points-at', commit, '--format=%(refname)'])) ?? [];
  const names = [ref, commit, ...(full === undefined ? [] : shortForms(full)), ...at.flatMap(shortForms)];
  return [...new Set(names)];
}
