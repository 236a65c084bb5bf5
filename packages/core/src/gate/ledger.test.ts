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
  it('reads changes, command-changed files and unreported write-tier results', () => {
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
    expect(ledger.entries.map((e) => `${e.tool}|${e.path}|${e.digest}`)).toEqual([
      'write|a.ts|sha256:1',
      'edit|b.ts|deleted',
      'bash|c.txt|command',
      'bash|d.txt|deleted',
      `custom_write|(unreported)|unreported:c${seq - 1}`,
    ]);
    expect(ledger.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the effect digest depends on the set of changes, not their order; no changes → null', () => {
    const a = { tool: 'write', path: 'a', digest: '1' };
    const b = { tool: 'write', path: 'b', digest: '2' };
    expect(effectDigest([a, b])).toBe(effectDigest([b, a, a]));
    expect(effectDigest([a])).not.toBe(effectDigest([{ ...a, digest: '3' }]));
    expect(effectDigest([])).toBeNull();
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
