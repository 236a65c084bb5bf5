import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from './front-matter.js';

describe('front matter', () => {
  it('reads keys, lists and inline lists; a __proto__ key stays a key and never sets the prototype', () => {
    const doc = parseFrontMatter(
      '---\nname: review\ntools: [read, grep]\n__proto__:\n  - polluted\nconstructor: x\n---\nBody text.\n',
      'SKILL.md',
    );
    expect(doc.body).toBe('Body text.');
    expect(doc.attributes.name).toBe('review');
    expect(doc.attributes.tools).toEqual(['read', 'grep']);
    expect(Object.keys(doc.attributes)).toEqual(['name', 'tools', '__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(doc.attributes, '__proto__')?.value).toEqual(['polluted']);
    expect(doc.attributes.constructor).toBe('x');
    expect((doc.attributes as { length?: unknown }).length).toBeUndefined();
  });

  it('names the file and line of a malformed line', () => {
    expect(() => parseFrontMatter('---\n- item\n---\n', 'a.md')).toThrow(/a list item must follow/);
    expect(() => parseFrontMatter('---\nname: x\n', 'a.md')).toThrow(/no closing `---` line/);
  });

  it('refuses a repeated key, naming the file, the line and the first one', () => {
    expect(() => parseFrontMatter('---\nname: a\ndescription: d\nname: b\n---\n', 'SKILL.md')).toThrow(
      "SKILL.md:4: duplicate key 'name' (first on line 2); each key may appear once",
    );
  });
});
