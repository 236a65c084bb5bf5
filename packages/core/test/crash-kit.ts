// SIGKILL crash rounds with real child processes, shared by the test suite (a few seeded rounds)
// and `pnpm soak` (many). Each round returns what it saw and the invariants it found broken, so
// the test asserts on them and the soak prints a table.
//
// Kill points come from a seeded generator: the same seed plans the same kill points. A point is a
// place in the child's run (after `ready`, after the k-th tool execution, after the run
// finished); a round kills there either from the child itself (after a few event-loop turns, a
// point that does not depend on scheduling) or from the parent (SIGKILL after a short timer, so
// the kill lands wherever the child happens to be).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { effectLogPath, parseLog } from '@a3s-code/effect';
import { Agent, FileSessionStore } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { crashModel, recordPack, ROUNDS } from './fixtures/crash-world.mjs';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { FILLER, generation } from './fixtures/save-loop.mjs';

const fixtures = join(import.meta.dirname, 'fixtures');

/**
 * Rounds and seed from the environment: `A3S_CRASH_ROUNDS`, `A3S_CRASH_SEED` (default: a fixed
 * seed, so the suite is the same on every run; the soaks draw a fresh one).
 */
/** The suite's seed unless `A3S_CRASH_SEED` says otherwise. */
export const DEFAULT_CRASH_SEED = 20_261_201;

export function crashSettings(defaultRounds: number): { rounds: number; seed: number; parallel: number } {
  const rounds = Number(process.env.A3S_CRASH_ROUNDS ?? defaultRounds);
  const seed = Number(process.env.A3S_CRASH_SEED ?? DEFAULT_CRASH_SEED);
  const parallel = Number(process.env.A3S_CRASH_PARALLEL ?? 3);
  return { rounds, seed, parallel };
}

/** mulberry32: a small seeded generator; `random(seed, i)` is the i-th round's own stream. */
export function random(seed: number, stream = 0): () => number {
  let state = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Runs `count` rounds, at most `parallel` at once; results in round order. */
export async function inParallel<T>(count: number, parallel: number, round: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      results[i] = await round(i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, count)) }, lane));
  return results;
}

/** A fixture script in a child process; `line(text)` resolves once its stdout shows `text`. */
export function child(script: string, args: string[]) {
  const p = spawn(process.execPath, [join(fixtures, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => p.on('exit', (code) => resolve(code)));
  const line = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (out.includes(text) ? resolve() : undefined);
      p.stdout.on('data', check);
      check();
      void exited.then(() =>
        out.includes(text) ? resolve() : reject(new Error(`child exited before '${text.trim()}': ${err}`)),
      );
    });
  return { p, exited, line, output: () => out };
}

// ---------------------------------------------------------------------------------------------
// A run killed mid-way and resumed in another process.

/** Where a round kills the child: `ready` (before the run), `did N` (after the N-th tool execution) or `finished`. */
export const KILL_POINTS: readonly string[] = [
  'ready',
  ...Array.from({ length: ROUNDS * 2 }, (_, k) => `did ${k + 1}`),
  'finished',
];

export interface KillPlan {
  point: string;
  by: 'self' | 'parent';
  /** Event-loop turns (self) or milliseconds (parent) between the point and the kill. */
  after: number;
}

/** The seed's plan: rounds walk a seeded shuffle of every point × killer, so even a few rounds spread out. */
export function killPlans(seed: number, rounds: number): KillPlan[] {
  const combos = KILL_POINTS.flatMap((point) => (['self', 'parent'] as const).map((by) => ({ point, by })));
  const order = shuffled(combos, random(seed));
  return Array.from({ length: rounds }, (_, i) => {
    const next = random(seed, i + 1);
    const { point, by } = order[i % order.length]!;
    return { point, by, after: by === 'self' ? Math.floor(next() * 6) : Math.floor(next() * 10) };
  });
}

export interface CrashRound {
  plan: KillPlan;
  killedMidRun: boolean;
  /** Tool calls whose result was in the log at the kill. */
  recorded: number;
  /** Calls the child executed without a recorded result that the resumed run executed again. */
  reran: number;
  /** Broken invariants; empty when the round passed. */
  problems: string[];
}

