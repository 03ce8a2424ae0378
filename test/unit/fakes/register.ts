// Import first in a unit test (`import './fakes/register';`): from then on,
// `require('vscode')` in the code under test answers the fake in ./vscode.
// Node has no 'vscode' module outside the extension host; this redirects the
// one name and leaves every other module's resolution alone.
import Module from 'node:module';

const fake = require.resolve('./vscode');
const internals = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const resolve = internals._resolveFilename;
internals._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? fake : resolve.call(this, request, ...rest);
};
