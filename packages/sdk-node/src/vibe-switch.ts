/**
 * Turning a session's vibe mode on or off (`session.setVibeMode`).
 */
import { SessionConfigurationError } from '@a3s-code/core';
import type { VibeModeSwitch } from '@a3s-code/tools-resource/vibe';

/**
 * Sets vibe mode through the session's switch and returns the new state.
 * @throws SessionConfigurationError (`vibe`) when the session was opened without the `vibe` option.
 */
export function switchVibe(vibe: VibeModeSwitch | undefined, on: boolean): boolean {
  if (vibe === undefined)
    throw new SessionConfigurationError(
      'vibe',
      'this session was opened without vibe; open it with vibe: true or vibe: { enabled: false } to switch it later',
    );
  vibe.set(on);
  return on;
}
