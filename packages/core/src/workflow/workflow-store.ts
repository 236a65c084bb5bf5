/**
 * Where workflow runs record their steps: one append-only log per run, in the session's fact-log
 * format (`<workspace>/.a3s/workflows/<run>.jsonl`, written and fsynced before each append
 * returns, a torn last line cut off on open, one writer at a time), or in memory for a session
 * with `persistence: 'memory'`.
 */
import { join } from 'node:path';
import { A3sError, threadIdFor, type Fact, type FactDraft } from '@a3s-code/effect';
import type { FactStore } from '../store/fact-store.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { MemoryFactStore } from '../store/memory-fact-store.js';

/** The log of one workflow run, open for this run only. */
export interface WorkflowRunLog {
  /** Every fact recorded for the run so far, crashed attempts included. */
  readonly facts: readonly Fact[];
  /** Appends facts and makes them durable (on a durable store) before resolving. */
  append(drafts: readonly FactDraft[]): Promise<void>;
  /** Releases the log. Idempotent. */
  close(): Promise<void>;
}

/** Opens the logs of workflow runs. */
export interface WorkflowStore {
  /** True when the logs survive the process. */
  readonly durable: boolean;
  /**
   * Opens (creating if needed) the log of run `runId`.
   * @throws FactLogLockedError (file) or `WORKFLOW_RUN_BUSY` (memory) while another run of the same id has it open.
   */
  open(runId: string): Promise<WorkflowRunLog>;
}

/** The relative path of a run's log under the workspace. */
export function workflowLogPath(runId: string): string {
  return `.a3s/workflows/${threadIdFor(runId)}.jsonl`;
}

function runLog(
  store: FactStore,
  release: () => void = () => undefined,
  onClosed: () => void = () => undefined,
): WorkflowRunLog {
  let closed = false;
  return {
    get facts() {
      return store.log.facts;
    },
    append: async (drafts) => {
      await store.append(drafts, null);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      release();
      try {
        await store.close();
      } finally {
        onClosed();
      }
    },
  };
}

/** How long opening a run waits for this session's earlier open of the same run to close. */
const EARLIER_CLOSE_WAIT_MS = 10_000;

/**
 * The durable store of a workspace: one locked log file per run. An interrupted workflow call
 * settles at once while its run is still winding down; a `/resume` of that run right after it
 * waits (up to {@link EARLIER_CLOSE_WAIT_MS}) for the earlier open to close its log instead of
 * failing with `FACT_LOG_LOCKED` against its own session.
 */
export function fileWorkflowStore(workspaceRoot: string): WorkflowStore {
  const live = new Map<string, Promise<void>>();
  return {
    durable: true,
    open: async (runId) => {
      // Taken before the first await, so two opens of the same run started together queue too.
      const earlier = live.get(runId);
      let closed: () => void = () => undefined;
      const done = new Promise<void>((r) => {
        closed = r;
      });
      live.set(runId, done);
      const release = () => {
        if (live.get(runId) === done) live.delete(runId);
        closed();
      };
      if (earlier !== undefined) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([earlier, new Promise<void>((r) => (timer = setTimeout(r, EARLIER_CLOSE_WAIT_MS)))]);
        clearTimeout(timer);
      }
      let store: FileFactStore;
      try {
        store = await FileFactStore.openPath(join(workspaceRoot, workflowLogPath(runId)));
      } catch (e) {
        release();
        throw e;
      }
      return runLog(store, undefined, release);
    },
  };
}

/** A store in memory: the logs live as long as the store (a session with in-memory persistence). */
export function memoryWorkflowStore(): WorkflowStore {
  const logs = new Map<string, Fact[]>();
  const open = new Set<string>();
  return {
    durable: false,
    open: async (runId) => {
      if (open.has(runId))
        throw new A3sError('WORKFLOW_RUN_BUSY', `workflow run '${runId}' is already running in this session`, {
          details: { run_id: runId },
        });
      open.add(runId);
      const store = new MemoryFactStore(logs.get(runId) ?? []);
      return runLog(store, () => {
        logs.set(runId, [...store.log.facts]);
        open.delete(runId);
      });
    },
  };
}
