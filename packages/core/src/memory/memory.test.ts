// The memory store: files under .a3s/memory written atomically, the remember/recall tools on a
// real session, across sessions, and a writer killed with SIGKILL mid-write.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { child, random } from '../../test/crash-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { createTestToolPack, ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { Agent } from '../session/agent.js';
import { FileMemoryStore, MEMORY_FOLDER } from './file-memory-store.js';
import { InMemoryMemoryStore } from './in-memory-memory-store.js';

const { sessions } = closeAfterEach();
const call = (name: string, args: Record<string, unknown>, id = name) => ({ id, name, args });

async function session(dir: string, turns: ScriptedTurn[], options: Record<string, unknown> = {}) {
  const ws = workspace();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [createTestToolPack().pack],
    workspace: { ...ws.services, root: dir } as typeof ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const s = await agent.session(dir, options);
  sessions.push(s);
  return { s, model };
}

const toolOutput = (s: { store: { log: { facts: readonly { type: string; payload: unknown }[] } } }, id: string) =>
  s.store.log.facts.find(
    (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === id,
  )!.payload as { ok: boolean; output: string };

describe('memory store', () => {
  it('the file store keeps one whole JSON file per memory; a key replaces; recall ranks by matching words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-memory-'));
    let now = 1_000;
    const store = await FileMemoryStore.open(dir, () => (now += 10));
    expect(existsSync(join(dir, '.a3s', '.gitignore'))).toBe(true);
    const a = await store.remember({ content: 'The build uses pnpm and turbo.', tags: ['build'] });
    await store.remember({ content: 'Tests run with vitest; never the whole suite.', tags: ['test'] });
    const keyed = await store.remember({ content: 'Deploy on Fridays.', key: 'deploy-day' });
    const replaced = await store.remember({ content: 'Never deploy on Fridays.', key: 'deploy-day', tags: ['ops'] });
    expect(replaced).toMatchObject({ id: keyed.id, createdAtMs: keyed.createdAtMs });
    expect(replaced.updatedAtMs).toBeGreaterThan(keyed.updatedAtMs);
    const files = readdirSync(store.folder).sort();
    expect(files).toHaveLength(3);
    for (const f of files)
      expect(JSON.parse(readFileSync(join(store.folder, f), 'utf8'))).toMatchObject({ version: 1 });
    expect((await store.recall({ query: 'pnpm build' })).map((r) => r.id)).toEqual([a.id]);
    expect((await store.recall({ query: 'never' })).map((r) => r.content)).toEqual([
      'Never deploy on Fridays.',
      'Tests run with vitest; never the whole suite.',
    ]);
    expect((await store.recall({ tags: ['ops'] })).map((r) => r.content)).toEqual(['Never deploy on Fridays.']);
    expect((await store.recall({ limit: 1 })).map((r) => r.id)).toEqual([keyed.id]);
    expect(await store.forget(a.id)).toBe(true);
    expect(await store.forget(a.id)).toBe(false);
    expect(await store.forget('../escape')).toBe(false);
    await expect(store.remember({ content: '' })).rejects.toMatchObject({
      code: 'INVALID_MEMORY_INPUT',
      message: expect.stringContaining('content'),
    });
    await expect(store.recall({ limit: 51 })).rejects.toThrow(/limit: must be an integer from 1 to 50/);
    // A torn file (not a whole memory) is skipped, not fatal.
    writeFileSync(join(store.folder, 'm-torn.json'), '{"version":1,"id":"m-to');
    expect(await store.recall({})).toHaveLength(2);
  });

  it('EXT-01: remember in one session, recall in a later one, through the tools the model calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-memory-'));
    const first = await session(dir, [
      { tool_calls: [call('remember', { content: 'The user prefers tabs over spaces.', tags: ['style'] }, 'r1')] },
      { text: 'Noted.' },
    ]);
    expect(first.s.config.memory).toBeInstanceOf(FileMemoryStore);
    expect(first.s.toolNames()).toEqual(expect.arrayContaining(['remember', 'recall']));
    expect(await first.s.send('remember my style')).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(toolOutput(first.s, 'r1')).toMatchObject({ ok: true });
    await first.s.close();
    expect(readdirSync(join(dir, MEMORY_FOLDER))).toHaveLength(1);

    const second = await session(dir, [
      { tool_calls: [call('recall', { query: 'tabs or spaces' }, 'c1')] },
      { text: 'You prefer tabs.' },
    ]);
    expect(await second.s.send('what do I prefer?')).toMatchObject({ text: 'You prefer tabs.' });
    const recalled = JSON.parse(toolOutput(second.s, 'c1').output) as { memories: { content: string }[] };
    expect(recalled.memories.map((m) => m.content)).toEqual(['The user prefers tabs over spaces.']);
    expect(second.model.requests[0]!.tools.find((t) => t.name === 'remember')).toBeDefined();
  });

  it('BUILD-06/BUILD-07/BUILD-09/BUILD-11: the file store opens only in the async build, a failure names it, a host store builds synchronously', async () => {
    const ws = workspace();
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), workspace: ws.services });
    expect(() => agent.sessionSync(ws.dir, { persistence: 'memory', memory: 'file' })).toThrow(
      expect.objectContaining({ code: 'ASYNC_SESSION_BUILD_REQUIRED', resource: 'memory' }),
    );
    const none = agent.sessionSync(ws.dir, { persistence: 'memory' });
    sessions.push(none);
    expect(none.toolNames()).not.toContain('remember');
    const own = new InMemoryMemoryStore();
    const sync = agent.sessionSync(ws.dir, { persistence: 'memory', memory: own });
    sessions.push(sync);
    expect(sync.config.memory).toBe(own);
    expect((await sync.tool('remember', { content: 'kept in memory' })).ok).toBe(true);
    expect((await own.recall({ query: 'kept' })).map((r) => r.content)).toEqual(['kept in memory']);
    const off = await agent.session(ws.dir, { memory: false });
    sessions.push(off);
    expect(off.toolNames()).not.toContain('recall');
    const blocked = mkdtempSync(join(tmpdir(), 'a3s-memory-'));
    mkdirSync(join(blocked, '.a3s'));
    writeFileSync(join(blocked, '.a3s', 'memory'), 'a file where the folder should be');
    await expect(agent.session(blocked)).rejects.toMatchObject({
      code: 'SESSION_INITIALIZATION',
      resource: 'memory',
      message: expect.stringContaining('cannot open the memory store'),
    });
    expect(() => agent.sessionSync(ws.dir, { persistence: 'memory', memory: {} as never })).toThrow(
      expect.objectContaining({ code: 'SESSION_CONFIGURATION', field: 'memory' }),
    );
  });

  it('EXT-01: the security provider and the queue configuration given in session options govern tool calls', async () => {
    const ws = workspace();
    const test = createTestToolPack();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      tools: [test.pack],
      workspace: ws.services,
      persistence: 'memory',
    });
    const s = agent.sessionSync(ws.dir, {
      security: { sanitizeOutput: (out: string) => out.replaceAll('secret', '[hidden]') },
      queue: { maxParallelism: 1, defaultTimeoutMs: 150 },
    });
    sessions.push(s);
    expect((await s.tool('echo', { text: 'the secret word' })).output).toBe('the [hidden] word');
    const calls = await Promise.all([
      s.tool('sleep', { ms: 40 }),
      s.tool('sleep', { ms: 40 }),
      s.tool('sleep', { ms: 40 }),
    ]);
    expect(calls.every((c) => c.ok)).toBe(true);
    expect(test.state.maxRunning).toBe(1);
    expect(await s.tool('sleep', { ms: 2_000 })).toMatchObject({ ok: false, errorKind: 'timeout' });
    expect(() => agent.sessionSync(ws.dir, { queue: { maxDepth: 0 } })).toThrow(
      expect.objectContaining({ code: 'SESSION_CONFIGURATION', field: 'queue.maxDepth' }),
    );
  });

  it('recall reads only whole memory files of its own folder: no link to another workspace, no forged or huge file', async () => {
    const base = mkdtempSync(join(tmpdir(), 'a3s-memory-hostile-'));
    const other = join(base, 'other');
    const dir = join(base, 'ws');
    mkdirSync(other);
    mkdirSync(dir);
    const secret = await (await FileMemoryStore.open(other)).remember({
      content: 'the db password is hunter2',
      key: 'db',
    });
    const store = await FileMemoryStore.open(dir);
    const mine = await store.remember({ content: 'the build uses pnpm', key: 'build', tags: ['tooling'] });
    const folder = join(dir, MEMORY_FOLDER);
    // A checked-in link to another workspace's memory, under its own name and under the id's name.
    symlinkSync(join(other, MEMORY_FOLDER, `${secret.id}.json`), join(folder, 'linked.json'));
    symlinkSync(join(other, MEMORY_FOLDER, `${secret.id}.json`), join(folder, `${secret.id}.json`));
    const forged = (id: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        version: 1,
        id,
        content: 'password forged',
        tags: [],
        created_at_ms: 1,
        updated_at_ms: 1,
        ...extra,
      });
    writeFileSync(join(folder, 'x.json'), forged('../../../etc/passwd'));
    writeFileSync(join(folder, 'k-aaaa.json'), forged('k-bbbb'));
    writeFileSync(join(folder, 'k-cccc.json'), forged('k-cccc', { tags: [1, { toString: 'x' }] }));
    writeFileSync(
      join(folder, 'k-dddd.json'),
      forged('k-dddd', { content: `password ${'x'.repeat(2 * 1024 * 1024)}` }),
    );
    expect(await store.recall({ query: 'password' })).toEqual([]);
    expect((await store.list()).map((r) => r.id)).toEqual([mine.id]);
    // A well-formed memory file written by hand still counts.
    writeFileSync(join(folder, 'k-eeee.json'), forged('k-eeee'));
    expect((await store.recall({ query: 'password' })).map((r) => r.id)).toEqual(['k-eeee']);
  });

  it('memories survive a writer killed with SIGKILL in the middle of its writes', async () => {
    const next = random(20_261_224);
    for (let round = 0; round < 6; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'a3s-memory-kill-'));
      const c = child('memory-writer.mjs', [dir, String(9_000)]);
      await c.line('ready\n');
      await c.line(` ${1 + Math.floor(next() * 20)}\n`);
      await new Promise((r) => setTimeout(r, Math.floor(next() * 15)));
      c.p.kill('SIGKILL');
      expect(await c.exited).toBeNull();
      const acked = [...c.output().matchAll(/^ack (\S+) (\d+)$/gm)].map((m) => ({ id: m[1]!, i: Number(m[2]) }));
      expect(acked.length).toBeGreaterThan(0);
      const folder = join(dir, MEMORY_FOLDER);
      // Whatever the kill interrupted is a temporary file at most: every memory file is whole.
      for (const f of readdirSync(folder).filter((n) => n.endsWith('.json') && !n.startsWith('.tmp-')))
        expect(() => JSON.parse(readFileSync(join(folder, f), 'utf8')), f).not.toThrow();
      const store = await FileMemoryStore.open(dir);
      expect(readdirSync(folder).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
      const all = await store.list();
      const byId = new Map(all.map((r) => [r.id, r]));
      // Every acknowledged write is there; a keyed slot holds its last acknowledged write or a later one.
      const lastPerId = new Map<string, number>();
      for (const a of acked) lastPerId.set(a.id, a.i);
      for (const [id, i] of lastPerId) {
        const r = byId.get(id);
        expect(r, `round ${round}: ${id}`).toBeDefined();
        expect(Number(/^note (\d+) /.exec(r!.content)![1])).toBeGreaterThanOrEqual(i);
      }
      expect((await store.recall({ tags: ['crash'], limit: 50 })).length).toBe(Math.min(50, all.length));
    }
  });
});
