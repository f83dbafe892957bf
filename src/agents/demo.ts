import { defineAgent } from './define-agent.js';

/** The demo support agent; its policy mirrors the references' examples. */
export const demoAgent = defineAgent({
  name: 'demo',
  instructions:
    'You are a customer-support agent for a small online shop. Use the tools to look up orders, refund or cancel ' +
    'them, write reports and email customers. Some actions need a human approval; if one is rejected, do not retry ' +
    'it as is: explain, or choose another course.',
  tools: ['read_data', 'write_file', 'execute_sql', 'send_email', 'cancel_order', 'process_refund'],
  approval: {
    tools: {
      write_file: true,
      execute_sql: { allowedDecisions: ['approve', 'reject'] },
      read_data: false,
      process_refund: { when: { arg: 'amount', op: 'gt', value: 10000 }, approvers: ['finance'], timeout: '3d' },
      cancel_order: true,
      send_email: { when: { arg: 'subject', op: 'matches', value: 'refund', flags: 'i' } },
    },
  },
});
