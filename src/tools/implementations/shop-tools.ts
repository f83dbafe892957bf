/** The demo tools that act on the shop database. */
import { ToolRefusedError } from '../../errors.js';
import { implementTool } from '../implement-tool.js';
import { cancelOrder } from '../specs/cancel-order.js';
import { executeSql } from '../specs/execute-sql.js';
import { processRefund } from '../specs/process-refund.js';
import { readData } from '../specs/read-data.js';
import { runGuardedSql } from './bounded-sql.js';
import { onceByKey, type ShopDb } from './shop-db.js';

interface OrderRow {
  id: string;
  customer: string;
  amount: number;
  refunded: number;
  status: string;
}

function findOrder(db: ShopDb, orderId: string): OrderRow {
  const order = db.prepare('SELECT id, customer, amount, refunded, status FROM orders WHERE id = ?').get(orderId) as OrderRow | undefined;
  if (!order) throw new ToolRefusedError(`Order ${orderId} does not exist.`);
  return order;
}

export interface ShopToolsOptions {
  /** How long one `execute_sql` statement may run. @default STATEMENT_BUDGET_MS (bounded-sql.ts) */
  statementBudgetMs?: number;
}

export function shopTools(db: ShopDb, options: ShopToolsOptions = {}) {
  return [
    // In the worker's own thread, unlike execute_sql: the statement is ours, not the model's, and costs at most one
    // scan of one table (about 50 ns a row; 3 million rows took 0.15 s).
    implementTool(readData, ({ table, where }) => {
      const filters = Object.entries(where ?? {});
      const columns = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
      const unknown = filters.find(([column]) => !columns.has(column));
      if (unknown) throw new ToolRefusedError(`Table ${table} has no column ${unknown[0]}; columns: ${[...columns].join(', ')}.`);
      const clause = filters.length ? ` WHERE ${filters.map(([c]) => `${c} = ?`).join(' AND ')}` : '';
      return db.prepare(`SELECT * FROM ${table}${clause} LIMIT 100`).all(...filters.map(([, v]) => v));
    }),

    // The guards are SQLite's own (see guarded-sql.ts); the statement runs in a SQL process, under a time budget,
    // against the shop file `db` has open (bounded-sql.ts).
    implementTool(executeSql, ({ query }, ctx) =>
      runGuardedSql(db, query, ctx.idempotencyKey, { budgetMs: options.statementBudgetMs, signal: ctx.signal }),
    ),

    implementTool(
      cancelOrder,
      ({ orderId }, ctx) =>
        onceByKey(db, ctx.idempotencyKey, 'cancel_order', () => {
          const order = findOrder(db, orderId);
          if (order.status === 'shipped') throw new ToolRefusedError(`Order ${orderId} has shipped and cannot be canceled.`);
          db.prepare("UPDATE orders SET status = 'canceled' WHERE id = ?").run(orderId);
          return { orderId, status: 'canceled' };
        }),
      ({ orderId }) => {
        const order = describeOrder(db, orderId);
        return order ? `Cancel order ${orderId} of ${order}.` : `Cancel order ${JSON.stringify(orderId)}, which does not exist.`;
      },
    ),

    implementTool(
      processRefund,
      ({ orderId, amount }, ctx) =>
        onceByKey(db, ctx.idempotencyKey, 'process_refund', () => {
          const order = findOrder(db, orderId);
          const refundable = order.amount - order.refunded;
          if (amount > refundable) throw new ToolRefusedError(`Order ${orderId} has only ${refundable} left to refund.`);
          db.prepare('INSERT INTO refunds (order_id, amount, idempotency_key) VALUES (?, ?, ?)').run(orderId, amount, ctx.idempotencyKey);
          // Refunded once nothing is left to refund; a part leaves it partly refunded (any refund still changes the
          // world a pending refund of the order was approved on: what is left).
          const status = amount === refundable ? 'refunded' : 'partly_refunded';
          db.prepare('UPDATE orders SET refunded = refunded + ?, status = ? WHERE id = ?').run(amount, status, orderId);
          return { orderId, refunded: amount, remaining: refundable - amount };
        }),
      ({ orderId, amount }) => {
        const order = describeOrder(db, orderId);
        // Quoted: an id the model made up could otherwise read as a real order's description ("1234 of Ada …").
        if (!order) return `Refund ${amount} on order ${JSON.stringify(orderId)}, which does not exist.`;
        const { amount: paid, refunded } = findOrder(db, orderId);
        return `Refund ${amount} of the ${paid - refunded} still refundable on order ${orderId} of ${order}.`;
      },
      // What an approval of a refund rests on: the order is still there, in the same state, with as much left.
      ({ orderId }) => {
        const order = db.prepare('SELECT amount, refunded, status FROM orders WHERE id = ?').get(orderId) as
          Pick<OrderRow, 'amount' | 'refunded' | 'status'> | undefined;
        return order ? { orderId, status: order.status, refundable: order.amount - order.refunded } : { orderId, exists: false };
      },
    ),
  ];
}

/** "Ada Lovelace (paid 75000, status open)", or undefined for an unknown order. */
function describeOrder(db: ShopDb, orderId: string): string | undefined {
  const order = db.prepare('SELECT customer, amount, status FROM orders WHERE id = ?').get(orderId) as
    Pick<OrderRow, 'customer' | 'amount' | 'status'> | undefined;
  return order && `${order.customer} (paid ${order.amount}, status ${order.status})`;
}
