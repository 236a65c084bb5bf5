/**
 * MCP servers as the user sees them: one warning per server that is not serving (on stderr, at
 * the start of `a3s tools`, `a3s run` and `a3s code`), and the `/mcp` table of `a3s code`.
 */
import { mcpWarnings, type McpServerStatus, type McpSessionServerStatus } from '@a3s-code/sdk';
import type { Out } from '../io.js';
import type { Style } from '../style.js';
import { terminalText } from '@a3s-code/core';

/** Lines of a server's stderr a warning shows. */
const WARNING_STDERR_LINES = 5;

/**
 * Writes `warning: MCP server 'x' failed: <reason>` (and its stderr tail, indented) for every
 * failed, crashed or restarting server of `statuses`; nothing when all serve.
 */
export function printMcpWarnings(out: Out, style: Style, statuses: readonly McpServerStatus[]): void {
  for (const w of mcpWarnings(statuses)) {
    out.write(style.yellow(`warning: MCP server '${terminalText(w.server)}' ${w.state}: ${terminalText(w.reason)}\n`));
    const tail = w.stderrTail?.split('\n').slice(-WARNING_STDERR_LINES) ?? [];
    // A server's own stderr (often coloured logs) is shown as text.
    for (const line of tail) out.write(style.dim(`  stderr: ${terminalText(line)}\n`));
  }
}

/** The `/mcp` table: name, source, state, tool count, restarts and last error of every server. */
export function printMcpServers(out: Out, style: Style, statuses: readonly McpSessionServerStatus[]): void {
  if (statuses.length === 0) {
    out.write(style.dim('no MCP servers (add them under "mcpServers" in a3s.config.json)\n'));
    return;
  }
  const width = Math.max(6, ...statuses.map((s) => s.name.length));
  out.write(
    style.bold(
      `${'server'.padEnd(width)} ${'source'.padEnd(9)} ${'state'.padEnd(10)} ${'tools'.padStart(5)} ${'restarts'.padStart(8)}  last error\n`,
    ),
  );
  for (const s of statuses) {
    const state =
      s.state === 'connected'
        ? style.green(s.state.padEnd(10))
        : s.state === 'failed'
          ? style.red(s.state.padEnd(10))
          : style.yellow(s.state.padEnd(10));
    const shadow = s.shadowedBy === undefined ? '' : style.dim(` (shadowed by ${s.shadowedBy})`);
    out.write(
      `${s.name.padEnd(width)} ${s.source.padEnd(9)} ${state} ${String(s.toolCount).padStart(5)} ${String(s.restarts).padStart(8)}  ${s.lastError === undefined ? style.dim('-') : terminalText(s.lastError)}${shadow}\n`,
    );
  }
}
