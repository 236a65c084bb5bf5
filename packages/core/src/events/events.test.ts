import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { EVENT_CATALOG_V1 } from './event-catalog.js';
import { AgentEventEmitter } from './event-emitter.js';
import { parseEventEnvelopeV1, projectEventV1 } from './event-envelope.js';

const here = dirname(fileURLToPath(import.meta.url));

function compileErrors(files: Record<string, string>): string[] {
  const host = ts.createCompilerHost({ strict: true, noEmit: true });
  const orig = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang) =>
    files[name] !== undefined ? ts.createSourceFile(name, files[name], lang) : orig(name, lang);
  host.fileExists = (name) => files[name] !== undefined || ts.sys.fileExists(name);
  host.readFile = (name) => files[name] ?? ts.sys.readFile(name);
  host.directoryExists = (dir) => dir === '/v' || ts.sys.directoryExists(dir);
  const program = ts.createProgram(
    Object.keys(files),
    {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
      lib: ['lib.es5.d.ts'],
    },
    host,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('events', () => {
  it('EVT-03: adding an event variant without a wire name fails to compile', () => {
    const event = readFileSync(join(here, 'agent-event.ts'), 'utf8').replace(
      /^import type .*$/m,
      'type InvocationSource = string;',
    );
    const catalog = readFileSync(join(here, 'event-catalog.ts'), 'utf8');
    const base = { '/v/agent-event.ts': event, '/v/event-catalog.ts': catalog };
    expect(compileErrors(base).join('\n')).toBe('');
    const added = event.replace(
      'error: { code: string; message: string };',
      'error: { code: string; message: string };\n  toolProgress: { id: string };',
    );
    const errors = compileErrors({ ...base, '/v/agent-event.ts': added });
    expect(errors.join('\n')).toMatch(/toolProgress/);
  });

  it('EVT-06: the runtime events have canonical v1 wire names', () => {
    const names = Object.values(EVENT_CATALOG_V1);
    for (const n of [
      'confirmation_required',
      'user_question',
      'permission_denied',
      'budget_threshold_hit',
      'tool_end',
      'tool_start',
      'text_delta',
    ]) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('EVT-01/02: the emitter wraps events in v1 envelopes with run metadata and a sequence', () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's', clock: () => 42 });
    const env = emitter.emit({
      kind: 'toolEnd',
      payload: {
        id: 'c',
        name: 'read',
        output: 'x',
        exit_code: 0,
        metadata: {},
        error_kind: null,
        source: 'agent',
        duration_ms: 1,
      },
    });
    expect(env).toEqual({
      version: 1,
      type: 'tool_end',
      payload: {
        id: 'c',
        name: 'read',
        output: 'x',
        exit_code: 0,
        metadata: {},
        error_kind: null,
        source: 'agent',
        duration_ms: 1,
      },
      metadata: { run_id: 'r', session_id: 's', sequence: 1, timestamp_ms: 42 },
    });
  });

  it('EVT-05: an unknown future type keeps its full payload and metadata', () => {
    const raw = {
      version: 1,
      type: 'hologram_ready',
      payload: { a: [1, { b: 2 }] },
      metadata: { run_id: 'r', session_id: 's', sequence: 3, timestamp_ms: 9, extra: 'kept' },
    };
    const env = parseEventEnvelopeV1(JSON.parse(JSON.stringify(raw)));
    expect(env).toEqual(raw);
    expect(projectEventV1(env)).toEqual(raw);
    expect(() => parseEventEnvelopeV1({ ...raw, version: 2 })).toThrow(/version: must be 1/);
    expect(() => parseEventEnvelopeV1({ ...raw, metadata: { ...raw.metadata, sequence: 0 } })).toThrow(
      /metadata.sequence/,
    );
  });

  it('EVT-04: one projection adds text, toolName and tool_name', () => {
    const meta = { run_id: 'r', session_id: 's', sequence: 1, timestamp_ms: 1 };
    expect(projectEventV1({ version: 1, type: 'text_delta', payload: { delta: 'he' }, metadata: meta })).toMatchObject({
      text: 'he',
    });
    expect(
      projectEventV1({ version: 1, type: 'tool_start', payload: { id: 'c', name: 'grep' }, metadata: meta }),
    ).toMatchObject({ toolName: 'grep', tool_name: 'grep' });
    expect(
      projectEventV1({ version: 1, type: 'permission_denied', payload: { tool_name: 'bash' }, metadata: meta }),
    ).toMatchObject({ toolName: 'bash', tool_name: 'bash' });
    expect(projectEventV1({ version: 1, type: 'turn_start', payload: { turn: 1 }, metadata: meta })).not.toHaveProperty(
      'text',
    );
  });

  it('EVT: async iteration never loses or reorders events, even for a slow consumer', async () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    const fast = emitter.subscribe();
    const slow = emitter.subscribe();
    const produce = (async () => {
      for (let i = 0; i < 3000; i++) {
        emitter.emit({ kind: 'textDelta', payload: { delta: String(i) } });
        if (i % 100 === 0) await new Promise((r) => setTimeout(r, 0));
      }
      emitter.close();
    })();
    const read = async (
      it: AsyncIterableIterator<{ payload: Record<string, unknown>; metadata: { sequence: number } }>,
      delayEvery: number,
    ) => {
      const seen: number[] = [];
      for await (const e of it) {
        expect(e.metadata.sequence).toBe(seen.length + 1);
        seen.push(Number(e.payload.delta));
        if (seen.length % delayEvery === 0) await new Promise((r) => setTimeout(r, 1));
      }
      return seen;
    };
    const [a, b] = await Promise.all([read(fast, 1_000_000), read(slow, 250), produce]);
    const expected = Array.from({ length: 3000 }, (_, i) => i);
    expect(a).toEqual(expected);
    expect(b).toEqual(expected);
  });

  it('an iterator stopped early unsubscribes; events after close are dropped', async () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    const it = emitter.subscribe();
    emitter.emit({ kind: 'turnStart', payload: { turn: 1 } });
    expect((await it.next()).value?.type).toBe('turn_start');
    await it.return?.();
    expect((await it.next()).done).toBe(true);
    emitter.close();
    expect(emitter.emit({ kind: 'turnStart', payload: { turn: 2 } })).toBeUndefined();
    expect(emitter.sequence).toBe(1);
  });
});
