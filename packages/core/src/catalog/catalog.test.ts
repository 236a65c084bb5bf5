import { describe, expect, it } from 'vitest';
import type { Tool } from '../tools/tool.js';
import { CapabilityCatalog } from './capability-catalog.js';
import type { CapabilityContribution } from './capability-kinds.js';
import { CapabilityScope } from './capability-scope.js';
import { permissionCeiling } from './permission-ceiling.js';
import type { PreparationStep } from './preparation.js';

const tool = (name: string, description = name): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  tier: 'read',
  execute: async () => ({ output: name, exitCode: 0 }),
});

/** A catalog over a mutable staged tool list (what a session's registry is to its catalog). */
function staged(initial: Tool[] = [tool('read')], ceiling = permissionCeiling({}, {})) {
  const tools = [...initial];
  const catalog = new CapabilityCatalog({ project: () => ({ tools, contributions: [] }), ceiling });
  const published: number[] = [];
  catalog.onPublish((g) => published.push(g.generation));
  return { tools, catalog, published };
}

const flow = (name: string, extra: Partial<CapabilityContribution> = {}): CapabilityContribution => ({
  kind: 'flow',
  name,
  source: 'test',
  ...extra,
});

describe('capability catalog generations', () => {
  it('CAP-01: a generation is immutable and covers tools and the other kinds, each with its own digest', () => {
    const { tools, catalog } = staged();
    catalog.contribute(flow('deploy', { descriptor: { steps: 2 } }));
    catalog.contribute({ kind: 'knowledge', name: 'docs', source: 'test' });
    catalog.contribute({ kind: 'ui', name: 'panel', source: 'test' });
    const g1 = catalog.current;
    expect(g1.generation).toBe(1);
    expect(g1.contributions.map((c) => `${c.kind}:${c.name}`)).toEqual(['flow:deploy', 'knowledge:docs', 'ui:panel']);
    expect(Object.keys(g1.kindDigests)).toEqual([
      'tool',
      'skill',
      'agent',
      'command',
      'hook',
      'mcp',
      'context',
      'flow',
      'knowledge',
      'ui',
    ]);
    expect(g1.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.isFrozen(g1.tools())).toBe(true);
    tools.push(tool('grep'));
    catalog.markChanged();
    const g2 = catalog.current;
    expect(g2.generation).toBe(2);
    expect(g1.toolNames()).toEqual(['read']);
    expect(g2.toolNames()).toEqual(['read', 'grep']);
    expect(g2.kindDigests.tool).not.toBe(g1.kindDigests.tool);
    expect(g2.kindDigests.flow).toBe(g1.kindDigests.flow);
  });

  it('CAP-02: a preparation runs a bounded, acyclic graph in dependency order', async () => {
    const { catalog } = staged();
    const ran: string[] = [];
    const step = (id: string, after?: string[]): PreparationStep => ({
      id,
      ...(after ? { after } : {}),
      run: () => {
        ran.push(id);
      },
    });
    await catalog.prepare([step('c', ['b']), step('a'), step('b', ['a'])]);
    expect(ran).toEqual(['a', 'b', 'c']);
    await expect(catalog.prepare([step('a', ['b']), step('b', ['a'])])).rejects.toMatchObject({
      code: 'CATALOG_PLAN_INVALID',
      message: expect.stringContaining('dependency cycle among a, b'),
    });
    await expect(catalog.prepare([step('a', ['nope'])])).rejects.toThrow(/names unknown step 'nope'/);
    await expect(catalog.prepare([step('validate')])).rejects.toThrow(/catalog's own steps/);
    const many = Array.from({ length: 65 }, (_, i) => step(`s${i}`));
    await expect(catalog.prepare(many)).rejects.toThrow(/has 65 steps; at most 64 are allowed/);
    expect(
      () =>
        new CapabilityCatalog({
          project: () => ({ tools: [], contributions: [] }),
          ceiling: permissionCeiling({}, {}),
          maxSteps: 0,
        }),
    ).toThrow(RangeError);
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('CAP-03: validation covers the whole projection and names every problem before anything is published', async () => {
    const { tools, catalog } = staged(undefined, permissionCeiling({}, { mode: 'plan' }));
    const before = catalog.current;
    const failure = await catalog
      .prepare([
        {
          id: 'stage',
          run: (ctx) => {
            tools.push(tool('read'));
            tools.push({ ...tool('bad'), inputSchema: { type: 'string' } });
            ctx.contribute(flow('ship', { tier: 'exec' }));
            ctx.contribute({ kind: 'command', name: 'has space', source: 'test' });
            ctx.onRollback(() => {
              tools.splice(1);
            });
          },
        },
      ])
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'CATALOG_PREPARATION_FAILED', step: 'validate' });
    const problems = (failure as { cause: { problems: { subject: string; field: string; message: string }[] } }).cause
      .problems;
    expect(problems.map((p) => `${p.subject} ${p.field}`)).toEqual([
      "tool 'read' name",
      "tool 'bad' inputSchema.type",
      "flow 'ship' tier",
      "command 'has space' name",
    ]);
    expect(problems[2]!.message).toContain("'exec' exceeds the permission ceiling (tiers: read)");
    expect(catalog.current).toBe(before);
    expect(catalog.current.toolNames()).toEqual(['read']);
  });

  it('CAP-04: a generation becomes visible through one compare-and-swap; a stale expectation is refused', async () => {
    const { tools, catalog, published } = staged();
    const g1 = catalog.current;
    let seenDuring: number[] = [];
    await catalog.prepare([
      { id: 'one', run: () => void tools.push(tool('a')) },
      { id: 'two', after: ['one'], run: () => void tools.push(tool('b')) },
      {
        id: 'three',
        after: ['two'],
        run: () => {
          // Staged but unpublished: a reader still sees generation 1.
          seenDuring = [...catalog.current.toolNames()].map((n) => n.length);
          expect(catalog.current).toBe(g1);
        },
      },
    ]);
    expect(seenDuring).toEqual([4]);
    expect(published).toEqual([1, 2]);
    expect(catalog.current.toolNames()).toEqual(['read', 'a', 'b']);
    expect(() => catalog.compareAndSwap(g1, { tools: [tool('x')], contributions: [], ceiling: g1.ceiling })).toThrow(
      expect.objectContaining({ code: 'CATALOG_CONFLICT', message: expect.stringContaining('expected generation 1') }),
    );
    expect(published).toEqual([1, 2]);
  });

  it('CAP-05: a failed or cancelled preparation undoes every side effect, newest first, and exposes nothing', async () => {
    for (const mode of ['throw', 'cancel'] as const) {
      const { tools, catalog, published } = staged();
      const g1 = catalog.current;
      const undone: string[] = [];
      const controller = new AbortController();
      const effect = (id: string, after?: string[]): PreparationStep => ({
        id,
        ...(after ? { after } : {}),
        run: (ctx) => {
          tools.push(tool(`t_${id}`));
          ctx.contribute(flow(`f_${id}`));
          ctx.onRollback(() => {
            tools.splice(
              tools.findIndex((t) => t.name === `t_${id}`),
              1,
            );
            undone.push(id);
          });
        },
      });
      const failing: PreparationStep = {
        id: 'c',
        after: ['b'],
        run: (ctx) => {
          if (mode === 'throw') throw new Error('boom');
          controller.abort('host cancelled');
          if (ctx.signal.aborted) throw ctx.signal.reason;
        },
      };
      const e = await catalog
        .prepare([effect('a'), effect('b', ['a']), failing], { signal: controller.signal })
        .catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: mode === 'throw' ? 'CATALOG_PREPARATION_FAILED' : 'CATALOG_PREPARATION_CANCELLED',
        step: 'c',
        cancelled: mode === 'cancel',
      });
      expect(undone).toEqual(['b', 'a']);
      expect(catalog.current).toBe(g1);
      expect(catalog.current.contributions).toEqual([]);
      expect(tools.map((t) => t.name)).toEqual(['read']);
      expect(published).toEqual([1]);
    }
  });

  it('CAP-05: an undo that fails is reported, and the other undos still run', async () => {
    const { catalog } = staged();
    const undone: string[] = [];
    const e = await catalog
      .prepare([
        { id: 'a', run: (ctx) => ctx.onRollback(() => void undone.push('a')) },
        {
          id: 'b',
          after: ['a'],
          run: (ctx) => {
            ctx.onRollback(() => {
              throw new Error('cannot undo b');
            });
            throw new Error('b failed');
          },
        },
      ])
      .catch((x: unknown) => x);
    expect(e).toMatchObject({ step: 'b', rollbackErrors: ['cannot undo b'] });
    expect(undone).toEqual(['a']);
  });

  it('CAP-06: a lease keeps the exact generation it pinned while newer ones are published', async () => {
    const { tools, catalog } = staged();
    const lease = catalog.pin('run-1');
    tools.push(tool('late'));
    catalog.markChanged();
    expect(catalog.current.generation).toBe(2);
    expect(lease.generation.generation).toBe(1);
    expect(lease.generation.get('late')).toBeUndefined();
    expect(catalog.leases()).toEqual([{ generation: 1, owner: 'run-1' }]);
    const copy = { ...lease };
    expect(catalog.holds(copy as never)).toBe(false);
    let drained = false;
    const waiting = catalog.whenReleased(1).then(() => {
      drained = true;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    lease.release();
    lease.release();
    await waiting;
    expect(drained).toBe(true);
    expect(catalog.leases()).toEqual([]);
  });

  it('CAP-07: turns and sub-agent tasks share the run generation and may only narrow its permissions', () => {
    const { catalog } = staged();
    const restriction = { name: 'agent:explore', allowedTools: ['read'] };
    const run = CapabilityScope.run(catalog.current, { tiers: ['read', 'write'], restrictions: [restriction] }, 'r1');
    const turn = run.turn(1);
    expect(turn.generation).toBe(run.generation);
    const child = run.subtask('task-1', { tiers: ['read'], restrictions: [restriction, { name: 'subagent' }] });
    expect(child).toMatchObject({ kind: 'subtask', owner: 'task-1', parent: run });
    expect(child.tools).toBe(run.generation);
    expect(() => run.subtask('t2', { tiers: ['read', 'write', 'exec'], restrictions: [restriction] })).toThrow(
      expect.objectContaining({ code: 'CAPABILITY_SCOPE_WIDENED', message: expect.stringContaining('exec') }),
    );
    expect(() => run.subtask('t3', { tiers: ['read'] })).toThrow(/drops the parent's restriction 'agent:explore'/);
    expect(() => run.turn(2, { tiers: ['read'], restrictions: [restriction], yolo: true })).toThrow(/yolo/);
    // A skill replaced by a later one stays as a restriction: still a narrowing; dropping it is not.
    const skill = { name: 'review', allowedTools: ['read'] };
    const skilled = CapabilityScope.run(catalog.current, { skill }, 'r3');
    const replaced = {
      skill: { name: 'fix', allowedTools: ['edit'] },
      restrictions: [{ name: 'skill:review', allowedTools: skill.allowedTools }],
    };
    expect(skilled.subtask('t5', replaced).governance).toBe(replaced);
    expect(() => skilled.subtask('t6', {})).toThrow(/drops the parent's active skill 'review'/);
    const plan = CapabilityScope.run(catalog.current, { mode: 'plan' }, 'r2');
    expect(() => plan.subtask('t4', {})).toThrow(/plan mode/);
  });

  it('CAP-11: a new catalog takes one complete history batch, only once and only before it publishes', () => {
    const { catalog } = staged();
    const recorded = catalog.current.binding();
    const fresh = staged().catalog;
    expect(() => fresh.bootstrap([recorded, { ...recorded, generation: 0 }])).toThrow(
      expect.objectContaining({ code: 'CATALOG_BOOTSTRAP_REFUSED', message: expect.stringContaining('history[1]') }),
    );
    fresh.bootstrap([{ ...recorded, generation: 7 }]);
    expect(() => fresh.bootstrap([])).toThrow(/taken once/);
    // Same content as the latest recorded generation: published under its number.
    expect(fresh.current.generation).toBe(7);
    expect(() => staged().catalog.bootstrap([])).not.toThrow();
    const published = staged();
    void published.catalog.current;
    expect(() => published.catalog.bootstrap([recorded])).toThrow(/already published/);
  });

  it('CAP-12: a published catalog never goes back to an older generation', () => {
    const { catalog } = staged();
    const g1 = catalog.current.binding();
    const changed = staged([tool('read'), tool('grep')]);
    changed.catalog.bootstrap([
      { ...g1, generation: 4, catalog_digest: 'sha256:other' },
      { ...g1, generation: 2 },
    ]);
    // Its content matches no recorded generation; it continues after the latest, 4.
    expect(changed.catalog.current.generation).toBe(5);
    // Back to generation 2's content: still a new, higher number.
    changed.tools.pop();
    changed.catalog.markChanged();
    expect(changed.catalog.current.digest).toBe(g1.catalog_digest);
    expect(changed.catalog.current.generation).toBe(6);
    expect(() => changed.catalog.bootstrap([g1])).toThrow(/never goes back/);
  });
});
