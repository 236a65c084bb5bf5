// The workspace's a3s.config.json `permissions` and the CLI's own allow list add up under
// `a3s run`: rules the user wrote are never dropped, and deny wins over ask over allow.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEventEnvelopeV1 } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

async function run(permissions: Record<string, unknown>, turns: unknown[], flags: string[] = []) {
  const dir = tempRepo();
  writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions }));
  const r = await runMain([
    'run',
    '--json',
    '--trust-workspace',
    ...flags,
    '--model',
    `scripted:${scriptFile(turns)}`,
    '--cwd',
    dir,
    'go',
  ]);
  const events = r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => parseEventEnvelopeV1(JSON.parse(l)));
  return { ...r, events, types: events.map((e) => e.type) };
}

const echo = [
  { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hello-from-bash' } }] },
  { text: 'Echoed.' },
];
const read = [{ tool_calls: [{ id: 'r1', name: 'read', args: { file_path: 'src/range.js' } }] }, { text: 'Read.' }];

describe('a3s run: workspace permissions merge with the CLI flags', () => {
  it("PERM-03: the workspace's allow ['Bash(echo:*)'] runs echo without parking, next to the CLI's own allow list", async () => {
    const r = await run({ allow: ['Bash(echo:*)'] }, echo);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.types).not.toContain('confirmation_required');
    expect(JSON.stringify(r.events.filter((e) => e.type === 'tool_end'))).toContain('hello-from-bash');
    // The CLI's own rule (read) still applies beside the workspace's.
    expect((await run({ allow: ['Bash(echo:*)'] }, read)).status).toBe(0);
  });

  it("PERM-02: a workspace deny wins over the CLI's allow, and over --yolo", async () => {
    for (const flags of [[], ['--yolo']]) {
      const r = await run({ deny: ['read'] }, read, flags);
      expect(r.status, flags.join(' ')).toBe(0);
      expect(r.events.find((e) => e.type === 'permission_denied')?.payload, flags.join(' ')).toMatchObject({
        tool_name: 'read',
        reason: 'read',
      });
    }
    const denied = await run({ allow: ['Bash(echo:*)'], deny: ['Bash(echo:*)'] }, echo);
    expect(denied.events.find((e) => e.type === 'permission_denied')?.payload).toMatchObject({ tool_name: 'bash' });
  });

  it("PERM-06: a workspace ask wins over the CLI's allow: the read parks for confirmation (exit 3)", async () => {
    const r = await run({ ask: ['read'] }, read);
    expect(r.status).toBe(3);
    expect(r.events.find((e) => e.type === 'confirmation_required')?.payload).toMatchObject({
      tool_name: 'read',
      rule: 'read',
    });
  });

  it('PERM-06: without the workspace rule bash still parks (exit 3) and the summary says how to go on', async () => {
    const dir = tempRepo();
    const r = await runMain([
      'run',
      '--model',
      `scripted:${scriptFile(echo)}`,
      '--cwd',
      dir,
      '--session',
      'ask-1',
      'go',
    ]);
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('parked: waiting for confirmation of bash echo hello-from-bash (b1)');
    expect(r.stdout).toContain('a3s sessions --resume ask-1');
    expect(r.stdout).toContain('--yolo');
  });
});
