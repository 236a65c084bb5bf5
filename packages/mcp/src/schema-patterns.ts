/**
 * A server's regular expressions are never run on the model's arguments here (one written to
 * backtrack, `^(a+)+$`, would stall the host on a short string): every `pattern` keyword of an
 * input schema is moved into the description of the object that held it, wherever that object
 * sits (under a known keyword, an unknown one, or a list), so the model still reads it and the
 * server still checks it. Data is left alone: the values of `const`, `enum`, `default` and
 * `examples`, and the names in `properties` and the other maps of names to schemas (a property
 * called `pattern` is a schema, not a pattern).
 */

import { isRecord, MAP_KEYWORDS } from './tool-spec-check.js';

/** Keywords whose value is data, never a schema. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/** Keywords whose value maps names (any names, `pattern` among them) to schemas. */
const NAME_MAPS = new Set<string>([...MAP_KEYWORDS, 'patternProperties']);

/** Sets an own property (a key `__proto__` stays a key). */
function put(into: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A copy of the schema `schema` without any string `pattern` keyword (each one noted in its
 * object's description instead). Iterative, so a deeply nested schema cannot overflow the stack.
 */
export function withoutPatterns(schema: unknown): unknown {
  const holder: unknown[] = [schema];
  // [value, where its copy goes, under which key, whether its keys are names rather than keywords]
  const work: [unknown, Record<string, unknown> | unknown[], string | number, boolean][] = [[schema, holder, 0, false]];
  while (work.length > 0) {
    const [node, into, key, names] = work.pop()!;
    if (Array.isArray(node)) {
      const copy: unknown[] = [...node];
      put(into, key, copy);
      for (const [i, item] of node.entries())
        if (typeof item === 'object' && item !== null) work.push([item, copy, i, false]);
      continue;
    }
    if (!isRecord(node)) continue;
    const copy: Record<string, unknown> = {};
    put(into, key, copy);
    for (const [k, v] of Object.entries(node)) {
      if (!names && k === 'pattern' && typeof v === 'string') continue;
      put(copy, k, v);
      if (typeof v !== 'object' || v === null || (!names && DATA_KEYWORDS.has(k))) continue;
      work.push([v, copy, k, !names && NAME_MAPS.has(k)]);
    }
    if (!names && typeof node.pattern === 'string') {
      const note = `Must match the regular expression ${node.pattern} (checked by the server).`;
      put(copy, 'description', typeof node.description === 'string' ? `${node.description} ${note}` : note);
    }
  }
  return holder[0];
}
