/**
 * Artifact caps: an output larger than the cap is stored whole as an artifact and the
 * result carries a bounded head + tail preview, its size, its SHA-256 and a reference.
 */
import { createHash, randomUUID } from 'node:crypto';

/** A stored artifact's reference. */
export interface ArtifactRef {
  readonly id: string;
  /** `artifact://<id>`. */
  readonly uri: string;
  /** Size in UTF-8 bytes. */
  readonly sizeBytes: number;
  /** Hex SHA-256 of the UTF-8 content. */
  readonly sha256: string;
}

/** Where capped outputs go. The session snapshot persists them (a later issue). */
export interface ArtifactStore {
  put(content: string, meta: { readonly toolName: string; readonly callId: string }): Promise<ArtifactRef>;
  get(id: string): Promise<string | undefined>;
}

/** An in-memory artifact store (the default; tests read artifacts back through it). */
export class InMemoryArtifactStore implements ArtifactStore {
  readonly #items = new Map<string, string>();

  /** Number of stored artifacts. */
  get size(): number {
    return this.#items.size;
  }

  async put(content: string): Promise<ArtifactRef> {
    const id = randomUUID();
    this.#items.set(id, content);
    return { id, uri: `artifact://${id}`, sizeBytes: Buffer.byteLength(content, 'utf8'), sha256: sha256Hex(content) };
  }

  async get(id: string): Promise<string | undefined> {
    return this.#items.get(id);
  }
}

/** Hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Cap settings. */
export interface OutputCapOptions {
  /** Largest output kept inline, in UTF-8 bytes, `>= 1024`. Default 65536. */
  readonly maxOutputBytes: number;
  /** Characters of the head and of the tail kept in the preview. Default 4096 each. */
  readonly previewChars: number;
}

/** Default cap settings. */
export const DEFAULT_OUTPUT_CAP: OutputCapOptions = Object.freeze({ maxOutputBytes: 65_536, previewChars: 4_096 });

/** Applies the cap: returns the output unchanged, or a preview plus the artifact reference. */
export async function capOutput(
  output: string,
  store: ArtifactStore,
  cap: OutputCapOptions,
  meta: { readonly toolName: string; readonly callId: string },
): Promise<{ output: string; artifact?: Readonly<Record<string, unknown>> }> {
  // A UTF-8 string has at least as many bytes as UTF-16 code units / 3; skip hashing short ones.
  if (output.length <= cap.maxOutputBytes / 3 || Buffer.byteLength(output, 'utf8') <= cap.maxOutputBytes)
    return { output };
  const ref = await store.put(output, meta);
  const head = output.slice(0, cap.previewChars);
  const tail = output.slice(-cap.previewChars);
  const note = `\n… [output capped: ${ref.sizeBytes} bytes, sha256 ${ref.sha256}; full output in ${ref.uri}] …\n`;
  return {
    output: head + note + tail,
    artifact: {
      id: ref.id,
      uri: ref.uri,
      size_bytes: ref.sizeBytes,
      sha256: ref.sha256,
      head_chars: head.length,
      tail_chars: tail.length,
    },
  };
}
