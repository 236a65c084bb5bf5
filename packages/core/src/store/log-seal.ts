/**
 * The seal beside a fact log (`<log>.seal`): what the store last made of the file, written before
 * each write reaches it. While a session holds its log the guard (`log-guard.ts`) undoes a foreign
 * change before the next write; the seal covers the time after a process that held the log died
 * (a crash, a kill, the machine going down) with something else still writing: a command's
 * background job appending a forged fact, or cutting the file. On open the file is checked against
 * it, and a file that holds lines the store never wrote, or less than it wrote, is refused by name
 * (`FACT_LOG_CHANGED`) instead of being trusted; nothing is cut, so nothing is lost: the person
 * decides (the message says how to drop the added bytes, or to accept the file as it is).
 *
 * The seal says: the file held `before` bytes ending in bytes whose SHA-256 is `tail`, and the store
 * is about to add bytes whose SHA-256 is `added`, making `after`. A crash between the seal and the
 * data leaves `before` bytes or part of the addition (a torn write, which opening cuts as before);
 * after the data, `after` bytes. Complete lines past the addition are not the store's. A seal that
 * cannot be read (a log of an earlier version, or one cut short by a crash as it was written)
 * checks nothing; a process that can write the log can also remove its seal, so the seal stops
 * what writes the log without knowing of it (a forged line and a crash), not one that does.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { A3sError } from '@a3s-code/effect';

/** Bytes at the end of the file the seal's `tail` covers. */
const TAIL_BYTES = 4096;

interface Seal {
  readonly before: number;
  readonly tail: string;
  readonly after: number;
  readonly added: string;
}

const sha = (buf: Buffer): string => createHash('sha256').update(buf).digest('hex');

/** The path of the seal of the log at `path`. */
export function sealPath(path: string): string {
  return `${path}.seal`;
}

/** A log found changed, since the store last wrote it, in a way the store cannot undo. Nothing was opened or changed. */
export class FactLogChangedError extends A3sError {
  constructor(path: string, why: string) {
    super(
      'FACT_LOG_CHANGED',
      `fact log '${path}' was changed after the process holding it stopped: ${why}; the store cannot undo that, so the log was not opened and nothing in it was changed. To open it as it is (you changed it yourself), remove '${sealPath(path)}'`,
      { details: { path } },
    );
  }
}

function readSeal(path: string): Seal | undefined {
  try {
    const s = JSON.parse(readFileSync(sealPath(path), 'utf8')) as Partial<Seal>;
    const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
    const hex = (h: unknown): h is string => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h);
    if (!whole(s.before) || !whole(s.after) || s.after < s.before || !hex(s.tail) || !hex(s.added)) return undefined;
    return s as Seal;
  } catch {
    return undefined;
  }
}

async function bytesAt(fh: FileHandle, from: number, to: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, to - from));
  let at = 0;
  while (at < buf.length) {
    const { bytesRead } = await fh.read(buf, at, buf.length - at, from + at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return buf.subarray(0, at);
}

/** Most bytes of added text read to tell a torn line or blank lines (cut on open anyway) from added lines. */
const ADDED_LOOK = 1 << 20;

/**
 * How the log at `path` (open as `fh`, `size` bytes) differs from what the store last wrote, by its
 * seal, or `undefined` when it does not (or a crash cut the store's last write short, or only a torn
 * line or blank lines follow it, which opening cuts off anyway). See the module comment.
 */
export async function sealProblem(path: string, fh: FileHandle, size: number): Promise<string | undefined> {
  const seal = readSeal(path);
  if (seal === undefined) return undefined;
  const back = `cut it back to the bytes its session wrote (truncate -s ${seal.after} '${path}') to drop them`;
  if (size < seal.before) return `it holds ${size} bytes, fewer than the ${seal.before} its session had written`;
  if (sha(await bytesAt(fh, Math.max(0, seal.before - TAIL_BYTES), seal.before)) !== seal.tail)
    return `the bytes before byte ${seal.before} are not those its session wrote`;
  if (size < seal.after) return undefined;
  if (sha(await bytesAt(fh, seal.before, seal.after)) !== seal.added)
    return `the bytes from byte ${seal.before} to ${seal.after} are not those its session last wrote`;
  if (size === seal.after) return undefined;
  const added = (await bytesAt(fh, seal.after, Math.min(size, seal.after + ADDED_LOOK))).toString('utf8');
  if (size - seal.after <= ADDED_LOOK && (!added.includes('\n') || /^[ \t\r\n]*$/.test(added))) return undefined;
  const first = added
    .slice(0, added.indexOf('\n') + 1 || 120)
    .trim()
    .slice(0, 120);
  return `${size - seal.after} bytes were added after the ${seal.after} its session wrote (they begin '${first}'); ${back}`;
}

/**
 * How the fact log at `path` was changed after the session that wrote it stopped, by its seal
 * (lines it never wrote added, or bytes it wrote changed or cut), or `undefined` when it was not,
 * it has no seal, or it cannot be read. Nothing is written: for a reader (a replay) to say so
 * beside facts its session may never have written; opening the log for a session refuses it.
 */
export async function factLogChange(path: string): Promise<string | undefined> {
  // A session still writing the log seals each write before it: a seal that changed while the
  // file was checked belongs to a write the check may have half seen, and tells nothing.
  const sealText = (): string | undefined => {
    try {
      return readFileSync(sealPath(path), 'utf8');
    } catch {
      return undefined;
    }
  };
  const before = sealText();
  if (before === undefined) return undefined;
  const problem = await problemOf(path);
  return problem !== undefined && sealText() === before ? problem : undefined;
}

async function problemOf(path: string): Promise<string | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = await fh.stat();
    return st.isFile() ? await sealProblem(path, fh, st.size) : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Writes the seal of a log as the store writes it (see the module comment). */
export class LogSealer {
  #tail: Buffer;
  constructor(
    private readonly path: string,
    tail: Buffer,
  ) {
    this.#tail = tail.subarray(Math.max(0, tail.length - TAIL_BYTES));
  }

  /** The last bytes of the log at `path` (open as `fh`, `size` bytes): what a sealer starts from. */
  static async tailOf(fh: FileHandle, size: number): Promise<Buffer> {
    return bytesAt(fh, Math.max(0, size - TAIL_BYTES), size);
  }

  /** Seals the file at `before` bytes as about to get `buf`; then {@link LogSealer.wrote} once it has. */
  seal(before: number, buf: Buffer): void {
    const seal: Seal = { before, tail: sha(this.#tail), after: before + buf.length, added: sha(buf) };
    writeFileSync(sealPath(this.path), JSON.stringify(seal));
  }

  /** `buf` reached the file: its end is the tail from now on. */
  wrote(buf: Buffer): void {
    const joined = buf.length >= TAIL_BYTES ? buf : Buffer.concat([this.#tail, buf]);
    this.#tail = Buffer.from(joined.subarray(Math.max(0, joined.length - TAIL_BYTES)));
  }

  /** The whole file was written back as `text`: sealed as it now is. */
  rewrote(text: Buffer): void {
    this.#tail = Buffer.from(text.subarray(Math.max(0, text.length - TAIL_BYTES)));
    this.seal(text.length, Buffer.alloc(0));
  }

  /** Removes the seal (the log itself was removed). */
  remove(): void {
    rmSync(sealPath(this.path), { force: true });
  }
}
