/**
 * The front matter of agent (`.a3s/agents/*.md`) and skill (`SKILL.md`) files: a `---` block of
 * `key: value` lines at the top, then the body. Values are strings, inline lists
 * (`[read, grep]`, `read, grep` is one string) or block lists (`- read` lines under `key:`);
 * quotes around a value are removed; each key appears once. This is the small YAML subset those
 * files use, not YAML.
 */
import { A3sError } from '@a3s-code/effect';

/** A parsed front-matter value. */
export type FrontMatterValue = string | readonly string[];

/** A file's front matter and body. */
export interface FrontMatterDocument {
  readonly attributes: Readonly<Record<string, FrontMatterValue>>;
  /** The text after the closing `---`, trimmed. */
  readonly body: string;
}

/** A front-matter block that cannot be read; names the file and the line. */
export class FrontMatterError extends A3sError {
  constructor(file: string, line: number, problem: string) {
    super('INVALID_FRONT_MATTER', `${file}:${line}: ${problem}`, { details: { file, line } });
  }
}

const unquote = (v: string): string => (/^(["']).*\1$/.test(v) ? v.slice(1, -1) : v);

/** Parses `text` (the whole file). A file without front matter has no attributes. */
export function parseFrontMatter(text: string, file: string): FrontMatterDocument {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { attributes: {}, body: text.trim() };
  // No prototype: a `__proto__:` key is a key like any other.
  const attributes: Record<string, FrontMatterValue> = Object.create(null) as Record<string, FrontMatterValue>;
  const firstLine = new Map<string, number>();
  let listKey: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = raw.trim();
    if (line === '---')
      return {
        attributes,
        body: lines
          .slice(i + 1)
          .join('\n')
          .trim(),
      };
    if (line === '' || line.startsWith('#')) continue;
    const item = /^-\s+(.*)$/.exec(line);
    if (item) {
      if (listKey === undefined) throw new FrontMatterError(file, i + 1, 'a list item must follow a `key:` line');
      (attributes[listKey] as string[]).push(unquote(item[1]!.trim()));
      continue;
    }
    const kv = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) throw new FrontMatterError(file, i + 1, `expected 'key: value', got '${line.slice(0, 60)}'`);
    const key = kv[1]!;
    const value = kv[2]!.trim();
    // A repeated key would silently replace the first one (a second `tools:` further down).
    const first = firstLine.get(key);
    if (first !== undefined)
      throw new FrontMatterError(
        file,
        i + 1,
        `duplicate key '${key}' (first on line ${first}); each key may appear once`,
      );
    firstLine.set(key, i + 1);
    listKey = undefined;
    if (value === '') {
      attributes[key] = [];
      listKey = key;
    } else if (value.startsWith('[') && value.endsWith(']')) {
      attributes[key] = value
        .slice(1, -1)
        .split(',')
        .map((v) => unquote(v.trim()))
        .filter((v) => v.length > 0);
    } else attributes[key] = unquote(value);
  }
  throw new FrontMatterError(file, lines.length, 'the front matter has no closing `---` line');
}

/** A string attribute, or `undefined`; a list where a string is expected is an error naming the key. */
export function stringAttr(doc: FrontMatterDocument, key: string, file: string): string | undefined {
  const v = doc.attributes[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new FrontMatterError(file, 1, `'${key}' must be a single value, got a list`);
  return v;
}

/** A list attribute: a list, or a comma-separated string; `undefined` when absent. */
export function listAttr(doc: FrontMatterDocument, key: string): readonly string[] | undefined {
  const v = doc.attributes[key];
  if (v === undefined) return undefined;
  return typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
    : v;
}
