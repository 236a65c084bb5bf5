// Writes the durable-format corpus `fixtures/v1/*.jsonl` and their expected folds.
// Regenerating is a deliberate act: `pnpm --filter @a3s-code/effect fixtures:write`.
// Without `--write` it only checks that the generated logs equal the checked-in ones.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  drafts,
  encodeFact,
  FactLog,
  fold,
  parseLog,
  summarizeLog,
  type FactDraft,
  type Recipe,
} from '../src/index.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'v1');
const tools = [
  {
    name: 'read',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  },
  {
    name: 'bash',
    description: 'Run a command',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];
let clock = 1_764_460_800_000;
const at = () => (clock += 250);
const usage = (i: number, o: number) => ({ input_tokens: i, output_tokens: o });
const call = (id: string, name: string, args: Record<string, unknown>, confirm = false) => ({
  id,
  name,
  args,
  needs_confirmation: confirm,
});

class Builder {
  readonly log = new FactLog();
  host(...d: FactDraft[]): this {
    this.log.append(d, null);
    return this;
  }
  by(cause: string, ...d: FactDraft[]): this {
    this.log.append(d, cause);
    return this;
  }
  start(run: string): this {
    return this.host({
      type: 'run.started',
      key: `run:${run}`,
      payload: { run_id: run, system: ['You are A3S Code, a coding agent.'], tools, at_ms: at() },
    });
  }
  user(n: number, text: string, source = 'user'): this {
    return this.host({ type: 'user.message', key: `user:${n}`, payload: { text, source, at_ms: at() } });
  }
  end(run: string, status = 'completed', extra: Record<string, unknown> = {}): this {
    return this.host({
      type: 'run.ended',
      key: `end:${run}`,
      payload: { status, run_id: run, completion: status === 'completed' ? 'narrative' : null, ...extra, at_ms: at() },
    });
  }
  turn(t: number, c: number, decision: never, u = usage(120, 12)): this {
    return this.by(`infer:${t}:${c}`, drafts.modelTurn(t, c, { decision, usage: u, at_ms: at() }));
  }
  result(t: number, c: number, id: string, name: string, ok: boolean, output: string): this {
    return this.by(
      `tool:${t}:${c}:${id}`,
      drafts.toolResult(
        { turn: t, cycle: c, call: call(id, name, {}) },
        { ok, output, exit_code: ok ? 0 : 1, metadata: { duration_ms: 3 }, at_ms: at() },
      ),
    );
  }
}

const text = (t: string) => ({ kind: 'text', text: t }) as never;
const toolTurn = (...calls: ReturnType<typeof call>[]) => ({ kind: 'tool', calls }) as never;

const corpus: Record<string, { build: () => Builder; recipe?: Recipe; tornTail?: string }> = {
  'text-only': { build: () => new Builder().start('r1').user(1, 'Say hello').turn(1, 0, text('Hello!')).end('r1') },
  'tool-round': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'What does README.md say?')
        .turn(
          1,
          0,
          toolTurn(call('c1', 'read', { file_path: 'README.md' }), call('c2', 'bash', { command: 'wc -l README.md' })),
        )
        .result(1, 0, 'c1', 'read', true, '# Demo\nA small project.')
        .result(1, 0, 'c2', 'bash', true, '2 README.md')
        .turn(1, 1, text('README.md has 2 lines: a title and one sentence.'))
        .end('r1'),
  },
  'parked-confirm': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Delete build output')
        .turn(1, 0, toolTurn(call('c1', 'bash', { command: 'rm -rf dist' }, true))),
  },
  'confirm-refused': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Delete build output')
        .turn(
          1,
          0,
          toolTurn(call('c1', 'bash', { command: 'rm -rf dist' }, true), call('c2', 'read', { file_path: 'a' })),
        )
        .host({
          type: 'confirmation.answered',
          key: 'confirm:c1',
          payload: { tool_call_id: 'c1', approved: false, reason: 'not now', at_ms: at() },
        })
        .end('r1'),
  },
  'question-answered': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Fix the test')
        .turn(1, 0, {
          kind: 'question',
          question_id: 'q1',
          question: 'Which test?',
          context: 'Two tests fail.',
          options: [{ label: 'a.test.ts' }, { label: 'b.test.ts' }],
          allow_free_text: true,
          multi_select: false,
        } as never)
        .host({
          type: 'question.answered',
          key: 'answer:q1',
          payload: { question_id: 'q1', text: 'a.test.ts', at_ms: at() },
        })
        .turn(1, 1, text('I will fix a.test.ts.'))
        .end('r1'),
  },
  'budget-denied': {
    recipe: { tool_budget: 2 },
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Read everything')
        .turn(
          1,
          0,
          toolTurn(
            call('c1', 'read', { file_path: 'a' }),
            call('c2', 'read', { file_path: 'b' }),
            call('c3', 'read', { file_path: 'c' }),
          ),
        )
        .result(1, 0, 'c1', 'read', true, 'A')
        .result(1, 0, 'c2', 'read', true, 'B')
        .by('budget:1:0:c3', drafts.budgetDenied({ turn: 1, cycle: 0, call: call('c3', 'read', {}) }, at()))
        .end('r1'),
  },
  'permission-denied': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Show secrets')
        .by(
          'infer:1:0',
          drafts.modelTurn(1, 0, {
            decision: toolTurn(
              call('c1', 'read', { file_path: '.env' }),
              call('c2', 'read', { file_path: 'README.md' }),
            ),
            usage: usage(90, 9),
            at_ms: at(),
          }),
          drafts.toolResult(
            { turn: 1, cycle: 0, call: call('c1', 'read', {}) },
            {
              ok: false,
              output: 'Permission denied: Read(.env)',
              exit_code: 1,
              metadata: { error_kind: 'permission_denied' },
              at_ms: at(),
            },
          ),
        )
        .result(1, 0, 'c2', 'read', true, '# Demo')
        .turn(1, 1, text('I may not read .env; README.md is a title.'))
        .end('r1'),
  },
  steer: {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Update the code')
        .turn(1, 0, toolTurn(call('c1', 'read', { file_path: 'a.ts' })))
        .result(1, 0, 'c1', 'read', true, 'export const a = 1;')
        .by(
          'infer:1:1',
          {
            type: 'user.message',
            key: 'steer:req-1',
            payload: { text: 'also update the docs', source: 'steer', at_ms: at() },
          },
          drafts.modelTurn(1, 1, { decision: text('Updated code and docs.'), usage: usage(200, 20), at_ms: at() }),
        )
        .end('r1'),
  },
  compaction: {
    recipe: { compact_threshold_chars: 60 },
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Summarise the log file')
        .turn(1, 0, toolTurn(call('c1', 'read', { file_path: 'app.log' })))
        .result(1, 0, 'c1', 'read', true, 'line '.repeat(20))
        .by(
          'compact:1',
          drafts.compaction(1, {
            summary: 'Goal: summarise app.log. Read it: 20 identical lines.',
            kept: 0,
            at_ms: at(),
          }),
        )
        .turn(1, 1, text('The log repeats one line 20 times.'))
        .end('r1'),
  },
  'crash-mid-tool': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Run the tests')
        .turn(1, 0, toolTurn(call('c1', 'bash', { command: 'npm test' }))),
  },
  'torn-tail': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Run the tests')
        .turn(1, 0, toolTurn(call('c1', 'bash', { command: 'npm test' }))),
    tornTail: '{"seq":4,"type":"tool.result","key":"tool-result:1:0:c1","cause":"tool:1:0:c1","payl',
  },
  'history-restored': {
    build: () =>
      new Builder()
        .user(1, 'What is 2+2?', 'history')
        .host(drafts.modelTurn(1, 0, { decision: text('4'), usage: usage(0, 0) }))
        .start('r2')
        .user(2, 'And 3+3?')
        .turn(2, 0, text('6'))
        .end('r2'),
  },
  'unknown-kind': {
    build: () =>
      new Builder()
        .start('r1')
        .host({ type: 'telemetry.sample', key: 'tel:1', payload: { cpu: 0.5 } })
        .user(1, 'Hi')
        .turn(1, 0, text('Hi!'))
        .end('r1'),
  },
  'capability-rebind': {
    build: () => {
      const bound = (generation: number, digest: string) => ({
        version: 1 as const,
        generation,
        catalog_digest: `sha256:${digest.repeat(64)}`,
        ceiling_digest: `sha256:${'c'.repeat(64)}`,
        kinds: { tool: `sha256:${digest.repeat(64)}` },
      });
      const echo = { name: 'mcp__extra__echo', description: 'Echo', input_schema: { type: 'object' } };
      return new Builder()
        .host({
          type: 'run.started',
          key: 'run:r1',
          payload: { run_id: 'r1', tools, capability_binding: bound(1, 'a'), at_ms: at() },
        })
        .user(1, 'Echo hi')
        .turn(1, 0, toolTurn(call('c1', 'read', { file_path: 'a.txt' })))
        .host(
          drafts.runRebound('r1', 4, {
            capability_binding: bound(2, 'b'),
            previous: bound(1, 'a'),
            tools: [...tools, echo],
            at_ms: at(),
          }),
        )
        .result(1, 0, 'c1', 'read', true, 'hi')
        .turn(1, 1, text('hi'))
        .end('r1');
    },
  },
  'gate-continuation': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Fix the parser')
        .turn(1, 0, toolTurn(call('c1', 'bash', { command: "sed -i 's/a/b/' parser.ts" })))
        .result(1, 0, 'c1', 'bash', true, '')
        .turn(1, 1, text('Fixed.'))
        .host({
          type: 'user.message',
          key: 'continuation:r1:7',
          payload: {
            text: 'The workspace changed in this run, but the changes have not been verified. Verify the changes now.',
            source: 'continuation',
            origin: 'completion_gate',
            reason: 'the changes have not been verified',
            at_ms: at(),
          },
        })
        .turn(1, 2, toolTurn(call('c2', 'bash', { command: 'npm test' })))
        .result(1, 2, 'c2', 'bash', true, 'ok')
        .turn(1, 3, text('Verified.'))
        .host({
          type: 'user.message',
          key: 'stop-hook:r1:11',
          payload: { text: 'Update the changelog too.', source: 'continuation', at_ms: at() },
        })
        .turn(1, 4, text('Changelog updated.'))
        .end('r1'),
  },
  'repeated-call-ids': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Read both files')
        .turn(1, 0, toolTurn(call('call_0', 'read', { file_path: 'a' })))
        .result(1, 0, 'call_0', 'read', true, 'A')
        .turn(1, 1, toolTurn(call('call_0', 'read', { file_path: 'b' })))
        .result(1, 1, 'call_0', 'read', true, 'B')
        .turn(1, 2, text('a holds A, b holds B.'))
        .end('r1'),
  },
  'failed-run': {
    build: () =>
      new Builder()
        .start('r1')
        .user(1, 'Do it')
        .end('r1', 'failed', { error: { code: 'BUDGET_EXHAUSTED', message: 'token budget of 1000 exhausted' } }),
  },
  attachments: {
    build: () =>
      new Builder()
        .start('r1')
        .host(
          drafts.prompt('r1', 'Why does the page look broken? The log is attached.', at(), [
            { sha256: 'a'.repeat(64), media_type: 'image/png', size: 48213, name: 'screenshots/home.png' },
            { sha256: '0123456789abcdef'.repeat(4), media_type: 'text/plain', size: 912, name: 'logs/app.log' },
          ]),
        )
        .turn(1, 0, text('The stylesheet failed to load: the log shows a 404 for main.css.'))
        .end('r1'),
  },
};

const write = process.argv.includes('--write');
let drift = 0;
for (const [name, spec] of Object.entries(corpus)) {
  clock = 1_764_460_800_000;
  const b = spec.build();
  const text = b.log.facts.map((f) => `${encodeFact(f)}\n`).join('') + (spec.tornTail ?? '');
  const parsed = parseLog(text);
  const expected = {
    recipe: spec.recipe ?? null,
    torn: parsed.torn ?? null,
    digest: new FactLog(parsed.facts).digest(),
    state: fold(parsed.facts, spec.recipe),
    summary: summarizeLog(parsed.facts, spec.recipe),
  };
  const files: [string, string][] = [
    [`${name}.jsonl`, text],
    [`${name}.expected.json`, `${JSON.stringify(expected, null, 2)}\n`],
  ];
  for (const [file, content] of files) {
    const path = join(dir, file);
    if (write) writeFileSync(path, content);
    else if (readFileSync(path, 'utf8') !== content) {
      drift++;
      console.error(`differs: ${file}`);
    }
  }
}
console.log(
  write
    ? `wrote ${Object.keys(corpus).length} fixtures to ${dir}`
    : `checked ${Object.keys(corpus).length} fixtures: ${drift} differ`,
);
process.exit(drift ? 1 : 0);
