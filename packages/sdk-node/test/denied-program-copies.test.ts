// A program a Bash deny rule denies with every argument does not run under another name: a copy
// of its file made by the model, a link to it, or the dynamic loader handed it. Its file is kept
// from every command (a copy comes out empty); other programs run as before.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, results, run, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const LOADER = ['/lib64/ld-linux-x86-64.so.2', '/lib/ld-linux-aarch64.so.1'].find((p) => existsSync(p));
const bash = (id: string, command: string) => call(id, 'bash', { command });
// `aGk=` is "hi" in base64.
const DECODES = 'hi';

describe.skipIf(!CAN_HIDE)('a denied program under another name', () => {
  it('PERM-02: a copy or a link of a denied program made by the model does not run it', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        bash('copy', 'cp "$(command -v base64)" ./b64; echo aGk= | ./b64 -d; echo " rc=$?"'),
        bash('later', 'echo aGk= | ./b64 -d; echo " rc=$?"'),
        bash('link', 'ln -s "$(command -v base64)" ./l64 && echo aGk= | ./l64 -d; echo " rc=$?"'),
        bash('named', 'echo aGk= | base64 -d'),
        bash('other', 'echo aGk= | od -c | head -1; git status --short | head -1'),
      ],
      { permissions: { deny: ['Bash(base64:*)'] } },
    );
    const got = results(session);
    for (const id of ['copy', 'later', 'link']) {
      expect(got.get(id)?.output, id).not.toContain(DECODES);
      expect(got.get(id)?.output, id).not.toContain(' rc=0');
    }
    expect(got.get('named')?.output).toContain('Permission denied: Bash(base64:*)');
    // Other programs are untouched.
    expect(got.get('other')?.output).toContain('a   G   k   =');
  });

  it('PERM-03: a rule denying a program builds run on (rm) reads the command line only: a script of the project still runs it', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        call('w', 'write', { file_path: 'clean.sh', content: '#!/bin/sh\ntouch junk && rm junk && echo cleaned\n' }),
        bash('script', 'chmod +x clean.sh && ./clean.sh'),
        bash('named', 'rm clean.sh'),
      ],
      { permissions: { deny: ['Bash(rm:*)'] } },
    );
    const got = results(session);
    expect(got.get('script')?.output).toContain('cleaned');
    expect(got.get('named')?.output).toContain('Permission denied: Bash(rm:*)');
  });

  it.skipIf(LOADER === undefined)('PERM-02: the dynamic loader handed a denied program is denied', async () => {
    const dir = workspace();
    const { session } = await run(dir, [bash('ld', `echo aGk= | ${LOADER} "$(command -v base64)" -d`)], {
      permissions: { deny: ['Bash(base64:*)'] },
    });
    expect(results(session).get('ld')?.output).not.toContain(DECODES);
  });
});
