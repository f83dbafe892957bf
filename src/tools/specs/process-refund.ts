import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

export const processRefund = builtOnce('tools/specs/process-refund.processRefund', () =>
  defineTool({
    name: 'process_refund',
    describe: true,
    precheck: true,
    description: 'Refund part or all of an order, in dollars.',
    parameters: z.object({
      orderId: z.string().min(1),
      amount: z.number().positive().describe('Amount to refund in dollars'),
    }),
  }),
);
