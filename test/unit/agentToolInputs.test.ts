// The agent tools' inputSchema in package.json is what the tools accept: generated from the zod schemas the tools
// check their input with (VS Code does not check it), valid JSON Schema, and agreeing with zod on every sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { inputJsonSchema, parseInput, TOOL_INPUTS, type ToolName } from '../../src/features/agentTools/toolInputs';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));
const tools: Array<Record<string, unknown> & { name: ToolName; inputSchema: Record<string, unknown> }> = manifest.contributes.languageModelTools;

const ID = '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b';
/** Inputs a model might send, right and wrong, per tool. */
const SAMPLES: Record<ToolName, unknown[]> = {
  deploymentsExplorer_listDeployments: [
    {},
    { status: 'READY', limit: 5 },
    { offset: 40, limit: 100, name_contains: 'shop', remote_reconciled: false, tag_value_ids: ['a', 'b'], image_version: '1.2', deployment_type: 'prod' },
    { deployment_ids: [ID, ID.toUpperCase()] },
    { limit: 0 },
    { limit: 101 },
    { limit: 2.5 },
    { offset: -1 },
    { offset: '20' },
    { deployment_type: 'staging' },
    { deployment_ids: ['not-a-uuid'] },
    { tag_value_ids: 'a,b' },
    { remote_reconciled: 'yes' },
    { status: 7 },
    { filter: 'x' },
  ],
  deploymentsExplorer_getDeployments: [{ deployment_ids: [ID] }, {}, { deployment_ids: [] }, { deployment_ids: ['x'] }, { deployment_ids: [ID], extra: 1 }],
  deploymentsExplorer_listRepositories: [{}, { integration_id: ID }, { integration_id: 'x' }, { name_contains: 'api', limit: 500 }, { limit: 501 }, { owner: 'x' }],
  deploymentsExplorer_workspaceDeployments: [{}, { folder: '/x' }],
  deploymentsExplorer_createDeployment: [
    {},
    { from_workspace_branch: true },
    { integration_id: ID, repository_url: 'https://github.com/acme/shop', name: 'shop', ref: 'main', deployment_type: 'dev' },
    { from_workspace_branch: 'yes' },
    { integration_id: 'acme' },
    { deployment_type: 'staging' },
    { name: 3 },
    { repo: 'x' },
  ],
};

describe('agent tool inputs', () => {
  it('package.json contributes the five tools, each referable in a prompt, with texts in package.nls.json', () => {
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOL_INPUTS).sort());
    for (const tool of tools) {
      assert.equal(tool.canBeReferencedInPrompt, true, tool.name);
      assert.match(String(tool.toolReferenceName), /^[a-zA-Z]+$/, tool.name);
      for (const field of ['displayName', 'userDescription', 'modelDescription']) {
        const key = /^%(.+)%$/.exec(String(tool[field]))?.[1];
        assert.ok(key && nls[key], `${tool.name}.${field} is a package.nls.json string`);
      }
    }
  });

  it('each inputSchema is the one generated from the zod schema the tool checks its input with', () => {
    for (const tool of tools) assert.deepEqual(tool.inputSchema, inputJsonSchema(tool.name), `${tool.name}: run node scripts/agent-tool-schemas.mjs`);
  });

  it('each inputSchema is valid JSON Schema, and accepts exactly what the tool accepts', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    for (const tool of tools) {
      assert.ok(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${JSON.stringify(ajv.errors)}`);
      const validate = ajv.compile(tool.inputSchema);
      for (const sample of SAMPLES[tool.name]) {
        const accepted = parseInput(TOOL_INPUTS[tool.name], sample);
        assert.equal(validate(sample), accepted.ok, `${tool.name} ${JSON.stringify(sample)}: schema ${JSON.stringify(validate.errors)}, tool ${JSON.stringify(accepted)}`);
      }
      assert.ok(SAMPLES[tool.name].some((sample) => !parseInput(TOOL_INPUTS[tool.name], sample).ok), `${tool.name} has a sample it refuses`);
    }
  });

  it('says what is wrong with an input, field by field', () => {
    const parsed = parseInput(TOOL_INPUTS.deploymentsExplorer_listDeployments, { limit: 0, offset: '20', filter: 'x', deployment_ids: ['nope'] });
    assert.equal(parsed.ok, false);
    const problems = parsed.ok ? [] : parsed.problems;
    assert.ok(problems.includes('limit: expected a whole number from 1 to 100'), problems.join('\n'));
    assert.ok(problems.includes('offset: expected a whole number of 0 or more, got string'), problems.join('\n'));
    assert.ok(problems.includes('deployment_ids[0]: expected a deployment ID (a UUID)'), problems.join('\n'));
    assert.ok(problems.some((problem) => problem.startsWith('(input): unknown field filter')), problems.join('\n'));
  });
});
