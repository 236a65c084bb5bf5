// The READMEs cannot drift: every ```json block parses, config samples pass the config loader and
// the SDK's validation (MCP entries included), script samples load as scripted models, and the
// fields `session.mcpStatus()` returns are the ones the SDK README lists.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { getCodeConfigFileSchema, parseCodeConfig } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { Agent, type McpSessionServerStatus } from '@a3s-code/sdk';
import { describe, expect, it } from 'vitest';
import { tempRepo } from './kit.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const READMES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'packages'))
    .map((p) => join(ROOT, 'packages', p, 'README.md'))
    .filter((p) => existsSync(p)),
];
const CONFIG_KEYS = new Set(Object.keys(getCodeConfigFileSchema().shape));

/** The fenced blocks of a markdown text with their language and line. */
function blocks(text: string): { lang: string; line: number; body: string }[] {
  const out: { lang: string; line: number; body: string }[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text))
    out.push({ lang: m[1]!, line: text.slice(0, m.index).split('\n').length, body: m[2]! });
  return out;
}

const samples = READMES.flatMap((file) =>
  blocks(readFileSync(file, 'utf8')).map((b) => ({ ...b, where: `${file.slice(ROOT.length + 1)}:${b.line}` })),
);

describe('README samples', () => {
  it('the READMEs have json samples, and none in jsonc (samples are copied into real files)', () => {
    expect(samples.filter((s) => s.lang === 'json').length).toBeGreaterThanOrEqual(3);
    expect(samples.filter((s) => s.lang === 'jsonc').map((s) => s.where)).toEqual([]);
  });

  it.each(samples.filter((s) => s.lang === 'json').map((s) => [s.where, s.body] as const))(
    '%s is valid JSON, and a valid config or script',
    async (where, body) => {
      const value = JSON.parse(body) as Record<string, unknown>;
      if ('turns' in value) {
        expect(() => new ScriptedLlmClient(value as never), where).not.toThrow();
        return;
      }
      if (Object.keys(value).every((k) => CONFIG_KEYS.has(k))) {
        const { model: _model, ...config } = parseCodeConfig(value, where);
        const agent = await Agent.create({ ...config, env: {}, workspaceConfig: false });
        await agent.close();
      }
    },
  );

  it('session.mcpStatus() fields are the ones the SDK README lists', async () => {
    const text = readFileSync(join(ROOT, 'packages', 'sdk-node', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const sentence = /`session\.mcpStatus\(\)` returns one entry per server with ([^.]*)\./.exec(text)?.[1] ?? '';
    const documented = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1]!).sort();
    // The compiler keeps this list complete: a field added to or removed from the type fails typecheck.
    const fields: Record<keyof McpSessionServerStatus, true> = {
      name: true,
      transport: true,
      state: true,
      toolCount: true,
      resourceCount: true,
      promptCount: true,
      restarts: true,
      lastError: true,
      stderrTail: true,
      pid: true,
      serverInfo: true,
      rejectedTools: true,
      source: true,
      shadowedBy: true,
    };
    expect(documented).toEqual(Object.keys(fields).sort());
    const server = join(import.meta.dirname, '..', '..', 'sdk-node', 'test', 'fixtures', 'mcp-server.mjs');
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), env: {}, workspaceConfig: false });
    const session = await agent.session(tempRepo(), {
      mcpServers: { fx: { command: process.execPath, args: [server, `readme-${process.pid}`] } },
    });
    try {
      const [status] = session.mcpStatus();
      expect(status?.state).toBe('connected');
      for (const key of Object.keys(status ?? {})) expect(documented, key).toContain(key);
    } finally {
      await session.close();
      await agent.close();
    }
  }, 20_000);
});
