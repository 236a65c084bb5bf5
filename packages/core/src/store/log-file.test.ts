// What takes a fact log's place on disk (a link, a FIFO, a device, a folder, a huge or non-UTF-8
// file) and how the store, its lock and the read-only reader refuse it: typed, at once, nothing changed.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A3sError, encodeFact, FactParseError, parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { FileFactStore } from './file-fact-store.js';
import { FactLogFileError, MAX_FACT_LOG_BYTES, readFactLogFile } from './log-file.js';

const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
const line = (seq: number, text = 'a') =>
  encodeFact({ seq, type: 'user.message', key: `u${seq}`, cause: null, payload: { text, source: 'user' } });
const user = (key: string, text = 'hi') => ({ type: 'user.message', key, payload: { text, source: 'user' } });
const opened: FileFactStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A workspace with an empty effect-log folder, and the path of session `s`'s log in it. */
function workspace(): { ws: string; dir: string; log: string } {
  const ws = mkdtempSync(join(tmpdir(), 'a3s-logfile-'));
  const dir = join(ws, '.a3s', 'effect-log');
  mkdirSync(dir, { recursive: true });
  return { ws, dir, log: join(dir, 's.jsonl') };
}

async function openError(ws: string): Promise<unknown> {
  const store = await FileFactStore.open(ws, 's').catch((e: unknown) => e);
  if (store instanceof FileFactStore) opened.push(store);
  return store;
}

describe('a fact log file that is not a regular file of its own', () => {
  it('a log over the size limit is refused before it is read, naming the file, its size and the limit', async () => {
    const { ws, log } = workspace();
    writeFileSync(log, `${line(1)}\n`);
    // Sparse: the file's size is past the limit, but no byte of it is written or read.
    truncateSync(log, MAX_FACT_LOG_BYTES + 1);
    const size = MAX_FACT_LOG_BYTES + 1;
    const e = await openError(ws);
    expect(A3sError.hasCode(e, 'FACT_LOG_TOO_LARGE')).toBe(true);
    const message = (e as Error).message;
    expect(message).toContain(log);
    expect(message).toContain(`is ${size} bytes`);
    expect(message).toContain(`over the ${MAX_FACT_LOG_BYTES} bytes`);
    expect((e as A3sError).details).toEqual({ path: log, size, limit: MAX_FACT_LOG_BYTES });
    expect(statSync(log).size).toBe(size);
    expect(existsSync(`${log}.lock`)).toBe(false);
    await expect(readFactLogFile(log)).rejects.toMatchObject({ code: 'FACT_LOG_TOO_LARGE' });
    rmSync(ws, { recursive: true, force: true });
  });

  it("a link to another session's log is refused: nothing is appended to it behind its own lock", async () => {
    const { ws, dir, log } = workspace();
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, `${line(1)}\n`);
    symlinkSync(other, log);
    const e = await openError(ws);
    expect(e).toBeInstanceOf(FactLogFileError);
    expect(e).toMatchObject({ code: 'FACT_LOG_FILE', path: log, problem: 'is a symbolic link' });
    expect((e as Error).message).toContain(log);
    expect(readFileSync(other, 'utf8')).toBe(`${line(1)}\n`);
    expect(existsSync(`${log}.lock`)).toBe(false);
    await expect(readFactLogFile(log)).rejects.toMatchObject({ code: 'FACT_LOG_FILE' });
    expect(await readFactLogFile(log, { followLinks: true })).toBe(`${line(1)}\n`);
  });

  it('a link to a file of one unterminated line is refused, not truncated as a torn line and overwritten', async () => {
    const { ws, log } = workspace();
    const victim = join(ws, 'notes.txt');
    writeFileSync(victim, 'precious text without a final newline');
    symlinkSync(victim, log);
    expect(await openError(ws)).toMatchObject({ code: 'FACT_LOG_FILE', problem: 'is a symbolic link' });
    expect(readFileSync(victim, 'utf8')).toBe('precious text without a final newline');
  });

  it('a hard link to another file is refused: the log must be a file of its own', async () => {
    const { ws, log } = workspace();
    const victim = join(ws, 'notes.txt');
    writeFileSync(victim, 'precious');
    linkSync(victim, log);
    expect(await openError(ws)).toMatchObject({
      code: 'FACT_LOG_FILE',
      problem: 'has 2 hard links (it is also another file)',
    });
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it("a FIFO, a device (through a link) or a folder in the log's place is refused at once, never waited on", async () => {
    const { ws, log } = workspace();
    execFileSync('mkfifo', [log]);
    expect(await openError(ws)).toMatchObject({ code: 'FACT_LOG_FILE', problem: 'is a FIFO (named pipe)' });
    await expect(readFactLogFile(log)).rejects.toMatchObject({ problem: 'is a FIFO (named pipe)' });
    expect(lstatSync(log).isFIFO()).toBe(true);

    const zero = workspace();
    symlinkSync('/dev/zero', zero.log);
    expect(await openError(zero.ws)).toMatchObject({ code: 'FACT_LOG_FILE', problem: 'is a symbolic link' });
    await expect(readFactLogFile(zero.log, { followLinks: true })).rejects.toMatchObject({ problem: 'is a device' });

    const folder = workspace();
    mkdirSync(folder.log);
    expect(await openError(folder.ws)).toMatchObject({ code: 'FACT_LOG_FILE', problem: 'is a folder' });
    await expect(readFactLogFile(folder.log)).rejects.toMatchObject({ problem: 'is a folder' });
  });

  it('a lock file replaced by a FIFO, a link or a folder is refused at once, and the target is left alone', async () => {
    const fifo = workspace();
    execFileSync('mkfifo', [`${fifo.log}.lock`]);
    expect(await openError(fifo.ws)).toMatchObject({ code: 'FACT_LOG_FILE', path: `${fifo.log}.lock` });
    const link = workspace();
    symlinkSync('/dev/zero', `${link.log}.lock`);
    expect(await openError(link.ws)).toMatchObject({ code: 'FACT_LOG_FILE', problem: 'is a symbolic link' });
    const folder = workspace();
    mkdirSync(`${folder.log}.lock`);
    expect(await openError(folder.ws)).toMatchObject({ code: 'FACT_LOG_FILE', problem: 'is a folder' });
  });
});

describe('a fact log this user may not open', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'an unreadable log is FACT_LOG_FILE naming it, for the store and the reader',
    () => {
      const { ws, log } = workspace();
      writeFileSync(log, `${line(1)}\n`);
      chmodSync(log, 0o600); // root's; the child below runs as nobody
      chmodSync(ws, 0o777);
      chmodSync(join(ws, '.a3s'), 0o777);
      chmodSync(join(ws, '.a3s', 'effect-log'), 0o777);
      const child = `
      import { FileFactStore, readFactLogFile } from ${JSON.stringify(dist)};
      process.setgid(65534);
      process.setuid(65534);
      for (const f of [() => FileFactStore.open(process.argv[1], 's'), () => readFactLogFile(process.argv[2])]) {
        try { await f(); console.log('opened'); } catch (e) { console.log(e.code + ' ' + e.message); }
      }`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', child, ws, log], { encoding: 'utf8' });
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      for (const l of lines) {
        expect(l).toBe(
          `FACT_LOG_FILE fact log file '${log}' cannot be opened (EACCES: permission denied); allowed: a file this user can read and write`,
        );
      }
      expect(readFileSync(log, 'utf8')).toBe(`${line(1)}\n`);
    },
  );
});

