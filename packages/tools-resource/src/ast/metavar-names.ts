/**
 * Metavariable spelling shared by patterns and rewrite templates: `$` or `$$$` then capitals,
 * digits and `_`. A `$` word that starts like a metavariable but goes on in lower case
 * or other letters (`$__proto__`, `$Name`, `$XÄ`) is refused by name rather than read as a shorter metavariable and
 * literal text; a `$` word starting in lower case (`$scope`, `$toString`) is code, as in ast-grep.
 */
import { AstError } from './ast-errors.js';

/** A `$` word read as a metavariable (dollars, capitals), then any word characters that go on. */
const DOLLAR_WORD = /(\$+)([A-Z_][A-Z0-9_]*)([\p{L}\p{N}\p{M}_\u200c\u200d]*)/gu;
/** `$$$` followed by a word that does not start as a metavariable name (`$$$args`). */
const MULTI_THEN_WORD = /(\$\$\$)()(?![A-Z_])([\p{L}\p{N}\p{M}\u200c\u200d][\p{L}\p{N}\p{M}_\u200c\u200d]*)/gu;

/**
 * Refuses a `$` word in `text` that would be read as a metavariable followed by other text.
 * @throws AstError `AST_METAVARIABLE_NAME` naming the word, where it is, and what is allowed.
 */
export function checkMetavariableNames(text: string, where: 'pattern' | 'rewrite'): void {
  for (const m of [...text.matchAll(DOLLAR_WORD), ...text.matchAll(MULTI_THEN_WORD)]) {
    if (m[3] !== '' || (m[1]!.length !== 1 && m[1]!.length !== 3))
      throw new AstError(
        'AST_METAVARIABLE_NAME',
        `${where} uses ${JSON.stringify(m[0])}, which is not a metavariable name: a metavariable is $ or $$$ followed by capital letters, digits and _ only (e.g. ${m[1]!.length === 3 ? '$$$' : '$'}${`${m[2]}${m[3]!.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}` || 'NAME'}); a $ word starting with a lower-case letter is matched as code`,
        { where, word: m[0] },
      );
  }
}
