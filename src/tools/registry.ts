/**
 * Every tool's pure half, by name. The workflow imports this to validate edits and keep invalid calls away from
 * approvers; the model activity derives the JSON Schemas it sends from it. Add your tools here.
 */
import type { ToolSpec } from './define-tool.js';
import { askResearcher } from './specs/ask-researcher.js';
import { cancelOrder } from './specs/cancel-order.js';
import { executeSql } from './specs/execute-sql.js';
import { processRefund } from './specs/process-refund.js';
import { readData } from './specs/read-data.js';
import { recall } from './specs/recall.js';
import { remember } from './specs/remember.js';
import { sendEmail } from './specs/send-email.js';
import { writeFile } from './specs/write-file.js';

export const toolSpecs: Readonly<Record<string, ToolSpec>> = Object.fromEntries(
  [readData, writeFile, executeSql, sendEmail, cancelOrder, processRefund, askResearcher, remember, recall].map((spec) => [
    spec.name,
    spec,
  ]),
);
