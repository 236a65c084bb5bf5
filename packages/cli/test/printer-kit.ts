// Events as the terminal printer receives them (projected), for the printer's tests.
import type { ProjectedEventV1 } from '@a3s-code/sdk';

/** A projected event of `type` with `payload`, at `sequence` (a `text_delta` carries its text). */
export const printerEvent = (type: string, payload: Record<string, unknown>, sequence: number): ProjectedEventV1 =>
  ({
    type,
    payload,
    text: type === 'text_delta' ? String(payload.delta) : undefined,
    metadata: { sequence },
  }) as unknown as ProjectedEventV1;
