// eval and the completion gate: a cell that only computes changes nothing, so the run completes
// (narrative) without a verification; a cell that writes a file is a change the gate holds, as a
// bash command's would be. Real Python kernels.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

async function runCell(code: string) {
  const dir = tempRepo();
  const model = new ScriptedLlmClient([
    { tool_calls: [{ id: 'e1', name: 'eval', args: { code, description: 'compute what the task asks for' } }] },
    { text: 'Done.' },
  ]);
  const session = await (await Agent.create({ model })).session(dir, {
    permissions: { allow: ['eval'] },
    gate: { continuation: { enabled: false } },
  });
  try {
    const result = await session.send('compute it').catch((e: unknown) => e as { code?: string });
    const cell = session.core.store.log.facts.find((f) => f.type === 'tool.result');
    return { dir, result, metadata: (cell?.payload as { metadata?: Record<string, unknown> } | undefined)?.metadata };
  } finally {
    await session.close();
  }
}

describe('eval cells and the completion gate', () => {
  it('GATE-01: a cell that only computes changes nothing: the run completes without a verification', async () => {
    const { result, metadata } = await runCell('print(6 * 7)');
    expect(result).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(metadata?.changed_files).toEqual({ created: [], modified: [], deleted: [] });
  }, 60_000);

  it('GATE-01: a cell that writes a file is a change: the run cannot complete unverified', async () => {
    const { dir, result, metadata } = await runCell("open('out.txt', 'w').write('x')");
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(metadata?.changed_files).toEqual({ created: ['out.txt'], modified: [], deleted: [] });
    expect(existsSync(join(dir, 'out.txt')) && readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('x');
  }, 60_000);
});
