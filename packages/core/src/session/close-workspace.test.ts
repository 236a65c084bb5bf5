import { describe, expect, it } from 'vitest';
import { WORKSPACE_CAPABILITIES, type WorkspaceExecResult, type WorkspaceServices } from '../index.js';
import { open } from '../../test/session-kit.js';

/** A workspace whose exec service counts `close()` calls. */
function countingWorkspace(withClose: boolean): { services: WorkspaceServices; closes: () => number } {
  let closes = 0;
  const run = (): Promise<WorkspaceExecResult> => Promise.reject(new Error('not used'));
  const exec = withClose ? { run, close: async () => void closes++ } : { run };
  const services = { root: '/ws', capabilities: new Set(WORKSPACE_CAPABILITIES), exec } as unknown as WorkspaceServices;
  return { services, closes: () => closes };
}

describe('AgentSession.close and the workspace', () => {
  it("ends the processes commands left running: calls the workspace exec service's close() once", async () => {
    const ws = countingWorkspace(true);
    const { session } = await open([{ text: 'hi' }], { workspace: ws.services });
    await session.send('hello');
    expect(ws.closes()).toBe(0);
    await session.close();
    await session.close();
    expect(ws.closes()).toBe(1);
  });

  it('close() called again while the first close runs resolves only once everything is closed', async () => {
    let ended = false;
    const run = (): Promise<WorkspaceExecResult> => Promise.reject(new Error('not used'));
    const close = async () => {
      await new Promise((r) => setTimeout(r, 30));
      ended = true;
    };
    const services = { root: '/ws', capabilities: new Set(WORKSPACE_CAPABILITIES), exec: { run, close } };
    const { session } = await open([{ text: 'hi' }], { workspace: services as unknown as WorkspaceServices });
    const first = session.close();
    await session.close();
    expect(ended).toBe(true);
    await first;
  });

  it('closes fine when the exec service has no close()', async () => {
    const ws = countingWorkspace(false);
    const { session } = await open([{ text: 'hi' }], { workspace: ws.services });
    await expect(session.close()).resolves.toBeUndefined();
  });
});
