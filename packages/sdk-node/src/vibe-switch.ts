/**
 * Turning a session's vibe mode on or off (`session.setVibeMode`).
 */
import { SessionConfigurationError } from '@a3s-code/core';
import type { VibeModeSwitch } from '@a3s-code/tools-resource/vibe';
import { describeValue } from './arguments.js';

/**
 * Sets vibe mode through the session's switch and returns the new state.
 * @throws SessionConfigurationError (`on`) for anything but `true` or `false` (a string `'false'`
 *   would otherwise turn it on); (`vibe`) when the session was opened without the `vibe` option.
 */
export function switchVibe(vibe: VibeModeSwitch | undefined, on: boolean): boolean {
  if (typeof on !== 'boolean')
    throw new SessionConfigurationError('on', `setVibeMode takes true or false, got ${describeValue(on)}`);
  if (vibe === undefined)
    throw new SessionConfigurationError(
      'vibe',
      'this session was opened without vibe; open it with vibe: true or vibe: { enabled: false } to switch it later',
    );
  vibe.set(on);
  return on;
}
