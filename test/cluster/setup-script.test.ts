/**
 * deploy/temporal-setup.sh is what docker-compose runs in its temporal-schema and temporal-setup services, on every
 * `docker compose up`: run again on the set-up cluster, both phases must succeed and change nothing.
 */
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SEARCH_ATTRIBUTE_KEYS } from '../../src/contract/search-attributes.js';
import { runClusterSetup } from '../../src/dev/temporal-cluster.js';

// @temporalio/proto is CommonJS: Node's ESM loader exposes it as a default export only.
const { IndexedValueType } = proto.temporal.api.enums.v1;

let connection: Connection;
beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
});
afterAll(() => connection?.close());

describe('deploy/temporal-setup.sh', () => {
  it('runs again on a set-up cluster without harm, and the cluster keeps our search attributes', { timeout: 180_000 }, async () => {
    const env = inject('clusterSetupEnv')!;
    const schema = await runClusterSetup('schema', env);
    // Both databases were at the latest version already: the tool applied nothing.
    expect(schema.match(/found zero updates from current version/g)).toHaveLength(2);
    expect(schema).not.toMatch(/error/i);

    const namespace = await runClusterSetup('namespace', env);
    for (const key of SEARCH_ATTRIBUTE_KEYS) expect(namespace).toContain(`search attribute ${key.name} exists`);

    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: inject('temporalNamespace') });
    const ours = Object.fromEntries(SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, customAttributes![key.name]]));
    expect(ours).toEqual(
      Object.fromEntries(SEARCH_ATTRIBUTE_KEYS.map((key) => [key.name, IndexedValueType[`INDEXED_VALUE_TYPE_${key.type}`]])),
    );
  });
});
