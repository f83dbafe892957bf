/**
 * One namespace of the store across runs: an entity workflow that holds keys to JSON values. Writes are updates,
 * checked by their validator before they are accepted (a refused write leaves no trace in history) and applied one
 * at a time, so they are durable once answered and ordered by their version. Reads are queries. It continues as
 * new, carrying its items, before its history grows long, once every write in progress is answered; writes that
 * arrive meanwhile are retried by Temporal on the new run.
 */
import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { truncateBytes, utf8Length } from '../bounds/truncate.js';
import { FAILURE_MESSAGE_BYTES } from '../errors.js';
import {
  STORE_REFUSED,
  storeDeleteUpdate,
  storeGetQuery,
  storeListQuery,
  storePutUpdate,
  type StoreRefusalCode,
} from '../contract/store.js';
import {
  STORE_LIMITS,
  StoreDeleteInput,
  StoreListInput,
  StorePutInput,
  StoreWorkflowInput,
  type StoreItem,
  type StoreListResult,
  type StoreWriteResult,
} from '../schemas/store.js';
import { workflowNow } from './workflow-clock.js';

const DEFAULT_MAX_EVENTS = 4000;

export async function storeWorkflow(raw: StoreWorkflowInput): Promise<void> {
  const parsed = StoreWorkflowInput.safeParse(raw);
  if (!parsed.success)
    throw ApplicationFailure.nonRetryable(`Invalid storeWorkflow input: ${z.prettifyError(parsed.error)}`, 'InvalidStoreInput');
  const store = new Namespace(parsed.data.items, parsed.data.seq);

  setHandler(storePutUpdate, (input) => store.put(StorePutInput.parse(input)), { validator: (input) => store.check(StorePutInput, input) });
  setHandler(storeDeleteUpdate, (input) => store.delete(StoreDeleteInput.parse(input)), {
    validator: (input) => store.check(StoreDeleteInput, input),
  });
  setHandler(storeGetQuery, (input) => store.get(typeof input?.key === 'string' ? input.key : ''));
  setHandler(storeListQuery, (input) => store.list(StoreListInput.parse(input ?? {})));

  const maxEvents = parsed.data.maxEvents ?? DEFAULT_MAX_EVENTS;
  await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= maxEvents);
  await condition(allHandlersFinished);
  await continueAsNew<typeof storeWorkflow>({ ...parsed.data, items: store.items(), seq: store.seq });
}

class Namespace {
  readonly #items: Map<string, StoreItem>;
  #seq: number;
  #bytes = 0;

  constructor(items: StoreItem[], seq: number) {
    this.#items = new Map(items.map((item) => [item.key, item]));
    this.#seq = seq;
    for (const item of items) this.#bytes += sizeOf(item.key, item.value);
  }

  get seq(): number {
    return this.#seq;
  }

  items(): StoreItem[] {
    return [...this.#items.values()];
  }

  /** The validator: throws a typed refusal, so the write is rejected before it is accepted. */
  check(schema: typeof StorePutInput | typeof StoreDeleteInput, raw: unknown): void {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw refusal('malformed', z.prettifyError(parsed.error));
    const input = parsed.data;
    const current = this.#items.get(input.key);
    if (input.ifVersion !== undefined && input.ifVersion !== (current?.version ?? 0)) {
      throw refusal(
        'version_conflict',
        `${input.key} is at version ${current?.version ?? 0}, not ${input.ifVersion}; read it again and retry.`,
      );
    }
    if (!('value' in input)) return;
    const bytes = this.#bytes - (current ? sizeOf(current.key, current.value) : 0) + sizeOf(input.key, input.value);
    if (bytes > STORE_LIMITS.namespaceBytes) {
      throw refusal(
        'store_full',
        `this namespace would hold ${bytes} bytes; the limit is ${STORE_LIMITS.namespaceBytes}. Delete keys, or use another namespace.`,
      );
    }
    if (!current && this.#items.size >= STORE_LIMITS.keys)
      throw refusal('store_full', `this namespace holds ${STORE_LIMITS.keys} keys, the limit.`);
  }

  put(input: StorePutInput): StoreWriteResult {
    const current = this.#items.get(input.key);
    const item: StoreItem = {
      key: input.key,
      value: input.value,
      version: ++this.#seq,
      updatedAt: new Date(workflowNow()).toISOString(),
      ...(input.writtenBy && { writtenBy: input.writtenBy }),
    };
    this.#bytes += sizeOf(item.key, item.value) - (current ? sizeOf(current.key, current.value) : 0);
    this.#items.set(input.key, item);
    return { version: item.version, existed: current !== undefined };
  }

  delete(input: StoreDeleteInput): StoreWriteResult {
    const current = this.#items.get(input.key);
    if (current) {
      this.#bytes -= sizeOf(current.key, current.value);
      this.#items.delete(input.key);
    }
    return { version: ++this.#seq, existed: current !== undefined };
  }

  get(key: string): StoreItem | null {
    return this.#items.get(key) ?? null;
  }

  list(input: StoreListInput): StoreListResult {
    const limit = input.limit ?? 100;
    const keys = [...this.#items.keys()]
      .filter((key) => (!input.prefix || key.startsWith(input.prefix)) && (input.after === undefined || key > input.after))
      .sort();
    const page = keys.slice(0, limit);
    return { items: page.map((key) => this.#items.get(key)!), ...(keys.length > limit && { next: page.at(-1)! }) };
  }
}

function sizeOf(key: string, value: unknown): number {
  return utf8Length(key) + utf8Length(JSON.stringify(value) ?? '');
}

function refusal(code: StoreRefusalCode, message: string): ApplicationFailure {
  const shown = truncateBytes(message, FAILURE_MESSAGE_BYTES); // a malformed write's zod message quotes its keys
  return ApplicationFailure.create({ type: STORE_REFUSED, message: shown, details: [{ code }], nonRetryable: true });
}
