// `a3s code`'s dynamic workflows, offline: `/ultracode` with the scripted model and real
// sub-agents editing a real git repository, `/research` against a loopback search engine and
// pages. Both run in-process through `main` with piped input.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { defineWorkflow, ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core';
import { Agent, type Session } from '@a3s-code/sdk';
import { CLI_FLOWS, cliWorkflowPack } from '../src/flows/index.js';
import { parseFlowCommand, progressLine, runFlowCommand } from '../src/interactive/flow-command.js';
import { main } from '../src/main.js';
import { styleFor } from '../src/style.js';
import { ioHarness, until } from './io-harness.js';
import { scriptFile, tempRepo } from './kit.js';

const servers: Server[] = [];
const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Starts `a3s code` on `dir` with a script and returns the harness and the exit promise. */
function code(dir: string, turns: unknown[], extra: string[] = []) {
  const h = ioHarness(dir);
  const exited = main(['code', '--model', `scripted:${scriptFile(turns)}`, '--cwd', dir, ...extra], h.io);
  const out = () => h.screen.text;
  return {
    h,
    exited,
    out,
    wait: (what: string | RegExp, ms?: number) =>
      until(
        () => (typeof what === 'string' ? out().includes(what) : what.test(out())),
        () => out(),
        ms,
      ),
  };
}

/** A scripted turn running the repository's tests through `verify`. */
const verify = (id: string) => ({
  tool_calls: [{ id, name: 'verify', args: { subject: 'range', commands: [{ id: 'unit', command: 'node --test' }] } }],
});

/** Facts of the only workflow log in `dir`. */
function workflowFacts(dir: string) {
  const folder = join(dir, '.a3s', 'workflows');
  const [file] = readdirSync(folder).filter((f) => f.endsWith('.jsonl'));
  return parseLog(readFileSync(join(folder, file!), 'utf8')).facts;
}

