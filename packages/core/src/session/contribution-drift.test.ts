// Flows and hooks in the capability catalog: each named flow is a contribution digested with its
// whole definition and each hook one digested with what decides what it does, so a run resumed
// after a flow or a hook changed is refused as a drift naming it (and may still be rebound). A run
// recorded before bindings named each contribution is refused with a message saying so.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { effectLogPath, type RunCapabilityBindingV1 } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { RoutingLlmClient } from '../../test/delegation-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { CatalogGeneration } from '../catalog/catalog-generation.js';
import type { CodeConfigHooks } from '../hooks/hook-options.js';
import { createTestToolPack, ScriptedConfirmationManager, type ScriptedTurn } from '../testing/index.js';
import { WORKSPACE_CAPABILITIES } from '../workspace/capabilities.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { WorkflowDefinition } from '../workflow/workflow-definition.js';
import { createDynamicWorkflowPack } from '../workflow/workflow-pack.js';
import { Agent } from './agent.js';
import type { AgentConfig } from './agent.js';

const { sessions } = closeAfterEach();

/** A one-step flow whose program appends `line` to log.txt through bash. */
const triage = (line: string, allowedTools: readonly string[] = ['bash']): WorkflowDefinition => ({
  name: 'triage',
  steps: [
    {
      id: 's1',
      kind: 'program',
      source: `export default async function run(ctx) { await ctx.tool('bash', { command: 'echo ${line} >> log.txt' }); return 1; }`,
      allowedTools,
    },
  ],
});

/** A session of `dir` (id `drift`) whose run asks before `echo`, with `extra` config. */
async function openSession(dir: string, extra: Partial<AgentConfig>, turns: ScriptedTurn[] = [{ text: 'written' }]) {
  const test = createTestToolPack();
  const agent = await Agent.create({
    model: new RoutingLlmClient({ 'write a note': turns }),
    tools: [test.pack],
    workspace: { root: dir, capabilities: new Set(WORKSPACE_CAPABILITIES) } as unknown as WorkspaceServices,
    permissions: { ask: ['echo'], defaultDecision: 'allow' },
    // An answer given in a closed process is asked again on resume: this approver says yes.
    confirmation: new ScriptedConfirmationManager([true, true]),
    parkMode: 'return',
    persistence: 'file',
    ...extra,
    ...(extra.tools ? { tools: [test.pack, ...extra.tools] } : {}),
  });
  const session = await agent.session(dir, { sessionId: 'drift' });
  sessions.push(session);
  return session;
}

/** A closed session of a fresh workspace with one run parked (its confirmation answered). */
async function parkedRun(extra: Partial<AgentConfig>): Promise<{ dir: string; runId: string }> {
  const { dir } = workspace();
  const session = await openSession(dir, extra, [
    { tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'x' } }] },
    { text: 'written' },
  ]);
  const parked = await session.send('write a note');
  expect(parked).toMatchObject({ status: 'parked' });
  await session.confirmToolUse('w1', true);
  await session.close();
  return { dir, runId: parked.runId };
}

/** The generation a fresh in-memory session publishes with `extra` config. */
async function generationOf(extra: Partial<AgentConfig>): Promise<CatalogGeneration> {
  const session = await openSession(workspace().dir, { ...extra, persistence: 'memory' });
  return session.catalog.current;
}

const flows = (definition: WorkflowDefinition) => ({
  tools: [createDynamicWorkflowPack({ flows: { triage: definition } })],
});
const hooks = (h: CodeConfigHooks) => ({ hooks: h });

