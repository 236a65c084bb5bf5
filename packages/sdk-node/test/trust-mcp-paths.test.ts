// An MCP server opens files itself, out of the kernel's reach: a path deny rule holds for an MCP
// call by its arguments instead. A path the rule covers, in any argument and spelling (relative,
// absolute, `..`, a `file://` URI, in a list), denies the call before the server sees it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { call, DENY, expectNoLeak, NESTED, results, run, SECRET, workspace } from './read-deny-kit.js';

const files = {
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/mcp-files-server.mjs', import.meta.url))],
};

describe('path rules on MCP calls', () => {
  it('PERM-02: Read(.env), Read(secret/**) and Write(secret/**) deny an MCP call naming those paths; other paths pass', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        call('m1', 'mcp__files__read_file', { path: join(dir, '.env') }),
        call('m2', 'mcp__files__read_file', { path: `${dir}/src/../secret/k.ts` }),
        call('m3', 'mcp__files__read_multiple_files', { paths: [join(dir, 'src', 'public.ts'), `${dir}/.env`] }),
        call('m4', 'mcp__files__write_file', { path: join(dir, 'secret', 'k.ts'), content: 'pwned' }),
        call('ok', 'mcp__files__read_file', { path: join(dir, 'src', 'public.ts') }),
      ],
      { permissions: { deny: [...DENY.deny, 'Write(secret/**)'] }, mcpServers: { files } },
    );
    const got = results(session);
    expect(got.get('m1')).toMatchObject({ ok: false, output: 'Permission denied: Read(.env)' });
    expect(got.get('m2')).toMatchObject({ ok: false, output: 'Permission denied: Read(secret/**)' });
    expect(got.get('m3')).toMatchObject({ ok: false, output: 'Permission denied: Read(.env)' });
    expect(got.get('m4')?.ok).toBe(false);
    expect(got.get('ok')).toMatchObject({ ok: true, output: expect.stringContaining('SECRET_TOKEN_NAME') });
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
    expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).toContain(NESTED);
  });
});
