/** The worker's connection, apart from connect.ts so the CLI and the API never load the worker SDK (seconds of startup). */
import { NativeConnection } from '@temporalio/worker';
import { connectWithin, type ConnectWait } from './connect.js';
import { nativeConnectionOptions, type TemporalTarget } from './temporal-target.js';

export function connectWorker(target: TemporalTarget, wait: ConnectWait): Promise<NativeConnection> {
  return connectWithin(target, wait, () => NativeConnection.connect(nativeConnectionOptions(target)));
}
