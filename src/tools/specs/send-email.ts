import { z } from 'zod';
import { defineTool } from '../define-tool.js';

export const sendEmail = defineTool({
  name: 'send_email',
  description: 'Send an email to a customer.',
  parameters: z.object({
    to: z.email(),
    subject: z.string().min(1).max(200),
    body: z.string().min(1),
  }),
});
