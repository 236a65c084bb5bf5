/**
 * Host runtime tools registered late: a host whose runtime tools (a `runtime` tool, say) need
 * its user to log in first passes {@link HostRuntimeTools.source} in the session's `toolSources`,
 * and calls {@link HostRuntimeTools.register} from its login callback. Until then the tools are
 * not on the session's surface, so neither the model nor a workflow step can call them
 * (`ctx.tool('runtime', ...)` is refused as not registered); after it, they are governed like
 * every other tool.
 */
import { ToolDefinitionError } from '../errors/tool-errors.js';
import type { ToolSource } from '../registry/tool-source.js';
import type { ToolSourceTarget } from '../registry/source-target.js';
import type { Tool } from '../tools/tool.js';

/** A host's late-registered runtime tools (see the module comment). */
export interface HostRuntimeTools {
  /** The source to pass in a session's `toolSources`. */
  readonly source: ToolSource;
  /** Whether the tools are registered now (the user logged in). */
  readonly registered: boolean;
  /**
   * Registers `tools` on every session the source is attached to (and on sessions attached
   * later): call it once login has completed. Replaces the tools this source registered before.
   * @throws ToolDefinitionError when a name is already taken by another tool of the session.
   */
  register(tools: readonly Tool[]): void;
  /** Removes the tools again (logout). */
  unregister(): void;
}

/** Creates the late registration of a host's runtime tools. */
export function createHostRuntimeTools(name = 'host runtime'): HostRuntimeTools {
  // Per attached session, the names this source actually added (never another tool's name).
  const targets = new Map<ToolSourceTarget, Set<string>>();
  let tools: readonly Tool[] = [];
  const add = (target: ToolSourceTarget, added: Set<string>) => {
    for (const tool of tools) {
      target.add(tool);
      added.add(tool.name);
    }
  };
  const removeAll = () => {
    for (const [target, added] of targets) {
      for (const n of added) target.remove(n);
      added.clear();
    }
  };
  return {
    source: {
      name,
      attach(target) {
        const added = new Set<string>();
        targets.set(target, added);
        add(target, added);
        return () => {
          targets.delete(target);
        };
      },
    },
    get registered() {
      return tools.length > 0;
    },
    register(list) {
      const names = new Set<string>();
      for (const tool of list) {
        if (names.has(tool.name))
          throw new ToolDefinitionError(`runtime tool '${tool.name}'`, 'name', 'appears twice in one registration');
        names.add(tool.name);
      }
      removeAll();
      tools = Object.freeze([...list]);
      for (const [target, added] of targets) add(target, added);
    },
    unregister() {
      removeAll();
      tools = [];
    },
  };
}
