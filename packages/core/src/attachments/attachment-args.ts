/**
 * The `attachments` argument of tools that start a model conversation (`generate_object`, `task`,
 * `parallel_task`): workspace images and text files for its first message. Only paths: a tool
 * call cannot carry bytes, and the path checks of the workspace apply as for any tool.
 */
import type { Zod } from '../tools/zod-loader.js';

/** The `attachments` argument (built with zod's `z`). */
export function attachmentsArg(z: Zod) {
  return z
    .array(
      z.strictObject({
        type: z
          .enum(['image', 'file'])
          .describe('image: a PNG, JPEG, GIF or WebP file; file: a text file (inlined with its name).'),
        path: z.string().min(1).describe('Path of the file inside the workspace.'),
      }),
    )
    .min(1)
    .max(32)
    .optional()
    .describe('Workspace images and text files to send with the prompt (1..32; 5 MB each, 20 MB in all).');
}
