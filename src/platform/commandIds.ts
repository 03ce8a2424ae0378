/**
 * Every command the extension contributes, in one place. CommandRunner.register takes only these,
 * and a unit test checks this list against package.json (contributes.commands and menus).
 */
export const Commands = {
  setBaseUrl: 'deploymentsExplorer.setBaseUrl',
  setApiKey: 'deploymentsExplorer.setApiKey',
  clearApiKey: 'deploymentsExplorer.clearApiKey',
  setTenantId: 'deploymentsExplorer.setTenantId',
  openSettings: 'deploymentsExplorer.openSettings',
  showLog: 'deploymentsExplorer.showLog',
  addIntegration: 'deploymentsExplorer.addIntegration',
  removeIntegration: 'deploymentsExplorer.removeIntegration',
  promoteIntegration: 'deploymentsExplorer.promoteIntegration',
  discoverIntegrations: 'deploymentsExplorer.discoverIntegrations',
  refreshIntegrations: 'deploymentsExplorer.refreshIntegrations',
  refreshIntegration: 'deploymentsExplorer.refreshIntegration',
  findRepository: 'deploymentsExplorer.findRepository',
  copyRepositoryUrl: 'deploymentsExplorer.copyRepositoryUrl',
  copyIntegrationId: 'deploymentsExplorer.copyIntegrationId',
  openRepository: 'deploymentsExplorer.openRepository',
  refreshDeployments: 'deploymentsExplorer.refreshDeployments',
  loadMoreDeployments: 'deploymentsExplorer.loadMoreDeployments',
  filterDeployments: 'deploymentsExplorer.filterDeployments',
  clearDeploymentFilters: 'deploymentsExplorer.clearDeploymentFilters',
  filterByStatus: 'deploymentsExplorer.filterByStatus',
  filterByImageVersion: 'deploymentsExplorer.filterByImageVersion',
  showDeploymentJson: 'deploymentsExplorer.showDeploymentJson',
  copyDeploymentId: 'deploymentsExplorer.copyDeploymentId',
  openCustomUrl: 'deploymentsExplorer.openCustomUrl',
  openInWebConsole: 'deploymentsExplorer.openInWebConsole',
  openDeploymentRepository: 'deploymentsExplorer.openDeploymentRepository',
  revealDeploymentRepository: 'deploymentsExplorer.revealDeploymentRepository',
  createDeployment: 'deploymentsExplorer.createDeployment',
  deployWorkspace: 'deploymentsExplorer.deployWorkspace',
  sendPayload: 'deploymentsExplorer.sendPayload',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];
