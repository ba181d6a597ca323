import { mkdirSync, writeFileSync } from 'node:fs';
import { generateOpenApi, unwrapEnvelopes } from '../server/openapi';

/** Writes the generated OpenAPI document and the gateway's unwrapped view of it to mesh/generated/. */
export async function writeOpenApi() {
  const doc = await generateOpenApi();
  mkdirSync('mesh/generated', { recursive: true });
  writeFileSync('mesh/generated/openapi.json', JSON.stringify(doc, null, 2));
  writeFileSync('mesh/generated/openapi.gateway.json', JSON.stringify(unwrapEnvelopes(doc), null, 2));
}
