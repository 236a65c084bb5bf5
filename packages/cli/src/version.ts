/** The version of the `a3s` command: the `@a3s-code/cli` package's. */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The version in `@a3s-code/cli`'s package.json (read once; the built files sit one folder below it, as the sources do). */
export function cliVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return cached;
}
