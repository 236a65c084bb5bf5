// The file memory store keeps what it read between recalls: a memory file is read again only when
// its identity, size or times changed, so a later recall costs one lstat a memory; a file changed,
// added or removed behind the store is seen at the next recall.
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileMemoryStore, MEMORY_FOLDER } from './file-memory-store.js';

describe('memories kept between recalls', () => {
  it('a file rewritten (other size, or same size and a new time), added or removed behind the store is seen at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-mem-kept-'));
    const store = await FileMemoryStore.open(dir);
    const a = await store.remember({ content: 'alpha one' });
    await store.remember({ content: 'beta two' });
    expect((await store.list()).map((m) => m.content).sort()).toEqual(['alpha one', 'beta two']);
    const file = join(dir, MEMORY_FOLDER, `${a.id}.json`);
    const rewrite = (content: string) =>
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"content":"[^"]*"/, `"content":"${content}"`));
    rewrite('alpha ONE changed');
    expect((await store.recall({ query: 'changed' })).map((m) => m.content)).toEqual(['alpha ONE changed']);
    // Same size, a later modification time.
    rewrite('alpha ONE CHANGED');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect((await store.list()).find((m) => m.id === a.id)?.content).toBe('alpha ONE CHANGED');
    rmSync(file);
    expect((await store.list()).map((m) => m.content)).toEqual(['beta two']);
    const other = await FileMemoryStore.open(dir);
    await other.remember({ content: 'gamma three' });
    expect((await store.list()).map((m) => m.content).sort()).toEqual(['beta two', 'gamma three']);
    expect(readdirSync(join(dir, MEMORY_FOLDER)).filter((n) => n.endsWith('.json'))).toHaveLength(2);
  });
});
