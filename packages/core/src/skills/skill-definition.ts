/**
 * Skills: folders holding a `SKILL.md` whose front matter gives `name`, `description` and
 * optional `allowed_tools` (permission rules), and whose body is the instructions the `Skill`
 * tool loads into the conversation.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import { FrontMatterError, listAttr, parseFrontMatter, stringAttr } from '../config/front-matter.js';
import { parsePermissionRule } from '../permissions/permission-rule.js';

/** A skill. */
export interface SkillDefinition {
  /** Unique name, 1..64 of `[A-Za-z0-9_.-]`. */
  readonly name: string;
  readonly description: string;
  /** Permission rules the skill's calls must match while it is active; absent: no restriction. */
  readonly allowedTools?: readonly string[];
  /** The body of `SKILL.md`. */
  readonly instructions: string;
  /** The `SKILL.md` file. */
  readonly path: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Parses a `SKILL.md`. @throws SessionConfigurationError naming the file and the field. */
export function parseSkillFile(text: string, file: string): SkillDefinition {
  let doc: ReturnType<typeof parseFrontMatter>;
  try {
    doc = parseFrontMatter(text, file);
  } catch (e) {
    if (e instanceof FrontMatterError) throw new SessionConfigurationError(file, e.message);
    throw e;
  }
  const name = stringAttr(doc, 'name', file);
  if (name === undefined || !NAME.test(name))
    throw new SessionConfigurationError(
      `${file}: name`,
      'must be 1..64 of [A-Za-z0-9_.-], starting with a letter or digit',
    );
  const description = stringAttr(doc, 'description', file);
  if (description === undefined || description.trim() === '')
    throw new SessionConfigurationError(`${file}: description`, 'must be a non-empty string');
  const snake = listAttr(doc, 'allowed_tools');
  const kebab = listAttr(doc, 'allowed-tools');
  if (snake !== undefined && kebab !== undefined)
    throw new SessionConfigurationError(
      `${file}: allowed_tools`,
      'is given twice, as allowed_tools and as allowed-tools; give one of them',
    );
  const allowed = snake ?? kebab;
  for (const [i, r] of (allowed ?? []).entries()) parsePermissionRule(r, `${file}: allowed_tools[${i}]`);
  return Object.freeze({
    name,
    description: description.trim(),
    ...(allowed ? { allowedTools: [...allowed] } : {}),
    instructions: doc.body,
    path: file,
  });
}
