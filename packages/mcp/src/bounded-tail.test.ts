import { describe, expect, it } from 'vitest';
import { BoundedTail } from './bounded-tail.js';

describe('BoundedTail', () => {
  it('MCP-08: keeps only the last maxBytes and the exact total', () => {
    const tail = new BoundedTail(10);
    tail.push('hello ');
    tail.push('world\n');
    expect(tail.text()).toBe('llo world\n');
    expect(tail.truncated).toBe(true);
    tail.push(Buffer.from('x'.repeat(25)));
    expect(tail.text()).toBe('x'.repeat(10));
    expect(tail.totalBytes).toBe(37);
    expect(tail.truncated).toBe(true);
  });

  it('lastLines returns the last non-empty lines', () => {
    const tail = new BoundedTail(1024);
    tail.push('a\n\nb\nc\n');
    expect(tail.lastLines(2)).toBe('b\nc');
    expect(tail.truncated).toBe(false);
  });
});
