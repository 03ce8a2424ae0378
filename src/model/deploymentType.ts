/** Where a deployment's type is read from; pure, so every view that shows or counts types agrees. */
import type { Deployment } from '../api';
import { trimmedText } from './viewText';

/**
 * A deployment's type as the server sent it: `source_config.deployment_type` (where the real service keeps it),
 * else a top-level `deployment_type` (a server that follows the contract alone). Any text is a type (`dev_zero`,
 * `dev_free_zero`, values to come); undefined when the record has none. Takes records off the contract too.
 */
export function deploymentType(record: Deployment): string | undefined {
  const source: unknown = record.source_config;
  const nested = typeof source === 'object' && source !== null ? (source as Record<string, unknown>).deployment_type : undefined;
  return trimmedText(nested) ?? trimmedText(record.deployment_type);
}
