/**
 * Long-lived helper processes (eval kernels, language servers) and Node's event loop: an idle
 * one holds no loop, so a host script ends on its own, and the process's exit hook kills what is
 * still alive then.
 */

type Handle = { ref?: () => void; unref?: () => void };

/** Makes `handles` (a child process and its pipes) keep the event loop alive, or not. */
export function holdLoop(handles: readonly (object | null | undefined)[], on: boolean): void {
  for (const handle of handles as readonly (Handle | null | undefined)[])
    if (on) handle?.ref?.();
    else handle?.unref?.();
}

/** A set whose members the process's exit hook kills (synchronously, as `exit` allows). */
export function killedOnExit<T extends { kill(): void }>(): Set<T> {
  const live = new Set<T>();
  process.once('exit', () => {
    for (const member of [...live]) member.kill();
  });
  return live;
}
