/**
 * The web tool pack: `web_fetch` and `web_search`, built for each session from its `web`
 * setting (on by default; `web: false` leaves them out), with one search, its circuit breakers
 * and its lazily launched browser per session, closed with the session.
 */
import { defineToolPack, type ToolPack, type ToolPackSession, type ToolPackSessionContext } from '@a3s-code/core';
import { webToolsOptionsOf } from './web-setting.js';
import { createWebTools } from './web-tools.js';

/** Version of the pack (the package version). */
export const WEB_TOOL_PACK_VERSION = '0.1.0';

function openWebTools(context: ToolPackSessionContext): ToolPackSession {
  const web = createWebTools(webToolsOptionsOf(context.settings.web), context.clock);
  return {
    tools: web.tools,
    close: async () => {
      await Promise.all(web.resources.map((r) => r.close().catch(() => undefined)));
    },
  };
}

/** The pack the SDK registers. */
export const webToolPack: ToolPack = defineToolPack({ name: '@a3s-code/tools-web', version: WEB_TOOL_PACK_VERSION, tools: [], openSession: openWebTools });
