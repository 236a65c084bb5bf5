/**
 * What the person typed for the runs of `a3s code` besides prompts: attachments (`/image`,
 * `/file`), steers, and what carries over from one run to the next.
 *
 * At the prompt an attachment goes with the next prompt. During a run it goes with the next
 * steer the person sends, and if the run ends before a steer, with the next prompt; the terminal
 * says which. A steer the run never delivered keeps its attachments: after a completed or failed
 * run they go with the next prompt (the steer's text), after an interrupt they are held with the
 * steer for `/resume`, and a new prompt drops both (with a note naming them).
 */
import type { AttachmentInput, Session, SteerReceipt } from '@a3s-code/sdk';
import { describeAttachments } from '../attachments.js';
import type { Style } from '../style.js';

/** A steer handed back by the run that never delivered it (`agent_end`'s `undelivered_steers`). */
export interface UndeliveredSteer {
  readonly requestId: string | undefined;
  readonly text: string;
}

/** Steers held from an interrupted run, for `/resume`. */
export interface HeldSteers {
  readonly texts: readonly string[];
  readonly attachments: readonly AttachmentInput[];
}

/** The part of a session this needs. */
type SteerTarget = Pick<Session, 'steer' | 'activeRunId'>;

const ended = (r: SteerReceipt): boolean => !r.accepted && (r.reason === 'no_active_run' || r.reason === 'wrong_run');

/** The attachments, steers and carried-over lines of one interactive session. */
export class RunInput {
  readonly #session: SteerTarget;
  readonly #write: (text: string) => void;
  readonly #style: Style;
  /** For the next prompt. */
  #forPrompt: AttachmentInput[] = [];
  /** Attached during the run, for the next steer. */
  #forSteer: AttachmentInput[] = [];
  /** Accepted steers with attachments, by request id (to give them back if never delivered). */
  #sent = new Map<string, readonly AttachmentInput[]>();
  /** Steers with attachments still being stored. */
  #inflight = new Set<Promise<void>>();
  /** The text of the next prompt, sent without waiting for the person (steers a finished run never delivered). */
  #next: string | undefined;
  #held: HeldSteers = { texts: [], attachments: [] };

  constructor(session: SteerTarget, write: (text: string) => void, style: Style) {
    this.#session = session;
    this.#write = write;
    this.#style = style;
  }