describe('a3s code: dynamic workflows', () => {
  it('the shipped flows are valid workflow definitions', () => {
    for (const [name, flow] of Object.entries(CLI_FLOWS)) expect(defineWorkflow(flow).name).toBe(name);
  });

  it('SURF-08: a3s code registers dynamic_workflow with its flows; /help lists /ultracode and /research', async () => {
    const dir = tempRepo();
    const c = code(dir, []);
    await c.wait('type a prompt');
    c.h.stdin.write('/tools\n');
    await c.wait(/dynamic_workflow +read/);
    c.h.stdin.write('/help\n');
    await c.wait('/research <question>');
    expect(c.out()).toContain('/ultracode <task>');
    c.h.stdin.write('/ultracode\n');
    await c.wait('usage: /ultracode [--run <id>] <task>');
    c.h.stdin.write('/exit\n');
    expect(await c.exited).toBe(0);
  }, 30_000);

  it('/ultracode plans, implements in parallel sub-agents, verifies and summarises, offline', async () => {
    const dir = tempRepo();
    const plan = {
      summary: 'Make the end of range inclusive and document it.',
      tasks: [
        { title: 'fix range', instructions: 'In src/range.js make the loop include end.' },
        { title: 'document range', instructions: 'Write RANGE.md saying that range includes its end.' },
      ],
      verification: 'node --test',
    };
    const c = code(
      dir,
      [
        { tool_calls: [{ id: 'p1', name: 'plan', args: plan }] },
        // The two sub-agents ask at the same time: one gets each change, then each reports.
        {
          tool_calls: [
            {
              id: 'e1',
              name: 'edit',
              args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' },
            },
          ],
        },
        {
          tool_calls: [
            { id: 'w1', name: 'write', args: { file_path: 'RANGE.md', content: 'range(start, end) includes end.\n' } },
          ],
        },
        // Each verifies its change: a sub-agent that changed files completes only verified, and a
        // passing verify ends its run.
        verify('v1'),
        verify('v2'),
        // The verification sub-agent runs the tests.
        verify('v3'),
        { text: 'PASS: node --test passed.' },
        {
          tool_calls: [
            {
              id: 's1',
              name: 'summary',
              args: {
                summary: 'range now includes its end, and RANGE.md says so.',
                changes: ['src/range.js: i <= end', 'RANGE.md: documented'],
                verification: { passed: true, evidence: 'node --test: 1 passed' },
                follow_ups: ['add a test for an empty range'],
              },
            },
          ],
        },
      ],
      ['--yolo'],
    );
    await c.wait('type a prompt');
    c.h.stdin.write('/ultracode make range include its end\n');
    await c.wait(/ultracode completed · 5 step\(s\) run · run wf-/, 60_000);
    const out = c.out();
    const runId = /workflow ultracode · run (wf-\S+)/.exec(out)?.[1];
    expect(runId).toBeDefined();
    // From a new process, the run is continued in the session that started it, reopened first.
    expect(out).toMatch(
      new RegExp(
        `\\(if it is interrupted: /resume continues it; from a new process: a3s sessions --resume session-\\S+ --model scripted:\\S+, then /ultracode --run ${runId} <the same text>\\)`,
      ),
    );
    for (const [step, kind] of [
      ['plan', 'generate_object'],
      ['implement', 'parallel_task'],
      ['collect', 'program'],
      ['verify', 'parallel_task'],
      ['summary', 'generate_object'],
    ])
      expect(out).toMatch(new RegExp(`▸ ${step} \\(${kind}\\)[\\s\\S]*✓ ${step}\\n`));
    expect(out).toContain('range now includes its end, and RANGE.md says so.');
    expect(out).toContain('  • src/range.js: i <= end');
    expect(out).toContain('verification passed: node --test: 1 passed');
    expect(out).toContain('  → add a test for an empty range');
    // The sub-agents really changed the repository, and the tests pass.
    expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toContain('i <= end');
    expect(readFileSync(join(dir, 'RANGE.md'), 'utf8')).toBe('range(start, end) includes end.\n');
    execFileSync(process.execPath, ['--test'], { cwd: dir, stdio: 'ignore' });
    // Every step was recorded as completed, keyed by the run, the query and the step.
    const completed = workflowFacts(dir).filter((f) => f.type === 'workflow.step_completed');
    expect(completed.map((f) => (f.payload as { step_id: string }).step_id)).toEqual([
      'plan',
      'implement',
      'collect',
      'verify',
      'summary',
    ]);
    expect(completed[0]!.payload).toMatchObject({ run_id: runId, query: 'make range include its end' });
    expect((completed[2]!.payload as { output: { completed: number } }).output.completed).toBe(2);
    c.h.stdin.write('/exit\n');
    expect(await c.exited).toBe(0);
  }, 90_000);

  it('/research fans out searches, reads the pages and answers with the sources it read, offline', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      hits.push(url.pathname + (url.searchParams.get('q') ? `?q=${url.searchParams.get('q')}` : ''));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (url.pathname === '/search') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            results: [
              { title: 'Alpha facts', url: `${base}/alpha`, content: 'All about alpha.' },
              { title: 'Beta notes', url: `${base}/beta`, content: 'Beta and alpha.' },
            ],
          }),
        );
        return;
      }
      res.setHeader('content-type', 'text/html');
      const topic = url.pathname.slice(1);
      res.end(
        `<html><head><title>${topic} page</title></head><body><article><h1>${topic}</h1><p>${topic} is the letter that comes ${topic === 'alpha' ? 'first' : 'second'} in the Greek alphabet, as every source agrees.</p></article></body></html>`,
      );
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = tempRepo();
    const turns: ScriptedTurn[] = [
      {
        tool_calls: [
          { id: 'q1', name: 'queries', args: { queries: ['what is alpha', 'alpha in the greek alphabet'] } },
        ],
      },
      {
        tool_calls: [
          {
            id: 'a1',
            name: 'answer',
            args: {
              answer: 'Alpha is the first letter of the Greek alphabet.',
              key_points: ['alpha comes first', 'beta comes second'],
              sources: [
                { url: `${base}/alpha`, title: 'alpha page', supports: 'alpha comes first' },
                { url: 'https://made-up.example/alpha', title: 'Invented', supports: 'nothing' },
              ],
              confidence: 'high',
            },
          },
        ],
      },
    ];
    // The CLI's own flow pack and command runner, on a session whose web tools reach the loopback
    // engine (the workspace config file has no `web` key, so the session options set it).
    const style = styleFor({ isTTY: false }, {});
    let out = '';
    const write = (text: string): void => {
      out += text;
    };
    const model = new ScriptedLlmClient(turns);
    const agent = await Agent.create({
      model,
      web: { allowPrivateNetwork: true, search: { searxng: { baseUrl: base }, http: false, browser: false } },
    });
    const session = await agent.session(dir, { tools: [cliWorkflowPack((e) => write(progressLine(style, e)))] });
    sessions.push(session);
    const command = parseFlowCommand('/research what is alpha?');
    if ('error' in command) throw new Error(command.error);
    await runFlowCommand({ session, style, write }, command);
    expect(out).toMatch(/research completed · 5 step\(s\) run/);
    expect(out).toContain('Alpha is the first letter of the Greek alphabet.');
    expect(out).toContain(`[1] alpha page — ${base}/alpha`);
    expect(out).not.toContain('[2]');
    expect(out).toContain('dropped 1 source(s) that were never read: https://made-up.example/alpha');
    // Both searches ran, and both pages were read.
    expect(hits.filter((h) => h.startsWith('/search')).sort()).toEqual([
      '/search?q=alpha in the greek alphabet',
      '/search?q=what is alpha',
    ]);
    expect(hits.filter((h) => !h.startsWith('/search')).sort()).toEqual(['/alpha', '/beta']);
    // The synthesis was asked with the text of the pages read.
    expect(model.requests).toHaveLength(2);
    const asked = JSON.stringify(model.requests[1]!.messages);
    expect(asked).toContain('alpha is the letter that comes first in the Greek alphabet');
    expect(asked).toContain('beta is the letter that comes second');
    const fetched = workflowFacts(dir).find(
      (f) => f.type === 'workflow.step_completed' && (f.payload as { step_id: string }).step_id === 'fetch',
    );
    expect(fetched?.payload).toMatchObject({ output: { pages: [{ ok: true }, { ok: true }] } });
    for (const step of ['queries', 'search', 'fetch', 'synthesis', 'report']) expect(out).toContain(`✓ ${step}\n`);
  }, 90_000);
});
