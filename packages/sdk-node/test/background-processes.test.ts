// A process a `bash` call leaves running (`server &`) is reported and dies with the session.
import { readFileSync, readdirSync } from 'node:fs';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const MARKER = 'sleep 309.23';
let session: Session | undefined;

/** Live (non-zombie) pids running the marker command. */
function strays(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return (
          readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(MARKER) &&
          !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${name}/stat`, 'utf8'))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

afterEach(async () => {
  await session?.close();
  session = undefined;
  for (const pid of strays()) process.kill(pid, 'SIGKILL');
});

describe.skipIf(process.platform !== 'linux')('background processes of bash', () => {
  it('are reported by the call and killed when the session closes', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    session = await agent.session(tempRepo());
    const output = await session.bash(`${MARKER} & echo $!`);
    const pid = Number(output.split('\n')[0]);
    expect(output).toContain(`[1 background process still running: ${pid} ${MARKER}.`);
    expect(strays()).toEqual([pid]);
    await session.close();
    await agent.close();
    expect(strays()).toEqual([]);
  });
});
