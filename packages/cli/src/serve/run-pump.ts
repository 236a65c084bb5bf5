/**
 * The pump of one `a3s serve` run: its events become `event` notifications, then one
 * `run/result` says how it settled. Nothing of the run is written before the response that named
 * it (in a batch, that is the batch's answer); a parked run the run's prompt superseded gets its
 * own `run/result` (`cancelled`, `SUPERSEDED`) before the new run's events.
 */
import type { EventStream, ProjectedEventV1, Session } from '@a3s-code/sdk';
import { eventJson } from '../event-json.js';
import type { ServeOutput } from './output.js';
import type { RunResultParams } from './protocol.js';
import { resultFields, RunTally, supersededResult } from './run-views.js';

/** A run to pump. */
export interface PumpedRun {
  readonly out: ServeOutput;
  readonly session: Session;
  readonly sessionId: string;
  readonly runId: string;
  readonly stream: EventStream;
  readonly events: AsyncIterator<ProjectedEventV1>;
  /** The run's first event, already read (a resume learns its run id from it). */
  readonly first: ProjectedEventV1 | undefined;
  /** Settles once the response naming the run was written: its events never come before it. */
  readonly written: Promise<void>;
  /** The parked run the new prompt ends, announced by a `run/result` before the new run's events. */
  readonly supersedes?: string;
}

/** Sends the run's events, then its `run/result` (never dropped); resolves after that. */
export async function pumpRun(run: PumpedRun): Promise<void> {
  const { out, session, sessionId, runId, stream, events } = run;
  const tally = new RunTally();
  let supersedes = run.supersedes;
  // Events before the new run's opening facts (its agent_start) wait until the log says whether
  // the parked run was superseded.
  const held: ProjectedEventV1[] = [];
  const release = (superseded: boolean): void => {
    if (supersedes !== undefined && superseded) settle(out, supersededResult(sessionId, supersedes, runId));
    supersedes = undefined;
    for (const e of held.splice(0)) sendEvent(out, sessionId, runId, e);
  };
  const send = (event: ProjectedEventV1): void => {
    tally.note(event);
    if (supersedes !== undefined) {
      if (session.state.view.run.run_id !== runId) {
        held.push(event);
        return;
      }
      release(true);
    }
    sendEvent(out, sessionId, runId, event);
  };
  let settled: RunResultParams;
  // The run's events wait in its subscription meanwhile.
  await run.written;
  try {
    if (run.first) send(run.first);
    for (let step = await events.next(); !step.done; step = await events.next()) send(step.value);
    const result = await stream.result;
    release(result.supersededRunId !== undefined && result.supersededRunId === supersedes);
    settled = { sessionId, ...resultFields(result) };
  } catch (e) {
    release(session.state.view.run.run_id === runId);
    settled = tally.failed(sessionId, runId, e);
  }
  settle(out, settled);
}

function settle(out: ServeOutput, result: RunResultParams): void {
  out.settled(result.sessionId, result.runId, JSON.stringify(result));
}

/** Sends one event of a run (dropped, and counted, while the client does not read: see ServeOutput). */
function sendEvent(out: ServeOutput, sessionId: string, runId: string, event: ProjectedEventV1): void {
  const {
    sequence,
    coalesced_events: count,
    coalesced_last_sequence: last,
  } = event.metadata as {
    readonly sequence: number;
    readonly coalesced_events?: unknown;
    readonly coalesced_last_sequence?: unknown;
  };
  const merged = typeof count === 'number' && typeof last === 'number' ? { count, lastSequence: last } : undefined;
  out.event(sessionId, runId, sequence, () => eventJson(event), merged);
}
