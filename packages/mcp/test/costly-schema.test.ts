// Input schemas that are small but exponential to check, listed by a real server process
// (fixtures/hostile-server.mjs `costly`): a chain of 40 `anyOf`s of two `$ref`s (2^40 branches on
// one badly typed value) and a recursion that applies itself twice to each child (2^depth) are
// left out at listing, each with a reason naming the tool and the bound, so a call of them can
// never freeze the host; a recursive tree schema is kept and checks nested arguments; the host's
// timers keep firing throughout. A backtracking `pattern` a `$ref` reaches from a place no schema
// sits (an unknown keyword, a `default`) is never run: such a tool is left out too.
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, MAX_CHECKS_PER_VALUE } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager, McpSources, mcpToolSource } from '../src/index.js';
import { fixturePath } from './kit.js';

const costly = { command: process.execPath, args: [fixturePath('hostile-server.mjs'), 'costly'], timeoutMs: 5_000 };

/** Runs `fn` while a 20 ms timer ticks; the longest gap between ticks (or to the end), in ms. */
async function longestPause<T>(fn: () => Promise<T>): Promise<{ value: T; pause: number }> {
  let last = performance.now();
  let pause = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    pause = Math.max(pause, now - last);
    last = now;
  }, 20);
  try {
    const value = await fn();
    await new Promise((r) => setTimeout(r, 60));
    return { value, pause: Math.max(pause, performance.now() - last) };
  } finally {
    clearInterval(tick);
  }
}

const m = new McpManager({ connectTimeoutMs: 5_000 });
beforeAll(() => m.addServer('costly', costly));
afterAll(() => m.close());

describe('MCP input schemas that would be exponential to check', () => {
  it('SURF-09: a chain of anyOf branches and a doubling recursion are left out at listing, each with its reason; a recursive tree serves', () => {
    const status = m.status().find((s) => s.name === 'costly')!;
    expect(status.state).toBe('connected');
    expect(m.tools().map((t) => t.name)).toEqual(['mcp__costly__ok', 'mcp__costly__letters', 'mcp__costly__tree']);
    const reasons = Object.fromEntries((status.rejectedTools ?? []).map((r) => [r.tool, r.reason]));
    expect(Object.keys(reasons)).toEqual(['hidden', 'defaultref', 'chain', 'deep']);
    expect(reasons.chain).toMatch(
      new RegExp(
        `^its inputSchema is too costly to check: the value at /x \\(1 level deep\\) would be checked against \\d+ subschemas, and at most ${MAX_CHECKS_PER_VALUE} are allowed per value; anyOf/oneOf/allOf branches`,
      ),
    );
    expect(reasons.deep).toMatch(
      /^its inputSchema is too costly to check: the value at \/x\/c\/c\/c(\/c)+ \(\d+ levels deep\)/,
    );
  });

  it('calls with badly typed, deeply nested arguments are answered at once while the host timers keep firing; the tree still checks them', async () => {
    const sources = new McpSources();
    await sources.addMcpServer('costly', costly);
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      permissions: { allow: ['mcp__*'], defaultDecision: 'allow' },
    });
    const session = await agent.session(realpathSync(mkdtempSync(join(tmpdir(), 'a3s-mcp-costly-'))), {
      persistence: 'memory',
      toolSources: [mcpToolSource(sources)],
    });
    try {
      // 2^14 branches per call were the doubling recursion's schema compiled (seconds of a frozen host).
      let nested: Record<string, unknown> = {};
      for (let i = 0; i < 14; i++) nested = { c: nested };
      const refused = await longestPause(() => session.tool('mcp__costly__deep', { x: nested }));
      expect(refused.value).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
      expect(refused.value.output).toMatch(/^unknown tool 'mcp__costly__deep'; available: .*mcp__costly__tree/);
      expect(refused.pause).toBeLessThan(500);

      let tree: Record<string, unknown> = { name: 'leaf', next: null };
      for (let i = 0; i < 60; i++) tree = { name: `n${i}`, children: [tree, { name: 'x' }], next: { name: 'y' } };
      const good = await longestPause(() => session.tool('mcp__costly__tree', { root: tree }));
      expect(good.value).toMatchObject({ ok: true, output: 'fine' });
      const bad = await session.tool('mcp__costly__tree', {
        root: { name: 'a', children: [{ name: 'b', next: { name: 5 } }] },
      });
      expect(bad.ok).toBe(false);
      expect(bad.error).toMatchObject({ code: 'INVALID_TOOL_ARGS' });
      expect(bad.output).toContain('args.root.children[0].next');
      expect(good.pause).toBeLessThan(500);
    } finally {
      await session.close();
      await sources.close();
    }
  }, 8_000);

  it("a server's pattern never runs: $refs into an unknown keyword or a default are refused, a pattern under $defs is only described, and the host timers keep firing", async () => {
    const sources = new McpSources();
    await sources.addMcpServer('costly', costly);
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      permissions: { allow: ['mcp__*'], defaultDecision: 'allow' },
    });
    const session = await agent.session(realpathSync(mkdtempSync(join(tmpdir(), 'a3s-mcp-redos-'))), {
      persistence: 'memory',
      toolSources: [mcpToolSource(sources)],
    });
    try {
      // ^(a+)+$ on 26 a's and a '!' backtracks for seconds (each further character doubles it).
      const evil = `${'a'.repeat(26)}!`;
      for (const tool of ['hidden', 'defaultref']) {
        const r = await longestPause(() => session.tool(`mcp__costly__${tool}`, { a: evil }));
        expect(r.pause).toBeLessThan(500);
        expect(r.value).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
      }
      const served = await longestPause(() => session.tool('mcp__costly__letters', { a: evil }));
      expect(served.pause).toBeLessThan(500);
      expect(served.value).toMatchObject({ ok: true, output: 'fine' });
      // A property named `pattern` is a schema, and still checked.
      const bad = await session.tool('mcp__costly__letters', { pattern: 'abcd' });
      expect(bad.error).toMatchObject({ code: 'INVALID_TOOL_ARGS' });
      expect(bad.output).toContain('args.pattern');
    } finally {
      await session.close();
      await sources.close();
    }
    const reasons = Object.fromEntries(
      (m.status().find((s) => s.name === 'costly')?.rejectedTools ?? []).map((r) => [r.tool, r.reason]),
    );
    expect(reasons.hidden).toMatch(
      /^its inputSchema has a \$ref "#\/x-hidden" that does not point at a subschema \(it points into data or a keyword that holds no schema\); allowed: '#', or a subschema under \$defs/,
    );
    expect(reasons.defaultref).toMatch(
      /^its inputSchema has a \$ref "#\/properties\/b\/default" that does not point at a subschema/,
    );
    const note = 'Must match the regular expression ^(a+)+$ (checked by the server).';
    const letters = m.tools().find((t) => t.name === 'mcp__costly__letters')!.inputSchema;
    expect(letters.$defs).toEqual({ l: { type: 'string', description: note } });
    expect(letters['x-note']).toEqual({ nested: [{ type: 'string', description: note }] });
    expect(letters.properties).toEqual({ a: { $ref: '#/$defs/l' }, pattern: { type: 'string', maxLength: 3 } });
  }, 8_000);
});
