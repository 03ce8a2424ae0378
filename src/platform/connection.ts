import vscode = require('vscode');
import type { ConnectionOptions, ControlPlaneClient, NetworkSettings } from '../api';
import { loadClient } from '../api/lazy';
import { readSettings, SECTION } from './settings';
import { warnWithSettingsButton } from './commandRunner';
import { ConnectionFields, controlPlaneKey, EffectiveConnection, isPlainHttpToRemote, keyDecision, originOf, Profile } from '../model/profileRules';
import { ProfileStore } from './profileStore';

const WARNED_PLAIN_HTTP = 'deploymentsExplorer.warnedPlainHttp';
const WARNED_RETIRED = 'deploymentsExplorer.warnedRetiredSettings';

/**
 * Settings besides the profile's that the client is built from (the profile's come through the ProfileStore's events).
 * VS Code's other network settings (http.noProxy, http.proxySupport, …) apply to each request as it is sent.
 */
const CLIENT_SETTINGS = [`${SECTION}.requestTimeoutMs`, 'http.proxy', 'http.proxyAuthorization', 'http.proxyStrictSSL'];

/** What the connection resolves to, once per profile switch or settings change. */
interface ResolvedConnection {
  profile: Profile;
  /** The profile's fields with the workspace's own connection settings applied (trusted workspaces only). */
  effective: EffectiveConnection;
  origin: string | undefined;
  /** Whether the profile's key goes to `origin`: `send`, or why not. */
  key: 'send' | 'withheld' | 'none';
  apiKey?: string;
}

/** One profile's (or one settings state's) connection: its client, and the signal that cancels what it has in flight. */
interface Generation {
  abort: AbortController;
  resolved?: Promise<ResolvedConnection>;
  client?: Promise<ControlPlaneClient>;
}

/**
 * Owns the one API client, built lazily (no network in activate) from the active profile, the workspace's connection
 * settings, the key and VS Code's proxy settings. A change starts a new generation: the old client's requests abort.
 */
