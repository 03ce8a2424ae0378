/** Where a deployment's type is read from; pure, so every view that shows or counts types agrees. */
import { trimmedText } from './viewText';

/**
 * A deployment's type as the server sent it: `source_config.deployment_type` (where the real service keeps it),
 * else a top-level `deployment_type` (a server that follows the contract alone). Any text is a type (`dev_zero`,
 * `dev_free_zero`, values to come); undefined when the record has none. Takes records off the contract too, and
 * create bodies (a user's defaults or edited payload), which put the type in the same places.
 */
export function deploymentType(record: { source_config?: unknown; deployment_type?: unknown }): string | undefined {
  const source: unknown = record.source_config;
  const nested = typeof source === 'object' && source !== null ? (source as Record<string, unknown>).deployment_type : undefined;
  return trimmedText(nested) ?? trimmedText(record.deployment_type);
}
