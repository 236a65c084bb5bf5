// Helpers shared by the effect tests: build logs fact by fact, and a scripted executor.
import {
  drafts,
  type Decision,
  type Fact,
  type FactDraft,
  FactLog,
  type Transition,
  type FoldState,
  type ToolCall,
} from '../src/index.js';

let auto = 0;

/** A list of facts with seq and keys filled in. */
export class Facts {
  readonly list: Fact[] = [];
  add(type: string, payload: unknown, cause: string | null = null, key?: string): this {
    const seq = this.list.length + 1;
    this.list.push({ seq, type, key: key ?? `${type}:${seq}:${++auto}`, cause, payload });
    return this;
  }
  user(text: string, source: 'user' | 'steer' | 'history' | 'continuation' = 'user'): this {
    return this.add('user.message', { text, source });
  }
  text(text: string, usage = { input_tokens: 10, output_tokens: 5 }): this {
    return this.add('model.turn', { decision: { kind: 'text', text }, usage });
  }
  calls(...calls: (Partial<ToolCall> & { id: string })[]): this {
    const full = calls.map((c) => ({ name: 'read', args: {}, needs_confirmation: false, ...c }));
    return this.add('model.turn', {
      decision: { kind: 'tool', calls: full },
      usage: { input_tokens: 10, output_tokens: 5 },
    });
  }
  result(id: string, ok = true, name = 'read', output = `out-${id}`): this {
    return this.add('tool.result', { tool_call_id: id, name, ok, output, exit_code: ok ? 0 : 1 });
  }
  question(id: string, question = 'Which?'): this {
    return this.add('model.turn', {
      decision: {
        kind: 'question',
        question_id: id,
        question,
        options: [{ label: 'a' }, { label: 'b' }],
        allow_free_text: true,
        multi_select: false,
      },
      usage: { input_tokens: 1, output_tokens: 1 },
    });
  }
}

/** A decision for a tool round of `n` calls named `tool`. */
export function toolDecision(ids: string[], opts: { name?: string; confirm?: boolean } = {}): Decision {
  return {
    kind: 'tool',
    calls: ids.map((id) => ({
      id,
      name: opts.name ?? 'read',
      args: { file_path: `${id}.txt` },
      needs_confirmation: opts.confirm ?? false,
    })),
  };
}

/** The executor calls made, in order. */
export interface Recorder {
  readonly ran: string[];
}

/**
 * An executor that plays a list of model decisions for `infer` and answers every tool with a
 * successful result (or a failure when `fail(call)` says so).
 */
export function scriptedExecutor(
  decisions: Decision[],
  opts: { fail?: (call: ToolCall) => boolean; onTool?: (t: Transition) => void } = {},
): Recorder & { execute: (t: Transition, s: FoldState) => Promise<FactDraft[]> } {
  const ran: string[] = [];
  let i = 0;
  return {
    ran,
    execute: async (t) => {
      ran.push(t.key);
      switch (t.kind) {
        case 'infer': {
          const decision = decisions[i++];
          if (!decision) throw new Error(`script has no decision #${i}`);
          return [drafts.modelTurn(t.turn, t.cycle, { decision, usage: { input_tokens: 100, output_tokens: 10 } })];
        }
        case 'tool': {
          opts.onTool?.(t);
          const ok = !(opts.fail?.(t.pending.call) ?? false);
          return [
            drafts.toolResult(t.pending, {
              ok,
              output: ok ? `ran ${t.pending.call.id}` : 'boom',
              exit_code: ok ? 0 : 1,
            }),
          ];
        }
        case 'deny':
          return [drafts.budgetDenied(t.pending)];
        case 'compact':
          return [drafts.compaction(t.turn, { summary: 'summary of earlier work', kept: 2 }, t.cycle)];
      }
    },
  };
}

/** A new log holding one user prompt. */
export function logWithPrompt(text = 'Fix the bug'): FactLog {
  const log = new FactLog();
  log.append([{ type: 'user.message', key: 'user:1', payload: { text, source: 'user' } }], null);
  return log;
}
