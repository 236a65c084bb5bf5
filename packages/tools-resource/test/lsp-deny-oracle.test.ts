// A model that may write Go files but not read `secrets/**` steers whether gopls reports a
// duplicate map key (`secrets.Key >= "guess"` beside `true`) to learn the denied constant bit by
// bit. This test's workspace cannot keep files from a process (it has no `exec`), so gopls reads
// the denied file: the write, and `lsp diagnostics`, must then not tell whether a problem appeared.
// (Where the workspace can hide files, gopls runs without them: see sdk-node's
// trust-read-deny-lsp-oracle test.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource, serverById } from '../src/lsp.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

const GO_MISSING =
  'missing' in serverById('go')!.resolve() || spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0;
const SECRET = 'hunter2-e9b1c7';

let dir: string;
let lsp: LspResource;
let model: Caller;
let open: Caller;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-oracle-')));
  writeTree(dir, {
    'go.mod': 'module example.com/m\n\ngo 1.19\n',
    'secrets/key.go': `package secrets\n\nconst Key = "${SECRET}"\n`,
  });
  lsp = openLspResource();
  model = governed(dir, lsp, { deny: ['Read(secrets/**)'] });
  open = governed(dir, lsp, { deny: ['Read(.env)'] });
});
afterAll(async () => {
  await lsp.close();
  rmSync(dir, { recursive: true, force: true });
});

const probe = (guess: string) =>
  `package main\n\nimport "example.com/m/secrets"\n\nvar _ = map[bool]int{secrets.Key >= ${JSON.stringify(guess)}: 1, true: 2}\n`;

describe.skipIf(GO_MISSING)('a diagnostic as an oracle for a denied file (gopls, server not held)', () => {
  it('without the read rule, the probe answers (the duplicate key is reported iff the guess is at most the key)', async () => {
    const yes = await open('write', { file_path: 'c1.go', content: probe('h') });
    expect(yes.output).toContain('duplicate key');
    const no = await open('write', { file_path: 'c2.go', content: probe('i') });
    expect(no.output).not.toContain('New diagnostics');
  }, 90_000);

  it('under the read rule, writes and lsp diagnostics read the same whatever the guess', async () => {
    const outputs: string[] = [];
    for (const [i, guess] of ['h', 'i', 'hu', 'hv'].entries()) {
      const file = `p${i}.go`;
      const w = await model('write', { file_path: file, content: probe(guess) });
      const d = await model('lsp', { operation: 'diagnostics', file });
      for (const r of [w, d]) {
        expect(JSON.stringify(r.metadata ?? {})).not.toMatch(/DuplicateLitKey|duplicate/i);
        outputs.push(r.output.replaceAll(file, 'FILE'));
      }
      expect(w.output).toContain('Diagnostics not shown for');
      expect(w.output).toContain('Read(secrets/**)');
    }
    expect(new Set(outputs.filter((_, i) => i % 2 === 0)).size).toBe(1);
    expect(new Set(outputs.filter((_, i) => i % 2 === 1)).size).toBe(1);
  }, 90_000);
});
