// The `vibe` key of a3s.config.json through the CLI, in-process through `main(argv, io)` with
// scripted models: a bad setting is a configuration error (exit 2) naming the key, the file, line
// and column; the file's fast tier model (a `scripted:` path relative to the file) is the one a vibe
// worker runs on; `--vibe-tier` replaces only its tier and `--vibe` turns on what the file left off.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseEventEnvelopeV1 } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness } from './io-harness.js';
import { runMain, scriptFile, tempRepo } from './kit.js';

const VIBE_TOOLS = ['vibe_spawn', 'vibe_send', 'vibe_wait', 'vibe_kill', 'vibe_list'];

/** A repository whose a3s.config.json holds `config`, with tier scripts under `scripts/`. */
function repoWith(config: unknown, scripts: Record<string, string> = {}): string {
  const dir = tempRepo();
  mkdirSync(join(dir, 'scripts'));
  for (const [name, text] of Object.entries(scripts))
    writeFileSync(join(dir, 'scripts', name), JSON.stringify({ turns: [{ text }] }));
  writeFileSync(join(dir, 'a3s.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

/** The lead spawns one worker per tier and waits for both in one turn, then ends. */
const lead = (tiers: readonly string[]) =>
  `scripted:${scriptFile([
    {
      tool_calls: tiers.flatMap((tier, i) => [
        { id: `s${i}`, name: 'vibe_spawn', args: { brief: 'Report.', label: `${tier} reporter`, tier } },
      ]),
    },
    { tool_calls: tiers.map((_, i) => ({ id: `w${i}`, name: 'vibe_wait', args: { worker_id: `worker-${i + 1}` } })) },
    { text: 'The workers reported.' },
  ])}`;

/** The output of each `vibe_wait` of a `--json` run, by call id. */
function waits(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.trim().split('\n')) {
    const e = parseEventEnvelopeV1(JSON.parse(line));
    if (e.type === 'tool_end' && String(e.payload.id).startsWith('w'))
      out[String(e.payload.id)] = String(e.payload.output);
  }
  return out;
}

describe('vibe in a3s.config.json', () => {
  it('BUILD-08: a bad vibe setting is a configuration error (exit 2) naming the key, the file, line and column', async () => {
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const cases: [unknown, string][] = [
      [{ tiers: { slow: 'openai/gpt-4o' } }, 'vibe.tiers.slow: is not a known key; allowed tiers: fast, good (in '],
      [{ tiers: { fast: 'gpt-4o-mini' } }, "vibe.tiers.fast: expected 'provider/model' with provider one of openai"],
      [{ tiers: { good: 'nosuch/x' } }, 'vibe.tiers.good: unknown provider "nosuch"; allowed: openai'],
      [{ maxWorkers: 0 }, 'vibe.maxWorkers: must be an integer from 1 to 32'],
      [{ maxWorkers: 64 }, 'vibe.maxWorkers: must be an integer from 1 to 32'],
      [{ maxWorkers: '4' }, 'vibe.maxWorkers: must be an integer from 1 to 32'],
      [{ tier: 'fast' }, 'vibe.tier: is not a known key; allowed keys: enabled, tiers, maxWorkers (in '],
      [{ enabled: 'yes' }, 'vibe.enabled: must be true or false (in '],
      ['on', 'vibe: must be true, false or { enabled?, tiers?: { fast?, good? }, maxWorkers? } (in '],
    ];
    for (const [vibe, message] of cases) {
      const dir = repoWith({ vibe });
      // The value (the key, when the key is unknown) in the pretty-printed file.
      const at =
        typeof vibe === 'string'
          ? ':2:11)'
          : 'maxWorkers' in (vibe as object)
            ? ':3:19)'
            : 'tier' in (vibe as object)
              ? ':3:5)'
              : 'enabled' in (vibe as object)
                ? ':3:16)'
                : message.includes('slow')
                  ? ':4:7)'
                  : ':4:15)';
      for (const args of [['run', '--model', model, 'go'], ['tools'], ['run', '--vibe', '--model', model, 'go']]) {
        const r = await runMain([...args, '--cwd', dir]);
        expect(r.status, `${JSON.stringify(vibe)} ${args[0]}`).toBe(2);
        expect(r.stderr).toContain(message);
        expect(r.stderr).toContain(`${join(dir, 'a3s.config.json')}${at}`);
        expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
      }
    }
  });

  it("VIBE-08: the file's fast tier model (scripted:, relative to the file) runs the fast worker; vibe mode starts on", async () => {
    const dir = repoWith(
      { vibe: { tiers: { fast: 'scripted:scripts/fast.json' } } },
      { 'fast.json': 'FILE FAST TIER' },
    );
    // A tier's model in a folder's config file is used once the folder is trusted.
    const r = await runMain(['run', '--json', '--trust-workspace', '--model', lead(['fast']), '--cwd', dir, 'go'], {
      cwd: tmpdirOf(dir),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(waits(r.stdout).w0).toContain('FILE FAST TIER');
  });

  it('VIBE-08: --vibe-tier replaces only its tier; the file keeps the other; --vibe turns on what the file left off', async () => {
    const dir = repoWith(
      { vibe: { enabled: false, tiers: { fast: 'scripted:scripts/fast.json', good: 'scripted:scripts/good.json' } } },
      { 'fast.json': 'FILE FAST TIER', 'good.json': 'FILE GOOD TIER' },
    );
    const flagFast = scriptFile([{ text: 'FLAG FAST TIER' }]);
    const r = await runMain([
      'run',
      '--json',
      '--vibe',
      '--trust-workspace',
      '--model',
      lead(['fast', 'good']),
      '--vibe-tier',
      `fast=scripted:${flagFast}`,
      '--cwd',
      dir,
      'go',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = waits(r.stdout);
    expect(out.w0).toContain('FLAG FAST TIER');
    expect(out.w1).toContain('FILE GOOD TIER');
  });

  it('VIBE-01: an object without "enabled" turns vibe mode on, as the shipped schema documents, and the run says so', async () => {
    const schema = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('@a3s-code/core/config.schema.json'), 'utf8'),
    ) as { properties: { vibe: { anyOf: { type?: string; properties?: { enabled?: { description?: string } } }[] } } };
    const enabled = schema.properties.vibe.anyOf.find((s) => s.type === 'object')?.properties?.enabled;
    expect(enabled?.description).toMatch(/^Vibe mode at the start\. Default true: the object alone turns vibe mode on/);
    const model = `scripted:${scriptFile([{ text: 'Done.' }])}`;
    const note = (dir: string) =>
      `vibe mode on (from "vibe" in ${join(dir, 'a3s.config.json')}; "enabled": false keeps`;
    const settings = repoWith({ vibe: { maxWorkers: 2 } });
    const on = await runMain(['run', '--model', model, '--cwd', settings, 'go']);
    expect(on.status, on.stderr).toBe(0);
    // A note to the person: on stderr, so stdout keeps only the run's output.
    expect(on.stderr.startsWith(note(settings)), on.stderr).toBe(true);
    expect(on.stdout).not.toContain('vibe mode on');
    const code = ioHarness(settings);
    code.stdin.end();
    expect(await main(['code', '--model', model], code.io)).toBe(0);
    expect(code.stderr.text).toMatch(/^a3s code [^\n]*\ntype a prompt[^\n]*\nvibe mode on \(from "vibe" in /);
    // --json stays JSON lines (the note on stderr); --vibe, `enabled: false` and no vibe key print nothing about it.
    const json = await runMain(['run', '--json', '--model', model, '--cwd', settings, 'go']);
    for (const line of json.stdout.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
    expect(json.stderr.startsWith(note(settings)), json.stderr).toBe(true);
    for (const [config, args] of [
      [{ vibe: { enabled: false, maxWorkers: 2 } }, []],
      [{ vibe: { maxWorkers: 2 } }, ['--vibe']],
      [{}, []],
    ] as const) {
      const r = await runMain(['run', ...args, '--model', model, '--cwd', repoWith(config), 'go']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain('vibe mode on');
    }
  });

  it('VIBE-01: the vibe tools follow the file (true: on; enabled false: off) unless --vibe says on', async () => {
    const listed = async (config: unknown, args: string[] = []) => {
      const r = await runMain(['tools', '--json', '--cwd', repoWith(config), ...args]);
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { name: string }[]).map((t) => t.name);
    };
    expect(await listed({ vibe: true })).toEqual(expect.arrayContaining(VIBE_TOOLS));
    expect(await listed({ vibe: { maxWorkers: 2 } })).toEqual(expect.arrayContaining(VIBE_TOOLS));
    expect(await listed({ vibe: { enabled: false } })).not.toContain('vibe_spawn');
    expect(await listed({ vibe: false })).not.toContain('vibe_spawn');
    expect(await listed({})).not.toContain('vibe_spawn');
    expect(await listed({ vibe: { enabled: false } }, ['--vibe'])).toEqual(expect.arrayContaining(VIBE_TOOLS));
  });
});

/** A folder other than the repository, to start the CLI in (relative paths must follow the file, not the start). */
function tmpdirOf(dir: string): string {
  return join(dir, '..');
}
