import * as l10n from '@vscode/l10n';
import type { ConnectionCheck } from '../api';

/** What the report says about the connection besides what was tried: the profile, and whether its key went along. */
export interface ReportContext {
  readonly profile: string;
  /** The tenant configured for the profile (sent only with the key). */
  readonly tenantId?: string;
  /** `send`: the key went with the listing call; `withheld`: it is stored for another control plane; `none`: no key. */
  readonly key: 'send' | 'withheld' | 'none';
  /** The client's User-Agent (extension and VS Code versions). */
  readonly userAgent: string;
  readonly time: Date;
}

/** The outcome of a check: whether the control plane answered, the cause of the first failure, and what to do. */
export interface Finding {
  readonly ok: boolean;
  readonly cause: string;
  readonly next: string;
}

/** A value in a report: inline code, which no content can break out of. */
const code = (text: string | number): string => `\`${String(text).replace(/`/g, "'")}\``;

const failed = (cause: string, next: string): Finding => ({ ok: false, cause, next });

const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS/;

/** The verdict of the listing call (made through the same `fetch` as the views), explained by the steps before it. */
export function findingOf(check: ConnectionCheck, context: ReportContext): Finding {
  const { dns, probe, listing, settings } = check;
  const proxy = settings.proxy;
  const proxyCredentialsNext = l10n.t(
    'Give the proxy its credentials in the setting http.proxy (http://user:password@host:port), or let VS Code answer the proxy (Kerberos, or its sign-in prompt on the desktop), then run Check Connection again.',
  );
  if (!listing) return failed(l10n.t('The listing call was not made.'), l10n.t('Run Check Connection again.'));
  const error = listing.error;
  if (!error) {
    return {
      ok: true,
      cause:
        context.key !== 'send'
          ? l10n.t('The control plane answered the listing call without an API key (HTTP 200).')
          : context.tenantId
            ? l10n.t('The control plane answered the listing call (HTTP 200): the base URL, the API key and the tenant are accepted.')
            : l10n.t('The control plane answered the listing call (HTTP 200): the base URL and the API key are accepted.'),
      next: l10n.t('Nothing to do.'),
    };
  }
  const status = listing.status ?? '';
  switch (error.kind) {
    case 'proxyAuth':
      return failed(
        error.credentialsSent
          ? l10n.t('The proxy {0} refused the credentials it was given ({1}) (HTTP 407).', code(error.proxy ?? ''), l10n.t('the user name and password in its URL'))
          : l10n.t('The proxy {0} asks for credentials (HTTP 407), and none are set.', code(error.proxy ?? '')),
        proxyCredentialsNext,
      );
    case 'network': {
      if (error.code && CERTIFICATE_CODES.test(error.code)) {
        const top = probe?.chain.at(-1);
        if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
          return failed(
            l10n.t('The certificate is not for the host of the base URL ({0}).', error.code),
            l10n.t('Use the host name the certificate names in the base URL, or ask the server’s administrators for a certificate that names this host.'),
          );
        }
        if (error.code === 'CERT_HAS_EXPIRED') {
          return failed(l10n.t('The server’s certificate has expired ({0}).', error.code), l10n.t('The server’s administrators must renew it.'));
        }
        return failed(
          l10n.t(
            'The certificate chain is not trusted ({0}): its last certificate, {1}, issued by {2}, is in none of the trusted stores.',
            error.code,
            code(top?.subject ?? '?'),
            code(top?.issuer ?? '?'),
          ),
          l10n.t(
            'If this is a private CA or your company’s TLS-inspecting gateway, install its CA certificate in the operating system’s store (VS Code adds it while http.systemCertificates is on), name it in NODE_EXTRA_CA_CERTS, or put it (PEM) in the setting deploymentsExplorer.caFile.',
          ),
        );
      }
      if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || dns?.failure) {
        return failed(
          l10n.t('The host name {0} could not be resolved ({1}).', code(dns?.host ?? new URL(check.baseUrl).hostname), error.code ?? dns?.failure?.code ?? ''),
          proxy
            ? l10n.t('Check the host in the base URL, and the proxy address in http.proxy.')
            : l10n.t('Check the host in the base URL, and your DNS or VPN. If your network reaches the internet only through a proxy, set http.proxy.'),
        );
      }
      if (error.code === 'ECONNREFUSED') {
        const url = new URL(check.baseUrl);
        const at = code(`${url.hostname}:${probe?.port ?? (Number(url.port) || (url.protocol === 'https:' ? 443 : 80))}`);
        return failed(
          l10n.t('Nothing accepts connections at {0} (ECONNREFUSED).', at),
          proxy
            ? l10n.t('Check that the control plane and the proxy {0} are running, and that the ports in the base URL and in http.proxy are right.', code(proxy))
            : l10n.t('Check that the control plane is running and that the port in the base URL is right.'),
        );
      }
      return failed(
        error.message,
        l10n.t('A firewall may drop the connection. If your network needs a proxy, set http.proxy (or check it); else check the base URL.'),
      );
    }
    case 'auth':
      if (context.key === 'none') {
        return failed(
          l10n.t('No API key is stored for this profile, and the control plane refused the call without one (HTTP {0}).', status),
          l10n.t('Set the key with “Set API Key…”.'),
        );
      }
      if (context.key === 'withheld') {
        return failed(
          l10n.t('The API key was not sent: it was stored for another control plane (HTTP {0}).', status),
          l10n.t('Run “Use API Key There…” if you trust this control plane.'),
        );
      }
      if (error.notEnabled) return failed(error.message, l10n.t('Ask an administrator of your organisation: another key will not help.'));
      if (error.needsTenant && context.tenantId) {
        return failed(
          l10n.t('The control plane refused the tenant {0} for this API key. {1}', code(context.tenantId), error.message),
          l10n.t('Check the tenant ID (“Set Tenant ID…”), and that the API key belongs to that tenant.'),
        );
      }
      if (error.needsTenant) return failed(l10n.t('The API key needs a tenant (workspace) ID (HTTP {0}).', status), l10n.t('Set it with “Set Tenant ID…”.'));
      return failed(
        status === 401
          ? l10n.t('The API key was refused. {0}', error.message)
          : l10n.t('The API key was refused, or it may not access this tenant. {0}', error.message),
        l10n.t('Set the right key with “Set API Key…” (a key of this control plane), and check the tenant ID (“Set Tenant ID…”).'),
      );
    case 'notFound':
      return failed(
        l10n.t('The deployment listing was not found at {0} (HTTP 404).', code(`${check.baseUrl}/v2/deployments`)),
        l10n.t('Check the base URL, with the path prefix the API has if any (e.g. https://host/api-host).'),
      );
    case 'invalidResponse':
      return failed(
        l10n.t('The answer is not JSON: a proxy, a gateway or a web page answered instead of the API. {0}', error.message),
        l10n.t('Check the base URL; if a sign-in page or a proxy is in the way, check http.proxy and http.noProxy.'),
      );
    case 'schema':
      return failed(error.message, l10n.t('Check that the base URL points at the control-plane API.'));
    case 'server':
    case 'rateLimited':
      return failed(error.message, l10n.t('Try again later; if it lasts, tell the control plane’s operators.'));
    default:
      return failed(error.message, l10n.t('See the steps above, and the log (“Show Log”).'));
  }
}

