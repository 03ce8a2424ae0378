/** How integrations and repositories read in the tree and the quick pick. */
import type { Repository } from '../api';
import { fieldWords } from './fieldNames';
import { shortId } from './ids';
import { escapeMarkdown, formatCount, inLanguage } from './viewText';
import * as l10n from '@vscode/l10n';
import type { DiscoveryAge, KnownIntegration } from './repositoryCatalog';

/** What is known of an integration besides its settings entry (RepositoryCatalog.facts). */
export interface IntegrationFacts {
  /** The code host of its loaded repositories, else of the deployments that revealed it. */
  codeHost?: string;
  /** The owner most of its loaded repositories belong to. */
  owner?: string;
}

/**
 * The integration's label; without one, a name from what is known: "acme on github.com" once
 * its repositories are loaded, "Integration on github.com" when only the host is known, else
 * the short ID. A name made up this way comes with the short ID in the description.
 */
export function integrationLabel(integration: { id: string; label?: string }, facts: IntegrationFacts = {}): string {
  const label = integration.label?.trim();
  if (label) return label;
  if (facts.codeHost && facts.owner) return l10n.t('{0} on {1}', facts.owner, facts.codeHost);
  if (facts.codeHost) return l10n.t('Integration on {0}', facts.codeHost);
  if (facts.owner) return l10n.t('{0}’s integration', facts.owner);
  return shortId(integration.id);
}

/** True when integrationLabel made the name from what is known (no label), so the short ID belongs beside it. */
export function isLabelFromFacts(integration: { id: string; label?: string }, facts: IntegrationFacts = {}): boolean {
  return !integration.label?.trim() && Boolean(facts.codeHost || facts.owner);
}

/** "1 repository", "100,000 repositories" (the count as the user's language writes it). */
function repositoryCountText(count: number, locale: string | undefined): string {
  return count === 1 ? l10n.t('1 repository') : l10n.t('{0} repositories', formatCount(count, locale));
}

/**
 * "60 repositories · github.com · discovered"; the count only once loaded, the host where known.
 * An integration named from what is known (see integrationLabel) shows its short ID first, and
 * not the host again: "41ef3d36… · 60 repositories · discovered".
 */
export function integrationDescription(
  integration: KnownIntegration,
  repositoryCount: number | undefined,
  failed: boolean,
  facts: IntegrationFacts = {},
  locale?: string,
): string {
  const parts: string[] = [];
  const named = isLabelFromFacts(integration, facts);
  if (named) parts.push(shortId(integration.id));
  if (repositoryCount !== undefined) parts.push(repositoryCountText(repositoryCount, locale));
  else if (failed) parts.push(l10n.t('failed to load'));
  if (facts.codeHost && !named) parts.push(facts.codeHost);
  if (integration.origin === 'discovered') parts.push(l10n.t('discovered'));
  return parts.join(' · ');
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", in the user's language. */
function timeAgo(then: number, locale: string | undefined): string {
  const seconds = Math.max(0, Math.round((Date.now() - then) / 1000));
  if (seconds < 60) return l10n.t('just now');
  const [count, unit]: [number, Intl.RelativeTimeFormatUnit] =
    seconds < 3600 ? [Math.floor(seconds / 60), 'minute'] : seconds < 86_400 ? [Math.floor(seconds / 3600), 'hour'] : [Math.floor(seconds / 86_400), 'day'];
  return inLanguage(locale, (tag) => new Intl.RelativeTimeFormat(tag).format(-count, unit));
}

/** When the discovered list was refreshed, for a discovered integration's tooltip. */
export function discoveryAgeText(age: DiscoveryAge, locale?: string): string {
  const refreshed =
    age.refreshedAt !== undefined ? l10n.t('last refreshed {0}', timeAgo(age.refreshedAt, locale)) : l10n.t('not refreshed in this window');
  const scanned =
    age.scannedAt !== undefined
      ? l10n.t('last full scan {0}', timeAgo(age.scannedAt, locale))
      : l10n.t('no full scan yet (run “Discover Integrations from Deployments”)');
  return l10n.t('Discovered list: {0}; {1}.', refreshed, scanned);
}

export function integrationTooltipMarkdown(
  integration: KnownIntegration,
  repositoryCount: number | undefined,
  /** For a discovered integration: when the discovered list was refreshed. */
  discovery?: DiscoveryAge,
  facts: IntegrationFacts = {},
  locale?: string,
): string {
  const lines = [
    `**${escapeMarkdown(integrationLabel(integration, facts))}**`,
    '',
    l10n.t('Integration ID: {0}', escapeMarkdown(integration.id)),
    '',
    integration.origin === 'added'
      ? l10n.t('Added in settings.')
      : l10n.t('Discovered from existing deployments (not in settings; use “Add to My Integrations” to keep it).'),
  ];
  if (repositoryCount !== undefined) lines.push('', repositoryCountText(repositoryCount, locale));
  if (discovery) lines.push('', escapeMarkdown(discoveryAgeText(discovery, locale)));
  return lines.join('\n');
}

/** All six fields of the record, named in the interface's words (fieldNames.ts), values escaped: they come from the server. */
export function repositoryTooltipMarkdown(repository: Repository): string {
  const fields = ['name', 'owner', 'default_branch', 'url', 'id', 'host_integration_id'] as const;
  const row = (field: (typeof fields)[number]) => `- **${escapeMarkdown(fieldWords(field))}:** ${escapeMarkdown(String(repository[field]))}`;
  return [`**${escapeMarkdown(`${repository.owner}/${repository.name}`)}**`, '', ...fields.map(row)].join('\n');
}

/** The URL to hand to the browser, or a problem: only http(s) addresses are opened. */
export function openableUrl(url: string): { url: string } | { problem: string } {
  if (!URL.canParse(url.trim())) return { problem: l10n.t('The repository URL “{0}” is not a valid address.', url) };
  const parsed = new URL(url.trim());
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { problem: l10n.t('The repository URL “{0}” is not an http(s) address; it is not opened in the browser.', url) };
  }
  return { url: parsed.toString() };
}
