/** Workflow entry point for the worker bundle. */
export { agentWorkflow } from './agent-workflow.js';
