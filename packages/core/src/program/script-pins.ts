/**
 * What keeps a script the model could have changed from running with the host's trust. A call
 * with the host's trust (`host`, `host_nested`: `session.program({ path })`, a host's
 * `dynamic_workflow` call of a flow whose program step names a `path`) runs a workspace script
 * only when:
 * - the session has not pinned it yet and no model call of the session changed it (nor made
 *   changes whose paths are unknown); it is then pinned (SHA-256 of its content) for the rest of
 *   the session;
 * - or it was pinned and its content is still the pinned one.
 * Anything else is refused with `PROGRAM_SCRIPT_CHANGED`. Model calls are governed anyway and
 * are not checked. Inline `source` is the host's own text and is never checked.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { UNKNOWN_PATH } from '../gate/change-record.js';
import { ProgramScriptChangedError } from './program-errors.js';

/** One change a model call of the session recorded (`path` is `(unknown)` when the tool could not tell). */
export interface ModelChange {
  readonly tool: string;
  readonly path: string;
}

/** The changes the session's model calls recorded so far. */
export type ModelChangesOf = () => readonly ModelChange[];

/** What a host-trusted check needs to know of the session's model calls. */
export interface ModelActivity {
  /** The changes the session's model calls recorded so far. */
  readonly changes: ModelChangesOf;
  /** True once a model call ran programs (a command, a cell): they may change unlisted files unseen. */
  readonly ranPrograms: () => boolean;
}

const norm = (p: string): string =>
  p
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .toLowerCase();

/** True when `changed` (workspace-relative or absolute) may name the script `file`; case-insensitive, so it errs on the safe side. */
function names(changed: string, file: string): boolean {
  const c = norm(changed);
  const f = norm(file);
  return c === f || c.endsWith(`/${f}`);
}

/**
 * The workspace-relative name of the file `file` (relative to the local folder `root`) really is,
 * links followed, when that differs from `file`; `undefined` when it does not, or cannot be told
 * (no such local folder). A file outside the workspace is given by its absolute path.
 */
function realName(root: string, file: string): string | undefined {
  try {
    const base = realpathSync(root);
    const real = realpathSync(join(root, file));
    const rel = relative(base, real).split(sep).join('/');
    const name = rel.startsWith('../') || isAbsolute(rel) ? real : rel;
    return name === file ? undefined : name;
  } catch {
    return undefined;
  }
}

/** The script pins of one session. */
export class ScriptPins {
  readonly #pins = new Map<string, string>();
  readonly #changes: ModelChangesOf | undefined;
  readonly #ranPrograms: (() => boolean) | undefined;

  constructor(activity?: ModelActivity) {
    this.#changes = activity?.changes;
    this.#ranPrograms = activity?.ranPrograms;
  }

  /** True when the session has pinned the script `file`. */
  pinned(file: string): boolean {
    return this.#pins.has(file);
  }

  /**
   * Checks the path script `file` (its content `source`) that a host-trusted call is about to run,
   * and pins it on its first run. `unlisted`: the file lies where the change record does not look
   * (a git-ignored file, the `.a3s` folder), so a model's command could have changed it unseen.
   * @throws ProgramScriptChangedError when the model could have changed it.
   */
  check(file: string, source: string, root?: string, unlisted = false): void {
    const sha256 = createHash('sha256').update(source, 'utf8').digest('hex');
    // The file read may be another one, through a link: changes to either name it.
    const real = root === undefined ? undefined : realName(root, file);
    const named = (changed: string): boolean => names(changed, file) || (real !== undefined && names(changed, real));
    const pinned = this.#pins.get(file);
    if (pinned !== undefined) {
      if (pinned === sha256) return;
      throw new ProgramScriptChangedError(
        file,
        'changed_since_pinned',
        `changed since this session first ran it with the host's trust (SHA-256 ${pinned.slice(0, 12)}…, now ${sha256.slice(0, 12)}…)`,
        { pinned_sha256: pinned, sha256 },
      );
    }
    const changes = this.#changes?.() ?? [];
    const byModel = changes.find((c) => c.path !== UNKNOWN_PATH && named(c.path));
    if (byModel !== undefined)
      throw new ProgramScriptChangedError(
        file,
        'changed_by_model',
        `was changed by this session's model (its '${byModel.tool}' call)`,
        { sha256, tool: byModel.tool },
      );
    const unknown = changes.find((c) => c.path === UNKNOWN_PATH);
    if (unknown !== undefined)
      throw new ProgramScriptChangedError(
        file,
        'unknown_changes',
        `may have been changed by this session's model (its '${unknown.tool}' call changed files it could not name)`,
        { sha256, tool: unknown.tool },
      );
    if (unlisted && this.#ranPrograms?.() === true)
      throw new ProgramScriptChangedError(
        file,
        'unknown_changes',
        "lies where the changes of commands are not tracked (a git-ignored file, or under .a3s/), and this session's model ran commands that could have changed it unseen",
        { sha256 },
      );
    this.#pins.set(file, sha256);
  }
}
