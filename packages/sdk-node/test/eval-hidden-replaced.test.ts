// A file the read rules keep from an eval kernel stays kept from it when the person replaces it
// while the kernel lives: an editor saves by writing a new file and renaming it over the old one,
// and a new `.env` is another file than the one hidden when the kernel started. The next cell
// finds the kernel restarted with the new file out of its reach (saying its earlier state is
// lost), never reading the new secret.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { toolResults } from './kit.js';
import { call, DENY, workspace, replacements } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux';
const NEW_SECRET = 'ROTATED_TOKEN=swordfish-77d2';

const cell = (id: string, code: string) =>
  call(id, 'eval', { code, language: 'python', description: 'look at the environment file' });

describe.skipIf(!CAN_HIDE)('an eval kernel and a denied file replaced while it lives', () => {
  it.each(replacements(NEW_SECRET))('PERM-02: %s: the next cell cannot read it either', async (_label, replace) => {
    const dir = workspace();
    const model = new ScriptedLlmClient([
      cell(
        'e1',
        "state = 41\ntry:\n    print(open('.env').read())\nexcept Exception as e:\n    print('refused', type(e).__name__)",
      ),
      { text: 'Done.' },
      cell(
        'e2',
        "try:\n    print(open('.env').read())\nexcept Exception as e:\n    print('refused', type(e).__name__)",
      ),
      { text: 'Done.' },
    ]);
    const session = await (await Agent.create({ model })).session(dir, {
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
      permissions: DENY,
    });
    try {
      await session.send('first');
      expect(toolResults(session).get('e1')?.output).toContain('refused PermissionError');
      replace(dir);
      await session.send('second');
      const second = toolResults(session).get('e2')?.output ?? '';
      expect(second).not.toContain('swordfish');
      expect(second).toContain('refused PermissionError');
      expect(second).toContain('restarted because the files the permission rules keep from it changed');
    } finally {
      await session.close();
    }
  });
});
