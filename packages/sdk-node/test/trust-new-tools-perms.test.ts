// The attack of issue 14 on the newer writers: a path deny rule (`Write(secret/**)`) holds for
// every file any tool writes through the workspace (ast_edit/resolve, lsp_rename, edit), however
// the path is spelled; paths out of the workspace, through symbolic links or into `.git/` and
// `.a3s/` are refused with a typed error; debug never runs unasked; memories stay in `.a3s/memory`.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptedTurn } from '@a3s-code/core/testing';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, NO_APPROVER_REASON, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(dir: string, turns: ScriptedTurn[], options: SessionOptions = {}) {
  const session = await (await Agent.create({ model: new ScriptedLlmClient([...turns, { text: 'Done.' }]) })).session(
    dir,
    { governance: { yolo: true }, gate: { continuation: { enabled: false } }, ...options },
  );
  opened.push(session);
  await session.send('go').catch(() => undefined); // refused writes may leave the gate unsatisfied
  return session;
}
const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});
const results = toolResults;
const outside = () => mkdtempSync(join(tmpdir(), 'a3s-outside-'));
const DENY = { deny: ['Write(secret/**)'] };

describe('a path deny rule holds for every writer and every spelling', () => {
  it('PERM-02: Write(secret/**) stops write and edit under ./, .., //, absolute and symlinked spellings', async () => {
    const dir = tempRepo();
    mkdirSync(join(dir, 'secret'));
    writeFileSync(join(dir, 'secret', 'a.ts'), 'orig\n');
    symlinkSync(join(dir, 'secret'), join(dir, 'alias'));
    const spellings = [
      './secret/a.ts',
      'src/../secret/a.ts',
      'secret//a.ts',
      join(dir, 'secret', 'a.ts'),
      'alias/a.ts',
    ];
    const turns = spellings.flatMap((p, i) => [
      call(`w${i}`, 'write', { file_path: p, content: 'pwned\n' }),
      call(`e${i}`, 'edit', { file_path: p, old_string: 'orig', new_string: 'pwned' }),
    ]);
    const s = await open(dir, turns, { permissions: DENY });
    expect(readFileSync(join(dir, 'secret', 'a.ts'), 'utf8')).toBe('orig\n');
    for (const [id, r] of results(s)) {
      expect(r.ok, id).toBe(false);
      expect(r.output, id).toMatch(/^Permission denied: Write\(secret\/\*\*\)/);
    }
    expect(results(s).size).toBe(spellings.length * 2);
  });

  it('PERM-02: ast_edit + resolve cannot write under a denied path; the edit elsewhere still works', async () => {
    const dir = tempRepo();
    mkdirSync(join(dir, 'secret'));
    writeFileSync(join(dir, 'secret', 'a.ts'), 'dispose(x);\n');
    writeFileSync(join(dir, 'src', 'b.ts'), 'dispose(y);\n');
    const edit = (id: string, path: string) =>
      call(id, 'ast_edit', { pattern: 'dispose($X)', rewrite: '$X.dispose()', path, language: 'typescript' });
    const s = await open(
      dir,
      [
        edit('e1', 'secret'),
        call('r1', 'resolve', { edit_id: 'edit_1', action: 'accept' }),
        edit('e2', 'src/b.ts'),
        // The refused edit staged nothing: this one is the session's first staged edit.
        call('r2', 'resolve', { edit_id: 'edit_1', action: 'accept' }),
      ],
      { permissions: DENY },
    );
    expect(readFileSync(join(dir, 'secret', 'a.ts'), 'utf8')).toBe('dispose(x);\n');
    // The edit of a denied file is refused when asked for: nothing is staged, so nothing can be accepted.
    expect(results(s).get('e1')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied: Write(secret/**)'),
    });
    expect(results(s).get('r1')).toMatchObject({ ok: false, output: expect.stringContaining('AST_EDIT_UNKNOWN') });
    expect(readFileSync(join(dir, 'src', 'b.ts'), 'utf8')).toBe('y.dispose();\n');
    expect(results(s).get('r2')).toMatchObject({ ok: true });
  });

  it('PERM-02: lsp_rename cannot rewrite a file under a denied path (typescript-language-server)', async () => {
    const dir = tempRepo();
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { lib: ['es2022'], strict: true, noEmit: true, types: [] } }),
    );
    mkdirSync(join(dir, 'secret'));
    writeFileSync(join(dir, 'secret', 'k.ts'), 'export function key() {}\nkey();\n');
    const s = await open(
      dir,
      [call('r1', 'lsp_rename', { file: 'secret/k.ts', line: 1, symbol: 'key', new_name: 'pwn' })],
      {
        permissions: DENY,
      },
    );
    expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).toBe('export function key() {}\nkey();\n');
    expect(results(s).get('r1')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied: Write(secret/**)'),
    });
  }, 30_000);
});

describe('the newer writers stay inside the workspace and out of .git/ and .a3s/', () => {
  it('ASTE-03: ast_edit refuses ../, absolute outside, symlinked file and folder with WORKSPACE_PATH, .git/ and .a3s/ with AST_PATH', async () => {
    const dir = tempRepo();
    const out = outside();
    writeFileSync(join(out, 'x.ts'), 'dispose(x);\n');
    symlinkSync(join(out, 'x.ts'), join(dir, 'link.ts'));
    symlinkSync(out, join(dir, 'linkdir'));
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit.ts'), 'dispose(x);\n');
    mkdirSync(join(dir, '.a3s'), { recursive: true });
    writeFileSync(join(dir, '.a3s', 'state.ts'), 'dispose(x);\n');
    const paths = [
      '../',
      join(out, 'x.ts'),
      'link.ts',
      'linkdir',
      '.git/hooks/pre-commit.ts',
      'src/../.git',
      '.a3s/state.ts',
    ];
    const s = await open(
      dir,
      paths.map((path, i) =>
        call(`e${i}`, 'ast_edit', { pattern: 'dispose($X)', rewrite: 'gone($X)', path, language: 'typescript' }),
      ),
    );
    const r = results(s);
    for (const i of [0, 1, 2, 3])
      expect(r.get(`e${i}`)?.output, paths[i]).toMatch(/WORKSPACE_PATH|outside the workspace|climbs above/);
    for (const i of [4, 5, 6])
      expect(r.get(`e${i}`)?.output, paths[i]).toMatch(/^AST_PATH: .*folder tools may not write/);
    for (const [id, res] of r) expect(res.ok, id).toBe(false);
    expect(readFileSync(join(out, 'x.ts'), 'utf8')).toBe('dispose(x);\n');
    expect(readFileSync(join(dir, '.git', 'hooks', 'pre-commit.ts'), 'utf8')).toBe('dispose(x);\n');
  });

  it('lsp and lsp_rename refuse a file that leaves the workspace, directly or through a symbolic link', async () => {
    const dir = tempRepo();
    const out = outside();
    writeFileSync(join(out, 'x.ts'), 'export function outer() {}\nouter();\n');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { lib: ['es2022'], noEmit: true, types: [] } }),
    );
    symlinkSync(join(out, 'x.ts'), join(dir, 'link.ts'));
    const s = await open(dir, [
      call('r1', 'lsp_rename', { file: 'link.ts', line: 1, symbol: 'outer', new_name: 'pwn' }),
      call('r2', 'lsp_rename', { file: join(out, 'x.ts'), line: 1, symbol: 'outer', new_name: 'pwn' }),
      call('h1', 'lsp', { operation: 'hover', file: 'link.ts', line: 1, symbol: 'outer' }),
    ]);
    const r = results(s);
    expect(r.get('r1')?.output).toMatch(/^LSP_PATH: link\.ts resolves through a symbolic link to a place outside/);
    expect(r.get('r2')?.output).toMatch(/^LSP_PATH: .* is outside the workspace/);
    // The read-only lsp does not read the outside file either (its signature would leak).
    expect(r.get('h1')?.output).toMatch(/^LSP_PATH: link\.ts resolves through a symbolic link/);
    expect(readFileSync(join(out, 'x.ts'), 'utf8')).toBe('export function outer() {}\nouter();\n');
  });

  it('attachments given as ../, absolute outside or a symbolic link out are refused naming the path; nothing outside is read', async () => {
    const dir = tempRepo();
    const out = outside();
    writeFileSync(join(out, 's.txt'), 'OUTSIDE-SECRET');
    symlinkSync(join(out, 's.txt'), join(dir, 'l.txt'));
    const model = new ScriptedLlmClient([{ text: 'never' }]);
    const session = await (await Agent.create({ model })).session(dir);
    opened.push(session);
    for (const path of ['l.txt', '../x.txt', join(out, 's.txt')])
      await expect(session.send('look', { attachments: [{ type: 'file', path }] })).rejects.toMatchObject({
        code: 'ATTACHMENT_INVALID',
        message: expect.stringMatching(/outside the workspace|climbs above the workspace root/),
      });
    expect(model.requests).toHaveLength(0);
  });
});

describe('exec-tier debug and memory', () => {
  it('TIER-02/PERM-06: by default a debug call asks; with nobody to approve it is refused and starts no adapter', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'requirements.txt'), '');
    writeFileSync(join(dir, 'w.py'), "open('MARK', 'w').write('x')\n");
    const session = await (
      await Agent.create({
        model: new ScriptedLlmClient([call('d1', 'debug', { op: 'launch', program: 'w.py' }), { text: 'x' }]),
      })
    ).session(dir);
    opened.push(session);
    expect(await session.send('debug it')).toMatchObject({ status: 'completed', toolCalls: 0 });
    const answered = session.core.store.log.facts.filter((f) => f.type === 'confirmation.answered');
    expect(answered.map((f) => f.payload)).toEqual([
      expect.objectContaining({ tool_call_id: 'd1', approved: false, reason: NO_APPROVER_REASON }),
    ]);
    expect(existsSync(join(dir, 'MARK'))).toBe(false);
    expect(session.core.resources().find((r) => r.capability === 'resource.debug')?.state).toBe('attached');
  });

  it('BUILD-07: a symlinked .a3s/memory is refused with WORKSPACE_PATH; no memory is written or read outside', async () => {
    const dir = tempRepo();
    const out = outside();
    writeFileSync(
      join(out, 'k-planted.json'),
      JSON.stringify({ version: 1, id: 'k-planted', content: 'OUTSIDE', tags: [], created_at_ms: 1, updated_at_ms: 1 }),
    );
    mkdirSync(join(dir, '.a3s'));
    symlinkSync(out, join(dir, '.a3s', 'memory'));
    await expect((await Agent.create({ model: new ScriptedLlmClient([]) })).session(dir)).rejects.toMatchObject({
      code: 'SESSION_INITIALIZATION',
      message: expect.stringContaining('is a symbolic link'),
    });
    expect(readdirSync(out)).toEqual(['k-planted.json']);
  });

  it('a link put in place after the session opened is refused at the next remember and recall', async () => {
    const dir = tempRepo();
    const out = outside();
    const s = await open(dir, [
      call('m0', 'remember', { content: 'kept inside' }),
      call('x1', 'bash', { command: `rm -rf .a3s/memory && ln -s ${out} .a3s/memory` }),
      call('m1', 'remember', { content: 'pwn', key: '../../x' }),
      call('m2', 'recall', {}),
    ]);
    const r = results(s);
    expect(r.get('m0')?.ok).toBe(true);
    expect(r.get('m1')).toMatchObject({
      ok: false,
      output: expect.stringMatching(/memory: .*memory is a symbolic link/),
    });
    expect(r.get('m2')).toMatchObject({ ok: false, output: expect.stringMatching(/is a symbolic link/) });
    expect(readdirSync(out)).toEqual([]);
  });

  it('BND-01: remember content past 10,000 characters is INVALID_TOOL_ARGS naming the field; nothing is stored', async () => {
    const dir = tempRepo();
    const s = await open(dir, [call('m1', 'remember', { content: 'x'.repeat(10_001) })]);
    expect(results(s).get('m1')).toMatchObject({
      ok: false,
      output: expect.stringMatching(/content: must NOT have more than 10000 characters/),
      metadata: expect.objectContaining({ error_code: 'INVALID_TOOL_ARGS' }),
    });
    expect(existsSync(join(dir, '.a3s', 'memory')) ? readdirSync(join(dir, '.a3s', 'memory')) : []).toEqual([]);
  });
});
