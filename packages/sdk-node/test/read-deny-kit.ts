// The kit of the read deny tests: a temp git repo holding a secret `.env` and `secret/k.ts`
// (with links to both), a scripted session run that keeps every streamed event, and the check
// that the secret reached no tool result, event or fact log.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedTurn } from '@a3s-code/core/testing';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, expect } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

/** The secret line of `.env`. */
export const SECRET = 'SECRET_TOKEN=hunter2-e9b1c7';
/** The secret inside `secret/k.ts`. */
export const NESTED = 'NESTED_KEY=s3cr3t-4f0a';

/** Sessions opened by {@link run}, closed after each test. */
const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A model turn making one tool call. */
export const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});

/** Runs the turns; returns the session and the JSON of every event the run streamed. */
export async function run(dir: string, turns: ScriptedTurn[], options: SessionOptions = {}) {
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    governance: { yolo: true },
    gate: { continuation: { enabled: false } },
    ...options,
  });
  opened.push(session);
  const events: string[] = [];
  const stream = session.stream('go');
  try {
    for await (const e of stream) events.push(JSON.stringify(e));
  } catch {
    // a refused read may end the run early; what was streamed is still checked
  }
  await stream.result.catch(() => undefined);
  return { session, events };
}

/** The tool results of a session by call id. */
export const results = toolResults;

/** Every place the secret could surface: tool results, streamed events, the fact log in memory and on disk. */
export function expectNoLeak(dir: string, s: Session, events: readonly string[], secrets: readonly string[]): void {
  const logDir = join(dir, '.a3s', 'effect-log');
  const onDisk = readdirSync(logDir).map((f) => readFileSync(join(logDir, f), 'utf8'));
  const inMemory = JSON.stringify(s.core.store.log.facts);
  for (const secret of secrets) {
    const marker = secret.split('=')[1] as string;
    for (const [id, r] of results(s)) expect(r.output, id).not.toContain(marker);
    for (const e of events) expect(e).not.toContain(marker);
    expect(inMemory).not.toContain(marker);
    for (const text of onDisk) expect(text).not.toContain(marker);
  }
}

/** A temp git repo with the untracked secrets `.env`, `secret/k.ts` and the links `alias`, `vault` to them. */
export function workspace(): string {
  const dir = tempRepo();
  writeFileSync(join(dir, '.env'), `${SECRET}\n`);
  mkdirSync(join(dir, 'secret'));
  writeFileSync(join(dir, 'secret', 'k.ts'), `export const KEY = '${NESTED}';\n`);
  writeFileSync(join(dir, 'src', 'public.ts'), "export const SECRET_TOKEN_NAME = 'SECRET_TOKEN';\n");
  symlinkSync(join(dir, '.env'), join(dir, 'alias'));
  symlinkSync(join(dir, 'secret'), join(dir, 'vault'));
  return dir;
}

/** The read deny rules under test. */
export const DENY = { deny: ['Read(.env)', 'Read(secret/**)'] };

/** Whether the machine's Python has debugpy (the debug tests skip without it). */
export const DEBUGPY = spawnSync('/usr/bin/python3', ['-c', 'import debugpy']).status === 0;

/** Makes `dir` a Python project `debug` launches in: a root marker, a `.venv` on the system Python, and `program` holding `source`. */
export function debugProject(dir: string, program: string, source: string): void {
  writeFileSync(join(dir, 'requirements.txt'), '');
  writeFileSync(join(dir, program), source);
  mkdirSync(join(dir, '.venv', 'bin'), { recursive: true });
  symlinkSync('/usr/bin/python3', join(dir, '.venv', 'bin', 'python'));
}

/**
 * The ways a denied `.env` is replaced while a process that was kept from it lives, for `it.each`:
 * renamed over it (an editor saving) and removed and written again (which can reuse the inode).
 */
export function replacements(secret: string): [string, (dir: string) => void][] {
  return [
    [
      'renamed over it (an editor saving)',
      (dir) => {
        writeFileSync(join(dir, '.env.new'), `${secret}\n`);
        renameSync(join(dir, '.env.new'), join(dir, '.env'));
      },
    ],
    [
      'removed and written again',
      (dir) => {
        rmSync(join(dir, '.env'));
        writeFileSync(join(dir, '.env'), `${secret}\n`);
      },
    ],
  ];
}
