// `a3s replay --transcript`: the conversation of a past session — prompts, the model's answers,
// tool calls with their arguments and their results summarised — by session id or folder, as
// text and as JSON. A log's text is untrusted: printed without terminal control sequences.
import { describe, expect, it } from 'vitest';
import { FIX_TURNS, runMain, scriptFile, tempRepo } from './kit.js';

describe('a3s replay --transcript', () => {
  it('prints the conversation of a session by id and by folder, and as JSON', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile(FIX_TURNS)}`;
    const run = await runMain(['run', '--yolo', '--model', model, '--cwd', dir, '--session', 's1', 'fix the range']);
    expect(run.status, run.stderr).toBe(0);

    const text = await runMain(['replay', '--transcript', '--cwd', dir, 's1']);
    expect(text.status, text.stderr).toBe(0);
    const out = text.stdout;
    expect(out).toMatch(/^A3S Code transcript of \S+s1\.jsonl\n/);
    const order = [
      /── run run-[0-9a-f-]+ \(scripted\/[^)]*\)\n/,
      /you: fix the range\n/,
      /model: Fixing the bound\.\n/,
      / {2}→ edit \{"file_path":"src\/range\.js","old_string":"i < end","new_string":"i <= end"\}\n/,
      / {4}✓ ok edit/,
      /model: Verifying\.\n/,
      / {2}→ verify \{"subject":"range fix"/,
      / {4}✓ ok verify/,
      /── completed \(verified\)\n/,
    ];
    let at = 0;
    for (const re of order) {
      const m = re.exec(out.slice(at));
      expect(m, `${re} after offset ${at} in:\n${out}`).not.toBeNull();
      at += m!.index + m![0].length;
    }
    // The folder means its newest log: the same transcript.
    expect((await runMain(['replay', '--transcript', dir])).stdout).toBe(out);

    const json = await runMain(['replay', '--transcript', '--json', '--cwd', dir, 's1']);
    expect(json.status).toBe(0);
    const { transcript } = JSON.parse(json.stdout) as { transcript: Record<string, unknown>[] };
    expect(transcript.map((e) => e.kind)).toEqual([
      'run',
      'user',
      'assistant',
      'tool_call',
      'tool_result',
      'assistant',
      'tool_call',
      'tool_result',
      'end',
    ]);
    expect(transcript[1]).toMatchObject({ kind: 'user', source: 'user', text: 'fix the range' });
    expect(transcript[3]).toMatchObject({
      kind: 'tool_call',
      id: 'e1',
      name: 'edit',
      args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' },
    });
    expect(transcript[4]).toMatchObject({ kind: 'tool_result', id: 'e1', name: 'edit', ok: true });
    expect(transcript[4]!.summary).toEqual(expect.any(String));
    expect(transcript[8]).toMatchObject({ kind: 'end', status: 'completed', completion: 'verified' });

    expect(await runMain(['replay', '--transcript', '--web', '--cwd', dir, 's1'])).toMatchObject({ status: 2 });
  });

  it("shows a hostile log's text without its terminal control sequences", async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'Hello \u001b]0;pwned\u0007there.' }])}`;
    expect((await runMain(['run', '--model', model, '--cwd', dir, 'hi \u001b[2Jthere'])).status).toBe(0);
    const r = await runMain(['replay', '--transcript', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
    expect(r.stdout).toContain('model: Hello');
  });
});
