import { describe, expect, it } from 'vitest';
import { drafts } from './drafts.js';
import { encodeFact, parseLog } from './fact.js';
import { FactLog } from './fact-log.js';
import { fold } from './folder.js';
import type { RunCapabilityBindingV1 } from './kinds.js';
import { validatePayload } from './kind-validators.js';

const binding = (generation: number, digest = `sha256:${'a'.repeat(64)}`): RunCapabilityBindingV1 => ({
  version: 1,
  generation,
  catalog_digest: digest,
  ceiling_digest: `sha256:${'c'.repeat(64)}`,
  kinds: { tool: `sha256:${'t'.repeat(8)}` },
});
const spec = (name: string) => ({ name, description: name, input_schema: { type: 'object' } });

describe('capability bindings in the fact log', () => {
  it('CAP-09: run.started carries the binding; a v1 log without one still folds', () => {
    const log = new FactLog();
    log.append([drafts.runStarted('r1', { tools: [spec('read')], capability_binding: binding(3) })], null);
    log.append([drafts.runStarted('r0', { tools: [spec('read')] })], null);
    const text = log.facts.map(encodeFact).join('\n');
    const parsed = parseLog(text);
    expect(parsed.facts[0]!.payload).toMatchObject({ capability_binding: { generation: 3 } });
    expect(fold(parsed.facts).view.run).toEqual({ run_id: 'r0', status: 'running' });
  });

  it('CAP-09: a binding may name a digest per contribution; it survives the log round trip', () => {
    const contributions = {
      'flow:triage': `sha256:${'f'.repeat(64)}`,
      'hook:pre_tool_use:0': `sha256:${'h'.repeat(8)}`,
    };
    const log = new FactLog();
    log.append([drafts.runStarted('r1', { capability_binding: { ...binding(1), contributions } })], null);
    const parsed = parseLog(log.facts.map(encodeFact).join('\n'));
    expect(parsed.facts[0]!.payload).toMatchObject({ capability_binding: { contributions } });
  });

  it('CAP-09: a malformed binding is refused by name, on the fast path and the full check alike', () => {
    for (const bad of [
      { ...binding(1), version: 2 },
      { ...binding(1), generation: 0 },
      { ...binding(1), catalog_digest: '' },
      { ...binding(1), kinds: { tool: 1 } },
      { ...binding(1), contributions: { 'flow:triage': '' } },
      { ...binding(1), contributions: ['flow:triage'] },
    ]) {
      expect(() => validatePayload('run.started', { run_id: 'r', capability_binding: bad })).toThrow(
        /capability_binding/,
      );
      const line = JSON.stringify({
        seq: 1,
        type: 'run.started',
        key: 'run:r',
        cause: null,
        payload: { run_id: 'r', capability_binding: bad },
      });
      expect(() => parseLog(`${line}\n`)).toThrow(/capability_binding/);
    }
  });

  it('CAP-10: run.rebound replaces the tools of the open run only; another run is ignored', () => {
    const log = new FactLog();
    log.append([drafts.runStarted('r1', { tools: [spec('read')], capability_binding: binding(1) })], null);
    log.append(
      [
        drafts.runRebound('r1', 2, {
          capability_binding: binding(2, `sha256:${'b'.repeat(64)}`),
          previous: binding(1),
          tools: [spec('read'), spec('mcp__extra__echo')],
        }),
      ],
      null,
    );
    const state = fold(log.facts);
    expect(state.view.tools.map((t) => t.name)).toEqual(['read', 'mcp__extra__echo']);
    expect(state.view.run).toEqual({ run_id: 'r1', status: 'running' });
    log.append([drafts.runRebound('other', 3, { capability_binding: binding(3), tools: [] })], null);
    const after = fold(log.facts);
    expect(after.view.tools.map((t) => t.name)).toEqual(['read', 'mcp__extra__echo']);
    expect(after.counters.ignored).toBe(state.counters.ignored + 1);
    expect(() => validatePayload('run.rebound', { run_id: 'r1' })).toThrow(/capability_binding/);
  });
});
