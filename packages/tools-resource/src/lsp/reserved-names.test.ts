import { describe, expect, it } from 'vitest';
import { reservedBy } from './reserved-names.js';

describe('names a language reserves', () => {
  it("are found by the file's language; other names, and other languages' words, are free", () => {
    expect(reservedBy('src/a.ts', 'class')).toBe('JavaScript/TypeScript');
    expect(reservedBy('src/a.mjs', 'yield')).toBe('JavaScript/TypeScript');
    expect(reservedBy('app/m.py', 'lambda')).toBe('Python');
    expect(reservedBy('main.go', 'func')).toBe('Go');
    expect(reservedBy('lib.rs', 'match')).toBe('Rust');
    expect(reservedBy('lib.rs', 'r#match')).toBeUndefined();
    expect(reservedBy('app/m.py', 'class_')).toBeUndefined();
    expect(reservedBy('main.go', 'lambda')).toBeUndefined();
    expect(reservedBy('main.c', 'class')).toBeUndefined();
  });
});
