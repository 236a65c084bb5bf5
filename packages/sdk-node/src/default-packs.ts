/** The tool packs a session gets by default, and which resource-bound ones an agent turns off. */
import type { ToolPack } from '@a3s-code/core';
import { astToolPack } from '@a3s-code/tools-resource/ast';
import { debugToolPack } from '@a3s-code/tools-resource/debug';
import { evalToolPack } from '@a3s-code/tools-resource/eval';
import { lspToolPack } from '@a3s-code/tools-resource/lsp';
import { webToolPack } from '@a3s-code/tools-web';
import { workspaceToolPack } from '@a3s-code/tools-workspace';

/** Which resource-bound packs an agent registers by default (each `true` unless set to `false`). */
export interface ResourcePacks {
  readonly ast?: boolean;
  readonly lsp?: boolean;
  readonly eval?: boolean;
  readonly debug?: boolean;
}

/**
 * The packs of a session: the workspace pack (unless turned off), the web pack (unless the host
 * registers it itself), then with the workspace pack the resource-bound packs, each unless turned
 * off in `resources` or registered by the host: ast (its parser loads on the first ast call), lsp
 * (a language server starts only when a file needs one), eval (a kernel starts on the first cell)
 * and debug (an adapter starts on launch or attach); then the host's packs. The web pack follows
 * the `web` setting.
 */
export function defaultPacks(
  workspaceTools: boolean,
  resources: ResourcePacks,
  hostPacks: readonly ToolPack[],
): ToolPack[] {
  const hosted = (pack: ToolPack) => hostPacks.some((p) => p.name === pack.name);
  const web = hosted(webToolPack) ? [] : [webToolPack];
  const bound = (
    [
      ['ast', astToolPack],
      ['lsp', lspToolPack],
      ['eval', evalToolPack],
      ['debug', debugToolPack],
    ] as const
  )
    .filter(([key, pack]) => workspaceTools && resources[key] !== false && !hosted(pack))
    .map(([, pack]) => pack);
  return [...(workspaceTools ? [workspaceToolPack] : []), ...web, ...bound, ...hostPacks];
}
