/**
 * rg's match records as they stream in: the records are the same however the output is cut into
 * chunks (file names holding newlines, rg's binary-file notices, a record cut anywhere), and a
 * matching line of many megabytes (a minified bundle) is read in time linear in its length. Before,
 * every chunk of a long line copied the whole line read so far: a 200 MB line took minutes.
 * A stand-in for rg replays fixed output in chunks of 1 to 7 bytes; the long line is real rg.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { readRecord, streamRgRecords } from './rg-process.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-rg-stream-');
afterAll(() => tmp.cleanup());

const NOTICE = 'bin.dat: WARNING: stopped searching binary file after match (found "\\0" byte around offset 12)\n';
const CORPUS = Buffer.concat([
  Buffer.from('a.ts\x001:const a = 1;\n'),
  Buffer.from(NOTICE),
  Buffer.from('name\nwith newline.ts\x002:x\n'),
  Buffer.from(`long.js\x003:${'y'.repeat(1200)}\n`),
  Buffer.from('z.ts\x004:last without newline'),
]);

/** The records of the whole output read at once (the oracle). */
function wholeRecords(out: Buffer): string[] {
  const records: string[] = [];
  for (let from = 0; ; ) {
    const rec = readRecord(out, from);
    if (rec === undefined) break;
    if (rec.kind === 'record') records.push(out.subarray(from, rec.end).toString('latin1'));
    from = rec.end + 1;
  }
  return records;
}

describe("rg's streamed records", () => {
  it('are the same whatever the chunks, and a whole-output read agrees', async () => {
    const data = join(tmp.dir, 'corpus.bin');
    writeFileSync(data, CORPUS);
    // Writes the corpus in pieces of 1 to 7 bytes, yielding between them so they arrive apart.
    const replay = join(tmp.dir, 'replay.mjs');
    writeFileSync(
      replay,
      `import { readFileSync } from 'node:fs';\nconst b = readFileSync(process.argv[2]);\nfor (let i = 0, n = 1; i < b.length; i += n, n = (n % 7) + 1) {\n  await new Promise((r) => process.stdout.write(b.subarray(i, i + n), r));\n  await new Promise((r) => setTimeout(r, 0));\n}\n`,
    );
    const streamed: string[] = [];
    for await (const rec of streamRgRecords(process.execPath, [replay, data], tmp.dir, undefined))
      streamed.push(rec.toString('latin1'));
    expect(streamed).toEqual(wholeRecords(CORPUS));
    expect(streamed.map((r) => r.split('\0')[0])).toEqual(['a.ts', 'name\nwith newline.ts', 'long.js', 'z.ts']);
  }, 30_000);

  it('a matching line of 64 MB streams in time linear in its length', async () => {
    writeFileSync(join(tmp.dir, 'bundle.min.js'), `${'y'.repeat(64 * 1024 * 1024)}\n`);
    const ws = new LocalWorkspace({ root: tmp.dir });
    const started = Date.now();
    const matches = [];
    for await (const m of ws.search!.grep({ pattern: 'y{5}', path: 'bundle.min.js', withText: true })) matches.push(m);
    // Linear takes well under a second here; the old quadratic copying took over a minute.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ path: 'bundle.min.js', line: 1 });
    expect(matches[0]!.text?.length).toBe(64 * 1024 * 1024);
  }, 60_000);
});
