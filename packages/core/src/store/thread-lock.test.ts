import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('a lock held on another host names the lock file, the pid and host, and the way out; it is never taken over', async () => {
    const path = join(tmp(), 'log.jsonl');
    const lock = `${path}.lock`;
    // A container restarted under a new host name on the same mounted workspace: its old lock.
    const held = JSON.stringify({ pid: 4242, host: 'old-container-3f2a', since: Date.UTC(2024, 0, 2, 3, 4, 5) });
    writeFileSync(lock, held);
    const e = await FileFactStore.openPath(path).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FactLogLockedError);
    const message = (e as Error).message;
    expect(message).toContain(
      `by process 4242 on old-container-3f2a (lock file '${lock}' since 2024-01-02T03:04:05.000Z)`,
    );
    expect(message).toContain(`if process 4242 on old-container-3f2a is gone`);
    expect(message).toContain(`remove '${lock}' and open the session again`);
    expect(e).toMatchObject({
      code: 'FACT_LOG_LOCKED',
      details: { path: lock, log: path, pid: 4242, host: 'old-container-3f2a', foreign_host: true },
    });
    expect(readFileSync(lock, 'utf8')).toBe(held);
    // The way out the message names: the lock file removed, the log opens.
    rmSync(lock);
    const store = await FileFactStore.openPath(path);
    await store.close();
  });

  it('a lock whose time is no date is still reported, without the time', async () => {
    const path = join(tmp(), 'log.jsonl');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 4242, host: 'elsewhere', since: 1e20 }));
    const e = await FileFactStore.openPath(path).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'FACT_LOG_LOCKED', details: { since: null, foreign_host: true } });
    expect((e as Error).message).toContain(`process 4242 on elsewhere (lock file '${path}.lock'), a host other`);
  });

  it('a lock held by a live process on this host names the lock file and says what to check', async () => {
    const path = join(tmp(), 'log.jsonl');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: child.pid, host: hostname(), since: Date.now() }));
      const e = await FileFactStore.openPath(path).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'FACT_LOG_LOCKED', details: { pid: child.pid, foreign_host: false } });
      expect((e as Error).message).toContain(`lock file '${path}.lock'`);
      expect((e as Error).message).toContain(`if process ${child.pid} is no a3s session`);
    } finally {
      child.kill();
    }
  });
});

/** The pid of a process that has exited (spawned and waited for). */
async function deadPid(): Promise<number> {
  const p = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((r) => p.on('exit', r));
  return p.pid!;
}

describe('a takeover file left behind', () => {
  it('a stale lock and the takeover file of a process killed while it took the lock over: opened at once', async () => {
    const path = join(tmp(), 'log.jsonl');
    const dead = await deadPid();
    const owner = JSON.stringify({ pid: dead, host: hostname(), since: 1 });
    writeFileSync(`${path}.lock`, owner);
    writeFileSync(`${path}.lock.takeover`, owner);
    const started = Date.now();
    const store = await FileFactStore.openPath(path);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(existsSync(`${path}.lock.takeover`)).toBe(false);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await store.close();
  });

  it('a lock that cannot be taken names the lock file, the takeover file, their holders and the way out', async () => {
    const path = join(tmp(), 'log.jsonl');
    const dead = await deadPid();
    // A live process (not an a3s session) named in a fresh takeover file: the takeover is not judged over.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: dead, host: hostname(), since: 1 }));
      writeFileSync(`${path}.lock.takeover`, JSON.stringify({ pid: child.pid, host: hostname(), since: Date.now() }));
      // Fresh for the whole test, however slow the machine (a takeover this old would be judged over).
      const later = new Date(Date.now() + 120_000);
      utimesSync(`${path}.lock.takeover`, later, later);
      const e = await FileFactStore.openPath(path).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: 'FACT_LOG_LOCKED',
        details: { path: `${path}.lock`, takeover: `${path}.lock.takeover`, takeover_owner: { pid: child.pid } },
      });
      const message = (e as Error).message;
      expect(message).toContain(`last held by process ${dead} on ${hostname()}`);
      expect(message).toContain(`takeover file '${path}.lock.takeover': process ${child.pid} on ${hostname()}`);
      expect(message).toContain(`remove '${path}.lock' and '${path}.lock.takeover' and open the session again`);
    } finally {
      child.kill();
    }
  }, 30_000);
});
