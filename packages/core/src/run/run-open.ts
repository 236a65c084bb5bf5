/**
 * Opening a run in the log: a new prompt (its attachments stored first, its hooks run, an open
 * run superseded) or a resume (history from a checkpoint, a rebind recorded).
 */
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { drafts, sync } from '@a3s-code/effect';
import { runPromptHooks } from '../hooks/session-hooks.js';
import { historyTurns, missingTurns } from './checkpoint-history.js';
import { NothingToResumeError } from '../errors/session-errors.js';
import { historyFacts, openingFacts, type LiveRun } from './run-setup.js';
import type { CapabilityScope } from '../catalog/capability-scope.js';
import type { HistoryTurn, RunCheckpoint } from './run-checkpoint.js';
import { reboundFact, type CapabilityAdmission } from './run-binding.js';
import type { AttachmentInput } from '../attachments/attachment-input.js';
import { prepareAttachments } from '../attachments/prepare-attachments.js';
import { restoreHistoryArtifacts } from '../attachments/restore-artifacts.js';
import { checkPrompt, type ExecuteRunOptions } from './run-request.js';
import { discardCallJournals } from '../invoker/call-journal.js';

/** The tools the model is offered under a scope's generation (what `run.started` records). */
export function offeredTools(options: ExecuteRunOptions, scope: CapabilityScope | undefined) {
  return options.invoker.surface(options.config.governance, scope?.tools).toolDefinitions();
}

/**
 * Opens a run on a new prompt: its attachments are read and checked before anything is written,
 * the prompt hooks run, the bytes are stored, an open run is superseded, then `run.started` and
 * the `user.message` are appended. Returns the id of the run it superseded, if any.
 */
export async function openPrompt(
  options: ExecuteRunOptions,
  run: LiveRun,
  submitted: string,
  attachments: readonly AttachmentInput[] | undefined,
  admission: CapabilityAdmission,
  attachmentsFrom?: WorkspaceServices,
): Promise<string | undefined> {
  checkPrompt(submitted);
  // Every attachment is read and checked before anything is written: a bad one leaves no trace.
  const prepared =
    attachments === undefined
      ? []
      : await prepareAttachments(attachments, {
          workspace: attachmentsFrom ?? options.config.workspace,
          signal: run.env.signal,
          policy: options.invoker.policy,
        });
  // user_prompt_submit hooks see the prompt before anything is written; they may block or replace it.
  const prompt = await runPromptHooks(options.config.hooks, {
    session_id: options.sessionId,
    run_id: run.env.runId,
    prompt: submitted,
  });
  // The bytes are durable in the artifact store before the fact that refers to them.
  for (const a of prepared) await run.env.attachments?.put(a.ref.sha256, a.bytes);
  const superseded = await supersedeOpenRun(options, run, 'a new prompt started before this run ended');
  const refs = prepared.map((a) => a.ref);
  await options.store.append(
    openingFacts(run, prompt, options.system, offeredTools(options, admission.scope), {
      attachments: refs,
      recipe: options.harness.recipe,
      inEffect: { system: options.folder.state.view.system, tools: options.folder.state.view.tools },
      ...(options.runStarted === undefined ? {} : { extra: options.runStarted }),
      ...(admission.scope === undefined ? {} : { binding: admission.scope.generation.binding() }),
    }),
    null,
  );
  return superseded;
}

/** A run left open (parked, or crashed) by another run id is recorded as superseded; returns its id. */
export async function supersedeOpenRun(
  options: ExecuteRunOptions,
  run: LiveRun,
  why: string,
): Promise<string | undefined> {
  sync(options.folder, options.store.log);
  const previous = options.folder.state.view.run;
  if (previous.status !== 'running' || !previous.run_id || previous.run_id === run.env.runId) return undefined;
  await options.store.append(
    [
      drafts.runEnded(previous.run_id, {
        status: 'cancelled',
        completion: null,
        error: { code: 'SUPERSEDED', message: why },
        at_ms: run.env.clock(),
      }),
    ],
    null,
  );
  // The superseded run ended: none of its calls will run again, so their journals go.
  discardCallJournals(options.store, previous.run_id);
  return previous.run_id;
}

/**
 * Opens a resume. With a loop checkpoint for the requested run, the log is first
 * rebuilt from the checkpoint's transcript, also when the log already has facts: what the log's
 * conversation lacks of that transcript is appended as history (once). A log that records the run
 * itself needs nothing, since its checkpoint was taken from it. The checkpoint supplies history
 * only; the next step still comes from the fold.
 */
export async function openResume(
  options: ExecuteRunOptions,
  run: LiveRun,
  checkpoint: RunCheckpoint | undefined,
  admission: CapabilityAdmission,
): Promise<void> {
  const requested = options.request.kind === 'resume' ? options.request.runId : undefined;
  const runId = requested ?? run.env.runId;
  const log = options.store.log;
  const checkpoints = options.config.sessionStore;
  if (log.length === 0) {
    // `executeRun` refused this before the run started; checked again, as this writes history.
    if (!checkpoints || !checkpoint) throw NothingToResumeError.emptyLog(requested ?? null, checkpoints !== undefined);
    await presentArtifacts(run, checkpoint.messages);
    await options.store.append(historyFacts(checkpoint.messages), null);
    return;
  }
  const open = options.folder.state.view.run;
  if (admission.rebound && open.status === 'running' && open.run_id === runId) {
    const tools = offeredTools(options, admission.scope);
    await options.store.append([reboundFact(runId, log.length + 1, admission.rebound, tools, run.env.clock())], null);
  }
  if (!checkpoint) return;
  const missing = missingTurns(historyTurns(options.folder.state.view.messages), checkpoint.messages);
  if (missing.length === 0) return;
  await presentArtifacts(run, missing);
  await supersedeOpenRun(options, run, `run '${runId}' was resumed from its checkpoint`);
  await options.store.append(historyFacts(missing, `checkpoint:${runId}`), null);
}

/** A checkpoint's attachments must be in the run's artifact store before its history is written. */
async function presentArtifacts(run: LiveRun, history: readonly HistoryTurn[]): Promise<void> {
  if (run.env.attachments !== undefined) await restoreHistoryArtifacts(run.env.attachments, history, []);
}
