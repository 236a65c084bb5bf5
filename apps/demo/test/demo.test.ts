import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const app = join(import.meta.dirname, '..');

describe('npm run demo (main job)', () => {
  it('replays the bundled example log and prints its summary and conversation', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(app, 'src', 'main.ts')], { cwd: app, encoding: 'utf8' });
    expect(out).toContain('run demo-1: completed (narrative)');
    expect(out).toContain('tool calls: 6 (6 ok, 0 failed)');
    expect(out).toMatch(/digest: seq 14, sha256 [0-9a-f]{64}/);
    expect(out).toContain('confirmations: 1 approved, 0 refused');
    expect(out).toContain('← bash ok: math: ok');
  });
});
