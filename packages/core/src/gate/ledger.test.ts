import type { Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { effectDigest, ledgerOf } from './mutation-ledger.js';
import { reportStatus } from './verification-report.js';

let seq = 0;
const result = (name: string, metadata: Record<string, unknown> | undefined, ok = true): Fact => ({
  seq: ++seq,
  type: 'tool.result',
  key: `r${seq}`,
  cause: null,
  payload: { tool_call_id: `c${seq}`, name, ok, output: '', exit_code: ok ? 0 : 1, ...(metadata ? { metadata } : {}) },
});
const tiers = { write: 'write', edit: 'write', bash: 'exec', read: 'read', custom_write: 'write' } as const;
const tierOf = (n: string) => tiers[n as keyof typeof tiers];

describe('mutation ledger', () => {
  it('GATE-01: reads changes, command-changed files, and unknown changes (a write/exec tool that said nothing, or an unknown change set)', () => {
    const facts = [
      result('write', { changes: [{ path: 'a.ts', action: 'modify', digest_after: 'sha256:1' }] }),
      result('edit', { changes: [{ path: 'b.ts', action: 'delete', digest_after: null }] }),
      result('bash', { changed_files: { created: ['c.txt'], modified: [], deleted: ['d.txt'] } }),
      result('bash', { changed_paths: [] }),
      result('bash', { changed_paths: null }),
      result('read', {}),
      result('custom_write', undefined),
      result('custom_write', undefined, false),
    ];
    const ledger = ledgerOf(facts, 0, tierOf);
    const first = seq - facts.length;
    expect(ledger.entries.map((e) => `${e.tool}|${e.path}|${e.digest}`)).toEqual([
      'write|a.ts|sha256:1',
      'edit|b.ts|deleted',
      `bash|c.txt|command:c${first + 3}@${first + 3}`,
      'bash|d.txt|deleted',
      // `changed_paths: null`: the command changed something, nobody knows what.
      `bash|(unknown)|unknown:c${first + 5}@${first + 5}`,
      `custom_write|(unknown)|unknown:c${first + 7}@${first + 7}`,
    ]);
    expect(ledger.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('GATE-01/GATE-02: a command change or an unknown change made again after a verification changes the digest', () => {
    const once = [result('bash', { changed_paths: ['app.js'] })];
    const twice = [...once, result('bash', { changed_paths: ['app.js'] })];
    expect(ledgerOf(twice, 0, tierOf).digest).not.toBe(ledgerOf(once, 0, tierOf).digest);
    const unknown = [result('bash', { changed_paths: null })];
    expect(ledgerOf([...unknown, result('bash', { changed_paths: null })], 0, tierOf).digest).not.toBe(
      ledgerOf(unknown, 0, tierOf).digest,
    );
  });

  it("GATE-01/TOOL-01: the change record the invoker aggregates from nested calls is read, and wins over the outer tool's own report", () => {
    const record = [
      { call_id: 'b.0', tool: 'write', path: 'app.js', digest: 'sha256:9' },
      { call_id: 'b.1', tool: 'bash', path: '(unknown)', digest: 'unknown:b.1#n' },
      { call_id: 'b.2', tool: 'edit', path: 'old.js', digest: 'deleted' },
      { call_id: 'b.3', tool: 7, path: 'junk', digest: 'x' },
    ];
    const facts = [
      result('batch', { batch: { completed: true }, change_record: record }),
      // A failed orchestrator (a program that threw after writing) still brings its record.
      result(
        'program',
        {
          error_code: 'TOOL_EXECUTION',
          change_record: [{ call_id: 'p.1', tool: 'write', path: 'b.js', digest: 'sha256:2' }],
        },
        false,
      ),
      // The record is the whole truth of a result: its own `changed_paths: []` cannot hide it.
      result('verify', {
        changed_paths: [],
        change_record: [{ call_id: 'v.1', tool: 'bash', path: 'cov.json', digest: 'command:v.1#m' }],
      }),
      result('batch', { batch: { completed: true } }),
    ];
    const ledger = ledgerOf(facts, 0, tierOf);
    expect(ledger.entries.map((e) => `${e.tool}|${e.path}|${e.digest}`)).toEqual([
      'write|app.js|sha256:9',
      'bash|(unknown)|unknown:b.1#n',
      'edit|old.js|deleted',
      'write|b.js|sha256:2',
      'bash|cov.json|command:v.1#m',
    ]);
    expect(ledger.digest).toBe(effectDigest(ledger.entries));
  });

  it('the effect digest depends on the set of changes, not their order; no changes → null', () => {
    const a = { tool: 'write', path: 'a', digest: '1' };
    const b = { tool: 'write', path: 'b', digest: '2' };
    expect(effectDigest([a, b])).toBe(effectDigest([b, a, a]));
    expect(effectDigest([a])).not.toBe(effectDigest([{ ...a, digest: '3' }]));
    expect(effectDigest([])).toBeNull();
  });

  it('GATE-02: a path written back to an earlier content changes the digest, though the set of changes is the same', () => {
    const v1 = { tool: 'write', path: 'a', digest: '1' };
    const v2 = { tool: 'write', path: 'a', digest: '2' };
    expect(effectDigest([v1, v2, v1])).not.toBe(effectDigest([v1, v2]));
    expect(effectDigest([v2, v1])).not.toBe(effectDigest([v1, v2]));
    expect(effectDigest([v1, v2, v1])).toBe(effectDigest([v2, v1]));
  });
});

describe('report status rules', () => {
  const c = (status: 'passed' | 'failed' | 'needs_review' | 'skipped', required = true) => ({ status, required });
  it('failed (a required check) > needs_review (required not passed, or residual risk) > skipped (no checks) > passed', () => {
    expect(reportStatus([c('passed'), c('failed')], [])).toBe('failed');
    expect(reportStatus([c('passed'), c('skipped')], [])).toBe('needs_review');
    expect(reportStatus([c('passed'), c('skipped', false)], [])).toBe('passed');
    expect(reportStatus([c('passed')], ['untested path'])).toBe('needs_review');
    expect(reportStatus([], [])).toBe('skipped');
    expect(reportStatus([c('passed'), c('passed', false)], [])).toBe('passed');
  });
});
