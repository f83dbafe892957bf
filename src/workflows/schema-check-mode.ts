import type { SchemaCheckMode } from '../tools/json-schema-check.js';
import { PATCHES, takesPatch } from './patches.js';

/** How this run checks arguments against an MCP tool's schema: as the code that started it did. */
export function schemaCheckMode(): SchemaCheckMode {
  if (takesPatch(PATCHES.schemaChecksBounded)) return 'bounded';
  return takesPatch(PATCHES.schemaPatternsLinear) ? 'linear' : 'backtracking';
}
