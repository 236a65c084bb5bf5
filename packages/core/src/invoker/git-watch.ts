/**
 * What is checked around each command a rule allows unasked besides the configuration files that
 * exist as it starts: that git's pointers can be trusted before it (else it is refused), and after
 * it, that it made or changed no pointer (see `git-pointers.ts`) and added no setting that runs a
 * program to a nested repository's configuration (see `nested-git-configs.ts`).
 */
import type { DeniedWrites } from '../workspace/workspace-services.js';
import { mergeDeniedWrites } from './created-denied.js';
import { mendPointers, type PointerSnapshot, snapshotPointers } from './git-pointers.js';
import type { GitFolders } from './git-store.js';
import { mendNested, prepareNested } from './nested-git-configs.js';

/** The state taken before a command, handed back after it. */
export interface WatchState {
  readonly pointers: PointerSnapshot;
}

/** The checks around each command (see the module comment). */
export interface CommandWatch {
  /** Why no command may run (git's pointers cannot be trusted), or `undefined`. */
  readonly refusal: string | undefined;
  /** The state before a command. */
  before(): Promise<WatchState>;
  /**
   * What was put right after a command that started at `started` (milliseconds); `since`, a
   * `process.hrtime.bigint()` reading taken after it ended, lets a look through the workspace's
   * folders begun since serve.
   */
  after(state: WatchState, started: number, since?: bigint): Promise<DeniedWrites | undefined>;
}

/**
 * The checks for the workspace `root` in the repository `git` (or none), with `watched` the
 * configuration files mended as the workspace's own, and `refusal` why commands may not run.
 */
export function gitWatch(
  root: string,
  git: GitFolders | undefined,
  watched: readonly string[],
  refusal: string | undefined,
): CommandWatch {
  const own = new Set(watched);
  return {
    refusal,
    async before() {
      const [pointers] = await Promise.all([snapshotPointers(root, git), prepareNested(root)]);
      return { pointers };
    },
    async after(state, started, since) {
      const [pointers, nested] = await Promise.all([
        mendPointers(state.pointers),
        mendNested(root, started, own, undefined, since),
      ]);
      const configs =
        nested.restored.length === 0 && nested.problem === undefined
          ? undefined
          : {
              removed: [],
              ...(nested.restored.length === 0 ? {} : { restored: nested.restored }),
              ...(nested.problem === undefined ? {} : { problem: nested.problem }),
            };
      return mergeDeniedWrites(pointers, configs);
    },
  };
}
