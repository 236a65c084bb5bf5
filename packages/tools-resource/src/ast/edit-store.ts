/**
 * The staged edits of one session: `ast_edit` stages, `resolve` takes each exactly once. An id
 * that was accepted, discarded or rejected as stale can never be resolved again; the store dies
 * with the session's resource.
 */
import { AstError } from './ast-errors.js';

/** One file of a staged edit. */
export interface StagedFile {
  readonly path: string;
  /** `sha256:<hex>` of the file's bytes when the edit was staged. */
  readonly digest: string;
  readonly before: string;
  readonly after: string;
  readonly replacements: number;
}

/** A staged structural edit. */
export interface StagedEdit {
  /** `edit_<n>`, unique within the session. */
  readonly id: string;
  readonly pattern: string;
  readonly rewrite: string;
  readonly files: readonly StagedFile[];
}

/** How a staged edit ended. */
export type EditOutcome = 'accepted' | 'discarded' | 'rejected';

/** Staged edits of one session. */
export class EditStore {
  #next = 1;
  readonly #staged = new Map<string, StagedEdit>();
  readonly #ended = new Map<string, EditOutcome>();

  /** Stages an edit and returns it with its new id. */
  stage(edit: Omit<StagedEdit, 'id'>): StagedEdit {
    const staged: StagedEdit = { ...edit, id: `edit_${this.#next++}` };
    this.#staged.set(staged.id, staged);
    return staged;
  }

  /**
   * Takes the edit `id` out of the store; it ends with `outcome` whatever the caller does next.
   * @throws AstError `AST_EDIT_UNKNOWN` when `id` is not staged (never was, or already ended).
   */
  take(id: string, outcome: EditOutcome): StagedEdit {
    const edit = this.#staged.get(id);
    if (edit === undefined) {
      const ended = this.#ended.get(id);
      const open = [...this.#staged.keys()];
      throw new AstError(
        'AST_EDIT_UNKNOWN',
        ended === undefined
          ? `edit_id ${JSON.stringify(id)} is not a staged edit of this session; staged: ${open.join(', ') || 'none'}`
          : `edit_id ${JSON.stringify(id)} was already ${ended} and cannot be resolved again; staged: ${open.join(', ') || 'none'}`,
        { edit_id: id, ...(ended === undefined ? {} : { ended }), staged: open },
      );
    }
    this.#staged.delete(id);
    this.#ended.set(id, outcome);
    return edit;
  }

  /** The staged edit `id`, if it is still staged (it stays staged). */
  peek(id: string): StagedEdit | undefined {
    return this.#staged.get(id);
  }

  /** Records how a taken edit ended, when it differs from what `take` assumed. */
  settle(id: string, outcome: EditOutcome): void {
    if (this.#ended.has(id)) this.#ended.set(id, outcome);
  }

  /** Ids of the edits still staged. */
  pending(): string[] {
    return [...this.#staged.keys()];
  }

  /** Drops every staged edit (the session is closing). */
  clear(): void {
    for (const id of this.#staged.keys()) this.#ended.set(id, 'discarded');
    this.#staged.clear();
  }
}
