/**
 * The web tool pack: `web_fetch` and `web_search`. Each tool's per-session state is a resource
 * of the pack, attached from the session's `web` setting (on by default; `web: false` leaves both
 * out, `web.fetch: false` / `web.search: false` one) and opened lazily on the tool's first call:
 * `resource.web_fetch` holds the session's fetch options and page cache, `resource.web_search`
 * the session's search with its circuit breakers and lazily launched browser, closed with the
 * session.
 */
import {
  defineToolPack,
  type OpenedResource,
  type Tool,
  type ToolPack,
  type ToolResource,
  type ToolResourceContext,
} from '@a3s-code/core';
import { webToolsOptionsOf } from './web-setting.js';
import { createWebTools, type WebToolsOptions } from './web-tools.js';

/** Version of the pack (the package version). */
export const WEB_TOOL_PACK_VERSION = '0.1.0';

/** An opened web resource: the session's own instance of the tool. */
interface SessionTool extends OpenedResource {
  readonly tool: Tool;
}

function optionsOf(context: ToolResourceContext): WebToolsOptions | false {
  const o = webToolsOptionsOf(context.settings.web);
  return o === false ? false : o === true ? {} : o;
}

/** A resource that builds the session's instance of one web tool; the other tool is left out of it. */
function sessionToolResource(
  capability: 'resource.web_fetch' | 'resource.web_search',
  key: 'fetch' | 'search',
): ToolResource<SessionTool> {
  const other = key === 'fetch' ? 'search' : 'fetch';
  return {
    capability,
    enabled: (context) => {
      const o = optionsOf(context);
      return o !== false && o[key] !== false;
    },
    open: async (context) => {
      const o = optionsOf(context);
      const web = createWebTools(o === false ? false : { ...o, [other]: false }, context.clock);
      const tool = web.tools[0];
      if (tool === undefined)
        throw new Error(`the web setting leaves out ${key === 'fetch' ? 'web_fetch' : 'web_search'}`);
      return {
        tool,
        close: async () => {
          await Promise.all(web.resources.map((r) => r.close().catch(() => undefined)));
        },
      };
    },
  };
}

/** The pack's tool: `template`'s definition, run by the session's instance held by `capability`. */
function sessionBound(template: Tool, capability: 'resource.web_fetch' | 'resource.web_search'): Tool {
  return {
    name: template.name,
    description: template.description,
    // Read on first use: the template builds its schema (and loads zod) only then.
    get inputSchema() {
      return template.inputSchema;
    },
    tier: template.tier,
    ...(template.capabilities ? { capabilities: template.capabilities } : {}),
    ...(template.timeoutMs === undefined ? {} : { timeoutMs: template.timeoutMs }),
    requires: [...(template.requires ?? []), capability],
    capabilitiesFor: (args) => template.capabilitiesFor?.(args) ?? {},
    execute: async (args, ctx) => (await ctx.resource<SessionTool>(capability)).tool.execute(args, ctx),
  };
}

/** Templates lending their definitions (name, description, schema, tier) to the pack's tools; never run. */
const [FETCH_TEMPLATE, SEARCH_TEMPLATE] = createWebTools({ search: { http: false, browser: false } }).tools as [
  Tool,
  Tool,
];

/** The pack the SDK registers. */
export const webToolPack: ToolPack = defineToolPack({
  name: '@a3s-code/tools-web',
  version: WEB_TOOL_PACK_VERSION,
  tools: [sessionBound(FETCH_TEMPLATE, 'resource.web_fetch'), sessionBound(SEARCH_TEMPLATE, 'resource.web_search')],
  resources: [sessionToolResource('resource.web_fetch', 'fetch'), sessionToolResource('resource.web_search', 'search')],
});
