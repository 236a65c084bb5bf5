/**
 * Anthropic extended thinking as {@link ReasoningBlock}s: `thinking` blocks (text streamed as
 * `thinking_delta`s, then a `signature_delta`) and `redacted_thinking` blocks (opaque `data`,
 * no deltas), assembled from a stream or read from a whole message, and turned back into the
 * content blocks the Messages API requires first in an assistant tool-use turn, unchanged.
 */
import type { ReasoningBlock } from '@a3s-code/core';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

type OpenBlock = { kind: 'thinking'; text: string; signature: string } | { kind: 'redacted'; data: string };

/** Tracks open thinking blocks of one stream by their content-block index. */
export class ThinkingAssembler {
  private readonly open = new Map<number, OpenBlock>();

  /** Opens a block for a `content_block_start`; returns false when the block is not thinking. */
  start(index: number, block: Json): boolean {
    if (block.type === 'thinking') {
      const text = typeof block.thinking === 'string' ? block.thinking : '';
      const signature = typeof block.signature === 'string' ? block.signature : '';
      this.open.set(index, { kind: 'thinking', text, signature });
      return true;
    }
    if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      this.open.set(index, { kind: 'redacted', data: block.data });
      return true;
    }
    return false;
  }

  /** Adds thinking text to the open block at `index` (ignored when none is open). */
  text(index: number, delta: string): void {
    const b = this.open.get(index);
    if (b?.kind === 'thinking') b.text += delta;
  }

  /** Adds signature text to the open block at `index` (the API sends it once, before the stop). */
  signature(index: number, delta: string): void {
    const b = this.open.get(index);
    if (b?.kind === 'thinking') b.signature += delta;
  }

  /**
   * Closes the block at `index`: the finished block, or undefined when none was open or the
   * thinking block carried no signature (an unsigned block cannot be sent back).
   */
  end(index: number): ReasoningBlock | undefined {
    const b = this.open.get(index);
    if (b === undefined) return undefined;
    this.open.delete(index);
    if (b.kind === 'redacted') return { redacted: b.data };
    return b.signature === '' ? undefined : { text: b.text, signature: b.signature };
  }
}

/** The reasoning blocks of a whole (non-streamed) message's `content`, in order. */
export function anthropicReasoningBlocks(content: readonly unknown[]): ReasoningBlock[] {
  const out: ReasoningBlock[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (
      block.type === 'thinking' &&
      typeof block.thinking === 'string' &&
      typeof block.signature === 'string' &&
      block.signature !== ''
    ) {
      out.push({ text: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      out.push({ redacted: block.data });
    }
  }
  return out;
}

/** The Messages API content blocks for reasoning blocks, exactly as they were received. */
export function anthropicThinkingContent(blocks: readonly ReasoningBlock[]): Json[] {
  return blocks.map((b) =>
    'redacted' in b
      ? { type: 'redacted_thinking', data: b.redacted }
      : { type: 'thinking', thinking: b.text, signature: b.signature },
  );
}
