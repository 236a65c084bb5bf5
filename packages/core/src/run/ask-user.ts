/**
 * `ask_user`: the model's way to ask the person a question. The run driver never executes it:
 * a model call of `ask_user` becomes a `question` decision, so the run parks in `question` and
 * the answer arrives as a `question.answered` fact (PARK-08/09). Called any other way (nested
 * in `batch`, by the host) it fails, since no run is there to park.
 */
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';

/** The name the model calls. */
export const ASK_USER_TOOL = 'ask_user';

/** The arguments of `ask_user`. */
export const askUserInput = z.strictObject({
  question: z.string().min(1).max(4000).describe('The question, in one or two sentences.'),
  context: z.string().max(8000).optional().describe('Why you ask: what you found and what depends on the answer.'),
  options: z
    .array(z.strictObject({ label: z.string().min(1).max(200), description: z.string().max(1000).optional() }))
    .max(16)
    .default([])
    .describe('Suggested answers; may be empty.'),
  allow_free_text: z.boolean().default(true).describe('Whether the person may answer in their own words.'),
  multi_select: z.boolean().default(false).describe('Whether several options may be chosen.'),
});

/** The `ask_user` tool definition (its schema is what the model sees). */
export const askUserTool = defineTool({
  name: ASK_USER_TOOL,
  description:
    'Ask the person a question and wait for the answer. Use it only when you cannot proceed without a decision or a fact that only they have; prefer looking things up yourself.',
  tier: 'read',
  input: askUserInput,
  capabilities: { readOnly: true, idempotent: false },
  execute: async () => ({
    output: 'ask_user can only be used by the model directly in a run (the run parks until the person answers); it cannot be nested or called by the host.',
    exitCode: 1,
  }),
});
