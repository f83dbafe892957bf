/** Every tool implementation the worker runs, built over the demo's local state. Add yours here. */
import path from 'node:path';
import type { ToolImplementation } from '../implement-tool.js';
import { fileTools } from './file-tools.js';
import { memoryTools } from './memory-tools.js';
import { openShopDb } from './shop-db.js';
import { shopTools } from './shop-tools.js';

export interface DemoState {
  /** Holds `shop.db`, `outbox.jsonl` and the `workspace/` directory. */
  dataDir: string;
}

export interface ToolImplementations {
  byName: Readonly<Record<string, ToolImplementation>>;
  close(): void;
}

export function createToolImplementations({ dataDir }: DemoState): ToolImplementations {
  const db = openShopDb(path.join(dataDir, 'shop.db'));
  const all = [...shopTools(db), ...fileTools(db, path.join(dataDir, 'workspace'), path.join(dataDir, 'outbox.jsonl')), ...memoryTools()];
  return {
    byName: Object.fromEntries(all.map((impl) => [impl.spec.name, impl as unknown as ToolImplementation])),
    close: () => db.close(),
  };
}
