// The file tools on an S3 workspace in a real session (governed kernel, scripted model, a real
// S3 server on loopback): the tools a bucket can serve are offered and work, bash and git are
// not offered; grep and glob say how far the object scan went (GREP-07).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentSession } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3Workspace, workspaceToolPack } from '../src/index.js';
import { startS3, type TestS3 } from './s3-kit.js';

let s3: TestS3;
let session: AgentSession | undefined;
beforeAll(async () => {
  s3 = await startS3();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});
afterAll(async () => {
  await s3?.close();
});

let n = 0;
async function open(turns: ScriptedTurn[], extra: { maxScanObjects?: number } = {}) {
  const ws = new S3Workspace({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    credentials: s3.credentials,
    prefix: `session-${++n}`,
    ...extra,
  });
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [workspaceToolPack],
    workspace: ws,
    permissions: { defaultDecision: 'allow' },
    persistence: 'memory',
  });
  session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-s3-session-')));
  return { ws, session, model };
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('an S3 workspace in a session', () => {
  it('SURF-02: read, write, edit, patch, ls, glob and grep work on the bucket; bash and git are not offered', async () => {
    const { ws, session: s } = await open([
      {
        tool_calls: [
          {
            id: 'w',
            name: 'write',
            args: { file_path: 'src/sum.js', content: 'export const sum = (a, b) => a - b;\n' },
          },
        ],
      },
      {
        tool_calls: [
          { id: 'e', name: 'edit', args: { file_path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' } },
        ],
      },
      {
        tool_calls: [
          { id: 'r', name: 'read', args: { file_path: 'src/sum.js' } },
          { id: 'g', name: 'grep', args: { pattern: 'a \\+ b' } },
          { id: 'l', name: 'ls', args: { path: 'src' } },
          { id: 'gl', name: 'glob', args: { pattern: '**/*.js' } },
        ],
      },
      {
        tool_calls: [
          {
            id: 'p',
            name: 'patch',
            args: {
              patch:
                '--- a/src/sum.js\n+++ b/src/sum.js\n@@ -1 +1 @@\n-export const sum = (a, b) => a + b;\n+export const sum = (a, b) => b + a;\n',
            },
          },
        ],
      },
      // The completion gate asks again for a verification a bucket cannot run.
      ...Array.from({ length: 4 }, () => ({ text: 'Done.' })),
    ]);
    const names = s.toolNames();
    expect(names).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'patch', 'grep', 'glob', 'ls']));
    expect(names).not.toContain('bash');
    expect(names).not.toContain('git');
    // No `exec` on a bucket: the changes cannot be verified by commands, so the completion gate
    // ends the run by name (a host waives the digest or attests it).
    await expect(s.send('fix sum')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    const results = new Map(
      s.store.log.facts
        .filter((f) => f.type === 'tool.result')
        .map((f) => {
          const p = f.payload as { tool_call_id: string; exit_code: number; output: string };
          return [p.tool_call_id, p] as const;
        }),
    );
    for (const id of ['w', 'e', 'r', 'g', 'l', 'gl', 'p'])
      expect(results.get(id)?.exit_code, String(results.get(id)?.output)).toBe(0);
    expect(String(results.get('r')?.output)).toContain('a + b');
    expect(String(results.get('g')?.output)).toContain('src/sum.js:1:');
    expect(String(results.get('gl')?.output)).toBe('src/sum.js');
    expect(text(await ws.fs.readFile('src/sum.js'))).toBe('export const sum = (a, b) => b + a;\n');
  });

  it('GREP-07: every grep and glob result on S3 carries metadata.search; a scan stopped by the cap says truncated and warns', async () => {
    const { ws, session: s } = await open([], { maxScanObjects: 5 });
    for (let i = 0; i < 8; i++) await ws.fs.writeFile(`f${i}.txt`, i % 2 === 0 ? 'needle\n' : 'hay\n');
    const capped = await s.tool('grep', { pattern: 'needle', output_mode: 'summary' });
    expect(capped.metadata.search).toMatchObject({
      backend: 's3',
      truncated: true,
      objects_scanned: 5,
      max_scan_objects: 5,
    });
    expect(capped.output).toMatch(/^3 matching lines in 3 files\n\[warning: the s3 scan stopped after 5 objects/);
    for (const mode of ['content', 'files_with_matches', 'count']) {
      const r = await s.tool('grep', { pattern: 'needle', output_mode: mode });
      expect((r.metadata.search as { truncated: boolean }).truncated, mode).toBe(true);
      expect(r.output, mode).toContain('totals and paths may be incomplete');
    }
    const globbed = await s.tool('glob', { pattern: '*.txt', sort: 'path' });
    expect(globbed.metadata.search).toMatchObject({ truncated: true, objects_scanned: 5 });
    expect(globbed.metadata.total).toBe(5);
    // Narrowed to one file, or on a workspace under the cap: complete, and said so.
    const one = await s.tool('grep', { pattern: 'needle', path: 'f6.txt' });
    expect(one.metadata.search).toMatchObject({ backend: 's3', truncated: false, objects_scanned: 1 });
    expect(one.output).toBe('f6.txt:1:needle');
    const { session: s2, ws: ws2 } = await open([]);
    await ws2.fs.writeFile('a.txt', 'needle\n');
    const whole = await s2.tool('grep', { pattern: 'needle' });
    expect(whole.metadata.search).toEqual({
      backend: 's3',
      truncated: false,
      objects_scanned: 1,
      max_scan_objects: 10_000,
    });
    expect(whole.output).not.toContain('warning');
    await s2.close();
  });
});
