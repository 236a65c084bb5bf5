/** The workspace's config file paths, checked before any command reads them. */
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  CONFIG_FILE_NAMES,
  configFolderOf,
  findConfigFile,
  ignoredConfigFiles,
  workspaceFolders,
} from '@a3s-code/core';
import { UsageError } from './errors.js';
import { shellWord } from './shell-quote.js';

/**
 * The problem of a config path that is a symbolic link to nothing (a missing file or folder, a
 * loop), or `undefined`: such a file would be taken for no config file at all, without a word.
 */
export function danglingConfigLink(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    statSync(path);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP') return undefined;
    let target = '?';
    try {
      target = readlinkSync(path);
    } catch {
      return undefined; // not a link after all (gone meanwhile)
    }
    return `${path} is a symbolic link to '${target}', which leads to no file (${code}): a3s reads the workspace's config file through it. Point the link at the config file, or remove it (rm ${shellWord(path)}) and run a3s init to write a new one`;
  }
}

/**
 * Refuses a config path of the workspace `dir` that is there but is no file (a folder named
 * `a3s.config.json`), or is a symbolic link to nothing: either would be skipped without a word.
 * @throws UsageError naming the path and what it must be.
 */
export function checkConfigPaths(dir: string): void {
  // The folders above the workspace in its git repository are looked in for a config file too.
  for (const folder of workspaceFolders(dir).reverse())
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(folder, name);
      const dangling = danglingConfigLink(path);
      if (dangling !== undefined) throw new UsageError(dangling);
      if (existsSync(path) && !statSync(path).isFile())
        throw new UsageError(
          `${path} is not a file; the workspace's configuration is a JSON file (a3s init writes one)`,
        );
      // The nearest config file is the one read: the folders above it are not looked in.
      if (existsSync(path)) return;
    }
}

/**
 * A warning for each config file of the workspace `dir` that is never read because another comes
 * first (`a3s.config.json` before `.a3s/config.json`): its rules, a deny rule too, do not apply,
 * which would otherwise go without a word.
 */
export async function ignoredConfigWarnings(dir: string): Promise<string[]> {
  const ignored = await ignoredConfigFiles(dir);
  const used = ignored.length === 0 ? undefined : await findConfigFile(dir);
  return ignored.map(
    (path) =>
      `warning: ${path} is ignored, and none of its settings or permission rules (deny rules too) apply: ${used} is read instead (the first found of ${CONFIG_FILE_NAMES.join(', ')}); move what it holds into ${basename(used ?? '')} and remove it`,
  );
}

/**
 * The notice that the workspace `dir` uses a config file of a folder above it (in its git
 * repository), or `undefined` when it uses its own or none: which file is read is never left unsaid.
 */
export async function inheritedConfigNotice(dir: string): Promise<string | undefined> {
  const file = await findConfigFile(dir);
  if (file === undefined) return undefined;
  const folder = configFolderOf(file);
  if (folder === resolve(dir)) return undefined;
  return `config: ${file} (the nearest config file above ${resolve(dir)} in its git repository); its path rules apply as written for ${folder}`;
}
