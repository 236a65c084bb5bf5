/**
 * Artifacts a tool result references (the images an `eval` cell produced, listed in its
 * `metadata.images` with their `artifact://` uri, media type and size): the CLI saves each under
 * the session's artifacts folder, `<workspace>/.a3s/artifacts/<thread>/<id>.<ext>` (`<thread>`
 * names the session as its fact log does), and prints where, with the media type and size;
 * `a3s replay` lists them from the log. A command may have put a symbolic link in the way (of a
 * folder, or of the file): nothing is written through it, so nothing lands outside the workspace.
 */
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import type { Session } from '@a3s-code/sdk';
import type { Style } from '../style.js';

/** An artifact a result references. */
export interface ResultArtifact {
  /** The artifact's id (from `artifact://<id>`). */
  readonly id: string;
  readonly mime: string;
  /** Size in bytes of the decoded content. */
  readonly sizeBytes: number;
  /** How the stored content is encoded (`base64` for images). */
  readonly encoding: string;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
};

/** The artifacts listed in a result's metadata (`images`: `{ uri, mime, size_bytes, encoding }`). */
export function artifactsOf(metadata: unknown): ResultArtifact[] {
  const images = (metadata as { images?: unknown } | null | undefined)?.images;
  if (!Array.isArray(images)) return [];
  const out: ResultArtifact[] = [];
  for (const i of images as Record<string, unknown>[]) {
    const m = typeof i?.uri === 'string' ? /^artifact:\/\/([A-Za-z0-9-]{1,100})$/.exec(i.uri) : null;
    if (m === null) continue;
    out.push({
      id: m[1]!,
      mime: typeof i.mime === 'string' ? i.mime : 'application/octet-stream',
      sizeBytes: typeof i.size_bytes === 'number' ? i.size_bytes : 0,
      encoding: typeof i.encoding === 'string' ? i.encoding : 'utf8',
    });
  }
  return out;
}

/** The folder holding the saved artifacts of the session whose fact-log thread is `thread`. */
export function artifactFolder(workspace: string, thread: string): string {
  return join(workspace, '.a3s', 'artifacts', thread);
}

/** Where the CLI saves artifact `a` of the session whose fact-log thread is `thread`. */
export function artifactPath(workspace: string, thread: string, a: ResultArtifact): string {
  return join(artifactFolder(workspace, thread), `${a.id}.${EXTENSIONS[a.mime] ?? 'bin'}`);
}

/** `12.3 KB` style size. */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** One line about an artifact: `▣ image/png, 21.4 KB → .a3s/artifacts/<session>/<id>.png`. */
export function artifactLine(style: Style, a: ResultArtifact, shown: string, note = ''): string {
  return `  ${style.cyan('▣')} ${a.mime}, ${byteSize(a.sizeBytes)} → ${shown}${note === '' ? '' : ` ${style.dim(note)}`}`;
}

/** Reads an artifact's stored content (the session's artifact store), if it still has it. */
export type ArtifactContent = (id: string) => string | undefined;

/** The content of a session's artifacts, read from its snapshot (which holds the artifact store). */
export function sessionArtifacts(session: Session): ArtifactContent {
  return (id) => session.core.snapshot().artifacts.find((a) => a.id === id)?.content ?? undefined;
}

/**
 * The artifacts folder of `thread`, each of `.a3s`, `artifacts` and `<thread>` created when missing
 * (a new `.a3s` with a `.gitignore` of `*`, as the runtime makes it) and checked to be a real
 * folder, not a link that would take the file somewhere else.
 * @throws Error naming the first part that is a link or not a folder.
 */
function realArtifactFolder(workspace: string, thread: string): string {
  let at = workspace;
  for (const part of ['.a3s', 'artifacts', thread]) {
    at = join(at, part);
    const found = lstatSync(at, { throwIfNoEntry: false });
    if (found === undefined) {
      // Not recursive: a link made meanwhile in its place fails it with EEXIST.
      mkdirSync(at);
      if (part === '.a3s') writeFileSync(join(at, '.gitignore'), '*\n', { flag: 'wx' });
    } else if (!found.isDirectory())
      throw new Error(
        `${relative(workspace, at)} is ${found.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; allowed: a real folder inside the workspace`,
      );
  }
  return at;
}

/** Writes `bytes` as a new file at `path` (never through a link there); an existing file is kept. */
function saveNew(path: string, bytes: Buffer): void {
  try {
    writeFileSync(path, bytes, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // The same id was saved before; a link or anything else in its place is not written through.
    if (lstatSync(path).isFile()) return;
    throw new Error(`${path} exists and is not a regular file; allowed: a new file`);
  }
}

/**
 * A saver for the event printer: writes each artifact a result references to the session's
 * artifacts folder and returns the lines to print (paths relative to the workspace).
 */
export function artifactSaver(
  style: Style,
  workspace: string,
  sessionId: () => string,
  content: ArtifactContent,
): (metadata: unknown) => string[] {
  return (metadata) =>
    artifactsOf(metadata).map((a) => {
      const thread = threadIdFor(sessionId());
      const path = artifactPath(workspace, thread, a);
      const shown = relative(workspace, path);
      const stored = content(a.id);
      if (stored === undefined) return artifactLine(style, a, shown, '(not saved: the session no longer holds it)');
      const bytes = Buffer.from(stored, a.encoding === 'base64' ? 'base64' : 'utf8');
      try {
        realArtifactFolder(workspace, thread);
        saveNew(path, bytes);
      } catch (e) {
        return artifactLine(style, a, shown, `(not saved: ${(e as Error).message})`);
      }
      return artifactLine(style, { ...a, sizeBytes: bytes.length }, shown);
    });
}
