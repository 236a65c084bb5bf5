// A background worker (vibe mode) started by a run is part of that run's supervised work: it
// runs in a child scope of the run's capability generation, so a tool published while the run
// goes on is refused inside the worker too, and the worker's log records the binding it ran under.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool, defineToolPack } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { holdPack, tempRepo } from './kit.js';

interface LogLine {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

const workerLines = (dir: string): LogLine[] => {
  const folder = join(dir, '.a3s', 'effect-log');
  return readdirSync(folder)
    .filter((f) => f.includes('.worker-'))
    .flatMap((f) =>
      readFileSync(join(folder, f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LogLine),
    );
};

describe('a vibe worker and its run’s capability generation', () => {
  it('CAP-07/CAP-09: a worker spawned after a tool was published cannot call it and records the run’s generation', async () => {
    const dir = tempRepo();
    const { pack: holdTools, inside, release } = holdPack();
    let lateRuns = 0;
    const late = defineTool({
      name: 'late',
      description: 'Published while the run goes on.',
      tier: 'read',
      input: z.object({}).strict(),
      execute: async () => {
        lateRuns += 1;
        return { output: 'LATE RAN', exitCode: 0 };
      },
    });
    const workerModel = join(dir, 'worker-model.json');
    writeFileSync(
      workerModel,
      JSON.stringify({ turns: [{ tool_calls: [{ id: 'wl', name: 'late', args: {} }] }, { text: 'worker done' }] }),
    );
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'h1', name: 'hold' }] },
      { tool_calls: [{ id: 'v1', name: 'vibe_spawn', args: { brief: 'call late', label: 'w' } }] },
      { tool_calls: [{ id: 'v2', name: 'vibe_wait', args: { worker_id: 'worker-1', timeout_seconds: 20 } }] },
      { text: 'lead done' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [holdTools],
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(dir, {
      sessionId: 'cap-worker',
      web: false,
      vibe: { tiers: { fast: `scripted:${workerModel}` } },
    });
    try {
      const sent = session.send('go');
      await inside;
      await session.catalog.addToolPack(defineToolPack({ name: 'late-pack', version: '1.0.0', tools: [late] }));
      release();
      await sent;
      expect(lateRuns).toBe(0);
      const lines = workerLines(dir);
      const started = lines.find((l) => l.type === 'run.started');
      const binding = started?.payload.capability_binding as { generation?: number } | undefined;
      expect(binding?.generation).toBe(1);
      const offered = (started?.payload.tools as { name: string }[] | undefined) ?? [];
      expect(offered.some((t) => t.name === 'late')).toBe(false);
      const result = lines.find((l) => l.type === 'tool.result' && l.payload.tool_call_id === 'wl');
      expect(String(result?.payload.output)).toContain("tool 'late' is not in capability generation 1");
    } finally {
      await session.close();
      await agent.close();
    }
  });
});
