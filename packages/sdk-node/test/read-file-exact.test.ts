// session.readFile returns a file's text as it is on disk: final newline (or its absence), CRLF
// and a byte-order mark kept for a whole-file read, pages the read budget cut read on, and a
// line read would cut refused instead of returned cut. Real files, the real kernel.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, DirectToolError, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(): Promise<{ dir: string; s: Session }> {
  const dir = tempRepo();
  const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
  session = await agent.session(dir);
  return { dir, s: session };
}

describe('session.readFile', () => {
  it('a whole-file read is the text on disk: no final newline, CRLF, a byte-order mark, empty', async () => {
    const { dir, s } = await open();
    const files = {
      'noeol.txt': 'a\nb',
      'crlf.txt': 'a\r\nb\r\n',
      'crlf-noeol.txt': 'a\r\nb',
      'bom.txt': '\ufeffhello\nworld\n',
      'empty.txt': '',
      'blank-end.txt': 'a\n\n',
    };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      expect(await s.readFile(name), name).toBe(readFileSync(join(dir, name), 'utf8'));
    }
    // A range that stops before the end keeps the newline of its last line.
    expect(await s.readFile('noeol.txt', { limit: 1 })).toBe('a\n');
  });

  it('a file larger than one read response comes back whole, not cut at the byte budget', async () => {
    const { dir, s } = await open();
    const text = Array.from({ length: 1500 }, (_, i) => `${String(i).padStart(4, '0')} ${'y'.repeat(150)}`).join('\n');
    writeFileSync(join(dir, 'wide.txt'), `${text}\n`);
    expect(await s.readFile('wide.txt')).toBe(`${text}\n`);
    const part = await s.readFile('wide.txt', { offset: 10, limit: 900 });
    expect(part.split('\n').length).toBe(901);
    expect(part.startsWith('0010 ')).toBe(true);
  });

  it('a line longer than read shows is refused naming it, never returned cut', async () => {
    const { dir, s } = await open();
    writeFileSync(join(dir, 'min.js'), `ok\n${'x'.repeat(3000)}\n`);
    const error = await s.readFile('min.js').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectToolError);
    expect((error as DirectToolError).message).toContain('min.js: line 2 is 3000 characters long');
    expect(await s.readFile('min.js', { limit: 1 })).toBe('ok\n');
  });

  it('a binary file, or one whose text read shows changed, is refused (READ_NOT_TEXT), never returned changed', async () => {
    const { dir, s } = await open();
    const files: Record<string, Buffer> = {
      'ctl.txt': Buffer.from('red \x1b[31mX\x1b[0m\r\nprogress 10%\rprogress 100%\r\n'),
      'bell.txt': Buffer.from('ding\x07\n'),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'bin.dat': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03, 0xff, 0x00]),
    };
    for (const [name, bytes] of Object.entries(files)) {
      writeFileSync(join(dir, name), bytes);
      const error = await s.readFile(name).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(DirectToolError);
      expect((error as DirectToolError).message, name).toContain('(READ_NOT_TEXT)');
      expect((error as DirectToolError).message, name).toContain(`${name}: `);
    }
    expect(((await s.readFile('bin.dat').catch((e: unknown) => e)) as Error).message).toContain('binary file');
    // A UTF-16 file is text: it comes back decoded.
    writeFileSync(join(dir, 'utf16.txt'), Buffer.from('\ufeffhello\n', 'utf16le'));
    expect(await s.readFile('utf16.txt')).toContain('hello');
  });

  it('glob returns every match, page after page; grep takes the cursor its result names', async () => {
    const { dir, s } = await open();
    for (let i = 0; i < 1250; i++) writeFileSync(join(dir, `f${String(i).padStart(4, '0')}.txt`), 'match\n');
    const all = await s.glob('*.txt', { sort: 'path' });
    expect(all).toHaveLength(1250);
    expect(new Set(all).size).toBe(1250);
    expect(await s.glob('*.txt', { sort: 'path', limit: 1100 })).toEqual(all.slice(0, 1100));
    const first = await s.grep('match', { glob: '*.txt', outputMode: 'files_with_matches', limit: 1000 });
    const cursor = /pass cursor=("[^"]+")/.exec(first)?.[1];
    expect(cursor).toBeDefined();
    const second = await s.grep('match', {
      glob: '*.txt',
      outputMode: 'files_with_matches',
      limit: 1000,
      cursor: JSON.parse(cursor!) as string,
    });
    expect(second.split('\n').filter((l) => l.endsWith('.txt'))).toHaveLength(250);
  });
});
