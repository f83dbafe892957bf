/**
 * The store across runs (LangGraph's `store` / `InjectedStore`): per namespace, keys to JSON values, held by one
 * long-lived workflow (src/workflows/store-workflow.ts). Writes are updates, so each is durable once answered and
 * they apply one at a time, in order; reads are queries.
 */
import { z } from 'zod';
import { builtOnce } from './built-once.js';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { utf8Length } from '../bounds/truncate.js';

/**
 * What one namespace holds at most. It travels whole across continue-as-new (Temporal's 2 MB payload limit), so
 * a namespace stays small; shard by namespace, or use a database, beyond this (README, "A store across runs").
 */
export const STORE_LIMITS = {
  /** Bytes of one value (JSON). */
  valueBytes: 64 * 1024,
  /** Bytes of all values and keys of a namespace together. */
  namespaceBytes: 1024 * 1024,
  keys: 10_000,
  /** Items one list query answers. */
  listLimit: 1000,
} as const;

/** `['memories', 'alice']`: one workflow per namespace. */
export const StoreNamespace = builtOnce('schemas/store.StoreNamespace', () => z.array(z.string().min(1).max(128)).min(1).max(8));
export const StoreKey = builtOnce('schemas/store.StoreKey', () => z.string().min(1).max(512));

export const StoreValue = builtOnce('schemas/store.StoreValue', () =>
  z.unknown().superRefine((value, ctx) => {
    if (value === undefined) return void ctx.addIssue({ code: 'custom', message: 'a value is required (use delete to remove a key)' });
    if (jsonDepthExceeds(value)) return void ctx.addIssue({ code: 'custom', message: 'the value nests deeper than 64 levels' });
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (err) {
      return void ctx.addIssue({ code: 'custom', message: `the value is not JSON (${String(err)})` });
    }
    const bytes = utf8Length(text ?? '');
    if (bytes > STORE_LIMITS.valueBytes)
      ctx.addIssue({ code: 'custom', message: `the value is ${bytes} bytes of JSON; the limit is ${STORE_LIMITS.valueBytes}` });
  }),
);

const Writer = builtOnce('schemas/store.Writer', () => z.string().min(1).max(300));

export const StorePutInput = builtOnce('schemas/store.StorePutInput', () =>
  z.strictObject({
    key: StoreKey,
    value: StoreValue,
    /** Write only if the key's version is this (0: only if the key does not exist). */
    ifVersion: z.number().int().min(0).optional(),
    /** Who writes, for the record: a run and call (`<workflowId>:<callId>`), or a person. */
    writtenBy: Writer.optional(),
  }),
);

export const StoreDeleteInput = builtOnce('schemas/store.StoreDeleteInput', () =>
  z.strictObject({
    key: StoreKey,
    ifVersion: z.number().int().min(0).optional(),
    writtenBy: Writer.optional(),
  }),
);

export const StoreItem = builtOnce('schemas/store.StoreItem', () =>
  z.object({
    key: z.string(),
    value: z.unknown(),
    /** The namespace's write number when this value was written: later writes have higher versions. */
    version: z.number().int(),
    updatedAt: z.iso.datetime(),
    writtenBy: z.string().optional(),
  }),
);

export const StoreWriteResult = builtOnce('schemas/store.StoreWriteResult', () =>
  z.object({
    /** The item's new version (a delete: the version of the write that removed it). */
    version: z.number().int(),
    /** Delete: whether the key existed. */
    existed: z.boolean(),
  }),
);

export const StoreListInput = builtOnce('schemas/store.StoreListInput', () =>
  z.strictObject({
    prefix: z.string().max(512).optional(),
    /** Keys after this one (the previous page's `next`). */
    after: z.string().max(512).optional(),
    limit: z.number().int().min(1).max(STORE_LIMITS.listLimit).optional(),
  }),
);

export const StoreListResult = builtOnce('schemas/store.StoreListResult', () =>
  z.object({ items: z.array(StoreItem), next: z.string().optional() }),
);

export const StoreWorkflowInput = builtOnce('schemas/store.StoreWorkflowInput', () =>
  z.object({
    namespace: StoreNamespace,
    /** Carried across continue-as-new. */
    items: z.array(StoreItem).default([]),
    /** The last write's number. */
    seq: z.number().int().min(0).default(0),
    /** Continue as new at this many history events (Temporal suggests it later, near its own limits). @default 4000 */
    maxEvents: z.number().int().min(20).max(50_000).optional(),
  }),
);

export type StoreNamespace = z.infer<typeof StoreNamespace>;
export type StorePutInput = z.infer<typeof StorePutInput>;
export type StoreDeleteInput = z.infer<typeof StoreDeleteInput>;
export type StoreItem = z.infer<typeof StoreItem>;
export type StoreWriteResult = z.infer<typeof StoreWriteResult>;
export type StoreListInput = z.infer<typeof StoreListInput>;
export type StoreListResult = z.infer<typeof StoreListResult>;
export type StoreWorkflowInput = z.input<typeof StoreWorkflowInput>;
