/** Connections to the suite's dev server (started once in global setup). */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { inject } from 'vitest';
import { LARGE_MESSAGES } from '../../src/client/connection.js';

export interface TestTemporal {
  client: Client;
  nativeConnection: NativeConnection;
  namespace: string;
  address: string;
  close(): Promise<void>;
}

export async function connectTestTemporal(): Promise<TestTemporal> {
  const address = inject('temporalAddress');
  const namespace = inject('temporalNamespace');
  const connection = await Connection.connect({ address, channelArgs: LARGE_MESSAGES });
  const nativeConnection = await NativeConnection.connect({ address });
  return {
    client: new Client({ connection, namespace }),
    nativeConnection,
    namespace,
    address,
    async close() {
      await connection.close();
      await nativeConnection.close();
    },
  };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
