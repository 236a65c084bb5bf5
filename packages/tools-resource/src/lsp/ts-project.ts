/**
 * Where a TypeScript project's configuration points the compiler outside the workspace. `tsc
 * --listFiles` and the server's project list name the source files read, not the configuration
 * files a `tsconfig.json` extends, whose values (`types`, `files`, `paths`, …) its messages quote
 * (`Cannot find type definition file for '…'`, `File '…' not found`). So the chain of
 * `tsconfig.json` or `jsconfig.json` and the files it extends is read: a quoted value in any of
 * them that is absolute, starts with `~`, climbs out with `..` or leads out through a symbolic link
 * counts, and so does an extended package whose folder in the workspace's `node_modules` is a link
 * leading out.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type ConfigFile, type FollowOptions, followConfigs, keyValues, WorkspaceBounds } from './config-paths.js';
import { inPackage, isInside, realOrSelf } from './workspace-paths.js';

/** The file an `extends` path names, as TypeScript resolves it (`.json` added when there is no such file). */
function configFile(spelled: string, dir: string): string {
  const abs = resolve(dir, spelled);
  return existsSync(abs) || abs.endsWith('.json') ? abs : `${abs}.json`;
}

/** Why the package an `extends` names (`@tsconfig/node20/tsconfig.json`) leads outside, or undefined. */
function packageOutside(spelled: string, from: string, bounds: WorkspaceBounds): string | undefined {
  const parts = spelled.split('/');
  const name = parts.slice(0, spelled.startsWith('@') ? 2 : 1).join('/');
  for (let dir = from; isInside(bounds.root, dir); dir = dirname(dir)) {
    const real = realOrSelf(join(dir, 'node_modules', name));
    if (!isInside(bounds.root, real) && !inPackage(real))
      return `its package folder leads to ${real}, outside the workspace`;
    if (dir === dirname(dir)) break;
  }
  return undefined;
}

/**
 * Why the TypeScript project at `root` could have the compiler quote a configuration outside the
 * workspace (see the module comment), or undefined.
 */
export function tsConfigOutside(root: string, workspaceRoot: string): string | undefined {
  const bounds = new WorkspaceBounds(workspaceRoot);
  const starts = ['tsconfig.json', 'jsconfig.json'].map((n) => join(root, n));
  const opts: FollowOptions = {
    who: 'the TypeScript compiler',
    extended: (text, dir) =>
      keyValues(text, 'extends').map((spelled) =>
        /^(?:\.{1,2}[\\/]|[\\/]|~|[A-Za-z]:[\\/])/.test(spelled)
          ? { spelled, file: configFile(spelled, dir) }
          : { spelled },
      ),
    bare: (spelled, dir) => packageOutside(spelled, dir, bounds),
  };
  const files: ConfigFile[] = [];
  const why = followConfigs(starts, bounds, { ...opts, unread: withoutOutputs }, files);
  // An incremental build reads its previous build's record (kept in the output folder) back.
  if (why !== undefined || !files.some((f) => INCREMENTAL.test(f.text))) return why;
  return followConfigs(starts, bounds, opts);
}

/** Options naming where the compiler writes (never read by the checker or the server, which do not emit). */
const OUTPUT_KEYS = ['outDir', 'outFile', 'out', 'declarationDir', 'sourceRoot', 'mapRoot'];
const OUTPUT_VALUE = new RegExp(`(["']?\\b(?:${OUTPUT_KEYS.join('|')})["']?\\s*:\\s*)"(?:[^"\\\\\\n]|\\\\.)*"`, 'g');
/** A configuration turning on a build that reads its own earlier output. */
const INCREMENTAL = /["']?\b(?:incremental|composite)["']?\s*:\s*true\b/;

/** The text with the values of {@link OUTPUT_KEYS} emptied. */
function withoutOutputs(text: string): string {
  return text.replace(OUTPUT_VALUE, '$1""');
}
