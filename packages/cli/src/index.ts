/**
 * `@a3s-code/cli`: the `a3s` command. The package's entry exposes `main` (to run the command in
 * process, e.g. from another tool) and the exit codes; the executable is `a3s` (`dist/bin.js`).
 */
export { main, MAIN_HELP } from './main.js';
export { EXIT, UsageError } from './errors.js';
export type { Io, Out } from './io.js';
export { SERVE_SCHEMA_FILE, serveJsonSchema, type ServeJsonSchema } from './serve/schema.js';
