import { builtOnce } from '../../schemas/built-once.js';
import { defineAgentTool } from '../define-tool.js';

/** The coordinator hands research to the researcher agent, which runs as a child workflow under its own policy. */
export const askResearcher = builtOnce('tools/specs/ask-researcher.askResearcher', () =>
  defineAgentTool({
    name: 'ask_researcher',
    agent: 'researcher',
    description: 'Ask the researcher agent to look something up in the shop data and write notes; returns its answer.',
  }),
);
