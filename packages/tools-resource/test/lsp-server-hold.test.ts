// Language servers started through the call's hold on its processes: the command the hold gives
// runs, a server started keeping other files from itself is restarted for the call, and where the
// workspace cannot keep files from a process the call learns that its server is not held.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HeldProcessCommand, PermissionDeniedError, type ProcessCommand } from '@a3s-code/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspSupervisor, type ServerSpec } from '../src/lsp.js';

const SERVER = fileURLToPath(new URL('./fixtures/recording-lsp-server.mjs', import.meta.url));
let dir: string;
let sup: LspSupervisor;
const file = () => join(dir, 'a.fk');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-lsp-hold-'));
  writeFileSync(join(dir, 'fake.marker'), '');
  writeFileSync(file(), 'x\n');
  const spec: ServerSpec = {
    id: 'fake',
    extensions: ['.fk'],
    rootMarkers: ['fake.marker'],
    languageId: () => 'fake',
    resolve: () => ({ command: process.execPath, args: [SERVER, join(dir, 'plain.jsonl')] }),
  };
  sup = new LspSupervisor(dir, [spec]);
});
afterAll(async () => {
  await sup.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A hold keeping `hidden` from the process: the server records to a file named after them. */
const hold =
  (hidden: string[]) =>
  async (p: ProcessCommand): Promise<HeldProcessCommand> => ({
    command: p.command,
    args: [p.args[0]!, join(dir, `held-${hidden.join('+')}.jsonl`)],
    hidden,
  });
const started = (name: string) => existsSync(join(dir, name)) && readFileSync(join(dir, name), 'utf8').length > 0;

describe('language servers held to the read rules of the call', () => {
  it('the server starts through the hold, is shared while the hidden files stay, and restarts when they change', async () => {
    const a = await sup.forCall({ holdProcess: hold(['k1']), readRules: true }).clientFor(file());
    expect(a.kept).toBe(true);
    expect(started('held-k1.jsonl')).toBe(true);
    expect(started('plain.jsonl')).toBe(false);
    // Another call keeping the same files: the same server.
    const same = await sup.forCall({ holdProcess: hold(['k1']), readRules: true }).clientFor(file());
    expect(same.client).toBe(a.client);
    // A call keeping more: a server of its own, the old one stopped.
    const b = await sup.forCall({ holdProcess: hold(['k1', 'k2']), readRules: true }).clientFor(file());
    expect(b.client).not.toBe(a.client);
    expect(started('held-k1+k2.jsonl')).toBe(true);
    await expect.poll(() => a.client.exited).toBe(true);
    expect(sup.states()).toEqual([expect.objectContaining({ server: 'fake', state: 'running', restarts: 1 })]);
  });

  it('a workspace that cannot keep the files from a process runs the server as it is, and the call is told', async () => {
    const refuse = async (): Promise<HeldProcessCommand> => {
      throw new PermissionDeniedError('lsp', 'this workspace cannot hide files from a process');
    };
    const r = await sup.forCall({ holdProcess: refuse, readRules: true }).clientFor(file());
    expect(r.kept).toBe(false);
    expect(started('plain.jsonl')).toBe(true);
    // No hold at all under read rules: not kept either; without read rules nothing needs keeping.
    expect((await sup.forCall({ readRules: true }).clientFor(file())).kept).toBe(false);
    const free = await sup.forCall({ readRules: false }).clientFor(file());
    expect(free.kept).toBe(true);
    expect(free.client).toBe(r.client);
  });
});
