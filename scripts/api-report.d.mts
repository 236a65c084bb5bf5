/** Types for scripts/api-report.mjs (used by test/api-report.test.ts). */
export declare const UPDATE_COMMAND: string;
/** The public entries of each package (package.json `exports` with `types`). */
export declare function publicEntries(
  root: string,
): { folder: string; name: string; entries: { subpath: string; spec: string; dts: string }[] }[];
/** Every package's report rendered from the built `.d.ts` files: repo-relative path to content. */
export declare function renderReports(root: string): Map<string, string>;
/** The lines that differ between a committed and a built report. */
export declare function diffLines(committed: string, built: string): string[];
/** The reports whose committed file differs from the build. */
export declare function staleReports(root: string): { path: string; diff: string[] }[];
