import { z } from 'zod';
import { builtOnce } from '../../schemas/built-once.js';
import { defineTool } from '../define-tool.js';

export const sendEmail = builtOnce('tools/specs/send-email.sendEmail', () =>
  defineTool({
    name: 'send_email',
    description: 'Send an email to a customer.',
    parameters: z.object({
      to: z.email(),
      subject: z.string().min(1).max(200),
      body: z.string().min(1),
    }),
  }),
);
