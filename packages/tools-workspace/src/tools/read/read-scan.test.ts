/**
 * A file scanned in one pass (as `read` does with a large file) reads exactly as the same file
 * loaded whole: kind, size, digest, encoding, line count and every line with its length, whatever
 * the chunk boundaries, for CRLF, CR-only, BOMs, bad UTF-8, long lines, UTF-16 and binary data.
 */
import { describe, expect, it } from 'vitest';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { type LoadedFile, loadFile, numberLine } from './read-file.js';
import { FileScanner } from './read-scan.js';

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const le = (s: string): Buffer => Buffer.from(s, 'utf16le');
const be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();

const CASES: Record<string, Buffer> = {
  empty: Buffer.alloc(0),
  one: utf8('a'),
  'one line': utf8('a\n'),
  'empty line': utf8('\n'),
  'empty lines': utf8('\n\n'),
  crlf: utf8('one\r\ntwo\r\n'),
  'cr only': utf8('a\rb\rc'),
  'cr only, final': utf8('a\rb\r'),
  'lone cr': utf8('\r'),
  'lone crlf': utf8('\r\n'),
  'cr cr lf': utf8('a\r\r\nb'),
  'cr then lf late': utf8(`${'x\r'.repeat(5000)}tail\nend`),
  'last line a cr': utf8('a\n\r'),
  bom: utf8('\ufeffx\ny\n'),
  'bom only': utf8('\ufeff'),
  'bom later': utf8('a\n\ufeffb\n'),
  'bad utf-8 at a line end': Buffer.from([0xe2, 0x82, 0x0a, 0x41, 0xff, 0x0d, 0x0a, 0xc3]),
  emoji: utf8(`${'😀é'.repeat(3000)}\n${'中'.repeat(10)}`),
  'long line': utf8(`${'x'.repeat(5000)}\nshort\n`),
  'long line with cr': utf8(`${'y'.repeat(2000)}\r\n${'z'.repeat(2001)}\r\n${'w'.repeat(1999)}\r\n`),
  'long multibyte line': utf8(`first\r\n${'é'.repeat(9000)}\r\n\r\nlast`),
  'cr inside a line': utf8('a\rb\nc\r\n'),
  'utf-16le bom': Buffer.concat([Buffer.from([0xff, 0xfe]), le('héllo\r\nwörld\r\n')]),
  'utf-16be bom': Buffer.concat([Buffer.from([0xfe, 0xff]), be('one\ntwo\n')]),
  'utf-16le bom, odd size': Buffer.concat([Buffer.from([0xff, 0xfe]), le('ab\ncd'), Buffer.from([0x41])]),
  'utf-16le bom, second bom': Buffer.concat([Buffer.from([0xff, 0xfe]), le('\ufeffa\nb')]),
  'utf-16le bom, cr only': Buffer.concat([Buffer.from([0xff, 0xfe]), le('a\rb\r')]),
  'utf-16le no bom': le(`${'plain ascii text\r\n'.repeat(900)}😀 end\r\n`),
  'utf-16be no bom': be(`${'first\nsecond\n'.repeat(900)}`),
  'utf-16 no bom, lone surrogate late': Buffer.concat([le('text line\n'.repeat(900)), Buffer.from([0x00, 0xd8])]),
  'utf-16 no bom, odd size': Buffer.concat([le('text line\n'.repeat(900)), Buffer.from([0x41])]),
  binary: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03]),
  'control bytes': Buffer.from(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 0x41 : 0x01))),
  'text then nul after 8 KiB': Buffer.concat([utf8('t\n'.repeat(5000)), Buffer.alloc(100)]),
};

/** Everything a read shows of a loaded file: each line as shown (a long one cut) and its length. */
function shown(file: LoadedFile): unknown {
  if (file.kind === 'binary') return file;
  const lines = Array.from({ length: file.lines.length }, (_, i) => {
    const line = file.lines.line(i);
    return [numberLine(i + 1, line.text, line.chars), line.chars];
  });
  return { size: file.size, digest: file.digest, encoding: file.encoding, length: file.lines.length, lines };
}

function scanned(bytes: Buffer, chunk: number): LoadedFile {
  const scan = new FileScanner([{ offset: 0, limit: Number.MAX_SAFE_INTEGER }], Number.MAX_SAFE_INTEGER);
  for (let at = 0; at < bytes.length; at += chunk) scan.push(bytes.subarray(at, at + chunk));
  return scan.finish();
}

describe('a scanned file reads as the same file loaded whole', () => {
  it('for every kind of content and any chunk size', async () => {
    const ws = await MemoryWorkspace.create({ files: {} });
    const fs = ws.fs!;
    for (const [name, bytes] of Object.entries(CASES)) {
      await fs.writeFile('f', bytes);
      const whole = shown(await loadFile(fs, 'f', new AbortController().signal, [{ offset: 0, limit: 1 }], 1024));
      for (const chunk of [1, 3, 7, 4096, bytes.length || 1])
        expect(shown(scanned(bytes, chunk)), `${name}, chunks of ${chunk}`).toEqual(whole);
    }
  });

  it('keeps only the lines of the ranges asked for, and of each no more than its budget can show', () => {
    const text = utf8(Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const scan = new FileScanner(
      [
        { offset: 100, limit: 3 },
        { offset: 5000, limit: 2000 },
      ],
      1024,
    );
    for (let at = 0; at < text.length; at += 999) scan.push(text.subarray(at, at + 999));
    const file = scan.finish();
    if (file.kind !== 'text') throw new Error('not text');
    expect(file.lines.length).toBe(10_000);
    const kept = Array.from({ length: 10_000 }, (_, i) => i).filter((i) => file.lines.has?.(i));
    expect(kept.slice(0, 3)).toEqual([100, 101, 102]);
    expect(file.lines.line(100)).toEqual({ text: 'line 101', chars: 8 });
    // Lines of at least 8 + 9 output bytes each: a 1024-byte budget is full after about 60 of them.
    expect(kept[3]).toBe(5000);
    expect(kept.length - 3).toBeGreaterThan(50);
    expect(kept.length - 3).toBeLessThan(70);
    expect(file.lines.has?.(4999)).toBe(false);
  });
});
