/**
 * Test support: where the recorded provider fixtures are. The shared recordings live beside the
 * repository (`../shared/fixtures/providers` from the repo root) and may be absent in a fresh
 * clone (tests then skip with a message); this package's own fixtures are in `__fixtures__`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The shared recordings folder. */
export const SHARED_FIXTURES = path.resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'providers');

/** True when the shared recordings are present. */
export const HAS_SHARED_FIXTURES = existsSync(path.join(SHARED_FIXTURES, 'README.md'));

/** The message shown when shared-fixture tests skip. */
export const SHARED_SKIP_NOTE = `shared provider recordings not found at ${SHARED_FIXTURES}; skipping replay of recorded wire responses`;

/** Reads a shared recording as bytes. */
export function sharedFixture(relative: string): Buffer {
  return readFileSync(path.join(SHARED_FIXTURES, relative));
}

/** Reads one of this package's fixtures as bytes. */
export function localFixture(name: string): Buffer {
  return readFileSync(fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url)));
}

/** Turns vercel/ai's one-JSON-per-line `.chunks.txt` into OpenAI SSE wire bytes (as its README says). */
export function chunksToSse(text: string): string {
  return `${text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `data: ${l}\n\n`)
    .join('')}data: [DONE]\n\n`;
}
