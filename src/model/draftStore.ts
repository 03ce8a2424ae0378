import { Repository } from '../api';
import { CreateDraft, initialDraft, repositoryKey } from './createPayload';

/**
 * The last values typed per repository, kept in memory for the session, so
 * cancelling the flow or a refused request loses nothing: reopening the flow
 * for the same repository starts from them.
 */
export class DraftStore {
  private readonly drafts = new Map<string, CreateDraft>();

  /** The kept draft, or the repository's defaults. Always a copy. */
  get(repository: Repository): CreateDraft {
    const kept = this.drafts.get(repositoryKey(repository));
    return { ...(kept ?? initialDraft(repository)) };
  }

  keep(repository: Repository, draft: CreateDraft): void {
    this.drafts.set(repositoryKey(repository), { ...draft });
  }

  /** After a deployment was created from it. */
  forget(repository: Repository): void {
    this.drafts.delete(repositoryKey(repository));
  }
}
