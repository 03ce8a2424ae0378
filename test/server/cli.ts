/**
 * Run the control-plane stand-in on its own:
 *   node out/test/server/cli.js [--port N] [--api-key K | --no-auth] [--latency MS] [--seed N]
 *                               [--deployments N] [--require-tenant T] [--verbose | --quiet]
 *                               [--progress-polls N] [--progress-ms MS] [--active-lag N|never] [--final-status S]
 *                               [--large-integration N] [--real-shapes]
 * --real-shapes answers as the real service does where the contract is silent (shared DESIGN.md, fourth round).
 * Request logging is off by default: the benchmark reads this process's stdout.
 * Prints a `STANDIN {json}` line that scripts (the demo) parse for url, apiKey and integrations.
 */
import { DEFAULT_PROGRESS, StandIn, ORPHAN_INTEGRATION_ID, type StandInOptions } from './standIn';

const USAGE =
  'Usage: node out/test/server/cli.js [--port N] [--api-key K | --no-auth] [--latency MS] [--seed N] [--deployments N] [--require-tenant T] [--verbose | --quiet] [--progress-polls N] [--progress-ms MS] [--active-lag N|never] [--final-status S] [--large-integration N] [--real-shapes]';

type CliOptions = StandInOptions & { quiet: boolean; verbose: boolean };

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { quiet: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) fail(`${flag} needs a value`);
      return v;
    };
    const int = (min: number): number => {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) fail(`${flag} needs an integer >= ${min}, got "${v}"`);
      return n;
    };
    switch (flag) {
      case '--port':
        options.port = int(0);
        break;
      case '--api-key':
        options.apiKey = value();
        break;
      case '--no-auth':
        options.apiKey = null;
        break;
      case '--latency':
        options.latencyMs = int(0);
        break;
      case '--seed':
        options.seed = int(0);
        break;
      case '--deployments':
        options.deploymentCount = int(0);
        break;
      case '--require-tenant':
        options.requireTenant = value();
        break;
      case '--progress-polls':
        options.progress = { ...(options.progress ?? DEFAULT_PROGRESS), awaitingPolls: int(0) };
        break;
      case '--progress-ms':
        options.progress = { ...(options.progress ?? DEFAULT_PROGRESS), awaitingMs: int(0) };
        break;
      case '--active-lag': {
        const lag = value();
        const polls = Number(lag);
        if (lag !== 'never' && (!Number.isInteger(polls) || polls < 0)) fail(`--active-lag needs an integer >= 0 or "never", got "${lag}"`);
        options.progress = { ...(options.progress ?? DEFAULT_PROGRESS), activeLagPolls: lag === 'never' ? 'never' : polls };
        break;
      }
      case '--final-status':
        options.progress = { ...(options.progress ?? DEFAULT_PROGRESS), finalStatus: value() };
        break;
      case '--large-integration':
        options.largeIntegration = int(0);
        break;
      case '--real-shapes':
        options.realShapes = true;
        break;
      case '--quiet':
        options.quiet = true;
        options.verbose = false;
        break;
      case '--verbose':
        options.verbose = true;
        options.quiet = false;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
      // falls through (exit never returns)
      default:
        fail(`unknown argument "${arg}"`);
    }
  }
  return options;
}

function fail(message: string): never {
  console.error(`stand-in: ${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { quiet, verbose, ...options } = parseArgs(process.argv.slice(2));
  if (verbose) options.log = (line) => console.log(line);
  const standIn = await StandIn.start(options);
  console.log(`Control-plane stand-in listening on ${standIn.url}`);
  console.log(standIn.apiKey === null ? 'API key: (none, auth disabled)' : `API key: ${standIn.apiKey}`);
  if (options.requireTenant !== undefined) console.log(`Tenant ID required: ${options.requireTenant}`);
  console.log(
    `STANDIN ${JSON.stringify({
      url: standIn.url,
      apiKey: standIn.apiKey,
      tenantId: options.requireTenant ?? null,
      integrations: standIn.integrations.map((i) => ({ id: i.id, label: i.label, repositoryCount: i.repositories.length })),
      orphanIntegrationId: ORPHAN_INTEGRATION_ID,
      deploymentCount: standIn.deployments.length,
    })}`,
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    if (!quiet) console.log(`Received ${signal}, closing`);
    standIn.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(`stand-in: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
