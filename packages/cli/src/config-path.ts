/** The workspace's config file paths, checked before any command reads them. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE_NAMES } from '@a3s-code/core';
import { UsageError } from './errors.js';

/**
 * Refuses a config path of the workspace `dir` that is there but is no file (a folder named
 * `a3s.config.json`): it would be skipped without a word.
 * @throws UsageError naming the path and what it must be.
 */
export function checkConfigPaths(dir: string): void {
  for (const name of CONFIG_FILE_NAMES) {
    const path = join(dir, name);
    if (existsSync(path) && !statSync(path).isFile())
      throw new UsageError(`${path} is not a file; the workspace's configuration is a JSON file (a3s init writes one)`);
  }
}
