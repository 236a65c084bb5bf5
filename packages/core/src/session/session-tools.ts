/**
 * The tools every session registers, in surface order: the runtime tools (`batch`, `program`,
 * and `ask_user` when someone can answer it), the web tools when `web` is set, `verify`,
 * `generate_object`, then the packs.
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
import type { ToolPack } from '../tools/tool-pack.js';
import { createWebTools, type WebToolsOptions } from '../web/web-tools.js';

/** What {@link registerSessionTools} needs. */
export interface SessionToolsInput {
  readonly clock: () => number;
  readonly web?: WebToolsOptions;
  readonly gate: SessionGate;
  readonly tools: readonly ToolPack[];
  /** Register `ask_user`: the session has an ask port (see `hasAskPort`). */
  readonly askUser: boolean;
  /** The governed LLM of a run, for `generate_object` (`undefined` outside a session). */
  readonly llmFor: (runId: string) => LlmClient | undefined;
}

/** Registers the session's tools on `registry`; returns what must be closed with the session. */
export function registerSessionTools(registry: ToolRegistry, input: SessionToolsInput): { readonly resources: readonly { close(): Promise<void> }[] } {
  registry.add(createBatchTool());
  registry.add(createProgramTool({ clock: input.clock }));
  if (input.askUser) registry.add(askUserTool);
  const web = input.web === undefined ? undefined : createWebTools(input.web, input.clock);
  for (const t of web?.tools ?? []) registry.add(t);
  registry.add(createVerifyTool(input.gate, input.clock));
  // generate_object calls the model through the calling run's LLM invoker (LLM-01).
  registry.add(createGenerateObjectTool((ctx) => input.llmFor(ctx.runId)));
  for (const pack of input.tools) registry.registerPack(pack);
  return { resources: web?.resources ?? [] };
}
