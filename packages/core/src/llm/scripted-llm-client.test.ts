import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A3sError } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { collectResponse } from './collect-response.js';
import type { LlmRequest } from './llm-client.js';
import { LlmError } from './llm-error.js';
import { ScriptedLlmClient, ScriptError } from './scripted-llm-client.js';

const req = (text: string): LlmRequest => ({ system: ['sys'], messages: [{ role: 'user', content: text }], tools: [] });

describe('ScriptedLlmClient', () => {
  it('plays text, tool calls, questions and usage in order, and records every request', async () => {
    const client = new ScriptedLlmClient({
      turns: [
        {
          text: "I'll look first.",
          tool_calls: [
            { id: 'c1', name: 'read', args: { file_path: 'README.md' } },
            { name: 'grep', args: { pattern: 'x' } },
          ],
        },
        { question: { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }] } },
        { text: 'Done.', usage: { input_tokens: 120, output_tokens: 8 } },
      ],
    });
    const a = await collectResponse(client.stream(req('one')));
    expect(a.text).toBe("I'll look first.");
    expect(a.toolCalls).toEqual([
      { id: 'c1', name: 'read', args: { file_path: 'README.md' } },
      { id: 'call_1_2', name: 'grep', args: { pattern: 'x' } },
    ]);
    expect(a.finishReason).toBe('tool_calls');
    const b = await collectResponse(client.stream(req('two')));
    expect(b.toolCalls[0]).toMatchObject({
      name: 'ask_user',
      args: { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }] },
    });
    const c = await collectResponse(client.stream(req('three')));
    expect(c).toMatchObject({ text: 'Done.', usage: { inputTokens: 120, outputTokens: 8 }, finishReason: 'stop' });
    expect(client.requests.map((r) => r.messages[0]?.content)).toEqual(['one', 'two', 'three']);
    expect(client.remaining).toBe(0);
  });

  it('streams text as several deltas', async () => {
    const client = new ScriptedLlmClient([{ text: 'one two three' }]);
    const deltas: string[] = [];
    for await (const ev of client.stream(req('x'))) if (ev.type === 'text_delta') deltas.push(ev.delta);
    expect(deltas).toEqual(['one ', 'two ', 'three']);
  });

  it('raises scripted provider errors as typed LlmErrors', async () => {
    const client = new ScriptedLlmClient([
      { error: { kind: 'rate_limited', retry_after_ms: 20 } },
      { error: { kind: 'status', status: 503 } },
    ]);
    const e = await collectResponse(client.stream(req('x'))).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect(e).toMatchObject({ code: 'LLM_RATE_LIMITED', kind: 'rate_limited', retryAfterMs: 20, retryable: true });
    const s = await collectResponse(client.stream(req('x'))).catch((x: unknown) => x);
    expect(s).toMatchObject({ code: 'LLM_STATUS', status: 503, retryable: true });
  });

  it('fails with SCRIPT_EXHAUSTED naming the turn when the script runs out', async () => {
    const client = new ScriptedLlmClient([{ text: 'only' }]);
    await collectResponse(client.stream(req('1')));
    const e = await collectResponse(client.stream(req('2'))).catch((x: unknown) => x);
    expect(A3sError.hasCode(e, 'SCRIPT_EXHAUSTED')).toBe(true);
    expect((e as Error).message).toMatch(/called for turn 2, but the script has only 1 turn/);
  });

  it('honours delay_ms and aborts a delayed turn through the request signal', async () => {
    const client = new ScriptedLlmClient([{ delay_ms: 5_000, text: 'late' }]);
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 20);
    const e = await collectResponse(client.stream({ ...req('x'), signal: ac.signal })).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'CANCELLED', kind: 'cancelled' });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('rejects a malformed script naming the field, and loads scripts from files', async () => {
    expect(() => new ScriptedLlmClient({ turns: [{ text: 'a' }, { tool_calls: [{ name: '' }] }] } as never)).toThrow(
      /turns\[1\]\.tool_calls\[0\]\.name/,
    );
    expect(() => new ScriptedLlmClient({ turns: [{ txt: 'a' }] } as never)).toThrow(ScriptError);
    const dir = mkdtempSync(join(tmpdir(), 'a3s-script-'));
    writeFileSync(join(dir, 's.json'), JSON.stringify({ turns: [{ text: 'from file' }] }));
    const client = await ScriptedLlmClient.fromFile(join(dir, 's.json'));
    expect((await collectResponse(client.stream(req('x')))).text).toBe('from file');
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    await expect(ScriptedLlmClient.fromFile(join(dir, 'bad.json'))).rejects.toThrow(/is not valid JSON/);
    await expect(ScriptedLlmClient.fromFile(join(dir, 'missing.json'))).rejects.toThrow(/no such script file/);
  });

  it('a script file that is missing, a folder or not JSON says so in plain words, with the line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-script-'));
    const missing = join(dir, 'missing.json');
    await expect(ScriptedLlmClient.fromFile(missing)).rejects.toMatchObject({
      code: 'INVALID_SCRIPT',
      message: `no such script file '${missing}'; allowed: a JSON script file ({ "turns": [...] })`,
    });
    await expect(ScriptedLlmClient.fromFile(dir)).rejects.toThrow(`script file '${dir}' is a folder; allowed: a JSON`);
    writeFileSync(join(dir, 'cut.json'), '{ "turns": [\n  { "text": "a" },\n');
    await expect(ScriptedLlmClient.fromFile(join(dir, 'cut.json'))).rejects.toThrow(
      new RegExp(`is not valid JSON \\(${join(dir, 'cut.json')}:3:1\\)`),
    );
  });

  it('an unknown key in a script names its path, the keys allowed there and the spelling meant', () => {
    const e = (() => {
      try {
        new ScriptedLlmClient({ turns: [{ text: 'a' }, { toolCalls: [] }] } as never);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toMatchObject({ code: 'INVALID_SCRIPT', details: { field: '.turns[1].toolCalls' } });
    expect((e as Error).message).toBe(
      "script: turns[1].toolCalls: is not a known key; allowed keys: text, reasoning, tool_calls, question, error, delay_ms, usage, finish (did you mean 'tool_calls'?)",
    );
    expect(() => new ScriptedLlmClient({ turns: [{ tool_calls: [{ name: 'read', input: {} }] }] } as never)).toThrow(
      /turns\[0\]\.tool_calls\[0\]\.input: is not a known key; allowed keys: id, name, args$/,
    );
  });

  it('a misspelt top-level key is named before the key it stands for, which is then missing', () => {
    expect(() => new ScriptedLlmClient({ turn: [{ text: 'a' }] } as never)).toThrow(
      "script: turn: is not a known key; allowed keys: model, turns (did you mean 'turns'?)",
    );
    expect(() => new ScriptedLlmClient({ turns: [{ txt: 'a' }] } as never)).toThrow(/did you mean 'text'\?\)$/);
  });

  it('a script that is a FIFO or a device is refused at once, naming it, never read (it would block or never end)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-script-'));
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    await expect(ScriptedLlmClient.fromFile(join(dir, 'pipe.json'))).rejects.toMatchObject({
      code: 'INVALID_SCRIPT',
      message: `script file '${join(dir, 'pipe.json')}' is not a regular file (a FIFO, device or socket); allowed: a JSON file ({ "turns": [...] })`,
    });
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    await expect(ScriptedLlmClient.fromFile(join(dir, 'zero.json'))).rejects.toThrow(/is not a regular file/);
  });
});

describe('ScriptedLlmClient keepRequests', () => {
  it('keeps only the latest requests it is told to (none for a script played as a model)', async () => {
    const drain = async (c: ScriptedLlmClient, text: string) => collectResponse(c.stream(req(text)));
    const two = new ScriptedLlmClient([{ text: 'a' }, { text: 'b' }, { text: 'c' }], { keepRequests: 2 });
    for (const t of ['1', '2', '3']) await drain(two, t);
    expect(two.requests.map((r) => r.messages[0]!.content)).toEqual(['2', '3']);
    expect(two.requestForks).toHaveLength(2);
    const none = new ScriptedLlmClient([{ text: 'a' }], { keepRequests: 0 });
    await drain(none, '1');
    expect(none.requests).toEqual([]);
    expect(none.remaining).toBe(0);
  });
});
