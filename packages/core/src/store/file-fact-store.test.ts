import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A3sError, advance, createHarness, drafts, encodeFact, FactParseError, parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { FileFactStore, FactStoreError } from './file-fact-store.js';
import { FactLogLockedError } from './thread-lock.js';

const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
const user = (key: string, text = 'hi') => ({ type: 'user.message', key, payload: { text, source: 'user' } });
const open: FileFactStore[] = [];
const track = async (p: Promise<FileFactStore>) => {
  const s = await p;
  open.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-store-'));

describe('FileFactStore', () => {
  it('LOG-05: stores a session log at <workspace>/.a3s/effect-log/<thread>.jsonl and reloads it', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, 'sess-1');
    expect(store.path).toBe(join(ws, '.a3s', 'effect-log', 'sess-1.jsonl'));
    await store.append([user('u1'), user('u2')], null);
    await store.close();
    const text = readFileSync(join(ws, '.a3s/effect-log/sess-1.jsonl'), 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    const again = await track(FileFactStore.open(ws, 'sess-1'));
    expect(again.log.facts.map((f) => f.key)).toEqual(['u1', 'u2']);
    expect(again.opened).toEqual({ facts: 2, truncated: null, truncatedBytes: 0 });
  });

  it('reloads a log of several MiB with multi-byte text exactly as written, and an empty one as empty', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, 'big');
    const texts = Array.from({ length: 3000 }, (_, i) => `${i} ключ 🙂 ${'é'.repeat(i % 700)} ${'x'.repeat(900)}`);
    for (let i = 0; i < texts.length; i += 500)
      await store.append(
        texts.slice(i, i + 500).map((t, j) => user(`u${i + j}`, t)),
        null,
      );
    await store.close();
    expect(readFileSync(store.path).length).toBeGreaterThan(4 * 1024 * 1024);
    const again = await track(FileFactStore.open(ws, 'big'));
    expect(again.log.facts.map((f) => (f.payload as { text: string }).text)).toEqual(texts);
    expect((await track(FileFactStore.open(ws, 'empty'))).log.facts).toEqual([]);
  });

  it('LOG-09: an unsafe session id cannot escape the effect-log folder', async () => {
    const ws = tmp();
    const store = await track(FileFactStore.open(ws, '../../etc/passwd'));
    expect(store.path.startsWith(`${join(ws, '.a3s', 'effect-log')}/`)).toBe(true);
    expect(store.path).toMatch(/s-[0-9a-f]{64}\.jsonl$/);
  });

  it('truncates a torn last line on open and keeps every complete fact (no fact is lost)', async () => {
    const ws = tmp();
    const s = await FileFactStore.open(ws, 't');
    await s.append([user('u1', 'héllo ✓'), user('u2')], null);
    await s.close();
    const path = join(ws, '.a3s/effect-log/t.jsonl');
    const torn = encodeFact({
      seq: 3,
      type: 'user.message',
      key: 'u3',
      cause: null,
      payload: { text: 'ü', source: 'user' },
    }).slice(0, 30);
    appendFileSync(path, torn);
    const before = readFileSync(path);
    const store = await track(FileFactStore.open(ws, 't'));
    expect(store.log.length).toBe(2);
    expect(store.opened.truncated?.line).toBe(3);
    expect(store.opened.truncatedBytes).toBe(Buffer.byteLength(torn));
    expect(readFileSync(path).length).toBe(before.length - Buffer.byteLength(torn));
    await store.append([user('u3')], null);
    expect(parseLog(readFileSync(path, 'utf8')).facts.map((f) => f.key)).toEqual(['u1', 'u2', 'u3']);
  });

  it('blank lines after the last fact (an editor saved them) are cut off on open; a blank line between facts is still refused', async () => {
    const ws = tmp();
    const s = await FileFactStore.open(ws, 'b');
    await s.append([user('u1'), user('u2')], null);
    await s.close();
    const path = join(ws, '.a3s/effect-log/b.jsonl');
    const clean = readFileSync(path, 'utf8');
    appendFileSync(path, '\n  \n\t\n');
    expect(parseLog(readFileSync(path, 'utf8'))).toMatchObject({
      torn: { line: 3, reason: 'fact log line 3: only blank lines follow the last fact', validLength: clean.length },
    });
    const store = await track(FileFactStore.open(ws, 'b'));
    expect(store.log.length).toBe(2);
    expect(store.opened).toMatchObject({ truncated: { line: 3 }, truncatedBytes: 6 });
    expect(readFileSync(path, 'utf8')).toBe(clean);
    await store.append([user('u3')], null);
    expect(parseLog(readFileSync(path, 'utf8')).facts.map((f) => f.key)).toEqual(['u1', 'u2', 'u3']);
    const [first, ...rest] = readFileSync(path, 'utf8').split('\n');
    expect(() => parseLog([first, '', ...rest].join('\n'))).toThrow('fact log line 2: json: empty line inside the log');
  });

  it('completes a last fact that lost only its newline', async () => {
    const ws = tmp();
    const path = join(ws, '.a3s/effect-log/n.jsonl');
    mkdirSync(join(ws, '.a3s/effect-log'), { recursive: true });
    writeFileSync(
      path,
      encodeFact({ seq: 1, type: 'user.message', key: 'u1', cause: null, payload: { text: 'a', source: 'user' } }),
    );
    const store = await track(FileFactStore.open(ws, 'n'));
    await store.append([user('u2')], null);
    expect(parseLog(readFileSync(path, 'utf8')).facts).toHaveLength(2);
  });

  it('refuses a corrupt complete line with its file and line number, changes nothing, and releases the lock', async () => {
    const ws = tmp();
    const path = join(ws, '.a3s/effect-log/c.jsonl');
    mkdirSync(join(ws, '.a3s/effect-log'), { recursive: true });
    const good = encodeFact({
      seq: 1,
      type: 'user.message',
      key: 'u1',
      cause: null,
      payload: { text: 'a', source: 'user' },
    });
    writeFileSync(path, `${good}\n{garbage}\n${good.replace('"seq":1', '"seq":3')}\n`);
    const before = readFileSync(path, 'utf8');
    const e = await FileFactStore.open(ws, 'c').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FactParseError);
    expect(e).toMatchObject({ code: 'FACT_PARSE', line: 2, field: 'json', file: path });
    expect((e as Error).message).toContain(`fact log '${path}' line 2: json: not valid JSON`);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a log an editor saved with CR-only or CRLF line endings is refused by line, never cut to nothing as a torn write', async () => {
    const ws = tmp();
    const path = join(ws, '.a3s/effect-log/cr.jsonl');
    const store = await FileFactStore.open(ws, 'cr');
    await store.append([user('u1'), user('u2')], null);
    await store.close();
    const lf = readFileSync(path, 'utf8');
    for (const [ending, field] of [
      ['\r', 'json'],
      ['\r\n', 'line'],
    ] as const) {
      writeFileSync(path, lf.replaceAll('\n', ending));
      const before = readFileSync(path);
      const e = await FileFactStore.open(ws, 'cr').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(FactParseError);
      expect(e).toMatchObject({ code: 'FACT_PARSE', line: 1, field, file: path });
      expect(readFileSync(path)).toEqual(before);
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
    writeFileSync(path, lf);
    expect((await track(FileFactStore.open(ws, 'cr'))).log.length).toBe(2);
  });

  it('a second writer of the same thread gets FACT_LOG_LOCKED; after close it can open', async () => {
    const ws = tmp();
    const a = await FileFactStore.open(ws, 'l');
    const e = await FileFactStore.open(ws, 'l').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FactLogLockedError);
    expect(A3sError.hasCode(e, 'FACT_LOG_LOCKED')).toBe(true);
    expect((e as Error).message).toContain(`process ${process.pid}`);
    // The message names the log, the file a person knows, not its lock file.
    const log = join(ws, '.a3s', 'effect-log', 'l.jsonl');
    expect((e as Error).message).toContain(`fact log '${log}' is open for writing`);
    expect((e as Error).message).not.toContain('.lock');
    await a.close();
    await track(FileFactStore.open(ws, 'l'));
  });

  it('locks across processes, and takes over the lock of a process killed with SIGKILL', async () => {
    const ws = tmp();
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { FileFactStore } from ${JSON.stringify(dist)}; await FileFactStore.open(process.argv[1], 'x'); console.log('locked'); setInterval(() => {}, 1000);`,
        ws,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    const e = await FileFactStore.open(ws, 'x').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FactLogLockedError);
    expect((e as Error).message).toContain(`process ${child.pid}`);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const store = await track(FileFactStore.open(ws, 'x'));
    await store.append([user('after')], null);
    expect(store.log.length).toBe(1);
  });

  it('serialises concurrent appends in call order', async () => {
    const store = await track(FileFactStore.open(tmp(), 'c'));
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.append([user(`u${i}`)], null)));
    const disk = parseLog(readFileSync(store.path, 'utf8')).facts;
    expect(disk.map((f) => f.key)).toEqual(Array.from({ length: 50 }, (_, i) => `u${i}`));
  });

  it('persists every transition of advance through flush, so the file always equals the log', async () => {
    const store = await track(FileFactStore.open(tmp(), 'adv'));
    await store.append([user('u1')], null);
    let checks = 0;
    await advance({
      log: store.log,
      harness: createHarness(),
      execute: async (t) => {
        // Before each transition runs, the previous one is already on disk.
        expect(parseLog(readFileSync(store.path, 'utf8')).facts).toHaveLength(store.log.length);
        checks++;
        if (t.kind === 'infer' && t.cycle === 0) {
          return [
            drafts.modelTurn(t.turn, t.cycle, {
              decision: { kind: 'tool', calls: [{ id: 'c', name: 'read', args: {}, needs_confirmation: false }] },
              usage: { input_tokens: 1, output_tokens: 1 },
            }),
          ];
        }
        if (t.kind === 'tool') return [drafts.toolResult(t.pending, { ok: true, output: 'x', exit_code: 0 })];
        return [
          drafts.modelTurn(1, 1, {
            decision: { kind: 'text', text: 'done' },
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        ];
      },
      onAppend: () => store.flush(),
    });
    expect(checks).toBe(3);
    expect(readFileSync(store.path, 'utf8')).toBe(store.log.facts.map((f) => `${encodeFact(f)}\n`).join(''));
  });

  it('a failed write refuses further appends with FACT_STORE until reopened', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, 'w');
    await (store as unknown as { fh: { close(): Promise<void> } }).fh.close();
    await expect(store.append([user('u1')], null)).rejects.toBeInstanceOf(FactStoreError);
    await expect(store.append([user('u2')], null)).rejects.toThrow(/an earlier write failed/);
    await store.close();
    const again = await track(FileFactStore.open(ws, 'w'));
    expect(again.log.length).toBe(0);
  });
});
