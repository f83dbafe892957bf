/**
 * The store across runs, from outside a workflow: tools use it through their context (`ctx.store`), services and
 * tests through `HitlClient.store`. A namespace's workflow starts on its first write (update-with-start); reads of a
 * namespace never written answer nothing. Every write is a Temporal update, answered once it is durable.
 */
import { createHash } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import pLimit, { type LimitFunction } from 'p-limit';
import {
  STORE_REFUSAL_CODES,
  STORE_REFUSED,
  STORE_WORKFLOW_TYPE,
  storeDeleteUpdate,
  storeGetQuery,
  storeListQuery,
  storePutUpdate,
  storeWorkflowId,
  type StoreRefusalCode,
} from '../contract/store.js';
import type { StoreItem, StoreListInput, StoreListResult, StoreWriteResult } from '../schemas/store.js';
import { StoreRefusedError } from '../errors.js';

/**
 * Writes one process sends to one namespace at a time. Temporal admits 10 updates in flight per workflow
 * (`history.maxInFlightUpdates`) and refuses the rest, and refused writes that every writer sends again at once
 * starve it: 400 concurrent writes from one process lost up to 283 (retrying them for two more minutes still lost
 * 34). Queued here, below the limit, all 400 land in about a second. Writers in other processes add their own,
 * and what the server refuses then only the client's gRPC retries send again: three processes of 300 writes each
 * lost none alone, but lost writes once beside other tests' load.
 */
const WRITES_IN_FLIGHT_PER_NAMESPACE = 8;
const writeQueues = new Map<string, LimitFunction>();

export interface WriteOptions {
  /** Write only if the key is at this version (0: only if it does not exist). */
  ifVersion?: number;
}

export class AgentStore {
  /** Writes so far, for update ids: a retried tool attempt repeats its writes with the same ids. */
  #writes = 0;

  /**
   * @param writer who writes (recorded with each value); with `idempotencyKey`, a write repeated by a retried tool
   *   attempt is the same update, which Temporal applies once.
   */
  constructor(
    readonly client: Client,
    readonly taskQueue: string,
    readonly writer?: { writtenBy: string; idempotencyKey?: string },
  ) {}

  async get(namespace: readonly string[], key: string): Promise<StoreItem | undefined> {
    const item = await this.#read(namespace, (handle) => handle.query(storeGetQuery, { key }));
    return item ?? undefined;
  }

  async list(namespace: readonly string[], options: StoreListInput = {}): Promise<StoreListResult> {
    return (await this.#read(namespace, (handle) => handle.query(storeListQuery, options))) ?? { items: [] };
  }

  put(namespace: readonly string[], key: string, value: unknown, options: WriteOptions = {}): Promise<StoreWriteResult> {
    return this.#write(namespace, storePutUpdate, { key, value, ...options, ...this.#by() });
  }

  delete(namespace: readonly string[], key: string, options: WriteOptions = {}): Promise<StoreWriteResult> {
    return this.#write(namespace, storeDeleteUpdate, { key, ...options, ...this.#by() });
  }

  #by(): { writtenBy?: string } {
    return this.writer ? { writtenBy: this.writer.writtenBy } : {};
  }

  async #read<T>(
    namespace: readonly string[],
    query: (handle: ReturnType<Client['workflow']['getHandle']>) => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await query(this.client.workflow.getHandle(storeWorkflowId(namespace)));
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw err;
    }
  }

  async #write<I extends { key: string }>(
    namespace: readonly string[],
    update: typeof storePutUpdate | typeof storeDeleteUpdate,
    input: I,
  ): Promise<StoreWriteResult> {
    const workflowId = storeWorkflowId(namespace);
    const n = ++this.#writes;
    const updateId = this.writer?.idempotencyKey
      ? `${this.writer.idempotencyKey}:store:${n}:${createHash('sha256')
          .update(JSON.stringify([workflowId, update.name, input]))
          .digest('hex')
          .slice(0, 16)}`
      : undefined;
    const write = () =>
      this.client.workflow.executeUpdateWithStart(update as typeof storePutUpdate, {
        args: [input as never],
        ...(updateId && { updateId }),
        startWorkflowOperation: new WithStartWorkflowOperation(STORE_WORKFLOW_TYPE, {
          workflowId,
          taskQueue: this.taskQueue,
          args: [{ namespace: [...namespace] }],
          workflowIdConflictPolicy: 'USE_EXISTING',
          staticSummary: `store ${namespace.join(' / ')}`,
        }),
      });
    try {
      return await inQueue(workflowId, write);
    } catch (err) {
      const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
      if (cause instanceof ApplicationFailure && cause.type === STORE_REFUSED)
        throw new StoreRefusedError(refusalCode(cause.details), cause.message);
      throw err;
    }
  }
}

/** Runs the write in its namespace's queue; a queue goes once it is idle. */
async function inQueue<T>(workflowId: string, write: () => Promise<T>): Promise<T> {
  let queue = writeQueues.get(workflowId);
  if (!queue) writeQueues.set(workflowId, (queue = pLimit(WRITES_IN_FLIGHT_PER_NAMESPACE)));
  try {
    return await queue(write);
  } finally {
    if (queue.activeCount === 0 && queue.pendingCount === 0) writeQueues.delete(workflowId);
  }
}

/** The refusal's code, from the failure's details (any client may write, so it is read as untrusted). */
function refusalCode(details: unknown): StoreRefusalCode {
  const code = (Array.isArray(details) ? (details[0] as { code?: unknown } | undefined)?.code : undefined) as StoreRefusalCode;
  return STORE_REFUSAL_CODES.includes(code) ? code : 'malformed';
}
