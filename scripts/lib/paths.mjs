// Shared locations for the provisioning, test and demo scripts.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * Cache folder outside the clone (like @vscode/test-electron's download cache), so every clone on this machine,
 * CI's fresh ones included, reuses one provisioned code-server. DEPLOYMENTS_EXPLORER_CACHE overrides it.
 */
export const CACHE = process.env.DEPLOYMENTS_EXPLORER_CACHE || path.join(os.homedir(), '.cache', 'deployments-explorer-test');
export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_DIR = path.join(CACHE, 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const PROVISION_MARKER = path.join(CODE_SERVER_DIR, '.provisioned.json');
export const CHROMIUM = '/usr/bin/chromium';
export const VSIX = path.join(ROOT, 'dist', 'deployments-explorer.vsix');
export const EXTENSION_ID = 'deployments-explorer.deployments-explorer';
