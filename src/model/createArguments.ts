import type { Repository } from '../api';
import { loadSchemas } from '../api/lazy';
import { DeploymentType } from '../api/vocabulary';
import { isDeploymentType } from './createPayload';
import { problemLine } from './fieldNames';
import * as l10n from '@vscode/l10n';

/**
 * What "Create Deployment…" may be given: a repository row of the Integrations tree (it has a `repository`), a
 * repository record, or these options (scripts and tests): given values skip their prompts; `confirm` sends
 * without the review step; `openPayload` opens the body for editing instead (as "Edit Payload…" does).
 */
export interface CreateDeploymentOptions {
  repository: Repository;
  name?: string;
  ref?: string;
  /** null: "Don't set". Given as an argument: one of the types the pick offers; kept from an edited payload: any. */
  deploymentType?: DeploymentType | string | null;
  confirm?: boolean;
  openPayload?: boolean;
}

/** Undefined when nothing usable was passed (the palette): the flow asks for a repository. */
export function readCreateArgument(argument: unknown): CreateDeploymentOptions | undefined {
  if (argument === undefined || argument === null) return undefined;
  if (typeof argument !== 'object') throw new Error(l10n.t('Create Deployment… needs a repository, not {0}.', typeof argument));
  const { problemsOf, repositorySchema } = loadSchemas();
  if (problemsOf(repositorySchema, argument).length === 0) return { repository: argument as Repository };
  const value = argument as Record<string, unknown>;
  // A repository row that does not match the API contract: say why it cannot be used.
  const offContract = value.offContract as { usableForCreate?: unknown; reason?: unknown } | undefined;
  if (offContract && offContract.usableForCreate === false && typeof offContract.reason === 'string') throw new Error(offContract.reason);
  if (!('repository' in value)) {
    // e.g. a URI from an editor menu or a row of another view: behave as from the palette.
    return undefined;
  }
  const problems = problemsOf(repositorySchema, value.repository);
  if (problems.length > 0) {
    throw new Error(l10n.t('Create Deployment… was given a repository record that is not usable: {0}', problems.map(problemLine).join('; ')));
  }
  const options: CreateDeploymentOptions = { repository: value.repository as Repository };
  if (typeof value.name === 'string') options.name = value.name;
  if (typeof value.ref === 'string') options.ref = value.ref;
  if (value.deploymentType === null || isDeploymentType(value.deploymentType)) options.deploymentType = value.deploymentType;
  else if (value.deploymentType !== undefined) throw new Error(l10n.t('Unknown deployment type “{0}”: use dev_free, dev or prod.', String(value.deploymentType)));
  if (value.confirm === true) options.confirm = true;
  if (value.openPayload === true) options.openPayload = true;
  return options;
}
