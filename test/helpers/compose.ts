/**
 * docker-compose.yml as Compose reads it (YAML merge keys resolved), and its check against the Compose
 * Specification schema (test/fixtures/compose-spec.json, from compose-spec/compose-go v2.16.2, Apache-2.0): the
 * strongest check there is without a Docker engine.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';

export interface ComposeService {
  image?: string;
  entrypoint?: string[];
  healthcheck?: { test: string[] };
  build?: string;
  command?: string[] | string;
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function loadCompose(file = 'docker-compose.yml'): ComposeFile {
  return parse(readFileSync(file, 'utf8'), { merge: true }) as ComposeFile;
}

/** The schema violations of a compose file (none: it is valid). */
export function composeErrors(compose: unknown): ErrorObject[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  const validate = ajv.compile(JSON.parse(readFileSync('test/fixtures/compose-spec.json', 'utf8')));
  return validate(compose) ? [] : (validate.errors ?? []);
}
