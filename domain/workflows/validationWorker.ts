import { parentPort } from 'node:worker_threads';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import { validateDefinition, type ValidationEnv } from '../../lib/dag/validate';
import { credentialFindings } from './credentialFindings';
import { createValidationEnv } from './validationEnv';
import type { CheckedDefinition, ValidationReply, ValidationRequest } from './validationThread';

/**
 * The validation thread (validationThread.ts): validates one definition per message against the tool descriptors
 * sent with it, and scans a valid one for credentials. The environment is rebuilt only when the catalogue sent differs from the last one (compared as
 * JSON), so its per-tool caches survive between definitions.
 */
let lastKey = '';
let env: ValidationEnv | null = null;

function envFor(tools: readonly ToolDescriptor[]): ValidationEnv {
  const key = JSON.stringify(tools);
  if (!env || key !== lastKey) {
    const byId = new Map(tools.map((tool) => [tool.id, tool]));
    env = createValidationEnv({ get: (id) => byId.get(id), list: () => tools });
    lastKey = key;
  }
  return env;
}

parentPort?.on('message', (message: { id: number; json: string }) => {
  let reply: ValidationReply;
  try {
    const request = JSON.parse(message.json) as ValidationRequest;
    const result = validateDefinition(request.input, envFor(request.tools), { dagPath: request.dagPath });
    const checked: CheckedDefinition = { result, ...(result.ok ? { credentials: credentialFindings(result.definition, request.dagPath) } : {}) };
    reply = { id: message.id, ok: true, json: JSON.stringify(checked) };
  } catch (err) {
    reply = { id: message.id, ok: false, message: err instanceof Error ? err.message.slice(0, 300) : String(err) };
  }
  parentPort?.postMessage(reply);
});
