/**
 * The vibe pack: the five `vibe_*` tools and the session's roster of background workers. With a
 * mode switch the tools are on the surface only while vibe mode is on (attach the switch as a tool
 * source); without one, whenever the pack is plugged in.
 */
import { defineToolPack, type ResourceCapability, type ToolPack } from '@a3s-code/core';
import type { VibeRosterOptions } from './vibe-types.js';
import { VIBE_MODE_RESOURCE, VibeModeSwitch } from './vibe-mode.js';
import { VIBE_RESOURCE, vibeResource } from './vibe-resource.js';
import { createVibeTools } from './vibe-tools.js';

/** Version of the pack (the package version). */
export const VIBE_TOOL_PACK_VERSION = '0.1.0';

/** The pack's name. */
export const VIBE_TOOL_PACK_NAME = '@a3s-code/tools-resource/vibe';

/** Options of {@link createVibeToolPack}: the roster's (tier models, cap). */
export type VibeToolPackOptions = VibeRosterOptions;

/** A vibe pack with its mode switch (see {@link createVibe}). */
export interface Vibe {
  /** Plug it into the session (`tools`). */
  readonly pack: ToolPack;
  /** Attach it to the same session (`toolSources`); `mode.set(on)` turns vibe mode on and off. */
  readonly mode: VibeModeSwitch;
}

function pack(options: VibeRosterOptions, requires: readonly ResourceCapability[]): ToolPack {
  return defineToolPack({
    name: VIBE_TOOL_PACK_NAME,
    version: VIBE_TOOL_PACK_VERSION,
    tools: createVibeTools(requires),
    resources: [vibeResource(options)],
  });
}

/** A vibe pack whose tools are on whenever it is plugged in. */
export function createVibeToolPack(options: VibeToolPackOptions = {}): ToolPack {
  return pack(options, [VIBE_RESOURCE]);
}

/** The vibe pack with the session's model on both tiers and the default cap. */
export const vibeToolPack: ToolPack = createVibeToolPack();

/**
 * A vibe pack for one session and its mode switch, on (`enabled`, default true) or off: plug
 * `pack` in and attach `mode` as a tool source; the tools are on the surface while the mode is on.
 */
export function createVibe(options: VibeToolPackOptions & { readonly enabled?: boolean } = {}): Vibe {
  const { enabled, ...roster } = options;
  return { pack: pack(roster, [VIBE_RESOURCE, VIBE_MODE_RESOURCE]), mode: new VibeModeSwitch(enabled ?? true) };
}
