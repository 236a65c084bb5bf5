// What git runs through a setting or an option that names a program is judged as the shell code
// it is: a trailer command, an IMAP tunnel, the upload-pack or receive-pack program of
// `git fetch-pack`, `git send-pack` and `git ls-remote`, and long options cut short as git reads
// them. `Bash(git:*)` does not cover them, and `Bash(rm:*)` denies them.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';

const policy = new PermissionPolicy({ allow: ['Bash(git:*)'], deny: ['Bash(rm:*)'], defaultDecision: 'ask' });
const decide = (command: string) => policy.evaluate('bash', { command }).decision;
const P = "'rm -f README.md; id > PWNED'";

describe('what git runs through settings and options that name a program', () => {
  it('PERM-02: a setting given with -c that git runs as a command is judged, under any spelling of its key', () => {
    for (const command of [
      `git -c trailer.x.cmd=${P} interpret-trailers --trailer x=1`,
      `git -c trailer.y.command=${P} commit --allow-empty -m m --trailer y=1`,
      `git -c Trailer.Y.Command=${P} commit --allow-empty -m m --trailer y=1`,
      `git format-patch -1 --stdout HEAD | git -c imap.tunnel=${P} -c imap.folder=x imap-send`,
      `git -c core.alternateRefsCommand=${P} fetch origin`,
      `git -c hook.h.command=${P} commit -m m`,
      `git -c tar.x.command=${P} archive --format=x HEAD`,
      `git --config-env=trailer.x.cmd=CMD interpret-trailers --trailer x=1`,
      // Set now, run by a later command.
      `git config trailer.x.cmd ${P}`,
      `git config --global imap.tunnel ${P}`,
    ])
      expect(decide(command), command).toBe('deny');
  });

  it('PERM-02: the upload-pack, receive-pack or exec program of a transport command is judged, its option cut short too', () => {
    for (const command of [
      `git fetch-pack --upload-pack=${P} . HEAD`,
      `git fetch-pack --exec=${P} . HEAD`,
      `git send-pack --receive-pack=${P} . HEAD:refs/heads/x`,
      `git send-pack --exec=${P} . HEAD:refs/heads/x`,
      `git send-pack --rec=${P} . HEAD:refs/heads/x`,
      `git ls-remote --exec=${P} .`,
      `git ls-remote --upload=${P} .`,
      `git push --ex=${P} . HEAD:refs/heads/z`,
      `git fetch --upl=${P} .`,
      `git clone --upload-p ${P} . d`,
      `git archive --remote=. --exe=${P} HEAD`,
      `git rebase --exe=${P} HEAD`,
    ])
      expect(decide(command), command).toBe('deny');
    // A remote helper that runs its command word, and a template given by a cut-short option.
    for (const command of ["git remote-ext x 'sh -c id'", 'git init --templ=/tmp/t', 'git clone --temp /tmp/t . d'])
      expect(decide(command), command).not.toBe('allow');
  });

  it('PERM-03: everyday settings and options stay allowed', () => {
    for (const command of [
      'git -c user.name=t commit --allow-empty -m m --trailer "Signed-off-by: t"',
      'git interpret-trailers --trailer x=1',
      'git fetch-pack --all . HEAD',
      'git send-pack . HEAD:refs/heads/x',
      'git ls-remote --exit-code .',
      'git push --force-with-lease origin main',
      'git fetch --unshallow origin',
      'git config user.email t@example.com',
    ])
      expect(decide(command), command).toBe('allow');
  });
});
