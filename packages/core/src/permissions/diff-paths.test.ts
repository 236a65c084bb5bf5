import { describe, expect, it } from 'vitest';
import { unquoteDiffPath } from './diff-paths.js';
import { PermissionPolicy } from './permission-policy.js';

const policy = new PermissionPolicy({ allow: ['patch'], deny: ['Patch(secrets/**)'] });

describe('patch rule subjects: every name the patch tool reads', () => {
  it.each([
    ['quoted headers', '--- "a/secrets/key.txt"\n+++ "b/secrets/key.txt"\n@@ -1 +1 @@\n-x\n+y\n'],
    ['octal-escaped headers', '--- "a/secr\\145ts/key.txt"\n+++ "b/secr\\145ts/key.txt"\n@@ -1 +1 @@\n-x\n+y\n'],
    [
      'a pure git rename',
      'diff --git a/secrets/k b/pub\nsimilarity index 100%\nrename from secrets/k\nrename to pub\n',
    ],
    ['a git rename into the folder', 'diff --git a/pub b/secrets/k\nrename from pub\nrename to "secrets/k"\n'],
    ['a git copy', 'diff --git a/secrets/k b/pub\ncopy from secrets/k\ncopy to pub\n'],
    ['a CRLF patch', '--- a/secrets/k\r\n+++ b/secrets/k\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n'],
  ])('PERM-02: a path deny rule catches %s', (_, patch) => {
    expect(policy.evaluate('patch', { patch })).toEqual({ decision: 'deny', rule: 'Patch(secrets/**)' });
  });

  it('a patch elsewhere is still allowed', () => {
    const patch = 'diff --git a/a b/b\nrename from a\nrename to b\n--- "a/caf\\303\\251"\n+++ b/x\t2020-01-01\n';
    expect(policy.evaluate('patch', { patch })).toEqual({ decision: 'allow', rule: 'patch' });
  });

  it('unquotes git names as git writes them', () => {
    expect(unquoteDiffPath('plain name.txt')).toBe('plain name.txt');
    expect(unquoteDiffPath('"caf\\303\\251 \\"x\\"\\\\\\t.txt"')).toBe('café "x"\\\t.txt');
    expect(unquoteDiffPath('"na\\u00efve"')).toBe('naïve');
    expect(unquoteDiffPath('"bad\\"')).toBeUndefined();
  });
});