describe('a fact log whose bytes are not UTF-8', () => {
  const badLine = (seq: number) => {
    const text = Buffer.from(line(seq, 'ab'));
    text[text.indexOf('"ab"') + 2] = 0xc3; // 'a' 0xc3 : a lead byte with no continuation
    return text;
  };

  it('a complete line with a byte that is not UTF-8 is refused with its line, and the file is left as it was', async () => {
    const { ws, log } = workspace();
    writeFileSync(log, Buffer.concat([Buffer.from(`${line(1)}\n`), badLine(2), Buffer.from(`\n${line(3)}\n`)]));
    const before = readFileSync(log);
    const e = await openError(ws);
    expect(e).toBeInstanceOf(FactParseError);
    expect(e).toMatchObject({ line: 2, field: 'utf8', file: log });
    expect((e as Error).message).toContain(`fact log '${log}' line 2: utf8:`);
    expect((e as Error).message).toContain(`offset ${before.indexOf(0xc3)}`);
    expect(readFileSync(log)).toEqual(before);
    await expect(readFactLogFile(log)).rejects.toMatchObject({ line: 2, field: 'utf8' });
  });

  it('such a line before a torn tail no longer makes the truncation miss and wedge the log', async () => {
    const { ws, log } = workspace();
    // Decoded, the stray byte became 3 bytes (U+FFFD): the cut was placed 2 bytes too far.
    writeFileSync(log, Buffer.concat([badLine(1), Buffer.from(`\n${line(2).slice(0, 20)}`)]));
    const before = readFileSync(log);
    expect(await openError(ws)).toMatchObject({ line: 1, field: 'utf8' });
    expect(readFileSync(log)).toEqual(before);
  });

  it('a torn last line cut inside a character is still cut off, and the log reopens whole', async () => {
    const { ws, log } = workspace();
    const torn = Buffer.from(line(2, 'é€🙂')).subarray(0, Buffer.from(line(2, 'é€🙂')).indexOf('🙂') + 2);
    writeFileSync(log, Buffer.concat([Buffer.from(`${line(1, 'é')}\n`), torn]));
    const store = await FileFactStore.open(ws, 's');
    opened.push(store);
    expect(store.log.length).toBe(1);
    expect(store.opened.truncatedBytes).toBe(torn.length);
    await store.append([user('u2', 'after')], null);
    expect(parseLog(readFileSync(log, 'utf8')).facts.map((f) => f.key)).toEqual(['u1', 'u2']);
  });

  it.each([
    ['a byte that is not UTF-8 inside an unterminated last line, with text after it', [0xff], 'pe":"user.message"'],
    ['a lead byte followed by a byte that continues nothing', [0xe2, 0x41], 'x'],
  ])('%s is no torn write: refused by name, nothing cut', async (_, bad, after) => {
    const { ws, log } = workspace();
    writeFileSync(log, Buffer.concat([Buffer.from(`${line(1)}\n{"seq":2,"ty`), Buffer.from(bad), Buffer.from(after)]));
    const before = readFileSync(log);
    expect(await openError(ws)).toMatchObject({ line: 2, field: 'utf8' });
    expect(readFileSync(log)).toEqual(before);
  });

  it.each([['\u00a0\u00a0\n'], ['\ufeff\n'], ['\u3000\n'], ['\u00a0']])(
    'a last line of other white space (%j) is no blank line an editor leaves: refused, nothing cut',
    async (tail) => {
      const { ws, log } = workspace();
      writeFileSync(log, `${line(1)}\n${tail}`);
      const before = readFileSync(log);
      await expect(FileFactStore.open(ws, 's')).rejects.toThrow(/line 2/);
      expect(readFileSync(log)).toEqual(before);
    },
  );
});

