import { z } from 'zod';
import { defineTool } from '../define-tool.js';

export const cancelOrder = defineTool({
  name: 'cancel_order',
  describe: true,
  description: 'Cancel an order that has not shipped.',
  parameters: z.object({ orderId: z.string().min(1) }),
});
