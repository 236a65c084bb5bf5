// The cost of holding a command an allow rule lets run unasked: a model-side `bash` call of
// `echo hi` allowed by `Bash(echo:*)` while a person could be asked (git's hooks, the agent's and
// the shell's configuration kept read-only in namespaces of its own, git's configuration files
// read before and after) against the same call under YOLO (not held), each a whole run of a
// session (the model's tool call, the call, the model's answer). Paired and alternated; BENCH_RUNS
// sets the number of pairs (default 100); BENCH_FOLDERS fills each workspace with that many folders
// (a file in each; 50 top-level folders holding the rest), to see what the searches of the
// workspace's folders before and after a held command cost (default 0). BENCH_HOLD=deny-program
// holds the command instead by a `Bash(curl:*)` deny rule under YOLO (the files of curl kept from
// it), against YOLO without the rule.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, noApprover } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { LocalWorkspace, workspaceToolPack } from '@a3s-code/tools-workspace';
import { fmt, pairedMedians } from './util.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 0);
const DENY_PROGRAM = process.env.BENCH_HOLD === 'deny-program';
const WARMUP = 10;
type Session = Awaited<ReturnType<Agent['session']>>;

function turns(n: number): ScriptedTurn[] {
  const out: ScriptedTurn[] = [];
  for (let i = 0; i < n; i++)
    out.push({ tool_calls: [{ id: `b${i}`, name: 'bash', args: { command: 'echo hi' } }] }, { text: 'done' });
  return out;
}

async function open(dir: string, held: boolean): Promise<Session> {
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns(RUNS + WARMUP)),
    tools: [workspaceToolPack],
    workspace: new LocalWorkspace({ root: dir }),
    persistence: 'memory',
    gate: { continuation: { enabled: false } },
    ...(!held
      ? { governance: { yolo: true } }
      : DENY_PROGRAM
        ? { governance: { yolo: true }, permissions: { deny: ['Bash(curl:*)'] } }
        : { permissions: { allow: ['Bash(echo:*)'] }, confirmation: noApprover }),
  });
  return agent.session(dir);
}

const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-bench-unasked-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  for (let i = 0; i < FOLDERS; i++) {
    const sub = join(dir, `d${i % 50}`, `f${i}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'x.txt'), 'x\n');
  }
  return dir;
};
const dirs = [folder(), folder()];
const held = await open(dirs[0] as string, true);
const yolo = await open(dirs[1] as string, false);
const call = (s: Session) => async (): Promise<void> => {
  const r = await s.send('run it');
  if (r.status !== 'completed' || r.toolCalls !== 1) throw new Error(`unexpected run: ${JSON.stringify(r)}`);
};
const r = await pairedMedians(RUNS, call(held), call(yolo), WARMUP);
console.log(
  `model-side bash 'echo hi' ${DENY_PROGRAM ? 'under YOLO with Bash(curl:*) denied (held)' : 'allowed by Bash(echo:*) (held)'}: ${fmt(r.ours, 2)} ms   the same under YOLO (not held): ${fmt(r.peer, 2)} ms   ratio ${fmt(r.ratio, 2)}x, +${fmt(r.ours - r.peer, 2)} ms (median of ${RUNS} pairs, a whole run each; ${FOLDERS} folders)`,
);
await held.close();
await yolo.close();
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
