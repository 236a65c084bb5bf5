// `npm run demo`'s underlying command (`node apps/examples/demo.mjs`): a verified run of the real
// kernel and tools on a copy of demo-repo, then its replay. The bundled repository stays untouched.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const app = join(import.meta.dirname, '..');

describe('npm run demo (main job)', () => {
  it('fixes the failing test, ends verified, and prints the replay of that run', () => {
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const r = spawnSync(process.execPath, [join(app, 'demo.mjs')], { cwd: app, encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('model scripted (apps/examples/demo-model.json)');
    expect(r.stdout).toMatch(/● edit src\/range\.js\n {2}✓ ok/);
    expect(r.stdout).toContain("verification 'range() includes its end': passed");
    expect(r.stdout).toContain('completed (verified) · 4 tool call(s) · 8192 in / 165 out tokens');
    const replay = r.stdout.slice(r.stdout.indexOf('$ node packages/cli/dist/bin.js replay --cwd '));
    expect(replay).toMatch(/run run-[0-9a-f-]+: completed \(verified\)/);
    expect(replay).toContain('phases: idle@1 → infer@2 → tool@3');
    expect(replay).toContain('tool calls: 4 (4 ok, 0 failed)');
    expect(replay).toContain('tokens: 8192 in, 165 out');
    expect(replay).toMatch(/digest: seq 11, sha256 [0-9a-f]{64}/);
    // The demo worked on a copy, which it names last so it can be looked at (and removed).
    expect(readFileSync(join(app, 'demo-repo', 'src', 'range.js'), 'utf8')).toContain('i < end');
    const copy = /demo: a copy of apps\/examples\/demo-repo in (\S+);/.exec(r.stdout)?.[1];
    expect(copy).toBeDefined();
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      `demo: the copy stays in ${copy} (its fact log: .a3s/effect-log/demo.jsonl); rm -rf it when done`,
    );
    expect(readFileSync(join(copy!, 'src', 'range.js'), 'utf8')).toContain('i <= end');
    rmSync(copy!, { recursive: true, force: true });
  });

  it('with a real model and no key: the missing variable, and no replay of a log that was never written', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_MODEL: 'openai/gpt-4o' };
    delete env.OPENAI_API_KEY;
    const r = spawnSync(process.execPath, [join(app, 'demo.mjs')], { cwd: app, encoding: 'utf8', env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('OPENAI_API_KEY: is not set');
    expect(r.stdout).not.toContain('replay --cwd');
    expect(r.stderr).not.toContain('no fact log');
    // Nothing ran: the copy is not left behind.
    const copy = /demo: a copy of apps\/examples\/demo-repo in (\S+);/.exec(r.stdout)?.[1];
    expect(copy).toBeDefined();
    expect(existsSync(copy!)).toBe(false);
  });
});
