/** Whether a process lives. */

/** True while process `pid` exists (one that belongs to another user counts: the kernel says EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