describe('a log larger than the pieces it is decoded in', () => {
  const many = (n: number, long = -1): Buffer =>
    Buffer.from(
      Array.from(
        { length: n },
        (_, i) => `${line(i + 1, i === long ? 'ж'.repeat(100_000) : `${i} ключ 🙂 ${'é'.repeat(i % 300)}`)}\n`,
      ).join(''),
    );

  it('a torn last line and blank lines after it are cut off to the byte; a line longer than a piece reads whole', async () => {
    const { ws, log } = workspace();
    const body = many(2_000, 700);
    const torn = Buffer.from(line(2_001, '🙂'.repeat(50))).subarray(0, 77);
    writeFileSync(log, Buffer.concat([body, torn]));
    const store = await FileFactStore.open(ws, 's');
    opened.push(store);
    expect(store.log.length).toBe(2_000);
    expect((store.log.facts[700]!.payload as { text: string }).text).toBe('ж'.repeat(100_000));
    expect(store.opened).toMatchObject({ truncated: { line: 2_001 }, truncatedBytes: 77 });
    expect(readFileSync(log).equals(body)).toBe(true);
    await store.close();
    opened.pop();
    writeFileSync(log, Buffer.concat([body, Buffer.from('\n'.repeat(70_000)), Buffer.from('  \n')]));
    const again = await FileFactStore.open(ws, 's');
    opened.push(again);
    expect(again.opened).toMatchObject({ truncated: { line: 2_001 }, truncatedBytes: 70_003 });
    expect(readFileSync(log).equals(body)).toBe(true);
  });

  it('a byte that is not UTF-8 deep in the file is named by its line; a blank line between pieces is refused', async () => {
    const { ws, log } = workspace();
    const bad = Buffer.from(line(1_501, 'ab'));
    bad[bad.indexOf('"ab"') + 2] = 0xc3;
    writeFileSync(log, Buffer.concat([many(1_500), bad, Buffer.from(`\n${line(1_502)}\n`)]));
    expect(await openError(ws)).toMatchObject({ line: 1_501, field: 'utf8' });
    writeFileSync(log, Buffer.concat([many(1_500), Buffer.from(`\n${line(1_501)}\n`)]));
    expect(await openError(ws)).toMatchObject({ line: 1_501, field: 'json' });
  });
});

describe('a write the disk takes only part of', () => {
  it('an append the file size limit cuts short fails with FACT_STORE instead of reporting a lost fact as durable', () => {
    const { ws, log } = workspace();
    // A child whose files may not grow past 4 KiB (`ulimit -f 4`): the third 1.5 KiB fact is cut.
    const child = `
      import { FileFactStore } from ${JSON.stringify(dist)};
      const s = await FileFactStore.open(process.argv[1], 's');
      for (const k of ['a', 'b', 'c', 'd']) {
        try {
          await s.append([{ type: 'user.message', key: k, payload: { text: 'x'.repeat(1500), source: 'user' } }], null);
          console.log('ok ' + k);
        } catch (e) { console.log('err ' + k + ' ' + e.code); }
      }
      await s.close();`;
    const run = spawnSync(
      'bash',
      ['-c', 'ulimit -f 4 && exec "$0" --input-type=module -e "$1" "$2"', process.execPath, child, ws],
      { encoding: 'utf8' },
    );
    expect(run.stdout.trim().split('\n')).toEqual(['ok a', 'ok b', 'err c FACT_STORE', 'err d FACT_STORE']);
    // Every fact reported durable is on disk; the cut tail is a torn line the next open removes.
    expect(parseLog(readFileSync(log, 'utf8')).facts.map((f) => f.key)).toEqual(['a', 'b']);
  });
});
