// `a3s serve`'s `session/open` takes the SDK's vibe settings: bad ones are -32602 naming the field
// (and the allowed tiers or keys); a fast tier's model runs the fast workers. Real child process;
// every line checked against the shipped schema.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { type Envelope, Served } from './serve-kit.js';

const running: Served[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.child.kill('SIGKILL');
});

describe('a3s serve: vibe settings on session/open', () => {
  it('VIBE-08: bad vibe settings name the field; a fast tier model runs the fast worker', async () => {
    const dir = tempRepo();
    const s = new Served(dir);
    running.push(s);
    const model = `scripted:${scriptFile([
      {
        tool_calls: [
          { id: 's1', name: 'vibe_spawn', args: { brief: 'Report.', label: 'reporter', tier: 'fast' } },
          { id: 'w1', name: 'vibe_wait', args: { worker_id: 'worker-1' } },
        ],
      },
      { text: 'The worker reported.' },
    ])}`;
    const bad: [unknown, string, RegExp][] = [
      ['yes', 'params.vibe', /must be true, false or \{ enabled\?, tiers\?, maxWorkers\? \}/],
      [{ colour: 'red' }, 'params.vibe.colour', /unknown field; allowed: enabled, tiers, maxWorkers/],
      [{ tiers: { slow: 'openai/gpt-4o' } }, 'params.vibe.tiers.slow', /unknown field; allowed: the tiers fast, good/],
      [{ tiers: { fast: 'nosuch/x' } }, 'params.vibe.tiers.fast', /unknown provider "nosuch"; allowed: openai/],
      [{ tiers: { good: 'gpt-4o' } }, 'params.vibe.tiers.good', /expected 'provider\/model'/],
      [{ maxWorkers: 0 }, 'params.vibe.maxWorkers', /./],
      [{ enabled: 'on' }, 'params.vibe.enabled', /./],
    ];
    for (const [vibe, field, message] of bad) {
      const r = await s.request('session/open', { workspace: dir, model, vibe });
      expect(r.error, JSON.stringify(vibe)).toMatchObject({ code: -32602, data: { field } });
      expect(r.error?.message, JSON.stringify(vibe)).toContain(`Invalid params: ${field}: `);
      expect(r.error?.message, JSON.stringify(vibe)).toMatch(message);
    }
    const fast = scriptFile([{ text: 'FAST TIER REPORT' }]);
    const opened = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      model,
      vibe: { tiers: { fast: `scripted:${fast}` }, maxWorkers: 2 },
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId: opened.sessionId, prompt: 'go' });
    expect(await s.runResult(runId)).toMatchObject({ status: 'completed' });
    const wait = s.events(runId).find((e: Envelope) => e.type === 'tool_end' && e.payload.id === 'w1');
    expect(String(wait?.payload.output)).toContain('FAST TIER REPORT');
    // Vibe off by the boolean form: the vibe tools are not on the surface.
    const off = await s.call<{ sessionId: string }>('session/open', { workspace: dir, model, vibe: false });
    const tools = await s.call<{ tools: { name: string }[] }>('session/tools', { sessionId: off.sessionId });
    expect(tools.tools.map((t) => t.name)).not.toContain('vibe_spawn');
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  }, 30_000);

  it('VIBE-08: a well-formed tier model that cannot be used names the tier, the model and the reason', async () => {
    const dir = tempRepo();
    const s = new Served(dir, { ANTHROPIC_API_KEY: '' });
    running.push(s);
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const cases: [unknown, string, RegExp][] = [
      [
        { tiers: { good: 'anthropic/claude-sonnet-4-20250514' } },
        'MODEL_CONFIGURATION',
        /vibe\.tiers\.good: cannot use the good tier's model 'anthropic\/claude-sonnet-4-20250514': ANTHROPIC_API_KEY: is not set/,
      ],
      [
        { tiers: { fast: `scripted:${join(dir, 'missing.json')}` } },
        'INVALID_SCRIPT',
        /vibe\.tiers\.fast: cannot use the fast tier's model 'scripted:.*missing\.json': /,
      ],
    ];
    for (const [vibe, code, message] of cases) {
      const r = await s.request('session/open', { workspace: dir, model, vibe });
      expect(r.error, JSON.stringify(vibe)).toMatchObject({ code: -32000, data: { code } });
      expect(r.error?.message).toMatch(message);
    }
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  }, 30_000);

  it("VIBE-08: without vibe on session/open, the workspace config file's vibe applies (its fast tier runs the fast worker)", async () => {
    const dir = tempRepo();
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'fast.json'), JSON.stringify({ turns: [{ text: 'FILE FAST TIER' }] }));
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({ vibe: { tiers: { fast: 'scripted:scripts/fast.json' } } }),
    );
    const s = new Served(dir);
    running.push(s);
    const model = `scripted:${scriptFile([
      { tool_calls: [{ id: 's1', name: 'vibe_spawn', args: { brief: 'Report.', label: 'r', tier: 'fast' } }] },
      { tool_calls: [{ id: 'w1', name: 'vibe_wait', args: { worker_id: 'worker-1' } }] },
      { text: 'Done.' },
    ])}`;
    // A tier's model in the folder's config file is used once the client says the person trusts it.
    const untrusted = await s.request('session/open', { workspace: dir, model });
    expect(untrusted.error?.message).toContain('WORKSPACE_UNTRUSTED');
    const opened = await s.call<{ sessionId: string }>('session/open', { workspace: dir, model, trustWorkspace: true });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId: opened.sessionId, prompt: 'go' });
    expect(await s.runResult(runId)).toMatchObject({ status: 'completed' });
    const wait = s.events(runId).find((e: Envelope) => e.type === 'tool_end' && e.payload.id === 'w1');
    expect(String(wait?.payload.output)).toContain('FILE FAST TIER');
    expect(await s.end()).toBe(0);
  }, 30_000);
});
