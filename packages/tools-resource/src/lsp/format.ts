/** Rendering of LSP answers as text: locations as `path:line: text`, hovers, symbols, diagnostics. */
import { fileURLToPath } from 'node:url';
import { lineText } from './positions.js';
import { readRegularFile } from '../shared/regular-file.js';
import { type LspDiagnostic, type LspLocation, SEVERITY_NAMES } from './protocol.js';

/**
 * Reads target files once per answer: only files inside the workspace (`inside` gives a file's
 * real path there, or `undefined`), as the session's `read` does; a file elsewhere is not read.
 */
export class FileTexts {
  readonly #texts = new Map<string, Promise<string | undefined>>();
  readonly #inside: (abs: string) => string | undefined;

  constructor(inside: (abs: string) => string | undefined) {
    this.#inside = inside;
  }

  /** Whether the file of `uri` may be read: a file URI of a file inside the workspace. */
  readable(uri: string): boolean {
    return uri.startsWith('file:') && this.#inside(fileURLToPath(uri)) !== undefined;
  }

  /** The text of a file URI (undefined when unreadable, outside the workspace or not a file URI). */
  text(uri: string): Promise<string | undefined> {
    let t = this.#texts.get(uri);
    if (t === undefined) {
      const real = uri.startsWith('file:') ? this.#inside(fileURLToPath(uri)) : undefined;
      t =
        real === undefined
          ? Promise.resolve(undefined)
          : readRegularFile(real).then(
              (bytes) => bytes.toString('utf8'),
              () => undefined,
            );
      this.#texts.set(uri, t);
    }
    return t;
  }
}

/** What a location outside the workspace shows in place of its line. */
export const OUTSIDE_TEXT = '(outside the workspace: not shown)';

/**
 * `path:line: text of that line` for each location (`display` maps absolute paths). A location in
 * a file outside the workspace shows its path and line but not its text: the session reads only
 * the workspace, and a project can point its server at any file (a `tsconfig.json` listing one, an
 * import of `~/.docker/config.json`).
 */
export async function formatLocations(
  locations: readonly LspLocation[],
  display: (abs: string) => string,
  texts: FileTexts,
): Promise<{ lines: string[]; items: { path: string; line: number; text: string }[] }> {
  const lines: string[] = [];
  const items: { path: string; line: number; text: string }[] = [];
  for (const loc of locations) {
    const path = loc.uri.startsWith('file:') ? display(fileURLToPath(loc.uri)) : loc.uri;
    const line = loc.range.start.line + 1;
    if (!texts.readable(loc.uri)) {
      lines.push(`${path}:${line}: ${OUTSIDE_TEXT}`);
      items.push({ path, line, text: '' });
      continue;
    }
    const source = await texts.text(loc.uri);
    const text = (source === undefined ? '' : (lineText(source, line) ?? '')).trim().slice(0, 200);
    lines.push(`${path}:${line}: ${text}`);
    items.push({ path, line, text });
  }
  return { lines, items };
}

/** One diagnostic as `path:line: severity code: message`. */
export function formatDiagnostic(path: string, d: LspDiagnostic): string {
  const sev = SEVERITY_NAMES[d.severity ?? 1] ?? 'error';
  const code = d.code === undefined ? '' : ` ${d.source === undefined ? '' : `${d.source}`}${d.code}`;
  return `${path}:${d.range.start.line + 1}: ${sev}${code}: ${d.message.split('\n').join(' ')}`;
}

/** The diagnostics as plain records. */
export function diagnosticRecords(path: string, list: readonly LspDiagnostic[]): Record<string, unknown>[] {
  return list.map((d) => ({
    path,
    line: d.range.start.line + 1,
    severity: SEVERITY_NAMES[d.severity ?? 1] ?? 'error',
    ...(d.code === undefined ? {} : { code: d.code }),
    ...(d.source === undefined ? {} : { source: d.source }),
    message: d.message,
  }));
}

type Marked = string | { language?: string; value: string; kind?: string };

/** The text of a hover answer. */
export function hoverText(answer: unknown): string {
  if (answer === null || typeof answer !== 'object') return '';
  const contents = (answer as { contents?: Marked | Marked[] }).contents;
  const parts = Array.isArray(contents) ? contents : contents === undefined ? [] : [contents];
  return parts
    .map((p) => (typeof p === 'string' ? p : p.value))
    .join('\n')
    .trim();
}

const KINDS: Record<number, string> = {
  1: 'file',
  2: 'module',
  3: 'namespace',
  4: 'package',
  5: 'class',
  6: 'method',
  7: 'property',
  8: 'field',
  9: 'constructor',
  10: 'enum',
  11: 'interface',
  12: 'function',
  13: 'variable',
  14: 'constant',
  15: 'string',
  16: 'number',
  17: 'boolean',
  18: 'array',
  19: 'object',
  20: 'key',
  21: 'null',
  22: 'enum member',
  23: 'struct',
  24: 'event',
  25: 'operator',
  26: 'type parameter',
};

/** The name of an LSP symbol kind. */
export function kindName(kind: number): string {
  return KINDS[kind] ?? `kind ${kind}`;
}
