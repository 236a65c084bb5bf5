// The README's SDK example is a real file; this runs it as a user would (offline, scripted model).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const app = join(import.meta.dirname, '..');

describe('apps/examples/sdk-example.ts', () => {
  it('runs to a verified fix and uses the host-direct helpers', () => {
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(app, 'sdk-example.ts')], {
      cwd: app,
      encoding: 'utf8',
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.match(/^tool: (\w+)$/gm)).toEqual([
      'tool: grep',
      'tool: read',
      'tool: edit',
      'tool: verify',
      'tool: bash',
    ]);
    expect(r.stdout).toContain('run: completed (verified), 4 tool calls');
    expect(r.stdout).toContain("files: [ 'src/range.js', 'test/range.test.js' ]");
    expect(r.stdout).toContain('fixed line: src/range.js:4:  for (let i = start; i <= end; i++) out.push(i);');
    expect(r.stdout).toContain('tests: # pass 2');
    expect(r.stdout).toMatch(/verification: passed; log: .*\.a3s\/effect-log\/session-[0-9a-f-]+\.jsonl/);
  });

  it('a model without its key ends with one line naming the variable (exit 2), no stack trace', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_MODEL: 'openai/gpt-4o' };
    delete env.OPENAI_API_KEY;
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(app, 'sdk-example.ts')], {
      cwd: app,
      encoding: 'utf8',
      env,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe(
      "sdk-example: model configuration: OPENAI_API_KEY: is not set; it is required for model 'openai/gpt-4o'\n",
    );
  });

  it('is the example the README shows, verbatim (after its two comment lines)', () => {
    const file = readFileSync(join(app, 'sdk-example.ts'), 'utf8').split('\n').slice(2).join('\n');
    expect(readFileSync(join(app, '..', '..', 'README.md'), 'utf8')).toContain(`\`\`\`ts\n${file}\`\`\``);
  });
});
