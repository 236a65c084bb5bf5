/**
 * Turns what QuickJS reports (a dumped error value) into a typed `ProgramError` that names the
 * script's own line.
 */
import {
  ProgramMemoryLimitError,
  ProgramRuntimeError,
  ProgramStackLimitError,
  ProgramSyntaxError,
  type ProgramError,
  type ProgramErrorLocation,
} from './program-errors.js';

/** What the runner knows when classifying an error. */
export interface ErrorScope {
  /** The script's file name as the VM knows it. */
  readonly file: string;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
}

interface Dumped {
  readonly name: string;
  readonly message: string;
  readonly stack: string;
  readonly lineNumber: number | undefined;
}

/** A thrown value as text: its JSON where it has one (a BigInt as `10n`, which JSON cannot hold), else its string. */
function thrownText(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '(a value that cannot be shown)';
    }
  }
}

function asDumped(value: unknown): Dumped {
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const name = typeof o.name === 'string' ? o.name : 'Error';
    const message = typeof o.message === 'string' ? o.message : thrownText(value);
    return {
      name,
      message,
      stack: typeof o.stack === 'string' ? o.stack : '',
      lineNumber: typeof o.lineNumber === 'number' ? o.lineNumber : undefined,
    };
  }
  return {
    name: 'thrown value',
    message: typeof value === 'string' ? value : thrownText(value),
    stack: '',
    lineNumber: undefined,
  };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first frame of the script in a QuickJS stack (`at run (program.js:3:4)`). */
export function locate(file: string, stack: string, lineNumber?: number): ProgramErrorLocation {
  const m = new RegExp(`${escapeRe(file)}:(\\d+)(?::(\\d+))?`).exec(stack);
  if (m !== null) return { file, line: Number(m[1]), ...(m[2] === undefined ? {} : { column: Number(m[2]) }) };
  return lineNumber === undefined ? { file } : { file, line: lineNumber };
}

/** True when the dumped value is QuickJS's "interrupted" error (deadline, limit or cancel). */
export function isInterrupted(value: unknown): boolean {
  const d = asDumped(value);
  return d.name === 'InternalError' && d.message === 'interrupted';
}

/** Classifies an error the script raised while being evaluated (`syntax`) or run. */
export function classifyVmError(value: unknown, scope: ErrorScope, phase: 'evaluate' | 'run'): ProgramError {
  const d = asDumped(value);
  if (value === null || /out of memory/i.test(d.message)) return new ProgramMemoryLimitError(scope.memoryLimitBytes);
  const loc = locate(scope.file, d.stack, d.lineNumber);
  if (/stack overflow|call stack size/i.test(d.message)) return new ProgramStackLimitError(loc, scope.maxStackBytes);
  if (phase === 'evaluate' && d.name === 'SyntaxError') return new ProgramSyntaxError(loc, d.message);
  return new ProgramRuntimeError(loc, d.name, d.message, d.stack.trim());
}
