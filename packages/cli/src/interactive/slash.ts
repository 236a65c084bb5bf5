/**
 * The `/` commands of `a3s code`: their names, and the usage line of a command typed with the
 * wrong arguments (an unknown command names the known ones).
 */
import type { Session } from '@a3s-code/sdk';
import { closest } from '../did-you-mean.js';
import type { Style } from '../style.js';
import { FLOW_COMMANDS } from './flow-command.js';

/** Commands that take no arguments. */
const BARE: readonly string[] = ['/help', '/tools', '/mcp', '/compact', '/save', '/resume', '/exit', '/quit'];

/** Every `/` command `a3s code` knows. */
export const SLASH_COMMANDS: readonly string[] = [...BARE, '/image', '/file', '/vibe', ...FLOW_COMMANDS];

/**
 * What is wrong with a `/` line, or `undefined` when the command and its arguments are fine
 * (flow commands check their own arguments).
 */
export function slashProblem(line: string): string | undefined {
  const [command = '', ...args] = line.trim().split(/\s+/);
  if (!SLASH_COMMANDS.includes(command)) {
    const close = closest(command.toLowerCase(), SLASH_COMMANDS);
    return `unknown command ${command}${close === undefined ? '' : ` (did you mean ${close}?)`}; commands: ${SLASH_COMMANDS.filter((c) => c !== '/quit').join(', ')} (/help explains them)`;
  }
  if (BARE.includes(command) && args.length > 0)
    return `usage: ${command} (it takes no arguments; got '${args.join(' ')}')`;
  if ((command === '/image' || command === '/file') && attachmentPath(line, command) === '')
    return `usage: ${command} <path>, e.g. ${command} ${command === '/image' ? 'shot.png' : 'app.log'}`;
  if (command === '/vibe' && (args.length > 1 || (args.length === 1 && args[0] !== 'on' && args[0] !== 'off')))
    return `usage: /vibe, /vibe on or /vibe off (not '${args.join(' ')}')`;
  return undefined;
}

/**
 * The path of `/image <path>` or `/file <path>` (`line` starts with `command`): the rest of the
 * line, without the one pair of quotes around it, single or double, that a terminal adds when a
 * file with a space in its name is dragged onto it (`/file "my file.txt"`).
 */
export function attachmentPath(line: string, command: string): string {
  const path = line.trim().slice(command.length).trim();
  const quoted = path.length >= 2 && (path[0] === '"' || path[0] === "'") && path.at(-1) === path[0];
  return quoted ? path.slice(1, -1) : path;
}

/** `/vibe`, `/vibe on`, `/vibe off` (checked by `slashProblem`): switches vibe mode and says what changed. */
export function toggleVibe(session: Session, arg: string | undefined, style: Style): string {
  const on = session.setVibeMode(arg === undefined ? !session.vibeMode : arg === 'on');
  return on
    ? style.cyan(
        'vibe mode on: the agent can conduct background workers (vibe_spawn, vibe_send, vibe_wait, vibe_kill, vibe_list)',
      )
    : style.dim(
        'vibe mode off: the vibe tools left the surface; workers already running go on (/vibe shows them again)',
      );
}
