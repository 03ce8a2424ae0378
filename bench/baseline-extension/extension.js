// The baseline of `npm run bench`'s start-up ratios: activated on onStartupFinished, one view container
// shaped like Deployments Explorer's (two shown views and a collapsed third, tree views created in
// activate()), whose rows come from memory. What it costs is what any extension of this shape costs.
const vscode = require('vscode');

const STATUSES = ['Ready', 'Awaiting database', 'Unused', 'Degraded'];

/** A flat tree of `count` rows, built when VS Code first asks for them. */
function rows(prefix, count, withStatus) {
  return {
    getChildren: (element) => (element ? [] : Array.from({ length: count }, (_, i) => i)),
    getTreeItem: (i) => {
      const item = new vscode.TreeItem(`${prefix}-${i}`, vscode.TreeItemCollapsibleState.None);
      if (withStatus) {
        item.description = `${STATUSES[i % STATUSES.length]} · ${i + 1} h ago`;
        item.iconPath = new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('testing.iconPassed'));
      } else {
        item.iconPath = new vscode.ThemeIcon('github');
      }
      item.tooltip = `${prefix} ${i}`;
      return item;
    },
  };
}

function activate(context) {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Start-up Baseline', { log: true });
  context.subscriptions.push(
    log,
    vscode.window.createTreeView('benchBaseline.groups', { treeDataProvider: rows('group', 2, false) }),
    // As many rows as Deployments Explorer's first page (deploymentsExplorer.pageSize's default, 20).
    vscode.window.createTreeView('benchBaseline.items', { treeDataProvider: rows('item', 20, true), showCollapseAll: true, canSelectMany: true }),
    vscode.window.createTreeView('benchBaseline.more', { treeDataProvider: rows('more', 3, false) }),
  );
  log.info(`activate() took ${(performance.now() - started).toFixed(1)} ms`);
}

module.exports = { activate, deactivate: () => undefined };
