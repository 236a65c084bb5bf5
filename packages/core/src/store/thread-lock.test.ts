import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { FileFactStore } from './file-fact-store.js';
import { acquireThreadLock, FactLogLockedError } from './thread-lock.js';

const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-lock-'));

/** A child that opens the log at `start`, appends one fact named after itself, holds the lock a while, and says what happened. */
const CHILD = `
import { FileFactStore } from ${JSON.stringify(dist)};
const [path, start] = process.argv.slice(1);
// Sleep until just before the start, then spin: the children start together without burning a core each.
await new Promise((r) => setTimeout(r, Math.max(0, Number(start) - Date.now() - 15)));
while (Date.now() < Number(start)) {}
try {
  const s = await FileFactStore.openPath(path);
  await s.append([{ type: 'user.message', key: 'u:' + process.pid, payload: { text: 'x', source: 'user' } }], null);
  console.log('GOT');
  // Held long enough that a child started late by a loaded machine still finds it taken.
  await new Promise((r) => setTimeout(r, 1500));
  await s.close();
} catch (e) {
  console.log('ERR ' + (e.code ?? e.message));
}`;

function race(path: string, children: number): Promise<string[]> {
  const start = Date.now() + 900;
  return Promise.all(
    Array.from(
      { length: children },
      () =>
        new Promise<string>((resolve) => {
          const p = spawn(process.execPath, ['--input-type=module', '-e', CHILD, path, String(start)], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
          p.on('close', () => resolve(out.trim()));
        }),
    ),
  );
}

describe('thread lock', () => {
  it('processes racing for a stale lock: exactly one writes, the others get FACT_LOG_LOCKED, the log stays readable', async () => {
    for (let round = 0; round < 2; round++) {
      const path = join(tmp(), 'log.jsonl');
      // The lock of a process that died long ago.
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 17, host: hostname(), since: 1 }));
      const outs = await race(path, 3);
      expect(outs.filter((o) => o === 'GOT')).toHaveLength(1);
      expect(outs.filter((o) => o === 'ERR FACT_LOG_LOCKED')).toHaveLength(2);
      expect(parseLog(readFileSync(path, 'utf8')).facts).toHaveLength(1);
    }
  }, 60_000);

  it('processes racing for a free lock never both write', async () => {
    for (let round = 0; round < 2; round++) {
      const path = join(tmp(), 'log.jsonl');
      const outs = await race(path, 3);
      expect(outs.filter((o) => o === 'GOT')).toHaveLength(1);
      expect(parseLog(readFileSync(path, 'utf8')).facts).toHaveLength(1);
    }
  }, 60_000);

  it('a lock with this pid taken before this process started is a previous process’s: it is taken over', async () => {
    const ws = tmp();
    const path = join(ws, 'log.jsonl');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: 1 }));
    const store = await FileFactStore.openPath(path);
    // This process's own lock is still refused.
    await expect(FileFactStore.openPath(path)).rejects.toBeInstanceOf(FactLogLockedError);
    await store.close();
  });

  it('an unreadable lock is left alone while it may be mid-write, then taken over', async () => {
    const path = join(tmp(), 'x.lock');
    writeFileSync(path, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const lock = await acquireThreadLock(path);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });
});
