import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../session/atomic-file.js';
import { FileSessionStore } from '../session/file-session-store.js';
import { FileFactStore } from './file-fact-store.js';
import { mkdirState } from './state-folder.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-state-'));

describe('the .a3s state folder', () => {
  it('LOG-05: the first fact log creates .a3s/.gitignore (*), so git status stays clean', async () => {
    const ws = tmp();
    execFileSync('git', ['init', '-q'], { cwd: ws });
    const store = await FileFactStore.open(ws, 's1');
    await store.append([{ type: 'user.message', key: 'u1', payload: { text: 'hi', source: 'user' } }], null);
    await store.close();
    expect(readFileSync(join(ws, '.a3s', '.gitignore'), 'utf8')).toBe('*\n');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: ws, encoding: 'utf8' })).toBe('');
  });

  it('a saved session file creates it the same way', async () => {
    const ws = tmp();
    await writeFileAtomic(new FileSessionStore(ws).pathOf('s1'), '{}');
    expect(readFileSync(join(ws, '.a3s', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('leaves a .a3s folder the user made alone (its config stays committable)', async () => {
    const ws = tmp();
    mkdirSync(join(ws, '.a3s'));
    writeFileSync(join(ws, '.a3s', 'config.json'), '{}');
    await mkdirState(join(ws, '.a3s', 'effect-log'));
    expect(existsSync(join(ws, '.a3s', 'effect-log'))).toBe(true);
    expect(existsSync(join(ws, '.a3s', '.gitignore'))).toBe(false);
  });

  it('a folder outside any .a3s gets no .gitignore', async () => {
    const ws = tmp();
    await mkdirState(join(ws, 'logs', 'x'));
    expect(existsSync(join(ws, 'logs', 'x'))).toBe(true);
    expect(existsSync(join(ws, 'logs', '.gitignore'))).toBe(false);
  });
});
