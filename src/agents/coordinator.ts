import { defineAgent } from './define-agent.js';

/** Looks things up and writes notes; runs as a sub-agent of the coordinator, under its own policy. */
export const researcherAgent = defineAgent({
  name: 'researcher',
  instructions: 'You research questions about the shop using its data, and write notes when asked. Answer briefly.',
  tools: ['read_data', 'write_file'],
  approval: { tools: { write_file: true } },
});

/** Delegates research to the researcher agent (a child workflow) and acts on the answer. */
export const coordinatorAgent = defineAgent({
  name: 'coordinator',
  instructions: 'You coordinate customer support. Delegate research to ask_researcher; refunds need approval.',
  tools: ['ask_researcher', 'process_refund', 'send_email'],
  approval: { tools: { process_refund: true } },
});
