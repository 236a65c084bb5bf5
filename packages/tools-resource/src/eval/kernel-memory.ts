/**
 * The memory watch of a kernel: the resident memory of its processes, sampled while it lives
 * (between cells too: a timer of a cell can go on allocating), a process scan reused for several
 * samples (fewer while idle).
 */
import { type ProcessMark, processesOf, residentBytes } from '../shared/process-tree.js';

/** How often memory is sampled, and how many samples reuse one process scan. */
const MEMORY_SAMPLE_MS = 250;
const SCAN_EVERY = 4;
const IDLE_SCAN_EVERY = 20;

/** What the watch asks of the kernel, and tells it once it goes over `limitMb`. */
export interface MemoryWatch {
  alive(): boolean;
  busy(): boolean;
  over(bytes: number): void;
}

/** Samples the memory of the kernel `pid` (and the processes `mark` finds) until it is over `limitMb` or dead. */
export function watchMemory(pid: number, mark: ProcessMark, limitMb: number, kernel: MemoryWatch): void {
  let pids = [pid];
  let tick = 0;
  const timer = setInterval(() => {
    if (!kernel.alive()) return clearInterval(timer);
    if (tick++ % (kernel.busy() ? SCAN_EVERY : IDLE_SCAN_EVERY) === 0)
      pids = [pid, ...processesOf(mark).filter((p) => p !== pid)];
    const bytes = residentBytes(pids);
    if (bytes === undefined || bytes <= limitMb * 2 ** 20) return;
    clearInterval(timer);
    kernel.over(bytes);
  }, MEMORY_SAMPLE_MS);
  timer.unref();
}
