/**
 * Migration of the legacy bare-session shape (`SessionData`: `id`, `messages`, `created_at`, and
 * whatever else older versions saved, ignored) into a snapshot. A message's `content` is a string
 * or a list of content blocks: `text`, `image` (not carried over: its bytes are not in the
 * file; the message says so), `tool_use` (the assistant's calls) and `tool_result` (a user
 * message answering them, as the Anthropic wire shape has it). `system` messages are dropped (the
 * system prompt comes from the configuration). A call the file holds no result for is closed with
 * a failed result saying so, so the conversation stays one a provider accepts. Times are epoch
 * milliseconds, epoch seconds (older versions wrote those: any number below 10^11) or ISO-8601.
 */
import type { Message, ToolCall } from '@a3s-code/effect';
import { SessionSnapshotError } from '../errors/persistence-errors.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Epoch milliseconds of a legacy time field; `undefined` when absent. */
function timeOf(value: unknown, field: string, source: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    return value < 1e11 ? Math.round(value * 1000) : value;
  }
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (/^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(ms)) return ms;
  }
  throw new SessionSnapshotError(
    source,
    field,
    `must be epoch milliseconds, epoch seconds or an ISO-8601 time, got ${JSON.stringify(value)?.slice(0, 60)}`,
  );
}

/** The text of a `tool_result` block's `content` (a string, or text blocks; others dropped). */
function resultText(content: unknown, field: string, source: string): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  if (!Array.isArray(content)) throw new SessionSnapshotError(source, field, 'must be a string or a list of blocks');
  const parts: string[] = [];
  let dropped = 0;
  content.forEach((b, i) => {
    if (isObj(b) && b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (isObj(b) && typeof b.type === 'string') dropped++;
    else throw new SessionSnapshotError(source, `${field}[${i}]`, 'must be a content block with a type');
  });
  if (dropped > 0) parts.push(`[${dropped} non-text block(s) of this result were not kept]`);
  return parts.join('\n');
}

/** Builds the conversation of a legacy session's `messages`. */
class Converter {
  readonly conversation: Message[] = [];
  readonly #open = new Map<string, string>();
  constructor(readonly source: string) {}

  #seq(): number {
    return this.conversation.length + 1;
  }

  #closeOpen(): void {
    for (const [id, name] of this.#open) {
      const output = 'no result of this call was saved with the session';
      this.conversation.push({
        role: 'tool',
        tool_call_id: id,
        name,
        ok: false,
        output,
        exit_code: 1,
        seq: this.#seq(),
      });
    }
    this.#open.clear();
  }

  add(m: unknown, at: string): void {
    if (!isObj(m)) throw new SessionSnapshotError(this.source, at, 'must be an object with role and content');
    const role = m.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') {
      throw new SessionSnapshotError(
        this.source,
        `${at}.role`,
        `must be user, assistant or system, got ${JSON.stringify(role)}`,
      );
    }
    if (role === 'system') return;
    const content = m.content;
    if (typeof content === 'string') {
      this.#closeOpen();
      const seq = this.#seq();
      this.conversation.push(
        role === 'user'
          ? { role: 'user', text: content, source: 'history', seq }
          : { role: 'assistant', text: content, tool_calls: [], seq },
      );
      return;
    }
    if (!Array.isArray(content)) {
      throw new SessionSnapshotError(this.source, `${at}.content`, 'must be a string or a list of content blocks');
    }
    const texts: string[] = [];
    const calls: ToolCall[] = [];
    let images = 0;
    const image = (): void => {
      images++;
    };
    for (const [i, b] of content.entries()) this.#block(b, `${at}.content[${i}]`, role, texts, calls, image);
    if (images > 0) texts.push(`[${images} image(s) of this message were not kept]`);
    if (role === 'assistant') {
      this.#closeOpen();
      this.conversation.push({ role: 'assistant', text: texts.join(''), tool_calls: calls, seq: this.#seq() });
      for (const c of calls) this.#open.set(c.id, c.name);
    } else if (texts.length > 0) {
      this.#closeOpen();
      this.conversation.push({ role: 'user', text: texts.join(''), source: 'history', seq: this.#seq() });
    }
  }

  #block(b: unknown, at: string, role: string, texts: string[], calls: ToolCall[], image: () => void): void {
    if (!isObj(b) || typeof b.type !== 'string') {
      throw new SessionSnapshotError(this.source, at, 'must be a content block with a type');
    }
    const str = (key: string): string => {
      const v = b[key];
      if (typeof v !== 'string' || v === '')
        throw new SessionSnapshotError(this.source, `${at}.${key}`, 'must be a non-empty string');
      return v;
    };
    switch (b.type) {
      case 'text':
        if (typeof b.text !== 'string') throw new SessionSnapshotError(this.source, `${at}.text`, 'must be a string');
        texts.push(b.text);
        return;
      case 'image':
        image();
        return;
      case 'tool_use': {
        if (role !== 'assistant')
          throw new SessionSnapshotError(this.source, at, 'a tool_use block belongs to an assistant message');
        const input = b.input ?? {};
        const args = isObj(input) ? input : { input };
        calls.push({ id: str('id'), name: str('name'), args, needs_confirmation: false });
        return;
      }
      case 'tool_result': {
        if (role !== 'user')
          throw new SessionSnapshotError(this.source, at, 'a tool_result block belongs to a user message');
        const id = str('tool_use_id');
        const name = this.#open.get(id);
        if (name === undefined) {
          throw new SessionSnapshotError(
            this.source,
            `${at}.tool_use_id`,
            `'${id}' answers no open tool_use of an earlier assistant message`,
          );
        }
        this.#open.delete(id);
        const failed = b.is_error === true;
        const output = resultText(b.content, `${at}.content`, this.source);
        this.conversation.push({
          role: 'tool',
          tool_call_id: id,
          name,
          ok: !failed,
          output,
          exit_code: failed ? 1 : 0,
          seq: this.#seq(),
        });
        return;
      }
      default:
        throw new SessionSnapshotError(
          this.source,
          `${at}.type`,
          `must be text, image, tool_use or tool_result, got ${JSON.stringify(b.type).slice(0, 40)}`,
        );
    }
  }

  finish(): Message[] {
    this.#closeOpen();
    return this.conversation;
  }
}

/**
 * Migrates a legacy bare session into a snapshot.
 * @throws SessionSnapshotError naming the field that cannot be read.
 */
export function migrateLegacySession(value: unknown, source: string): SessionSnapshotV1 {
  if (!isObj(value)) throw new SessionSnapshotError(source, '(root)', 'must be a JSON object');
  if (typeof value.id !== 'string' || value.id === '') {
    throw new SessionSnapshotError(source, 'id', 'must be a non-empty string');
  }
  if (!Array.isArray(value.messages)) throw new SessionSnapshotError(source, 'messages', 'must be a list of messages');
  const converter = new Converter(source);
  for (const [i, m] of value.messages.entries()) converter.add(m, `messages[${i}]`);
  const createdAt = timeOf(value.created_at, 'created_at', source) ?? 0;
  const updatedAt = timeOf(value.updated_at, 'updated_at', source) ?? createdAt;
  return {
    version: 1,
    session_id: value.id,
    created_at_ms: createdAt,
    updated_at_ms: Math.max(updatedAt, createdAt),
    conversation: converter.finish(),
    artifacts: [],
    trace_events: [],
    runs: [],
    verification_reports: [],
    subagent_tasks: [],
  };
}