export async function crashRound(plan: KillPlan): Promise<CrashRound> {
  const problems: string[] = [];
  const result: CrashRound = { plan, killedMidRun: false, recorded: 0, reran: 0, problems };
  try {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-crash-'));
    const execFile = join(dir, 'executions.txt');
    writeFileSync(execFile, '');
    const args = plan.by === 'self' ? [dir, execFile, plan.point, String(plan.after)] : [dir, execFile];
    const c = child('crash-child.mjs', args);
    if (plan.by === 'parent') {
      await c.line(`${plan.point}\n`);
      await new Promise((r) => setTimeout(r, plan.after));
      c.p.kill('SIGKILL');
    }
    await c.exited;
    // A parent's kill may come after the child exited on its own, once its run finished.
    if (c.p.signalCode !== 'SIGKILL' && (plan.by === 'self' || c.p.exitCode !== 0))
      problems.push(`the child was not killed (exit ${c.p.exitCode})`);
    result.killedMidRun = !c.output().includes('finished');

    const logFile = join(dir, effectLogPath('crash'));
    const before = existsSync(logFile) ? parseLog(readFileSync(logFile, 'utf8')) : { facts: [] };
    const recorded = new Set(
      before.facts
        .filter((f) => f.type === 'tool.result')
        .map((f) => (f.payload as { tool_call_id: string }).tool_call_id),
    );
    result.recorded = recorded.size;

    const agent = await Agent.create({
      model: crashModel,
      tools: [recordPack(execFile, 'parent')],
      permissions: { defaultDecision: 'allow' },
      toolBudget: 100,
    });
    const session = await agent.session(dir, { sessionId: 'crash' });
    try {
      if (session.state.counters.facts === 0) await session.send('record everything');
      else {
        const r = await session.resumeRun();
        // The child had finished its run before the kill: nothing to resume.
        if (r.text !== 'all recorded' && r.steps !== 0)
          problems.push(`resumeRun ended with '${r.text}' after ${r.steps} steps`);
      }
      if (session.state.view.assistant_text !== 'all recorded')
        problems.push(`the session ends with '${session.state.view.assistant_text}', not 'all recorded'`);
    } finally {
      await session.close();
    }
    const execs = readFileSync(execFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]);
    for (const id of recorded)
      if (execs.some(([who, x]) => who === 'parent' && x === id))
        problems.push(`call ${id} had a result before the crash but ran again`);
    const byChild = new Set(execs.filter(([who]) => who === 'child').map(([, x]) => x));
    result.reran = execs.filter(([who, x]) => who === 'parent' && byChild.has(x)).length;
    const after = parseLog(readFileSync(logFile, 'utf8'));
    if (after.torn !== undefined) problems.push(`the log is torn after the resume: ${JSON.stringify(after.torn)}`);
    const results = after.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => (f.payload as { tool_call_id: string }).tool_call_id);
    if (results.length !== ROUNDS * 2) problems.push(`${results.length} tool results, expected ${ROUNDS * 2}`);
    if (new Set(results).size !== results.length) problems.push(`duplicate tool results: ${results.join(',')}`);
    for (const id of results)
      if (execs.filter(([, x]) => x === id).length > 2) problems.push(`call ${id} ran more than twice`);
  } catch (error) {
    problems.push(`threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// SIGKILL while FileSessionStore saves large snapshots.

/** Where a kill lands: during the child's start-up, inside its first save, or in its save loop. */
export type SaveKillPhase = 'startup' | 'first save' | 'save loop';

export interface SaveKill {
  round: number;
  phase: SaveKillPhase;
  delayMs: number;
  before: number;
  after: number;
  /** A temporary file was left behind: the kill landed inside a save. */
  torn: boolean;
  problems: string[];
}

/**
 * Rounds rotate through the phases: a timer from spawn (the child is still starting: the old
 * generation must survive), from `start` (inside the first new save) and from `ready` (somewhere in
 * the save loop: a newer generation must load).
 */
export function saveKillPlan(seed: number, round: number): { phase: SaveKillPhase; delayMs: number } {
  const next = random(seed, round + 1);
  const phase = (['startup', 'first save', 'save loop'] as const)[round % 3]!;
  return { phase, delayMs: Math.floor(next() * (phase === 'startup' ? 80 : phase === 'first save' ? 20 : 40)) };
}

export async function saveKill(seed: number, round: number): Promise<SaveKill> {
  const { phase, delayMs } = saveKillPlan(seed, round);
  const before = 1000 * (round + 1);
  const problems: string[] = [];
  const result: SaveKill = { round, phase, delayMs, before, after: -1, torn: false, problems };
  try {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-crash-'));
    const store = new FileSessionStore(dir);
    await store.saveSnapshot(generation(before));
    const c = child('save-loop.mjs', [dir, String(before + 1)]);
    if (phase === 'first save') await c.line('start\n');
    if (phase === 'save loop') await c.line('ready\n');
    await new Promise((r) => setTimeout(r, delayMs));
    c.p.kill('SIGKILL');
    await c.exited;
    result.torn = readdirSync(store.folder).some((n) => n.startsWith('.tmp-'));
    const loaded = await store.loadSnapshot('crash');
    if (!loaded) {
      problems.push('no snapshot loads after the kill');
      return result;
    }
    const g = loaded.updated_at_ms;
    result.after = g;
    const text = (loaded.conversation[0] as { text: string }).text;
    // A complete generation: every part agrees on its number.
    if (!text.startsWith(`g${g}:`)) problems.push(`generation ${g}: the text starts with '${text.slice(0, 12)}'`);
    if (text.length !== `g${g}:`.length + FILLER + (g % 7) * 1000)
      problems.push(`generation ${g}: the text has ${text.length} characters`);
    if (loaded.runs[0]?.run_id !== `run-${g}`) problems.push(`generation ${g}: run ${loaded.runs[0]?.run_id}`);
    if (g < before) problems.push(`generation ${g} is older than the one saved before the kill (${before})`);
    // Only the published file is visible to listings; a torn temporary file never is.
    const listed = (await store.listSessions()).map((s) => s.sessionId);
    if (JSON.stringify(listed) !== '["crash"]') problems.push(`listSessions: ${JSON.stringify(listed)}`);
    const files = readdirSync(store.folder).filter((n) => !n.startsWith('.tmp-'));
    if (JSON.stringify(files) !== '["crash.json"]') problems.push(`files: ${JSON.stringify(files)}`);
  } catch (error) {
    problems.push(`threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  return result;
}
