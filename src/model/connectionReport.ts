import * as l10n from '@vscode/l10n';
import type { CertificateStore, ConnectionCheck } from '../api';

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

/** `address:port`, an IPv6 address in brackets as in a URL. */
const endpoint = ({ address, port }: { address: string; port: number }): string => `${address.includes(':') ? `[${address}]` : address}:${port}`;

const storeName = ({ kind, source }: Pick<CertificateStore, 'kind' | 'source'>): string =>
  kind === 'node'
    ? l10n.t("Node.js's built-in roots")
    : kind === 'environment'
      ? l10n.t('NODE_EXTRA_CA_CERTS ({0})', code(source))
      : kind === 'system'
        ? l10n.t("the operating system's store ({0})", code(source))
        : l10n.t('deploymentsExplorer.caFile ({0})', code(source));

const failed = (cause: string, next: string): Finding => ({ ok: false, cause, next });

/** The first failure's cause and next step, or success; the report's verdict. */
export function findingOf(check: ConnectionCheck, context: ReportContext): Finding {
  const viaProxy = check.route.proxy !== undefined;
  const proxy = check.route.proxy ?? '';
  const proxyOrigin = check.route.reason === 'environment' ? (check.route.source ?? 'HTTPS_PROXY') : 'http.proxy';
  const proxyCredentialsNext = l10n.t(
    'Give the proxy its credentials in the setting http.proxy (http://user:password@host:port) or in http.proxyAuthorization (the whole header value, e.g. “Basic ” and the base64 of user:password), then run Check Connection again.',
  );
  const { dns, connect, tunnel, tls, listing } = check;
  if (dns?.failure) {
    return failed(
      l10n.t('The host name {0} could not be resolved ({1}).', code(dns.host), dns.failure.code ?? dns.failure.message),
      viaProxy
        ? l10n.t('Check the proxy address in {0}.', proxyOrigin)
        : l10n.t('Check the host in the base URL, and your DNS or VPN. If your network reaches the internet only through a proxy, set http.proxy.'),
    );
  }
  if (connect?.failure) {
    const at = code(endpoint(connect));
    const refused = connect.failure.code === 'ECONNREFUSED';
    return failed(
      refused
        ? l10n.t('Nothing accepts connections at {0} (ECONNREFUSED).', at)
        : connect.failure.code === 'ETIMEDOUT'
          ? l10n.t('{0} did not answer: {1}.', at, connect.failure.message)
          : l10n.t('The connection to {0} failed: {1}.', at, connect.failure.message),
      viaProxy
        ? l10n.t('Check that the proxy {0} (from {1}) is running and its address and port are right.', code(proxy), proxyOrigin)
        : refused
          ? l10n.t('Check that the control plane is running and that the port in the base URL is right.')
          : l10n.t('A firewall may drop the connection. If your network needs a proxy, set http.proxy; else check the base URL.'),
    );
  }
  if (tunnel?.status === 407) {
    const cause =
      check.route.credentials !== 'none'
        ? l10n.t(
            'The proxy {0} refused the credentials it was given ({1}) (HTTP 407).',
            code(proxy),
            check.route.credentials === 'url' ? l10n.t('the user name and password in its URL') : 'http.proxyAuthorization',
          )
        : l10n.t('The proxy {0} asks for credentials (HTTP 407), and none are set.', code(proxy));
    return failed(cause, proxyCredentialsNext);
  }
  if (tunnel && (tunnel.failure || tunnel.status !== 200)) {
    return failed(
      tunnel.failure
        ? l10n.t('The proxy {0} did not open a tunnel to {1}: {2}.', code(proxy), code(tunnel.target), tunnel.failure.message)
        : l10n.t('The proxy {0} refused a tunnel to {1} (HTTP {2}).', code(proxy), code(tunnel.target), tunnel.status ?? ''),
      l10n.t(
        'Ask the proxy’s administrators whether {0} may be reached through it; if the host is reachable without the proxy, add it to http.noProxy.',
        code(tunnel.target),
      ),
    );
  }
  if (tls?.failure) {
    return failed(
      l10n.t('The TLS handshake failed: {0}.', tls.failure.message),
      l10n.t('Check the scheme and the port of the base URL: https:// to a port that speaks plain HTTP fails this way.'),
    );
  }
  if (tls?.untrusted && tls.checked) {
    const top = tls.chain.at(-1);
    if (tls.untrusted === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      return failed(
        l10n.t('The certificate is not for the host of the base URL ({0}).', tls.untrusted),
        l10n.t('Use the host name the certificate names in the base URL, or ask the server’s administrators for a certificate that names this host.'),
      );
    }
    if (tls.untrusted === 'CERT_HAS_EXPIRED') {
      return failed(l10n.t('The server’s certificate has expired ({0}).', tls.untrusted), l10n.t('The server’s administrators must renew it.'));
    }
    return failed(
      l10n.t(
        'The certificate chain is not trusted ({0}): its last certificate, {1}, issued by {2}, is in none of the trusted stores.',
        tls.untrusted,
        code(top?.subject ?? '?'),
        code(top?.issuer ?? '?'),
      ),
      l10n.t(
        'If this is a private CA or your company’s TLS-inspecting gateway, put its CA certificate (PEM) in the setting deploymentsExplorer.caFile, or install it in the operating system’s store (read while http.systemCertificates is on). Turn off deploymentsExplorer.strictSSL only on a network you trust.',
      ),
    );
  }
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
    case 'proxyAuth':
      return failed(error.message, proxyCredentialsNext);
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
  const { route, dns, connect, tunnel, tls, listing } = check;
  const credentials =
    route.credentials === 'proxyAuthorization'
      ? l10n.t('credentials from http.proxyAuthorization')
      : route.credentials === 'url'
        ? l10n.t('credentials from the user name and password in its URL')
        : l10n.t('no credentials');
  const tried = [
    l10n.t('Profile: {0}', code(context.profile)),
    l10n.t('Base URL: {0}', code(check.baseUrl)),
    context.tenantId ? l10n.t('Tenant: {0} (sent with the API key, in the header {1})', code(context.tenantId), code(check.headers.tenant)) : l10n.t('Tenant: none'),
    context.key === 'send'
      ? l10n.t('API key: sent in the header {0} (not shown here)', code(check.headers.apiKey))
      : context.key === 'none'
        ? l10n.t('API key: none stored')
        : l10n.t('API key: not sent (stored for another control plane)'),
    {
      setting: () => l10n.t('Proxy: {0}, from the setting http.proxy; {1}', code(route.proxy ?? ''), credentials),
      environment: () => l10n.t('Proxy: {0}, from the environment variable {1}; {2}', code(route.proxy ?? ''), route.source ?? '', credentials),
      noProxy: () => l10n.t('Proxy: none; the host matches {0} in http.noProxy or NO_PROXY', code(route.source ?? '')),
      proxySupportOff: () => l10n.t('Proxy: none; http.proxySupport is off'),
      none: () => l10n.t('Proxy: none; neither http.proxy nor HTTPS_PROXY or HTTP_PROXY is set'),
    }[route.reason](),
    l10n.t('Trusted CA certificates: {0}', check.trust.map((store) => `${storeName(store)}: ${store.count}`).join('; ')),
  ];
  if (tls && !tls.checked) tried.push(l10n.t('Certificates are not checked: deploymentsExplorer.strictSSL or http.proxyStrictSSL is off.'));

  const steps: string[] = [];
  const ms = (value: number) => l10n.t('{0} ms', value);
  const failedOr = (failure: { message: string } | undefined, outcome: () => string) => (failure ? l10n.t('failed: {0}', failure.message) : outcome());
  if (check.lowLevelSkipped) steps.push(l10n.t('Name lookup, connection and TLS: not tried through a {0} proxy.', code(check.lowLevelSkipped)));
  // Through a proxy, the name lookup and the connection are the proxy's; the proxy resolves the server's name.
  const viaProxy = route.proxy !== undefined;
  if (dns) {
    const outcome = failedOr(dns.failure, () => (dns.addresses ?? []).map(code).join(', '));
    const host = code(dns.host);
    steps.push(viaProxy ? l10n.t('Name lookup of the proxy {0}: {1} ({2})', host, outcome, ms(dns.ms)) : l10n.t('Name lookup of {0}: {1} ({2})', host, outcome, ms(dns.ms)));
  }
  if (connect) {
    const outcome = failedOr(connect.failure, () => l10n.t('connected'));
    const at = code(endpoint(connect));
    steps.push(viaProxy ? l10n.t('TCP connection to the proxy at {0}: {1} ({2})', at, outcome, ms(connect.ms)) : l10n.t('TCP connection to {0}: {1} ({2})', at, outcome, ms(connect.ms)));
  }
  if (tunnel) {
    const outcome = failedOr(tunnel.failure, () => `HTTP ${tunnel.status}`);
    steps.push(l10n.t('Tunnel through the proxy, {0}: {1} ({2})', code(`CONNECT ${tunnel.target}`), outcome, ms(tunnel.ms)));
  }
  if (tls) {
    const trustedBy = tls.chain.at(-1)?.inStores ?? [];
    const outcome = failedOr(tls.failure, () =>
      tls.untrusted
        ? l10n.t('{0}; the certificate is not trusted: {1}', tls.protocol ?? '', tls.untrusted)
        : l10n.t('{0}; the certificate is trusted through {1}', tls.protocol ?? '', trustedBy.map(storeName).join(l10n.t(' and ')) || '?'),
    );
    steps.push(l10n.t('TLS handshake: {0} ({1})', outcome, ms(tls.ms)));
  }
  if (listing) {
    const outcome = listing.error
      ? `${listing.status ? `HTTP ${listing.status}: ` : ''}${listing.error.message}`
      : listing.records === 1
        ? l10n.t('HTTP 200, 1 record')
        : l10n.t('HTTP 200, {0} records', listing.records ?? 0);
    steps.push(l10n.t('Listing call {0}: {1} ({2})', code('GET /v2/deployments?limit=1'), outcome, ms(listing.ms)));
  } else {
    steps.push(l10n.t('Listing call: not made, after the failure above'));
  }

  const bullets = (items: string[]) => items.map((item) => `- ${item}`);
  const lines = [`# ${l10n.t('Deployments Explorer: connection check')}`, '', `${context.time.toISOString()} · ${code(context.userAgent)}`, ''];
  lines.push(`## ${l10n.t('What was tried')}`, '', ...bullets(tried));
  lines.push('', `## ${l10n.t('Result')}`, '');
  lines.push(`**${finding.ok ? l10n.t('✔ Connected.') : l10n.t('✘ Failed.')}** ${finding.cause}`, '');
  lines.push(`**${l10n.t('Next step:')}** ${finding.next}`);
  lines.push('', `## ${l10n.t('Steps')}`, '', ...bullets(steps));

  if (tls?.chain.length) {
    lines.push('', `## ${l10n.t('TLS certificate chain (leaf first)')}`, '');
    tls.chain.forEach((certificate, index) => {
      const stores = certificate.inStores.length ? l10n.t('; in {0}', certificate.inStores.map(storeName).join(l10n.t(' and '))) : '';
      lines.push(
        `${index + 1}. ${l10n.t('{0}, issued by {1}, valid until {2}, SHA-256 {3}', code(certificate.subject), code(certificate.issuer), certificate.validTo, code(certificate.fingerprint256))}${stores}`,
      );
    });
  }
  return `${lines.join('\n')}\n`;
}
