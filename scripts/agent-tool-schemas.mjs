#!/usr/bin/env node
// Writes each agent tool's inputSchema in package.json (contributes.languageModelTools) from the zod schemas the tools
// check their input with (src/features/agentTools/toolInputs.ts); test/unit/agentToolInputs.test.ts fails until they agree.
// Usage: npx tsc -p . && node scripts/agent-tool-schemas.mjs
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './lib/paths.mjs';

const { inputJsonSchema } = createRequire(import.meta.url)(path.join(ROOT, 'out', 'src', 'features', 'agentTools', 'toolInputs.js'));
const file = path.join(ROOT, 'package.json');
const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const tool of manifest.contributes.languageModelTools) tool.inputSchema = inputJsonSchema(tool.name);
fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`package.json: inputSchema of ${manifest.contributes.languageModelTools.length} tools written`);
