/**
 * The effective skill registry of a session: every `<folder>/*\/SKILL.md` under
 * `<dir>/.a3s/skills` and each configured `skillDirs` folder (a folder that itself holds a
 * `SKILL.md` is one skill). A later skill with the same name replaces an earlier one. Read once,
 * when the session is built. A `SKILL.md` must be a regular file of at most {@link MAX_SKILL_FILE_BYTES}
 * inside its skills folder: a checked-in link to a file elsewhere (a secret, `/dev/zero`) is refused.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_DEFINITION_FILE_BYTES, readDefinitionFile } from '../config/definition-file.js';
import { parseSkillFile, type SkillDefinition } from './skill-definition.js';

/** Largest `SKILL.md` read (1 MiB): instructions beyond that could not fit a model's context anyway. */
export const MAX_SKILL_FILE_BYTES = MAX_DEFINITION_FILE_BYTES;

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
      const skill = parseSkillFile(readDefinitionFile(file, dir, 'skills folder'), file);
      out.set(skill.name, skill);
    }
  }
  return out;
}
