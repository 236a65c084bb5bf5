/**
 * The effective skill registry of a session: every `<folder>/*\/SKILL.md` under
 * `<dir>/.a3s/skills` and each configured `skillDirs` folder (a folder that itself holds a
 * `SKILL.md` is one skill). A later skill with the same name replaces an earlier one. Read once,
 * when the session is built. A `SKILL.md` must be a regular file of at most {@link MAX_SKILL_FILE_BYTES}
 * inside its skills folder: a checked-in link to a file elsewhere (a secret, `/dev/zero`) is refused.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { parseSkillFile, type SkillDefinition } from './skill-definition.js';

/** Largest `SKILL.md` read (1 MiB): instructions beyond that could not fit a model's context anyway. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

const ALLOWED = `a regular file of at most ${MAX_SKILL_FILE_BYTES} bytes inside its skills folder`;

/**
 * The text of `file`, a `SKILL.md` under the skills folder `root`.
 * @throws SessionConfigurationError naming the file when it leads outside `root` (a symbolic link),
 *   is not a regular file, is too large or cannot be read.
 */
function readSkillFile(file: string, root: string): string {
  let fd: number | undefined;
  try {
    const real = realpathSync(file);
    const rel = relative(realpathSync(root), real);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
      throw new SessionConfigurationError(
        file,
        `is a link to '${real}', outside its skills folder; allowed: ${ALLOWED}`,
      );
    // No blocking on a FIFO or a device: the type is checked before anything is read.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new SessionConfigurationError(file, `is not a regular file; allowed: ${ALLOWED}`);
    if (stat.size > MAX_SKILL_FILE_BYTES)
      throw new SessionConfigurationError(file, `is ${stat.size} bytes; allowed: ${ALLOWED}`);
    return readFileSync(fd, 'utf8');
  } catch (e) {
    if (e instanceof SessionConfigurationError) throw e;
    throw new SessionConfigurationError(file, `cannot be read (${(e as Error).message}); allowed: ${ALLOWED}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The `.a3s/skills` folder of a workspace. */
export const WORKSPACE_SKILL_DIR = '.a3s/skills';

function skillFiles(dir: string): string[] {
  const own = join(dir, 'SKILL.md');
  if (existsSync(own)) return [own];
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(dir, e.name, 'SKILL.md'))
      .filter((f) => existsSync(f))
      .sort();
  } catch {
    return [];
  }
}

/** Loads the skills of a session. @throws SessionConfigurationError naming a bad file's field. */
export function loadSkillCatalog(
  workspaceDir: string,
  skillDirs: readonly string[],
): ReadonlyMap<string, SkillDefinition> {
  const out = new Map<string, SkillDefinition>();
  for (const dir of [join(workspaceDir, WORKSPACE_SKILL_DIR), ...skillDirs]) {
    for (const file of skillFiles(dir)) {
      const skill = parseSkillFile(readSkillFile(file, dir), file);
      out.set(skill.name, skill);
    }
  }
  return out;
}
