/**
 * `a3s tools`: the tool surface a session on this workspace would give the model, with tiers,
 * scheduling capabilities and the workspace capabilities each tool requires. It is listed by the
 * SDK's `agent.describeTools` — the same registration as a session, the workspace's config file
 * and MCP servers included — without a model and without writing a log. An MCP server that
 * did not start is a warning on stderr; the listing (and the exit code) stay as they are.
 */
import type { ToolInfo } from '@a3s-code/sdk';
import { noPositionals, parse, SESSION_FLAGS, SESSION_FLAGS_HELP, sessionFlags } from '../args.js';
import { EXIT, UsageError } from '../errors.js';
import type { Io, Out } from '../io.js';
import { agentFor, flagOptions, warnTo } from '../open-session.js';
import { vibeStart } from '../vibe-settings.js';
import { printMcpWarnings } from '../render/mcp-status.js';
import { styleFor, type Style } from '../style.js';

/**
 * The keys of a workspace's config file `a3s tools` acts on: it starts the MCP servers and lists
 * the agents and skills, and calls no model; only what these would do needs the folder's trust.
 */
export const TOOLS_CONFIG_KEYS: readonly string[] = ['mcpServers', 'agents', 'agentDirs', 'skillDirs'];

/** Help of `a3s tools`. */
export const TOOLS_HELP = `Usage: a3s tools [options]

Lists the session's tool surface (no model needed): name, tier (read / write / exec), scheduling
capabilities (ro: read-only, idem: idempotent, resume: resumable, cancel: cancel-safe,
page: paginated, par: max parallel calls) and the workspace capabilities each tool requires.

Options:
      --json           print the surface as JSON: one array, each tool with its name, description,
                       inputSchema (the JSON Schema of its arguments), tier, capabilities, requires
${SESSION_FLAGS_HELP}

The surface does not depend on the model: --model is checked but never called, so its key need
not be set. --yolo and --vibe-tier change nothing here (no tool runs, no worker starts, the list is
the same) and are refused.

Only what the workspace's config file would make this command do needs --trust-workspace: start
its MCP servers, list its agents and skills (its model, hooks or providers are not used here).`;

function capabilityText(t: ToolInfo): string {
  const c = t.capabilities;
  const flags = [
    c.readOnly && 'ro',
    c.idempotent && 'idem',
    c.resumable && 'resume',
    c.cancelSafe && 'cancel',
    c.paginated && 'page',
  ].filter(Boolean);
  return [...flags, `par=${c.maxParallelism}`, c.outputType].join(' ');
}

/** Prints a surface as a table (also `/tools` in `a3s code`). */
export function printTools(out: Out, style: Style, tools: readonly ToolInfo[], dir: string): void {
  // Each column as wide as its longest cell (an MCP tool's name or tier can be long).
  const width = Math.max('tool'.length, ...tools.map((t) => t.name.length));
  const tierWidth = Math.max('tier'.length, ...tools.map((t) => t.tier.length));
  const capWidth = Math.max('capabilities'.length, ...tools.map((t) => capabilityText(t).length));
  out.write(
    style.bold(`${'tool'.padEnd(width)} ${'tier'.padEnd(tierWidth)} ${'capabilities'.padEnd(capWidth)} requires\n`),
  );
  for (const t of tools)
    out.write(
      `${t.name.padEnd(width)} ${t.tier.padEnd(tierWidth)} ${capabilityText(t).padEnd(capWidth)} ${style.dim(t.requires.join(', ') || '-')}\n`,
    );
  out.write(style.dim(`${tools.length} tool(s) on the surface of ${dir}\n`));
}

/**
 * Refuses the session flags that would change nothing in a listing: `--yolo` (whether asked calls
 * run unasked: no call runs here) and `--vibe-tier` (the model of vibe workers: none starts here,
 * and the vibe tools are the same whatever it is).
 * @throws UsageError naming the flag, what it applies to and what to do instead.
 */
function refuseIdleFlags(values: { yolo?: boolean | undefined; 'vibe-tier'?: string[] | undefined }): void {
  if (values.yolo !== undefined)
    throw new UsageError(
      '--yolo applies to tool calls that would ask (it runs them without asking); a3s tools runs no tool and lists the same tools with or without it, so leave --yolo out',
    );
  if (values['vibe-tier'] !== undefined)
    throw new UsageError(
      '--vibe-tier sets the model of vibe workers; a3s tools starts no workers and lists the same tools whatever their model (--vibe lists the vibe tools), so leave --vibe-tier out',
    );
}

function withoutVariable(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): Readonly<Record<string, string | undefined>> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k !== name));
}

/** Runs `a3s tools`. */
export async function toolsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...SESSION_FLAGS, json: { type: 'boolean' } }, 'tools');
  if (values.help) {
    io.stdout.write(`${TOOLS_HELP}\n`);
    return EXIT.ok;
  }
  noPositionals(positionals, 'tools');
  refuseIdleFlags(values);
  const flags = { ...sessionFlags(values, io.cwd), warn: warnTo(io.stderr, io.env) };
  // The model is not resolved (a listing needs no key): `--model` was only checked for its form, and
  // it still stands in for A3S_MODEL, which is then not looked at either.
  const env = flags.model === undefined ? io.env : withoutVariable(io.env, 'A3S_MODEL');
  const agent = await agentFor({ ...flags, model: undefined }, env, TOOLS_CONFIG_KEYS);
  try {
    // `a3s code` answers questions at the terminal and `a3s run` parks them: both offer ask_user.
    const tools = await agent.describeTools(flags.cwd, {
      ...flagOptions(flags, undefined, (await vibeStart(flags)).on),
      parkMode: 'return',
    });
    printMcpWarnings(io.stderr, styleFor(io.stderr, io.env), await agent.mcpStatus(flags.cwd));
    if (values.json) {
      io.stdout.write(`${JSON.stringify(tools)}\n`);
      return EXIT.ok;
    }
    printTools(io.stdout, styleFor(io.stdout, io.env), tools, flags.cwd);
    return EXIT.ok;
  } finally {
    await agent.close();
  }
}
