// Shared setup for the delegation tests: a model that routes each request to the script of the
// (sub-)agent whose prompt opened the conversation, so parallel children stay deterministic.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog, threadIdFor, type Fact } from '@a3s-code/effect';
import type { LlmClient, LlmRequest, LlmStreamEvent } from '../src/index.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../src/testing/index.js';

/** Routes a request to the scripted client keyed by the first user message; counts concurrency. */
export class RoutingLlmClient implements LlmClient {
  readonly provider = 'scripted';
  readonly model = 'routing';
  readonly capabilities: LlmClient['capabilities'];
  readonly clients = new Map<string, ScriptedLlmClient>();
  running = 0;
  maxRunning = 0;

  constructor(scripts: Record<string, ScriptedTurn[]>) {
    for (const [k, v] of Object.entries(scripts)) this.clients.set(k, new ScriptedLlmClient(v));
    this.capabilities = new ScriptedLlmClient([]).capabilities;
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    const first = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const client = this.clients.get(first);
    if (!client) throw new Error(`no script for prompt '${first}'`);
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      yield* client.stream(request);
    } finally {
      this.running--;
    }
  }
}

/** The facts of a child thread on disk. */
export function childFacts(dir: string, sessionId: string, n: number): Fact[] {
  const path = join(dir, '.a3s', 'effect-log', `${threadIdFor(sessionId)}.task-${n}.jsonl`);
  return parseLog(readFileSync(path, 'utf8')).facts;
}

/** Tool results of a fact list: `[name, ok, output]`. */
export const results = (facts: readonly Fact[]) =>
  facts
    .filter((f) => f.type === 'tool.result')
    .map((f) => {
      const p = f.payload as { name: string; ok: boolean; output: string };
      return [p.name, p.ok, p.output] as const;
    });
