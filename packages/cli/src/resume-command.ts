/**
 * The command line that reopens a session from a new process (`a3s sessions --resume <id>` with
 * the flags it needs), as `a3s run` prints it after a parked or interrupted run and `a3s code`
 * after an interrupted flow.
 */
import { isAbsolute, resolve } from 'node:path';
import type { SessionFlags } from './args.js';
import { flagWords } from './shell-quote.js';

/**
 * The command that continues session `id` from the folder the run was started in: its workspace
 * (`--cwd`) when that is another folder, and the model when it came from `--model` (without it,
 * the resumed session would look for a model in the config file and `A3S_MODEL`).
 */
export function resumeCommand(id: string, flags: SessionFlags, startedIn: string): string {
  const words = ['a3s sessions', flagWords('--resume', id)];
  if (flags.cwd !== startedIn) words.push(flagWords('--cwd', flags.cwd));
  if (flags.model !== undefined) words.push(flagWords('--model', anchoredModel(flags.model, startedIn)));
  // The modes the run was in: resumed without them, a plan-mode run could go on writing.
  if (flags.plan) words.push('--plan');
  if (flags.vibe === true) words.push('--vibe');
  for (const [tier, model] of Object.entries(flags.vibeTiers ?? {}))
    words.push(flagWords('--vibe-tier', `${tier}=${model}`));
  return words.join(' ');
}

/**
 * `spec` with a relative `scripted:` file made absolute against `startedIn` (where `--model`
 * resolves it), so a printed command line works from any folder; other specs as they are.
 */
function anchoredModel(spec: string, startedIn: string): string {
  if (!spec.startsWith('scripted:')) return spec;
  const file = spec.slice('scripted:'.length);
  return file === '' || isAbsolute(file) ? spec : `scripted:${resolve(startedIn, file)}`;
}