describe('flows and hooks are digested with what they do', () => {
  it('CAP-01: a named flow is a contribution digested with its definition: steps, sources and allowed tools', async () => {
    const base = await generationOf(flows(triage('v1-s1')));
    const same = await generationOf(flows(structuredClone(triage('v1-s1'))));
    expect(base.contributions.filter((c) => c.kind === 'flow').map((c) => c.name)).toEqual(['triage']);
    expect(same.digest).toBe(base.digest);
    expect(same.contributionDigests['flow:triage']).toBe(base.contributionDigests['flow:triage']);
    const source = await generationOf(flows(triage('v2-s1')));
    const allowed = await generationOf(flows(triage('v1-s1', ['bash', 'read'])));
    const twoSteps = triage('v1-s1');
    const steps = await generationOf(
      flows({ ...twoSteps, steps: [...twoSteps.steps, { id: 's2', kind: 'program', source: 'return 2' }] }),
    );
    const digests = [base, source, allowed, steps].map((g) => g.contributionDigests['flow:triage']);
    expect(new Set(digests).size).toBe(4);
    for (const g of [source, allowed, steps]) {
      expect(g.digest).not.toBe(base.digest);
      expect(g.kindDigests.flow).not.toBe(base.kindDigests.flow);
    }
  });

  it('CAP-01: a command hook is digested with its matcher, command and deadline; an in-process one with its name and version', async () => {
    const base = await generationOf(hooks({ pre: [{ matcher: 'echo', command: 'true' }] }));
    const same = await generationOf(hooks({ pre: [{ matcher: 'echo', command: 'true' }] }));
    expect(same.digest).toBe(base.digest);
    const variants = await Promise.all([
      generationOf(hooks({ pre: [{ matcher: 'echo', command: 'exit 2' }] })),
      generationOf(hooks({ pre: [{ matcher: 'add', command: 'true' }] })),
      generationOf(hooks({ pre: [{ matcher: 'echo', command: 'true', timeoutMs: 5000 }] })),
    ]);
    for (const g of variants)
      expect(g.contributionDigests['hook:pre_tool_use:0']).not.toBe(base.contributionDigests['hook:pre_tool_use:0']);
    expect(new Set(variants.map((g) => g.digest)).size).toBe(3);
    const stop = await generationOf(hooks({ stop: [{ command: 'true' }] }));
    const stop2 = await generationOf(hooks({ stop: [{ command: 'exit 2' }] }));
    expect(stop2.contributionDigests['hook:stop:0']).not.toBe(stop.contributionDigests['hook:stop:0']);
    // In-process: the name and the host's version, not the code (its closure is not digestible).
    const guard = (version?: string) => ({
      name: 'guard',
      ...(version === undefined ? {} : { version }),
      before: () => undefined,
    });
    const plain = await generationOf(hooks({ pre: [guard()] }));
    const again = await generationOf(hooks({ pre: [guard()] }));
    const bumped = await generationOf(hooks({ pre: [guard('2')] }));
    expect(again.digest).toBe(plain.digest);
    expect(bumped.digest).not.toBe(plain.digest);
    expect(plain.contributions.find((c) => c.name === 'pre_tool_use:0')?.descriptor).toEqual({
      type: 'function',
      name: 'guard',
      version: null,
    });
  });
});

describe('resuming after a flow or a hook changed', () => {
  it('CAP-10: a changed flow definition is a drift naming the flow; the same one resumes as bound; rebind accepts it', async () => {
    const { dir, runId } = await parkedRun(flows(triage('v1-s1')));
    const same = await openSession(dir, flows(triage('v1-s1')));
    expect(same.catalog.current.generation).toBe(1);
    await same.close();
    const changed = await openSession(dir, flows(triage('v2-s1')));
    const e = await changed.resumeRun().catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: 'CAPABILITY_DRIFT',
      runId,
      drift: { kinds: ['flow'], contributionsChanged: ['flow:triage'], contributionsRecorded: true },
    });
    expect((e as Error).message).toContain('flows changed: triage');
    expect(await changed.resumeRun(undefined, { rebind: true })).toMatchObject({ status: 'completed', runId });
    expect(changed.store.log.facts.some((f) => f.type === 'run.rebound')).toBe(true);
  });

  it('CAP-10: a hook whose command or matcher changed, or a hook added, is a drift naming the hook', async () => {
    const { dir, runId } = await parkedRun(hooks({ pre: [{ matcher: 'echo', command: 'true' }] }));
    for (const [changedHooks, named] of [
      [{ pre: [{ matcher: 'echo', command: 'exit 2' }] }, 'hooks changed: pre_tool_use:0'],
      [{ pre: [{ matcher: 'add', command: 'true' }] }, 'hooks changed: pre_tool_use:0'],
      [{ pre: [{ matcher: 'echo', command: 'true' }], post: [{ command: 'true' }] }, 'hooks added: post_tool_use:0'],
    ] as const) {
      const s = await openSession(dir, hooks(changedHooks));
      const e = await s.resumeRun().catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'CAPABILITY_DRIFT', runId, drift: { kinds: ['hook'] } });
      expect((e as Error).message).toContain(named);
      await s.close();
    }
    const same = await openSession(dir, hooks({ pre: [{ matcher: 'echo', command: 'true' }] }));
    expect(await same.resumeRun()).toMatchObject({ status: 'completed', runId });
  });
});

