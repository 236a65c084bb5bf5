/**
 * The delegation feature's options: the settings a session's configuration resolves to
 * (`manualDelegation`, `autoParallel`, `maxParallelTasks`) and their defaults. A leaf module, so
 * configuration can name them without importing the delegation runtime.
 */

/** Delegation settings of a session. */
export interface DelegationSettings {
  /** Manual delegation: `false` removes `task`, `parallel_task` and `task_result` from the surface. */
  readonly manual: boolean;
  /** Automatic parallel fan-out guidance in the prompt; `false` turns off only that. */
  readonly autoParallel: boolean;
  /** Branches of one `parallel_task` running at once, `1..32`. */
  readonly maxParallelTasks: number;
}

/** Default delegation settings. */
export const DEFAULT_DELEGATION: DelegationSettings = Object.freeze({
  manual: true,
  autoParallel: true,
  maxParallelTasks: 4,
});
