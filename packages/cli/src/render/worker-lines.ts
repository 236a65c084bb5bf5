/**
 * One line per event of a background worker (vibe mode): started, a tool it ran or was refused,
 * finished, failed or stopped. The worker's own tool cards stay in its log; the lead's conversation
 * shows only these lines.
 */
import type { Style } from '../style.js';
import { clip, CARD_WIDTH } from './tool-card.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
const firstLine = (v: unknown): string => clip(str(v).split('\n')[0] ?? '', CARD_WIDTH);

/** The line of a `worker_*` event (with its newline), or `undefined` for another event or progress not shown. */
export function workerLine(style: Style, type: string, p: Readonly<Record<string, unknown>>): string | undefined {
  const who = `${str(p.worker_id)} ${style.dim(`(${str(p.label)})`)}`;
  switch (type) {
    case 'worker_spawned':
      return `${style.cyan('◆')} ${who} started${typeof p.tier === 'string' ? ` on the ${p.tier} tier` : ''}\n`;
    case 'worker_progress':
      if (p.type === 'tool_start') return style.dim(`  ${str(p.worker_id)} · ${str(p.tool_name)}\n`);
      if (p.type === 'permission_denied')
        return style.yellow(`  ${str(p.worker_id)} · ${str(p.tool_name)} refused: ${firstLine(p.reason)}\n`);
      return undefined;
    case 'worker_finished':
      return `${style.green('✓')} ${who} ${p.status === 'parked' ? 'is waiting for an approval' : 'finished'}: ${firstLine(p.text)}\n`;
    case 'worker_failed': {
      const e = (p.error ?? {}) as { code?: unknown; message?: unknown };
      return `${style.red('✗')} ${who} failed: ${str(e.code)} ${firstLine(e.message)}\n`;
    }
    case 'worker_killed':
      return `${style.yellow('■')} ${who} stopped: ${firstLine(p.reason)}\n`;
    default:
      return undefined;
  }
}
