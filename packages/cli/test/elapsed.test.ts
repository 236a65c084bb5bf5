// The elapsed time of a long call: redrawn in place on a terminal and erased before anything
// else, a plain line after each 10 s of silence elsewhere.
import { describe, expect, it } from 'vitest';
import { ElapsedTicker } from '../src/render/elapsed.js';

function ticker(tty: boolean) {
  let now = 0;
  let out = '';
  const t = new ElapsedTicker({
    write: (s) => {
      out += s;
    },
    dim: (s) => s,
    tty,
    now: () => now,
    tickMs: 60_000,
  });
  return {
    t,
    at: (ms: number) => {
      now = ms;
    },
    out: () => out,
  };
}

describe('elapsed time of a running call', () => {
  it('a terminal gets one status line redrawn in place from 2 s on, erased by clear()', () => {
    const k = ticker(true);
    k.t.start('b1', 'bash');
    k.at(1_000);
    k.t.tick();
    expect(k.out()).toBe('');
    k.at(2_000);
    k.t.tick();
    k.at(3_500);
    k.t.tick();
    expect(k.out()).toBe('\r\u001b[K  … bash 2s\r\u001b[K  … bash 3s');
    k.t.clear();
    expect(k.out().endsWith('\r\u001b[K')).toBe(true);
    k.t.close();
  });

  it('elsewhere a plain line after every 10 s without output, nothing while output flows', () => {
    const k = ticker(false);
    k.t.start('b1', 'bash');
    k.at(9_000);
    k.t.tick();
    k.at(10_000);
    k.t.tick();
    k.at(15_000);
    k.t.heard('b1');
    k.at(20_000);
    k.t.tick();
    k.at(25_000);
    k.t.tick();
    expect(k.out()).toBe('  … bash 10s\n  … bash 25s\n');
    k.t.stop('b1');
    k.at(60_000);
    k.t.tick();
    expect(k.out()).toBe('  … bash 10s\n  … bash 25s\n');
  });
});
