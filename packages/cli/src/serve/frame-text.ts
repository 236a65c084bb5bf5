/**
 * What the framings' parsers share: the sink they report to, the feed they are, and how a
 * message's bytes become text (strict UTF-8) or a problem that names what was wrong.
 */

/** What a reader calls: a message's text, or a problem with the input (answered with a parse error). */
export interface FrameSink {
  readonly onMessage: (text: string) => void;
  readonly onBadFrame: (problem: string) => void;
}

/** What a framing's parser is fed: the input's chunks, then its end. */
export interface FrameFeed {
  data(chunk: Buffer): void;
  end(): void;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a message's bytes, or names why it cannot be (the reader reports it and reads on). */
export function decodeMessage(bytes: Uint8Array): { text: string } | { problem: string } {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { problem: `the message is not valid UTF-8 (${bytes.length} bytes); messages must be UTF-8 text` };
  }
}

/** The problem of a message over the limit. */
export function tooLong(bytes: number, max: number): string {
  return `a message of ${bytes} bytes or more is over the limit of ${max} bytes (a3s serve --max-message-bytes); it was skipped`;
}