describe('a run recorded by an earlier version', () => {
  /** Rewrites the run's `run.started` binding in the log as a version before per-contribution digests wrote it. */
  function writeOldBinding(dir: string, old: (b: RunCapabilityBindingV1) => RunCapabilityBindingV1): void {
    const file = join(dir, effectLogPath('drift'));
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const out = lines.map((line) => {
      const f = JSON.parse(line) as { type: string; payload: { capability_binding?: RunCapabilityBindingV1 } };
      if (f.type !== 'run.started' || f.payload.capability_binding === undefined) return line;
      const { contributions: _, ...rest } = old(f.payload.capability_binding);
      return JSON.stringify({ ...f, payload: { ...f.payload, capability_binding: rest } });
    });
    writeFileSync(file, `${out.join('\n')}\n`);
    // An earlier version wrote no seal beside the log.
    rmSync(`${file}.seal`, { force: true });
  }

  /** The binding the earlier version wrote for `g`: hooks described by name only (events by nothing), no flows. */
  const earlierBinding = (g: CatalogGeneration): RunCapabilityBindingV1 =>
    new CatalogGeneration(g.generation, {
      tools: g.tools(),
      ceiling: g.ceiling,
      contributions: g.contributions
        .filter((c) => c.kind !== 'flow')
        .map((c) => {
          if (c.kind !== 'hook') return c;
          const { descriptor: _, ...rest } = c;
          const d = c.descriptor as { type: string; name: string };
          const tool = /^(pre|post)_tool_use:(\d+)$/.exec(c.name);
          if (tool === null) return rest;
          // A command hook's name was `hooks.pre[0]` / `hooks.post[0]`.
          return { ...rest, descriptor: { name: d.type === 'command' ? `hooks.${tool[1]}[${tool[2]}]` : d.name } };
        }),
    }).binding();

  it('CAP-10: with hooks, its resume is refused saying why (the binding names no contribution); rebind continues it', async () => {
    const config = hooks({ pre: [{ matcher: 'echo', command: 'true' }], stop: [{ command: 'true' }] });
    const { dir, runId } = await parkedRun(config);
    const probe = await openSession(dir, config);
    const old = earlierBinding(probe.catalog.current);
    await probe.close();
    writeOldBinding(dir, () => old);
    const s = await openSession(dir, config);
    const e = await s.resumeRun().catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: 'CAPABILITY_DRIFT',
      drift: { kinds: ['hook'], contributionsRecorded: false, contributionsChanged: [] },
    });
    expect((e as Error).message).toMatch(/changed kinds: hook; the run was recorded by an earlier version/);
    expect((e as Error).message).toContain('resume with { rebind: true }');
    expect(await s.resumeRun(undefined, { rebind: true })).toMatchObject({ status: 'completed', runId });
  });

  it('CAP-10: without hooks or flows its digests are unchanged, so it resumes as bound', async () => {
    const { dir, runId } = await parkedRun({});
    writeOldBinding(dir, (b) => b);
    const s = await openSession(dir, {});
    expect(s.catalog.current.generation).toBe(1);
    expect(await s.resumeRun()).toMatchObject({ status: 'completed', runId });
  });
});
