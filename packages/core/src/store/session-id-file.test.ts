import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { FileFactStore } from './file-fact-store.js';
import { recordedSessionId, sessionIdPath } from './session-id-file.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-sid-'));
const user = { type: 'user.message', key: 'u1', payload: { text: 'hi', source: 'user' } };

describe('the session id beside a hashed log', () => {
  it('is recorded when the log is opened, before any fact, and read back', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, 'fix bug');
    expect(store.path).toBe(join(ws, '.a3s', 'effect-log', `${threadIdFor('fix bug')}.jsonl`));
    expect(readFileSync(sessionIdPath(store.path), 'utf8')).toBe('fix bug');
    await store.append([user], null);
    await store.close();
    expect(await recordedSessionId(store.path)).toBe('fix bug');
    // Opened again under its log's name, the id recorded stays.
    const again = await FileFactStore.open(ws, threadIdFor('fix bug'));
    await again.close();
    expect(await recordedSessionId(store.path)).toBe('fix bug');
  });

  it('is not written for an id that names its log itself', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, 'plain');
    await store.close();
    expect(existsSync(sessionIdPath(store.path))).toBe(false);
    expect(await recordedSessionId(store.path)).toBeUndefined();
  });

  it('goes with a log discarded empty', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, '../evil');
    expect(existsSync(sessionIdPath(store.path))).toBe(true);
    await store.discardIfEmpty();
    expect(existsSync(store.path)).toBe(false);
    expect(existsSync(sessionIdPath(store.path))).toBe(false);
  });

  it('is not believed when it names an id whose log is another, and not followed when a link', async () => {
    const ws = tmp();
    const store = await FileFactStore.open(ws, 'fix bug');
    await store.close();
    writeFileSync(sessionIdPath(store.path), 'other');
    expect(await recordedSessionId(store.path)).toBeUndefined();
    const elsewhere = join(tmp(), 'id');
    writeFileSync(elsewhere, 'fix bug');
    const linked = join(ws, '.a3s', 'effect-log', `${threadIdFor('x y')}.jsonl`);
    symlinkSync(elsewhere, sessionIdPath(linked));
    await expect(recordedSessionId(linked)).rejects.toMatchObject({ code: 'STATE_FILE' });
  });
});
