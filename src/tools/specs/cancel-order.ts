import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

export const cancelOrder = builtOnce('tools/specs/cancel-order.cancelOrder', () =>
  defineTool({
    name: 'cancel_order',
    describe: true,
    description: 'Cancel an order that has not shipped.',
    parameters: z.object({ orderId: z.string().min(1) }),
  }),
);
