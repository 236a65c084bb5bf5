// `a3s code` and the SDK run on one runtime: the terminal client opens its sessions through the
// SDK's `Agent` and nothing else, and the same script leaves the same fact log through either.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '@a3s-code/sdk';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { ioHarness, until } from './io-harness.js';
import { scriptFile, tempRepo } from './kit.js';

const src = join(import.meta.dirname, '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

type Fact = { type: string; payload: Record<string, unknown> };

/** What differs between any two runs: ids, clocks, and the digest of the capabilities (compared by tool name). */
const VARYING = new Set(['at_ms', 'run_id', 'duration_ms', 'capability_binding']);
const strip = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(strip)
    : typeof v === 'object' && v !== null
      ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (VARYING.has(k) ? [] : [[k, strip(x)]])))
      : v;

/** A log's facts without what varies between runs; run.started keeps only its tools' names. */
function normalised(dir: string, session: string): Fact[] {
  return readFileSync(join(dir, '.a3s', 'effect-log', `${session}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { type, payload } = JSON.parse(l) as Fact;
      const rest = strip(payload) as Record<string, unknown>;
      if (type === 'run.started') rest.tools = (rest.tools as { name: string }[]).map((t) => t.name);
      return { type, payload: rest };
    });
}

const turns = [
  { text: 'Looking.', tool_calls: [{ id: 'r1', name: 'read', args: { file_path: 'src/range.js' } }] },
  { text: 'It stops one short of end.' },
];
const PROMPT = 'why does the test fail?';

describe('one runtime kernel for the SDK and a3s code', () => {
  it('ARCH-01: a3s code opens sessions only through the SDK, and the same script leaves the same fact log through both', async () => {
    // No second execution path: no CLI module builds a core agent or session, or drives a run itself.
    for (const file of sources(src)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@a3s-code\/core'/g)) {
        const names = m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, ''));
        expect(
          names.filter((n) => /^(Agent|AgentSession|ToolInvoker|ToolRegistry)$/.test(n)),
          file,
        ).toEqual([]);
      }
      if (/\bAgent\.create\(|\.session\(|\.resumeSession\(/.test(text))
        expect(text, file).toMatch(/import \{[^}]*\bAgent\b[^}]*\} from '@a3s-code\/sdk'/);
    }

    const viaCli = tempRepo();
    const h = ioHarness(viaCli);
    const exited = main(
      ['code', '--model', `scripted:${scriptFile(turns)}`, '--cwd', viaCli, '--session', 'one'],
      h.io,
    );
    const out = () => h.screen.text;
    await until(() => out().includes('type a prompt'), out);
    h.stdin.write(`${PROMPT}\n`);
    await until(() => /completed[^\n]*\n› $/.test(out()), out);
    h.stdin.write('/exit\n');
    expect(await exited).toBe(0);

    const viaSdk = tempRepo();
    const agent = await Agent.create({ model: `scripted:${scriptFile(turns)}`, env: {} });
    const session = await agent.session(viaSdk, { sessionId: 'one' });
    try {
      expect((await session.send(PROMPT)).text).toBe('It stops one short of end.');
    } finally {
      await session.close();
      await agent.close();
    }

    const cli = normalised(viaCli, 'one');
    const sdk = normalised(viaSdk, 'one');
    expect(cli.map((f) => f.type)).toEqual([
      'run.started',
      'user.message',
      'model.turn',
      'tool.result',
      'model.turn',
      'run.ended',
    ]);
    // The terminal adds tools of its own (dynamic_workflow; ask_user since a person can answer), on the same surface.
    const cliTools = cli[0]!.payload.tools as string[];
    const sdkTools = sdk[0]!.payload.tools as string[];
    expect(cliTools.filter((t) => !sdkTools.includes(t)).sort()).toEqual(['ask_user', 'dynamic_workflow']);
    expect(sdkTools.filter((t) => !cliTools.includes(t))).toEqual([]);
    const withoutTools = (facts: Fact[]) =>
      facts.map((f) => (f.type === 'run.started' ? { ...f, payload: { ...f.payload, tools: undefined } } : f));
    expect(withoutTools(cli)).toEqual(withoutTools(sdk));
  }, 30_000);
});
