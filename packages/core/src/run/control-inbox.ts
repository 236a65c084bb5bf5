/**
 * The bounded control inbox of a run: steers wait here until the next provider
 * call drains them. A request id applies a duplicate steer once; a steer for another run or a
 * stale turn revision is refused with a typed receipt, never silently dropped.
 */
import type { AttachmentRef } from '@a3s-code/effect';
import type { AttachmentInput } from '../attachments/attachment-input.js';
import type { SteerMessage } from './run-env.js';

/** Options of a steer. */
export interface SteerOptions {
  /** Idempotency key: a second steer with the same id is applied once. */
  readonly requestId?: string;
  /** The run the steer is meant for; refused when another run (or none) is active. */
  readonly runId?: string;
  /** The model-turn revision the sender saw; refused when the run has moved past it. */
  readonly turnRevision?: number;
  /** Epoch milliseconds after which the steer is stale and refused (a UI command that arrived too late). */
  readonly deadlineMs?: number;
}

/**
 * Options of a steer with attachments: images and text files sent with the steer, checked, capped
 * and stored as a prompt's are (a bad one rejects with `ATTACHMENT_INVALID` and queues nothing).
 */
export interface AttachedSteerOptions extends SteerOptions {
  /** Images and text files sent with the steer (kept in the log by reference). */
  readonly attachments: readonly AttachmentInput[];
}

/**
 * Which run an interrupt is meant for. Every field is optional: without any, `interrupt`
 * cancels whichever run is active. A UI that sends the run id it showed (and the turn revision
 * it saw) can never cancel a newer run by arriving late.
 */
export interface InterruptOptions {
  /** The run to cancel; refused when another run, or none, is active (a finished run's id never matches). */
  readonly runId?: string;
  /** The model-turn revision the sender saw; refused when the run has moved past it. */
  readonly turnRevision?: number;
  /** Epoch milliseconds after which the interrupt is stale and refused. */
  readonly deadlineMs?: number;
  /** Why, recorded as the cancellation reason. Default `interrupted`. */
  readonly reason?: string;
}

/** Why a steer was refused. */
export type SteerRefusal = 'no_active_run' | 'wrong_run' | 'stale_revision' | 'expired' | 'inbox_full' | 'empty';

/** The answer to a steer. */
export type SteerReceipt =
  | { readonly accepted: true; readonly requestId: string; readonly runId: string; readonly duplicate: boolean }
  | { readonly accepted: false; readonly reason: SteerRefusal; readonly message: string };

/** A run's inbox. */
export class ControlInbox {
  private readonly queue: SteerMessage[] = [];
  private readonly seen = new Set<string>();
  private counter = 0;
  private closed = false;

  constructor(
    readonly runId: string,
    /** Steers that may wait at once, 1..1024. */
    readonly capacity: number,
    /** The current model-turn revision (model calls made so far in the run). */
    private readonly revision: () => number,
    /** Epoch-milliseconds clock, for deadlines. */
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Queues a steer, or refuses it with a reason. `attachments`: references to bytes already in
   * the run's attachment store, sent and recorded with the steer.
   */
  offer(text: string, options: SteerOptions = {}, attachments: readonly AttachmentRef[] = []): SteerReceipt {
    if (typeof text !== 'string' || text.trim().length === 0)
      return { accepted: false, reason: 'empty', message: 'a steer needs non-empty text' };
    if (this.closed) return { accepted: false, reason: 'no_active_run', message: `run '${this.runId}' has ended` };
    const refused = this.refusal('steer', options);
    if (refused) return refused;
    const requestId = options.requestId ?? `auto-${++this.counter}`;
    if (this.seen.has(requestId)) return { accepted: true, requestId, runId: this.runId, duplicate: true };
    if (this.queue.length >= this.capacity) {
      return {
        accepted: false,
        reason: 'inbox_full',
        message: `the control inbox holds at most ${this.capacity} steers`,
      };
    }
    this.seen.add(requestId);
    this.queue.push(attachments.length > 0 ? { text, requestId, attachments } : { text, requestId });
    return { accepted: true, requestId, runId: this.runId, duplicate: false };
  }

  /**
   * Why a control command addressed with `target` must not touch this run (another run, a
   * stale turn revision, a passed deadline), or `undefined` when it may.
   */
  refusal(
    command: 'steer' | 'interrupt',
    target: Pick<SteerOptions, 'runId' | 'turnRevision' | 'deadlineMs'>,
  ): Extract<SteerReceipt, { accepted: false }> | undefined {
    if (target.runId !== undefined && target.runId !== this.runId) {
      return {
        accepted: false,
        reason: 'wrong_run',
        message: `${command} is for run '${target.runId}', but run '${this.runId}' is active`,
      };
    }
    const rev = this.revision();
    if (target.turnRevision !== undefined && target.turnRevision < rev) {
      return {
        accepted: false,
        reason: 'stale_revision',
        message: `${command} saw turn revision ${target.turnRevision}, but the run is at ${rev}`,
      };
    }
    if (target.deadlineMs !== undefined && this.clock() > target.deadlineMs) {
      return { accepted: false, reason: 'expired', message: `${command} deadline ${target.deadlineMs} has passed` };
    }
    return undefined;
  }

  /** Takes every queued steer, in order. */
  drain(): SteerMessage[] {
    return this.queue.splice(0);
  }

  /**
   * Ends the inbox when its run ends: later steers are refused (`no_active_run`), and the steers
   * still waiting are returned, in order, so the host can be told they were not delivered.
   */
  close(): SteerMessage[] {
    this.closed = true;
    return this.drain();
  }

  /** Steers waiting. */
  get size(): number {
    return this.queue.length;
  }
}
