/**
 * The tools every session registers, in surface order: the runtime tools (`batch`, `program`,
 * and `ask_user` when someone can answer it), `verify`, `generate_object`, then the packs (each
 * pack's `tools`, then the tools its `openSession` builds from the session's settings).
 * One function, used by the session build and by {@link describeSessionTools} (the surface a
 * session would have, listed without a model), so the two cannot drift apart.
 */
import type { SessionGate } from '../gate/session-gate.js';
import { createVerifyTool } from '../gate/verify-tool.js';
import { createGenerateObjectTool } from '../generate-object/generate-object-tool.js';
import type { LlmClient } from '../llm/llm-client.js';
import { createProgramTool } from '../program/program-tool.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { askUserTool } from '../run/ask-user.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import type { ToolPackSettings } from '../tools/pack-settings.js';
import type { ToolPack } from '../tools/tool-pack.js';

/** What {@link registerSessionTools} needs. */
export interface SessionToolsInput {
  readonly clock: () => number;
  /** The settings handed to each pack's `openSession`. */
  readonly settings: ToolPackSettings;
  readonly gate: SessionGate;
  readonly tools: readonly ToolPack[];
  /** Register `ask_user`: the session has an ask port (see `hasAskPort`). */
  readonly askUser: boolean;
  /** The governed LLM of a run, for `generate_object` (`undefined` outside a session). */
  readonly llmFor: (runId: string) => LlmClient | undefined;
}

/** Something released when the session closes. */
export interface SessionResource {
  close(): Promise<void>;
}

/**
 * Registers the session's tools on `registry`; returns what must be closed with the session.
 * When a pack's `openSession` or one of its tools fails, what was opened is closed again.
 */
export function registerSessionTools(registry: ToolRegistry, input: SessionToolsInput): { readonly resources: readonly SessionResource[] } {
  registry.add(createBatchTool());
  registry.add(createProgramTool({ clock: input.clock }));
  if (input.askUser) registry.add(askUserTool);
  registry.add(createVerifyTool(input.gate, input.clock));
  // generate_object calls the model through the calling run's LLM invoker.
  registry.add(createGenerateObjectTool((ctx) => input.llmFor(ctx.runId)));
  const resources: SessionResource[] = [];
  try {
    for (const pack of input.tools) {
      registry.registerPack(pack);
      if (pack.openSession === undefined) continue;
      const opened = pack.openSession({ clock: input.clock, settings: input.settings });
      const close = opened.close;
      if (close !== undefined) resources.push({ close: () => close.call(opened) });
      for (const t of opened.tools) registry.add(t);
    }
  } catch (e) {
    for (const r of resources) void r.close().catch(() => undefined);
    throw e;
  }
  return { resources };
}
