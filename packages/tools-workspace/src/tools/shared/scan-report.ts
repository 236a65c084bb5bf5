/**
 * `metadata.search` of `grep` and `glob` on a backend that scans under a cap (an S3 workspace):
 * every such result says which backend scanned, how many objects it visited, the cap, and whether
 * the cap stopped it; a stopped scan also adds a warning to the output, since totals and paths may
 * then be incomplete.
 */
import type { ToolResult, WorkspaceScanReport } from '@a3s-code/core';

/** Collects the scan reports of one tool call and puts them on its result. */
export class ScanRecorder {
  #report: WorkspaceScanReport | undefined;

  /** Pass as the search request's `onScan`. */
  readonly onScan = (r: WorkspaceScanReport): void => {
    const prev = this.#report;
    this.#report =
      prev === undefined
        ? r
        : { ...r, scanned: Math.max(prev.scanned, r.scanned), truncated: prev.truncated || r.truncated };
  };

  /** `result` with `metadata.search` (and the warning of a stopped scan); unchanged when no backend reported. */
  apply(result: ToolResult): ToolResult {
    const r = this.#report;
    if (r === undefined) return result;
    const warning = r.truncated
      ? `the ${r.backend} scan stopped after ${r.scanned} objects (the workspace's maxScanObjects): totals and paths may be incomplete; narrow the search with path or glob, or raise maxScanObjects`
      : undefined;
    const search = {
      backend: r.backend,
      truncated: r.truncated,
      objects_scanned: r.scanned,
      max_scan_objects: r.limit,
      ...(warning === undefined ? {} : { warning }),
    };
    return {
      ...result,
      output: warning === undefined ? result.output : `${result.output}\n[warning: ${warning}]`,
      metadata: { ...(result.metadata ?? {}), search },
    };
  }
}
