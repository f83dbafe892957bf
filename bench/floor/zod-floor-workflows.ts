/**
 * Attribution only: the floor's decision workflow plus the two zod schemas the agent workflow parses at run time
 * (its input and a decision). Comparing its memory per cached run with the plain floor's shows what zod costs
 * inside the workflow sandbox, where every run gets its own copy of the modules it imports.
 */
import { AgentWorkflowInput } from '../../src/schemas/agent-workflow-input.js';
import { DecideInput } from '../../src/schemas/decision.js';

export { floorDecisionWorkflow } from './workflows.js';

export const schemasInUse = [AgentWorkflowInput, DecideInput];
