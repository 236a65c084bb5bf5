/** What a command runs with: the process's streams, environment and folder (injectable for tests). */
import type { Readable } from 'node:stream';

/** A writable text stream (a TTY or not). */
export interface Out {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  /** The terminal's width in columns, when it is a terminal that says. */
  readonly columns?: number;
}

/** The command's world. */
export interface Io {
  readonly stdin: Readable & { readonly isTTY?: boolean };
  /** True when stdin is a pipe or a socket (`echo … | a3s run`), not a terminal, a file or `/dev/null`. */
  readonly stdinPiped?: boolean;
  readonly stdout: Out;
  readonly stderr: Out;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The folder the command starts in (a placeholder when {@link cwdGone} is set). */
  readonly cwd: string;
  /**
   * True when the folder the process started in no longer exists (it was deleted while a shell
   * stood in it): `--help` and `--version` still answer, a command runs on an absolute `-C <dir>`
   * (which then replaces {@link cwd}), and anything else is refused with exit code 2.
   */
  readonly cwdGone?: boolean;
  /**
   * Aborted when stdout's reader went away (`a3s run --json | head -1`): a run in progress is
   * interrupted and closed, and the command ends quietly with exit code 0.
   */
  readonly stdoutClosed?: AbortSignal;
  /**
   * Starts watching for stdout's reader going away while nothing is written (it aborts
   * {@link stdoutClosed}); returns the stopper. For commands that print once, then wait.
   */
  readonly watchStdoutReader?: () => () => void;
}
