// A command has no terminal: an editor it starts cannot be used, but vi started without one reads
// its commands from the command's input. Every command runs with `true` as its editor.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initRepo, tempDir } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(async () => {
  await ws.close();
  tmp.cleanup();
});
const HAS_VI = ['/usr/bin/vi', '/bin/vi'].some(existsSync);

describe('the editor of every command', () => {
  it('is true for git and the programs that read EDITOR or VISUAL, unless the command names one itself', async () => {
    const r = await ws.exec!.run({
      command: 'echo "$EDITOR|$VISUAL|$GIT_EDITOR|$GIT_SEQUENCE_EDITOR"; GIT_EDITOR=cat sh -c \'echo $GIT_EDITOR\'',
    });
    expect(r.stdout.head).toBe('true|true|true|true\ncat\n');
  });

  it.skipIf(!HAS_VI)(
    "git commit without -m fed vi's commands on its input runs none of them, and stops for an empty message",
    async () => {
      initRepo(tmp.dir);
      const r = await ws.exec!.run({
        command: `git -c user.name=t -c user.email=t@example.com commit --allow-empty <<< $':!touch PWNED\\n:q!\\n'; git config --edit <<< $':!touch PWNED2\\n'`,
      });
      expect(existsSync(join(tmp.dir, 'PWNED'))).toBe(false);
      expect(existsSync(join(tmp.dir, 'PWNED2'))).toBe(false);
      expect(`${r.stderr.head}${r.stdout.head}`).toContain('empty commit message');
    },
  );
});