export class ConnectionManager implements vscode.Disposable {
  private generation: Generation = { abort: new AbortController() };
  private readonly changed = new vscode.EventEmitter<void>();
  /** Settings, profile or key changed: views should reload. */
  readonly onDidChange = this.changed.event;
  private readonly profileChanged = new vscode.EventEmitter<Profile>();
  /** Another profile became active (after onDidChange): drop everything of the old one. */
  readonly onDidChangeProfile = this.profileChanged.event;
  private readonly disposables: vscode.Disposable[] = [];
  private activeId: string;
  /** The control plane of the last onDidChange (see scoped). */
  private plane: string;
  /** The keys read or written through scoped(), by memento: pruned when a profile is removed. */
  private readonly scopedKeys = new Map<vscode.Memento, Set<string>>();
  /** The profiles of the last change: one missing from the next is removed. */
  private profileIds: Set<string>;
  /** `profile origin` pairs asked about in this session and not answered yet: ask once, not per reload. */
  private readonly asked = new Set<string>();
  /** The active profile's API key: stored, else from the environment. */
  readonly apiKeys = {
    get: async (): Promise<string | undefined> => (await this.profiles.key(this.profiles.active().id))?.key,
  };

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly profiles: ProfileStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.activeId = profiles.active().id;
    this.plane = controlPlaneKey(this.profiles.effective());
    this.profileIds = new Set(profiles.list().map((profile) => profile.id));
    this.disposables.push(
      this.changed,
      this.profileChanged,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (CLIENT_SETTINGS.some((setting) => event.affectsConfiguration(setting))) this.reset('settings changed');
      }),
      profiles.onDidChange((reason) => {
        this.pruneRemovedProfiles();
        this.reset(reason);
      }),
    );
    void this.updateContext();
  }

  profile(): Profile {
    return this.profiles.active();
  }

  /** The control plane the connection points at (see scoped); it changes only with onDidChange. */
  controlPlane(): string {
    return this.plane;
  }

  /**
   * The state of `memento` that belongs to the control plane of the last onDidChange (IDs mean nothing on another
   * one): each key holds a map from controlPlaneKey (base URL and tenant in effect) to value. Read again on that
   * event. A value 0.1.0 kept bare goes to the first control plane that reads it, the one 0.1.0's settings point at.
   */
  scoped(memento: vscode.Memento) {
    const keys = this.scopedKeys.get(memento) ?? new Set<string>();
    this.scopedKeys.set(memento, keys);
    return {
      get: <T>(key: string): T | undefined => {
        keys.add(key);
        const stored = memento.get<unknown>(key);
        if (stored === undefined || isPerControlPlane(stored)) return stored?.[this.plane] as T | undefined;
        void memento.update(key, { [this.plane]: stored });
        return stored as T;
      },
      update: (key: string, value: unknown): Thenable<void> => {
        keys.add(key);
        const stored = memento.get<unknown>(key);
        const all = isPerControlPlane(stored) ? { ...stored } : {};
        if (value === undefined) delete all[this.plane];
        else all[this.plane] = value;
        return memento.update(key, all);
      },
    };
  }

  /**
   * Once a profile is removed, the per-control-plane state (see scoped) of control planes no remaining profile points
   * at goes: its filters, watched deployments and discovered integrations are of no use any more.
   */
  private pruneRemovedProfiles(): void {
    const profiles = this.profiles.list();
    const removed = [...this.profileIds].some((id) => !profiles.some((profile) => profile.id === id));
    this.profileIds = new Set(profiles.map((profile) => profile.id));
    if (!removed) return;
    const planes = new Set(profiles.map((profile) => controlPlaneKey(this.profiles.effective(profile))));
    for (const [memento, keys] of this.scopedKeys) {
      for (const key of keys) {
        const stored = memento.get<unknown>(key);
        if (!isPerControlPlane(stored)) continue;
        const kept = Object.entries(stored).filter(([plane]) => planes.has(plane));
        if (kept.length < Object.keys(stored).length) void memento.update(key, Object.fromEntries(kept));
      }
    }
  }

  /**
   * Resolves once the connection has taken in every change it has been told of (settings, keys, the active profile)
   * and decided where requests go and with which key: what a caller waits on after changing any of them, instead of
   * waiting for a quiet moment.
   */
  async settled(): Promise<void> {
    for (;;) {
      const { generation } = this;
      await this.profiles.settled();
      await this.resolve().catch(() => undefined);
      if (generation === this.generation) return;
    }
  }

  /** Where the views' data comes from, decided once per generation (asking about the key when the origin is new). */
  resolve(): Promise<ResolvedConnection> {
    return (this.generation.resolved ??= this.resolveFor(this.generation));
  }

  private async resolveFor(generation: Generation): Promise<ResolvedConnection> {
    await this.profiles.migrate();
    // One snapshot of the profile: its URL, headers and key all come from it, whatever changes meanwhile.
    const profile = this.profiles.active();
    const effective = this.profiles.effective(profile);
    const origin = originOf(effective.baseUrl);
    const key = await this.profiles.key(profile.id);
    const decision = keyDecision({
      source: key?.source ?? 'none',
      effectiveOrigin: origin,
      profileOrigin: originOf(profile.baseUrl),
      binding: this.profiles.binding(profile.id),
      profileFromWorkspace: profile.fromWorkspace,
    });
    const send = decision === 'send' || decision === 'bind';
    if (decision === 'bind' && origin) await this.profiles.bind(profile.id, origin);
    // Not waited for: until a yes (which resets the connection) the key stays here and the views say why.
    if (decision === 'ask' && origin && !generation.abort.signal.aborted) void this.askToSend(profile, effective, origin);
    if (decision === 'withhold') this.log.info(`Not sending the API key of profile ${profile.name} to ${origin} (you said no for it)`);
    const resolved: ResolvedConnection = {
      profile,
      effective,
      origin,
      key: decision === 'none' ? 'none' : send ? 'send' : 'withheld',
      apiKey: send ? key?.key : undefined,
    };
    if (generation === this.generation) void this.updateContext({ hasKey: !!key, withheld: resolved.key === 'withheld' });
    return resolved;
  }

  /**
   * Asks whether the profile's key may go to `origin`, once per session and origin; not modal, as nothing is sent there
   * until it is answered. A yes or no is remembered for the origin (and resets the connection), a dismissal is not.
   */
  private askToSend(profile: Profile, effective: EffectiveConnection, origin: string): void {
    const asked = `${profile.id} ${origin}`;
    if (this.asked.has(asked)) return;
    this.asked.add(asked);
    this.log.warn(`The API key of profile ${profile.name} was not stored for ${origin}: asking before sending it there`);
    const use = vscode.l10n.t('Use My Key');
    const dont = vscode.l10n.t('Don’t Send');
    const message = effective.fromWorkspace
      ? vscode.l10n.t('This workspace points Deployments Explorer at {0}: use your key for it?', origin)
      : vscode.l10n.t('Profile “{0}” now points at {1}, not where its API key was stored for: use the key there?', profile.name, origin);
    void Promise.resolve(vscode.window.showWarningMessage(message, use, dont))
      .then(async (answer) => {
        if (answer === use || answer === dont) await this.answer(profile, origin, answer === use);
      })
      .catch((error) => this.log.error(`Asking about ${origin} failed: ${String(error)}`));
  }

  /** Asks again whether the active profile's key may go where requests go now (the welcome view's button). */
  async allowKeyForCurrentOrigin(): Promise<boolean> {
    const profile = this.profiles.active();
    const origin = originOf(this.profiles.effective(profile).baseUrl);
    if (!origin) return false;
    const use = vscode.l10n.t('Use My Key');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Send the API key of profile “{0}” to {1}?', profile.name, origin),
      { modal: true, detail: vscode.l10n.t('Only do this if you trust {0}. Your answer is remembered for it.', origin) },
      use,
    );
    if (answer !== use) return false;
    await this.answer(profile, origin, true);
    return true;
  }

  private answer(profile: Profile, origin: string, allow: boolean): Promise<void> {
    this.asked.delete(`${profile.id} ${origin}`);
    return this.profiles.answer(profile.id, origin, allow);
  }

  /** The client for the active profile; throws when the profile's key may not go where its requests would. */
  getClient(): Promise<ControlPlaneClient> {
    return (this.generation.client ??= this.build(this.generation));
  }

  private async build(generation: Generation): Promise<ControlPlaneClient> {
    const resolved = await this.resolve();
    if (resolved.key === 'withheld') {
      throw new Error(
        vscode.l10n.t(
          'The API key of profile “{0}” is not sent to {1}: it was not stored for that control plane. Run “Use API Key There…” to allow it.',
          resolved.profile.name,
          resolved.origin ?? '',
        ),
      );
    }
    const { effective } = resolved;
    // Every call of this client is cancelled with its generation.
    const client = new (loadClient().ControlPlaneClient)({ ...this.clientOptions(effective, resolved.apiKey), signal: generation.abort.signal });
    this.warnAboutPlainHttp(effective.baseUrl, !!resolved.apiKey);
    this.warnAboutRetiredSettings(effective);
    if (generation.abort.signal.aborted) void client.dispose().catch(() => undefined);
    return client;
  }

  /** Options for a client of `fields`; the tenant travels with the key. Proxy and certificates are VS Code's `fetch`'s business. */
  private clientOptions(fields: ConnectionFields, apiKey: string | undefined): ConnectionOptions {
    return {
      baseUrl: fields.baseUrl,
      apiKey,
      apiKeyHeader: fields.apiKeyHeader,
      tenantId: apiKey ? fields.tenantId : undefined,
      tenantHeader: fields.tenantHeader,
      timeoutMs: readSettings().requestTimeoutMs,
      proxyUrl: vscode.workspace.getConfiguration('http').get<string>('proxy', '') || undefined,
      caFile: fields.caFile || undefined,
      userAgent: `deployments-explorer/${this.context.extension.packageJSON.version} VSCode/${vscode.version}`,
      logger: this.log,
    };
  }

  /**
   * Whether `apiKey` works: one request, not retried, where the profile's requests go (the active one's as the workspace
   * makes it). Throws what came. Callers run it under a cancellable notification: an unreachable server would otherwise
   * take the whole timeout.
   */
  async checkKey(profile: Profile, apiKey: string, signal: AbortSignal): Promise<void> {
    const fields = profile.id === this.profiles.active().id ? this.profiles.effective(profile) : profile;
    const client = new (loadClient().ControlPlaneClient)({ ...this.clientOptions(fields, apiKey), retry: { maxAttempts: 1 } });
    try {
      await client.listDeployments({ limit: 1, offset: 0 }, { signal });
    } finally {
      void client.dispose().catch(() => undefined);
    }
  }

  /** What Check Connection tries: the options of the active profile's client (its key only where it may go), and the facts its report names. */
  async checkTarget(): Promise<{ options: ConnectionOptions; settings: NetworkSettings; profile: string; tenantId?: string; key: ResolvedConnection['key'] }> {
    const { profile, effective, apiKey, key } = await this.resolve();
    const http = vscode.workspace.getConfiguration('http');
    const noProxy = http.get<unknown>('noProxy');
    const settings: NetworkSettings = {
      proxy: http.get<string>('proxy') || undefined,
      proxySupport: http.get<string>('proxySupport'),
      noProxy: Array.isArray(noProxy) ? noProxy.filter((entry): entry is string => typeof entry === 'string') : undefined,
      systemCertificates: http.get<boolean>('systemCertificates'),
      fetchAdditionalSupport: http.get<boolean>('fetchAdditionalSupport'),
    };
    return { options: this.clientOptions(effective, apiKey), settings, profile: profile.name, tenantId: effective.tenantId?.trim() || undefined, key };
  }

  /**
   * Announced at once, not after the context keys: a second change while they are set (a quick switch back)
   * would otherwise be announced before the first, which then names the wrong control plane.
   */
  private reset(reason: string): void {
    end(this.generation);
    this.generation = { abort: new AbortController() };
    this.log.info(`Connection reset: ${reason}`);
    const profile = this.profiles.active();
    const switched = profile.id !== this.activeId;
    this.activeId = profile.id;
    this.plane = controlPlaneKey(this.profiles.effective(profile));
    this.changed.fire();
    if (switched) this.profileChanged.fire(profile);
    void this.updateContext();
  }

  /** A base URL and a key that may be sent there: the views can load (the welcome views say what is missing otherwise). */
  async isConfigured(): Promise<boolean> {
    return (await this.resolve()).key === 'send';
  }

  /** The context keys of the welcome views and menus: what a resolved connection knows (its key just read), else looked up. */
  private async updateContext(known?: { hasKey: boolean; withheld: boolean }): Promise<void> {
    const { generation } = this;
    const profile = this.profiles.active();
    const keys = {
      'deploymentsExplorer.hasBaseUrl': !!originOf(this.profiles.effective(profile).baseUrl),
      'deploymentsExplorer.hasApiKey': known ? known.hasKey : !!(await this.profiles.key(profile.id)),
      'deploymentsExplorer.keyWithheld': known?.withheld ?? false,
      'deploymentsExplorer.multipleProfiles': this.profiles.list().length > 1,
    };
    // A change meanwhile sets its own keys; these would be a profile's that is no longer active.
    if (generation !== this.generation) return;
    await Promise.all(Object.entries(keys).map(([key, value]) => vscode.commands.executeCommand('setContext', key, value)));
  }

  /**
   * Settings VS Code's `fetch` does not apply (docs/network.md), said once: certificate checks cannot be turned off
   * (deploymentsExplorer.strictSSL, http.proxyStrictSSL), and http.proxyAuthorization is not sent to the proxy.
   */
  private warnAboutRetiredSettings(fields: ConnectionFields): void {
    const http = vscode.workspace.getConfiguration('http');
    const retired = [
      !fields.strictSSL && `${SECTION}.strictSSL`,
      !http.get<boolean>('proxyStrictSSL', true) && 'http.proxyStrictSSL',
      !!http.get<string | null>('proxyAuthorization') && 'http.proxyAuthorization',
    ].filter((setting): setting is string => !!setting);
    const warned = this.context.globalState.get<string[]>(WARNED_RETIRED, []);
    const setting = retired.find((name) => !warned.includes(name));
    if (!setting) return;
    void this.context.globalState.update(WARNED_RETIRED, [...warned, setting]);
    this.log.warn(`${setting} is set but not applied to this extension's requests (see docs/network.md)`);
    warnWithSettingsButton(
      setting === 'http.proxyAuthorization'
        ? vscode.l10n.t(
            'Deployments Explorer no longer sends http.proxyAuthorization: its requests go through VS Code’s network stack, which answers the proxy itself (Kerberos, or a sign-in prompt on the desktop). Put the user name and password in http.proxy (http://user:password@host:port) instead.',
          )
        : vscode.l10n.t(
            'Deployments Explorer always checks TLS certificates now: {0} is no longer applied to its requests. Trust the server’s CA instead: install it in the operating system’s store, name it in NODE_EXTRA_CA_CERTS, or put it in deploymentsExplorer.caFile.',
            setting,
          ),
      setting,
    );
  }

  private warnAboutPlainHttp(baseUrl: string, hasKey: boolean): void {
    if (!hasKey || !isPlainHttpToRemote(baseUrl)) return;
    const warned = this.context.globalState.get<string[]>(WARNED_PLAIN_HTTP, []);
    if (warned.includes(baseUrl)) return;
    void this.context.globalState.update(WARNED_PLAIN_HTTP, [...warned, baseUrl]);
    const message = vscode.l10n.t('The base URL {0} uses plain HTTP: your API key travels unencrypted. Use https:// unless this network is trusted.', baseUrl);
    warnWithSettingsButton(message, `${SECTION}.baseUrl`);
  }

  dispose(): void {
    end(this.generation);
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

/** Cancels what a generation has in flight and closes its client. */
function end(generation: Generation): void {
  generation.abort.abort();
  void generation.client?.then((client) => client.dispose()).catch(() => undefined);
}

/** A map of control planes (keys `baseUrl|tenant`, see controlPlaneKey), not a value 0.1.0 kept bare. */
function isPerControlPlane(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).every((key) => key.includes('|'));
}