/**
 * The report of a connection check, in Markdown a user can paste into a support ticket: what was tried, the
 * verdict with the next step, each step with its time, and the TLS chain. It holds only what `check` and
 * `context` hold: no key, no proxy credential.
 */
export function connectionReport(check: ConnectionCheck, context: ReportContext): string {
  const finding = findingOf(check, context);
  const { settings, dns, probe, listing } = check;
  const onOff = (value: boolean | undefined, fallback: boolean) => ((value ?? fallback) ? 'on' : 'off');
  const tried = [
    l10n.t('Profile: {0}', code(context.profile)),
    l10n.t('Base URL: {0}', code(check.baseUrl)),
    context.tenantId ? l10n.t('Tenant: {0} (sent with the API key, in the header {1})', code(context.tenantId), code(check.headers.tenant)) : l10n.t('Tenant: none'),
    context.key === 'send'
      ? l10n.t('API key: sent in the header {0} (not shown here)', code(check.headers.apiKey))
      : context.key === 'none'
        ? l10n.t('API key: none stored')
        : l10n.t('API key: not sent (stored for another control plane)'),
    settings.proxy
      ? settings.proxyCredentials
        ? l10n.t('http.proxy: {0}, with a user name and password (not shown here)', code(settings.proxy))
        : l10n.t('http.proxy: {0}', code(settings.proxy))
      : l10n.t('http.proxy: not set (VS Code uses the environment’s or the operating system’s proxy, if any)'),
    l10n.t('http.noProxy: {0}', settings.noProxy?.length ? settings.noProxy.map(code).join(', ') : l10n.t('none')),
    l10n.t(
      'http.proxySupport: {0}; http.systemCertificates: {1}; http.fetchAdditionalSupport: {2}',
      code(settings.proxySupport ?? 'override'),
      code(onOff(settings.systemCertificates, true)),
      code(onOff(settings.fetchAdditionalSupport, true)),
    ),
    check.caFile ? l10n.t('deploymentsExplorer.caFile: {0} (trusted with Node.js’s roots, instead of the operating system’s store)', code(check.caFile)) : l10n.t('deploymentsExplorer.caFile: not set'),
  ];

  const steps: string[] = [];
  const ms = (value: number) => l10n.t('{0} ms', value);
  const failedOr = (failure: { message: string } | undefined, outcome: () => string) => (failure ? l10n.t('failed: {0}', failure.message) : outcome());
  if (dns) steps.push(l10n.t('Name lookup of {0}: {1} ({2})', code(dns.host), failedOr(dns.failure, () => (dns.addresses ?? []).map(code).join(', ')), ms(dns.ms)));
  if (probe) {
    const at = code(`${probe.address.includes(':') ? `[${probe.address}]` : probe.address}:${probe.port}`);
    const trust = check.caFile ? l10n.t('Node.js’s roots and deploymentsExplorer.caFile') : l10n.t('Node.js’s roots');
    const outcome = failedOr(probe.failure, () =>
      !probe.protocol
        ? l10n.t('connected')
        : probe.untrusted
          ? l10n.t('{0}; the certificate is not trusted by {1}: {2}', probe.protocol, trust, probe.untrusted)
          : l10n.t('{0}; the certificate is trusted by {1}', probe.protocol, trust),
    );
    steps.push(l10n.t('Direct connection to {0}, without a proxy: {1} ({2})', at, outcome, ms(probe.ms)));
  }
  if (listing) {
    const outcome = listing.error
      ? `${listing.status ? `HTTP ${listing.status}: ` : ''}${listing.error.message}`
      : listing.records === 1
        ? l10n.t('HTTP 200, 1 record')
        : l10n.t('HTTP 200, {0} records', listing.records ?? 0);
    steps.push(l10n.t('Listing call {0} through VS Code’s network stack, as the views make it: {1} ({2})', code('GET /v2/deployments?limit=1'), outcome, ms(listing.ms)));
  }

  const bullets = (items: string[]) => items.map((item) => `- ${item}`);
  const lines = [`# ${l10n.t('Deployments Explorer: connection check')}`, '', `${context.time.toISOString()} · ${code(context.userAgent)}`, ''];
  lines.push(`## ${l10n.t('What was tried')}`, '', ...bullets(tried));
  lines.push('', `## ${l10n.t('Result')}`, '');
  lines.push(`**${finding.ok ? l10n.t('✔ Connected.') : l10n.t('✘ Failed.')}** ${finding.cause}`, '');
  lines.push(`**${l10n.t('Next step:')}** ${finding.next}`);
  lines.push('', `## ${l10n.t('Steps')}`, '', ...bullets(steps));

  if (probe?.chain.length) {
    lines.push('', `## ${l10n.t('TLS certificate chain (leaf first)')}`, '');
    probe.chain.forEach((certificate, index) => {
      lines.push(
        `${index + 1}. ${l10n.t('{0}, issued by {1}, valid until {2}, SHA-256 {3}', code(certificate.subject), code(certificate.issuer), certificate.validTo, code(certificate.fingerprint256))}`,
      );
    });
  }
  return `${lines.join('\n')}\n`;
}