  /** Attaches `a` to the next steer (`running`) or to the next prompt, and says which. */
  attach(a: AttachmentInput, running: boolean): void {
    if (!running) {
      this.#forPrompt.push(a);
      this.#write(this.#style.dim(`attached to the next prompt: ${describeAttachments(this.#forPrompt)}\n`));
      return;
    }
    this.#forSteer.push(a);
    this.#write(
      this.#style.dim(
        `attached to your next steer message: ${describeAttachments(this.#forSteer)} (if the run ends first, to the next prompt)\n`,
      ),
    );
  }

  /**
   * Steers the run `runId` (the one on screen) with `line` and the attachments waiting for a
   * steer. Returns `false` when the run has already ended: the line is then the next prompt (and
   * the attachments go with it).
   */
  steer(line: string, runId: string | undefined): boolean {
    const target = runId === undefined ? {} : { runId };
    const attachments = this.#forSteer;
    if (attachments.length === 0) {
      const receipt = this.#session.steer(line, target);
      if (ended(receipt)) {
        this.#write(this.#style.dim('  (the run has ended; this line is the next prompt)\n'));
        return false;
      }
      this.#queued(receipt, []);
      return true;
    }
    const active = this.#session.activeRunId;
    if (active === null || (runId !== undefined && active !== runId)) {
      this.#toPrompt();
      this.#write(
        this.#style.dim(
          `  (the run has ended; this line is the next prompt, with ${describeAttachments(attachments)})\n`,
        ),
      );
      return false;
    }
    this.#forSteer = [];
    const sending = this.#session
      .steer(line, { ...target, attachments })
      .then(
        (receipt) => {
          if (!ended(receipt)) return this.#queued(receipt, attachments);
          this.#next = [this.#next, line].filter((t) => t !== undefined).join('\n');
          this.#forPrompt.push(...attachments);
          this.#write(
            this.#style.dim(
              `  (the run has ended; this line is the next prompt, with ${describeAttachments(attachments)})\n`,
            ),
          );
        },
        (e: unknown) => {
          const code = (e as { code?: string }).code ?? 'error';
          this.#write(
            this.#style.yellow(`  steer not sent: ${code}: ${(e as Error).message}\n`) +
              this.#style.dim(`  "${line}" (send it again; ${describeAttachments(attachments)} dropped)\n`),
          );
        },
      )
      .finally(() => this.#inflight.delete(sending));
    this.#inflight.add(sending);
    return true;
  }

  #queued(receipt: SteerReceipt, attachments: readonly AttachmentInput[]): void {
    if (!receipt.accepted) {
      // Refused for another reason (a full inbox): the attachments wait for the next steer.
      this.#forSteer.unshift(...attachments);
      this.#write(this.#style.dim(`  (steer refused: ${receipt.message})\n`));
      return;
    }
    if (attachments.length > 0) this.#sent.set(receipt.requestId, attachments);
    const withThem = attachments.length > 0 ? `, with ${describeAttachments(attachments)}` : '';
    this.#write(this.#style.dim(`  (steer queued for the next model call${withThem})\n`));
  }

  /** Attachments waiting for a steer go with the next prompt instead. */
  #toPrompt(): void {
    this.#forPrompt.push(...this.#forSteer);
    this.#forSteer = [];
  }

  /**
   * The run has ended with `status`: waits for steers still being stored, then carries over what
   * it never delivered and the attachments no steer took, saying where each goes.
   */
  async runEnded(undelivered: readonly UndeliveredSteer[], status: string): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight]);
    const style = this.#style;
    if (this.#forSteer.length > 0) {
      this.#write(
        style.dim(
          `the run ended before a steer: ${describeAttachments(this.#forSteer)} will go with your next prompt\n`,
        ),
      );
      this.#toPrompt();
    }
    const texts = undelivered.map((s) => s.text);
    const attachments = undelivered.flatMap((s) =>
      s.requestId === undefined ? [] : (this.#sent.get(s.requestId) ?? []),
    );
    this.#sent.clear();
    if (texts.length === 0) return;
    const quoted = texts.map((t) => `  "${t}"\n`).join('');
    const withThem = attachments.length > 0 ? `  with ${describeAttachments(attachments)}\n` : '';
    if (status === 'cancelled') {
      this.#held = { texts: [...this.#held.texts, ...texts], attachments: [...this.#held.attachments, ...attachments] };
      this.#write(
        style.yellow('steer not delivered: run interrupted\n') +
          style.dim(`${quoted}${withThem}  /resume continues the run with it; a new prompt drops it\n`),
      );
      return;
    }
    this.#next = [this.#next, ...texts].filter((t) => t !== undefined).join('\n');
    this.#forPrompt.push(...attachments);
    this.#write(
      style.yellow('steer not delivered: run ended; sending it as the next prompt\n') + style.dim(quoted + withThem),
    );
  }

  /** The text to send as the next prompt at once, if a run left one. */
  takeNext(): string | undefined {
    const next = this.#next;
    this.#next = undefined;
    return next;
  }

  /** A new prompt: the attachments that go with it (held steers are dropped, with a note). */
  takePrompt(): AttachmentInput[] {
    const { texts, attachments } = this.#held;
    if (texts.length > 0)
      this.#write(
        this.#style.dim(
          `(dropped ${texts.length} steer(s) held from the interrupted run${attachments.length > 0 ? `, with ${describeAttachments(attachments)}` : ''})\n`,
        ),
      );
    this.#held = { texts: [], attachments: [] };
    const forPrompt = this.#forPrompt;
    this.#forPrompt = [];
    return forPrompt;
  }

  /** `/resume`: the steers held from the interrupted run, with their attachments (taken). */
  takeHeld(): HeldSteers {
    const held = this.#held;
    this.#held = { texts: [], attachments: [] };
    return held;
  }
}
