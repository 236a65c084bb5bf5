/**
 * Follows one response stream and produces partial-object snapshots: from the synthesised
 * tool's argument deltas in tool mode, from the text deltas otherwise. Parsing runs at most
 * once per interval, so a long stream is not re-parsed at every delta.
 */
import type { LlmStreamEvent } from '../llm/llm-client.js';
import type { JsonValue } from '../tools/json-schema.js';
import { jsonCandidate } from './extract-json.js';
import { parsePartialJson } from './partial-json.js';

/** Receives a partial value (already unwrapped from `{ value }` in tool mode). */
export type PartialListener = (partial: JsonValue) => void;

/** Tracks the raw text of the value being generated. */
export class PartialTracker {
  /** The raw text so far: the tool's argument JSON, or the response text. */
  raw = '';
  private toolIndex: number | undefined;
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastJson = '';

  constructor(
    private readonly toolName: string | undefined,
    private readonly wrapped: boolean,
    private readonly listener: PartialListener | undefined,
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /** Feeds one stream event. */
  add(ev: LlmStreamEvent): void {
    if (this.toolName !== undefined) {
      if (ev.type === 'tool_call_start' && ev.name === this.toolName && this.toolIndex === undefined)
        this.toolIndex = ev.index;
      else if (ev.type === 'tool_call_delta' && ev.index === this.toolIndex) this.changed(ev.argsDelta);
    } else if (ev.type === 'text_delta') {
      this.changed(ev.delta);
    }
  }

  private changed(delta: string): void {
    this.raw += delta;
    if (this.listener === undefined) return;
    const t = this.now();
    if (t - this.lastAt < this.intervalMs) return;
    const parsed = parsePartialJson(this.toolName === undefined ? jsonCandidate(this.raw) : this.raw);
    if (parsed === undefined) return;
    let value: JsonValue | undefined = parsed.value;
    if (this.wrapped) {
      value = typeof value === 'object' && value !== null && !Array.isArray(value) ? value.value : undefined;
      if (value === undefined) return;
    }
    const json = JSON.stringify(value);
    if (json === this.lastJson) return;
    this.lastAt = t;
    this.lastJson = json;
    this.listener(value);
  }
}
