/** The types of a kernel: its languages, how it starts, how a cell runs and what it returns. */

/** The languages a kernel can run. */
export type EvalLanguage = 'python' | 'javascript';

/** What a bridge call returns to the kernel. */
export interface BridgeReply {
  readonly ok: boolean;
  readonly output: string;
}

/** A PNG (or other image) a cell produced, base64-encoded. */
export interface CellImage {
  readonly mime: string;
  readonly data: string;
}

/** The outcome of one cell. */
export interface CellResult {
  readonly ok: boolean;
  /** stdout, stderr and displays interleaved as they arrived, capped. */
  readonly output: string;
  /** Total characters of output before capping. */
  readonly outputChars: number;
  readonly truncated: boolean;
  /** The echo of the last expression, when there was one. */
  readonly echo?: string;
  /** The formatted error when the cell raised. */
  readonly error?: string;
  readonly images: readonly CellImage[];
  readonly bridgeCalls: number;
  /** Bridge calls still going when the cell ended, aborted then (a cell that did not await its `tool()` calls). */
  readonly cutOffCalls: number;
}

/** How a cell runs. */
export interface CellOptions {
  /** Inactivity budget in milliseconds. */
  readonly inactivityMs: number;
  /** Output cap in characters (head and tail kept). */
  readonly maxOutputChars: number;
  /**
   * Handles `tool(name, args)` from inside the cell; `signal` aborts when the cell ends (a call the
   * cell did not wait for is cut off then, and its end waited for, boundedly, before the cell's result).
   */
  readonly bridge: (name: string, args: unknown, signal: AbortSignal) => Promise<BridgeReply>;
  /** Cancels the cell (the kernel is killed). */
  readonly signal?: AbortSignal;
  /** Live output. */
  readonly onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
}

/** How to start a kernel. */
export interface KernelCommand {
  readonly language: EvalLanguage;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /** The memory limit the kernel was started with, in MiB; also the limit of the resident-memory watch. */
  readonly memoryLimitMb?: number;
}
