// Shared setup for the session tests: a real Agent with the scripted model and the test tool pack.
import { afterEach } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  type SessionOptions,
  type AgentSession,
  WORKSPACE_CAPABILITIES,
  type WorkspaceServices,
} from '../src/index.js';
import { createTestToolPack, ScriptedLlmClient, type ScriptedTurn } from '../src/testing/index.js';

/** A workspace folder plus a workspace declaring every capability (the test tools need none of them really). */
export function workspace(): { dir: string; services: WorkspaceServices } {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-session-'));
  return {
    dir,
    services: { root: dir, capabilities: new Set(WORKSPACE_CAPABILITIES) } as unknown as WorkspaceServices,
  };
}

/** Opens a session with a script and the test pack. */
export async function open(turns: ScriptedTurn[], options: SessionOptions = {}, dir?: string) {
  const ws = workspace();
  const model = new ScriptedLlmClient(turns);
  const test = createTestToolPack();
  const agent = await Agent.create({
    model,
    tools: [test.pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session: AgentSession = await agent.session(dir ?? ws.dir, options);
  return { session, model, state: test.state, dir: dir ?? ws.dir, agent };
}

/** The fact types of a session's log, in order. */
export const types = (s: AgentSession) => s.store.log.facts.map((f) => f.type);

/**
 * Closes, after each test, every session pushed to `sessions` or opened through `track`.
 * Call once at the top of a test file.
 */
export function closeAfterEach(): {
  readonly sessions: AgentSession[];
  readonly track: <T extends { session: AgentSession }>(p: Promise<T>) => Promise<T>;
} {
  const sessions: AgentSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });
  return {
    sessions,
    track: async (p) => {
      const x = await p;
      sessions.push(x.session);
      return x;
    },
  };
}
