/**
 * Vibe mode: the switch that puts the `vibe_*` tools on a session's surface and takes them off
 * again (`a3s code`'s `/vibe`). It is a tool source driving the capability `resource.vibe-mode`,
 * which the tools of a switched pack require besides the roster. Turning the mode off hides the
 * tools; workers already running go on, and turning it on again shows them.
 */
import type { ToolSource, ToolSourceTarget } from '@a3s-code/core';

/** The capability a switched pack's tools require: vibe mode is on. */
export const VIBE_MODE_RESOURCE = 'resource.vibe-mode';

/** The vibe-mode switch of one session: attach it as a tool source, then `set` it. */
export class VibeModeSwitch implements ToolSource {
  /** The source's name, as the session's `resources()` lists it. */
  readonly name = '@a3s-code/tools-resource/vibe';
  #on: boolean;
  readonly #targets = new Set<ToolSourceTarget>();

  constructor(on: boolean) {
    this.#on = on;
  }

  /** Whether vibe mode is on. */
  get enabled(): boolean {
    return this.#on;
  }

  /** Turns vibe mode on or off in every session the switch is attached to. */
  set(on: boolean): void {
    this.#on = on;
    for (const t of this.#targets) t.resource(VIBE_MODE_RESOURCE, on ? 'open' : 'closed');
  }

  /** @inheritdoc */
  attach(target: ToolSourceTarget): () => void {
    this.#targets.add(target);
    target.resource(VIBE_MODE_RESOURCE, this.#on ? 'open' : 'closed');
    return () => {
      this.#targets.delete(target);
    };
  }
}
