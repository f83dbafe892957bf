/**
 * The store's wire contract: one `storeWorkflow` per namespace, written by the updates `storePut` and
 * `storeDelete`, read by the queries `storeGet` and `storeList`. Any client may use it (the `temporal` CLI too).
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { StoreDeleteInput, StoreItem, StoreListInput, StoreListResult, StorePutInput, StoreWriteResult } from '../schemas/store.js';

export const STORE_WORKFLOW_TYPE = 'storeWorkflow';

export const storePutUpdate = defineUpdate<StoreWriteResult, [StorePutInput]>('storePut');
export const storeDeleteUpdate = defineUpdate<StoreWriteResult, [StoreDeleteInput]>('storeDelete');
/** The item, or null when the key is not there. */
export const storeGetQuery = defineQuery<StoreItem | null, [{ key: string }]>('storeGet');
/** Items in key order. */
export const storeListQuery = defineQuery<StoreListResult, [StoreListInput?]>('storeList');

/** `hitl-store/memories/alice`: each part URI-encoded, so no two namespaces share a workflow id. */
export function storeWorkflowId(namespace: readonly string[]): string {
  return `hitl-store/${namespace.map(encodeURIComponent).join('/')}`;
}

/** Failure type of a refused write; its `details[0].code` says why. */
export const STORE_REFUSED = 'StoreRefusedError';
export const STORE_REFUSAL_CODES = ['malformed', 'too_large', 'store_full', 'version_conflict'] as const;
export type StoreRefusalCode = (typeof STORE_REFUSAL_CODES)[number];
